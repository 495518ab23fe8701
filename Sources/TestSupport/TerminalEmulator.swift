import NimbusTerminal

/// A small terminal for tests: plays the bytes a terminal receives (cursor addressing and moves
/// right, styles, scroll regions, line feeds and reverse index, insert and delete line, scrolling, wrapping at the right
/// edge) and keeps the screen a terminal would show, so a test can check that bytes draw a frame.
///
/// Its character widths are its own (`TerminalEmulator.width(of:)`: what tmux 3.3a on glibc 2.36
/// advances by), not `DisplayWidth`'s: where the two disagree (an emoji newer than the terminal's
/// tables, a variation selector the terminal ignores), only the disputed glyph may look different
/// (`differences(from:)` leaves its cells out), and every other cell must still be right, which
/// holds only if the bytes never lean on the terminal's idea of that glyph's width.
public final class TerminalEmulator {
    /// Colours and attributes as SGR sets them: colours are palette numbers, nil the default.
    public struct Pen: Equatable, Sendable, CustomStringConvertible {
        public var bold = false, dim = false, reverse = false, underline = false
        public var fg: Int?
        public var bg: Int?

        public init() {}

        /// The pen that draws `style`, with xterm-256color's palette numbers for the named colours.
        public init(_ style: Style) {
            bold = style.bold
            dim = style.dim
            reverse = style.reverse
            underline = style.underline
            fg = Self.number(style.fg)
            bg = Self.number(style.bg)
        }

        static func number(_ color: Color) -> Int? {
            switch color {
            case .default: return nil
            case .black: return 0
            case .red: return 1
            case .green: return 2
            case .yellow: return 3
            case .blue: return 4
            case .magenta: return 5
            case .cyan: return 6
            case .white: return 7
            case .index(let n): return Int(n)
            }
        }

        public var description: String {
            var parts: [String] = []
            if bold { parts.append("bold") }
            if dim { parts.append("dim") }
            if reverse { parts.append("reverse") }
            if underline { parts.append("underline") }
            if let fg { parts.append("fg \(fg)") }
            if let bg { parts.append("bg \(bg)") }
            return parts.isEmpty ? "plain" : parts.joined(separator: " ")
        }
    }

    /// One cell: its text (a base character and what the terminal joined to it), 1 or 2 columns,
    /// 0 for the right half of a wide character.
    public struct Cell: Equatable, Sendable {
        public var text: String
        public var width: Int
        public var pen: Pen

        public static let blank = Cell(text: " ", width: 1, pen: Pen())

        /// The cell as a person sees it: a space shows only its background, unless reversed or
        /// underlined (which show its colour), so the colour, boldness and dimness of a plain space
        /// are not seen (an erase, which leaves them out, makes the same cell).
        public var shown: Cell {
            guard text == " ", width == 1, !pen.reverse, !pen.underline else { return self }
            var p = Pen()
            p.bg = pen.bg
            return Cell(text: " ", width: 1, pen: p)
        }
    }

    public let size: Size
    public private(set) var cells: [[Cell]]
    /// The cursor's column and row.
    public private(set) var x = 0
    public private(set) var y = 0
    public private(set) var cursorVisible = true
    /// Sequences it did not understand, and other things a test should see (empty when all is well).
    public private(set) var problems: [String] = []
    /// Bytes played so far.
    public private(set) var bytesPlayed = 0

    private var pen = Pen()
    private var top = 0
    private var bottom: Int
    /// After a character in the last column: the next one goes to the next line first (`xenl`).
    private var wrapPending = false
    /// Where the last character went, for the marks joined to it.
    private var lastCell: (x: Int, y: Int)?
    private var joinNext = false
    /// An escape sequence cut off by the end of a write, finished by the next.
    private var pending: [UInt8] = []

    /// Scalars this terminal draws two columns wide although tmux draws them one: East Asian
    /// "ambiguous" ones, for a terminal set to show those wide (VTE's, iTerm2's and Windows
    /// Terminal's setting for CJK users). Empty: tmux's widths alone.
    public let wideAmbiguous: [ClosedRange<UInt32>]

    /// True: erasing fills with the background SGR last set (`bce`, as xterm); false: with the
    /// default one, as a terminal without `bce` may.
    public let backColorErase: Bool

    public init(size: Size, wideAmbiguous: [ClosedRange<UInt32>] = [], backColorErase: Bool = true) {
        self.size = size
        self.wideAmbiguous = wideAmbiguous
        self.backColorErase = backColorErase
        bottom = size.rows - 1
        cells = Array(repeating: Array(repeating: .blank, count: size.cols), count: size.rows)
    }

    // MARK: Widths

    /// Columns the terminal advances for `scalar`: 0 for marks it joins to the character before
    /// (combining marks, variation selectors, joiners) and for the emoji its tables do not know,
    /// which it drops; 2 for East Asian wide characters and the emoji Unicode 14 shows as pictures;
    /// 1 for the rest. Measured in tmux 3.3a on glibc 2.36 (cursor position after printing each).
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return v < 0x20 || (0x7F..<0xA0).contains(v) ? 0 : 1 }
        if joined.contains(where: { $0.contains(v) }) { return 0 }
        if unknown(v) { return 0 }
        if wide.contains(where: { $0.contains(v) }) { return 2 }
        return 1
    }

    /// True for a scalar the terminal drops: an emoji that came after its tables (Unicode 15 and later).
    static func unknown(_ v: UInt32) -> Bool {
        if (0x1FA70...0x1FAFF).contains(v) { return !emoji14Symbols.contains { $0.contains(v) } }
        return v == 0x1F6DC || (0x1F7F1...0x1F7FF).contains(v)
    }

    /// Marks that join the character before them: combining marks, joiners, variation selectors,
    /// Hangul medial and final jamo.
    static let joined: [ClosedRange<UInt32>] = [
        0x300...0x36F, 0x483...0x489, 0x591...0x5BD, 0x610...0x61A, 0x64B...0x65F, 0x1160...0x11FF,
        0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200B...0x200F, 0x2060...0x2064, 0x20D0...0x20FF,
        0x302A...0x302D, 0x3099...0x309A, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xE0100...0xE01EF,
    ]

    /// Symbols and Pictographs Extended-A as far as Unicode 14 had filled it.
    static let emoji14Symbols: [ClosedRange<UInt32>] = [
        0x1FA70...0x1FA74, 0x1FA78...0x1FA7C, 0x1FA80...0x1FA86, 0x1FA90...0x1FAAC, 0x1FAB0...0x1FABA,
        0x1FAC0...0x1FAC5, 0x1FAD0...0x1FAD9, 0x1FAE0...0x1FAE7, 0x1FAF0...0x1FAF6,
    ]

    /// Two columns: East Asian Wide and Fullwidth blocks, and the emoji shown as pictures by
    /// default (Emoji_Presentation) as of Unicode 14.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x3029, 0x302E...0x303E, 0x3041...0x3096, 0x309B...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F202,
        0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DD...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// Columns this terminal advances for `scalar`: tmux's, or two for one of `wideAmbiguous` tmux draws narrow.
    public func width(of scalar: Unicode.Scalar) -> Int {
        let w = Self.width(of: scalar)
        return w == 1 && wideAmbiguous.contains(where: { $0.contains(scalar.value) }) ? 2 : w
    }

    /// The cells tmux makes of `grapheme`: one width per cell.
    public static func layout(of grapheme: String) -> [Int] {
        layout(of: grapheme, width: width(of:))
    }

    /// The cells this terminal makes of `grapheme`.
    public func layout(of grapheme: String) -> [Int] {
        Self.layout(of: grapheme, width: width(of:))
    }

    static func layout(of grapheme: String, width: (Unicode.Scalar) -> Int) -> [Int] {
        var widths: [Int] = []
        var join = false
        for scalar in grapheme.unicodeScalars {
            let w = width(scalar)
            if scalar.value == 0x200D { join = true; continue }
            if w == 0 || (join && !widths.isEmpty) { join = false; continue }
            widths.append(w)
        }
        return widths
    }

    // MARK: Playing bytes

    public func play(_ bytes: [UInt8]) {
        bytesPlayed += bytes.count
        let input = pending + bytes
        pending = []
        var i = 0
        while i < input.count {
            let b = input[i]
            if b == 0x1B {
                guard let end = escapeEnd(input, from: i) else {
                    pending = Array(input[i...])
                    return
                }
                escape(Array(input[i..<end]))
                i = end
            } else if b < 0x20 || b == 0x7F {
                control(b)
                i += 1
            } else {
                let length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
                guard i + length <= input.count else { pending = Array(input[i...]); return }
                let text = String(decoding: input[i..<(i + length)], as: UTF8.self)
                for scalar in text.unicodeScalars { print(scalar) }
                i += length
            }
        }
    }

    /// One past the end of the escape sequence at `start`, nil when the bytes stop inside it.
    private func escapeEnd(_ input: [UInt8], from start: Int) -> Int? {
        guard start + 1 < input.count else { return nil }
        switch input[start + 1] {
        case 0x5B: // CSI: parameters and intermediates, then a final byte
            var j = start + 2
            while j < input.count {
                if (0x40...0x7E).contains(input[j]) { return j + 1 }
                j += 1
            }
            return nil
        case 0x28, 0x29: // designate a character set: one more byte
            return start + 3 <= input.count ? start + 3 : nil
        default:
            return start + 2
        }
    }

    private func control(_ b: UInt8) {
        switch b {
        case 0x0A: lineFeed()
        case 0x0D: x = 0; wrapPending = false
        case 0x08: x = max(0, x - 1); wrapPending = false
        default: problems.append("control byte 0x\(String(b, radix: 16))")
        }
    }

    private func escape(_ seq: [UInt8]) {
        switch seq[1] {
        case 0x4D: reverseIndex()                  // ESC M
        case 0x28, 0x29: break                     // ESC ( B: the usual character set
        case 0x5B: csi(Array(seq[2..<(seq.count - 1)]), final: seq[seq.count - 1])
        default: problems.append("escape \(String(decoding: seq.dropFirst(), as: UTF8.self))")
        }
    }

    private func csi(_ body: [UInt8], final: UInt8) {
        let isPrivate = body.first == 0x3F
        let text = String(decoding: isPrivate ? Array(body.dropFirst()) : body, as: UTF8.self)
        let params = text.isEmpty ? [] : text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func param(_ i: Int, _ otherwise: Int) -> Int {
            guard i < params.count, let p = params[i], p > 0 else { return otherwise }
            return p
        }
        if isPrivate {
            switch final {
            case 0x68, 0x6C: // h, l
                if params.contains(where: { $0 == 25 }) { cursorVisible = final == 0x68 }
            default: problems.append("CSI ? \(text)\(Character(Unicode.Scalar(final)))")
            }
            return
        }
        switch final {
        case 0x48: // H: cursor position
            y = min(size.rows - 1, param(0, 1) - 1)
            x = min(size.cols - 1, param(1, 1) - 1)
            wrapPending = false
        case 0x43: // C: cursor forward, stopping at the last column
            x = min(size.cols - 1, x + param(0, 1))
            wrapPending = false
        case 0x4A: // J
            if param(0, 0) == 2 { for row in 0..<size.rows { blank(row) } } else { problems.append("CSI \(text)J") }
        case 0x72: // r: scroll region (and the cursor home)
            let t = param(0, 1) - 1, b = param(1, size.rows) - 1
            if t < b, b < size.rows { top = t; bottom = b } else { problems.append("bad scroll region \(text)") }
            x = 0; y = 0; wrapPending = false
        case 0x4C, 0x4D: // L, M: insert or delete lines at the cursor's row, inside the region
            wrapPending = false
            guard y >= top, y <= bottom else { return }
            scroll(from: y, to: bottom, by: final == 0x4C ? param(0, 1) : -param(0, 1))
            x = 0
        case 0x58: // X: erase characters from the cursor (it stays), in the current background
            let n = min(param(0, 1), size.cols - x)
            clearWide(at: x)
            clearWide(at: x + n - 1)
            for col in x..<(x + n) { cells[y][col] = erased }
            wrapPending = false
                case 0x53: scroll(from: top, to: bottom, by: -param(0, 1)) // S: region up
        case 0x54: scroll(from: top, to: bottom, by: param(0, 1))  // T: region down
        case 0x6D: sgr(params)
        default: problems.append("CSI \(text)\(Character(Unicode.Scalar(final)))")
        }
    }

    private func sgr(_ params: [Int?]) {
        var list = params.map { $0 ?? 0 }[...]
        if list.isEmpty { list = [0] }
        while let p = list.popFirst() {
            switch p {
            case 0: pen = Pen()
            case 1: pen.bold = true
            case 2: pen.dim = true
            case 4: pen.underline = true
            case 7: pen.reverse = true
            case 30...37: pen.fg = p - 30
            case 39: pen.fg = nil
            case 40...47: pen.bg = p - 40
            case 49: pen.bg = nil
            case 90...97: pen.fg = p - 90 + 8
            case 100...107: pen.bg = p - 100 + 8
            case 38, 48:
                guard list.popFirst() == 5, let n = list.popFirst() else { problems.append("SGR \(p) without 5;n"); return }
                if p == 38 { pen.fg = n } else { pen.bg = n }
            default: problems.append("SGR \(p)")
            }
        }
    }

    // MARK: The screen

    /// A blank as the terminal makes one now: in the current background (`bce`), or the default one.
    private var erased: Cell {
        var p = Pen()
        if backColorErase { p.bg = pen.bg }
        return Cell(text: " ", width: 1, pen: p)
    }

    private func blank(_ row: Int) {
        cells[row] = Array(repeating: erased, count: size.cols)
    }

    /// Rows `from...to` moved `by` rows (down when positive), the rows moved in blank.
    private func scroll(from: Int, to: Int, by: Int) {
        guard from <= to, by != 0 else { return }
        let k = min(abs(by), to - from + 1)
        if by < 0 {
            for row in from...to { if row + k <= to { cells[row] = cells[row + k] } else { blank(row) } }
        } else {
            for row in (from...to).reversed() { if row - k >= from { cells[row] = cells[row - k] } else { blank(row) } }
        }
        lastCell = nil
    }

    private func lineFeed() {
        wrapPending = false
        if y == bottom { scroll(from: top, to: bottom, by: -1) } else if y < size.rows - 1 { y += 1 }
    }

    private func reverseIndex() {
        wrapPending = false
        if y == top { scroll(from: top, to: bottom, by: 1) } else if y > 0 { y -= 1 }
    }

    private func print(_ scalar: Unicode.Scalar) {
        let w = width(of: scalar)
        if Self.unknown(scalar.value) { return } // an emoji its tables do not know: dropped
        if w == 0 || joinNext {
            // Joined to the character before it (and after a joiner, the next one too).
            if let last = lastCell { cells[last.y][last.x].text.unicodeScalars.append(scalar) }
            joinNext = scalar.value == 0x200D
            return
        }
        if wrapPending || x + w > size.cols {
            x = 0
            lineFeed()
        }
        clearWide(at: x)
        if w == 2 { clearWide(at: x + 1) }
        cells[y][x] = Cell(text: String(Character(scalar)), width: w, pen: pen)
        if w == 2 { cells[y][x + 1] = Cell(text: "", width: 0, pen: pen) }
        lastCell = (x, y)
        if x + w >= size.cols {
            x = size.cols - 1
            wrapPending = true
        } else {
            x += w
        }
    }

    /// Blanks both halves of a wide character that covers column `col` of the cursor's row.
    private func clearWide(at col: Int) {
        guard col < size.cols else { return }
        let cell = cells[y][col]
        if cell.width == 0, col > 0 {
            cells[y][col - 1] = .blank
            cells[y][col] = .blank
        } else if cell.width == 2, col + 1 < size.cols {
            cells[y][col] = .blank
            cells[y][col + 1] = .blank
        }
    }

    // MARK: Checking

    /// Where the screen differs from `frame`, one line each (empty when it shows the frame). The
    /// cells of a glyph the terminal lays out otherwise than the frame measured it (`layout(of:)`)
    /// are left out: what a terminal shows there is its own business; every other cell must match
    /// as it is seen (`Cell.shown`).
    public func differences(from frame: ScreenBuffer, limit: Int = 8) -> [String] {
        var out: [String] = []
        func differ(_ row: Int, _ col: Int, _ have: Cell, _ want: String) {
            if out.count < limit { out.append("row \(row) col \(col): shows \(describe(have)), frame has \(want)") }
        }
        let cols = min(size.cols, frame.size.cols)
        for row in 0..<min(size.rows, frame.size.rows) {
            var col = 0
            while col < cols {
                let want = frame[col, row]
                let w = Int(want.width)
                guard w > 0 else { col += 1; continue }
                let layout = self.layout(of: want.text)
                guard layout == [w] else {
                    col += max(w, layout.reduce(0, +)) // disputed: the terminal's business
                    continue
                }
                let expected = Cell(text: want.text, width: w, pen: Pen(want.style))
                if cells[row][col].shown != expected.shown { differ(row, col, cells[row][col], describe(expected)) }
                if w == 2, col + 1 < cols, cells[row][col + 1].width != 0 {
                    differ(row, col + 1, cells[row][col + 1], "the right half of \(describe(expected))")
                }
                col += w
            }
        }
        return out
    }

    private func describe(_ cell: Cell) -> String {
        let text = cell.width == 0 ? "(right half)" : "\"\(cell.text.unicodeScalars.map { $0.value < 0x7F ? String($0) : "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " "))\""
        return "\(text) w\(cell.width) \(cell.pen)"
    }

    /// The rows as text, for failure messages.
    public var text: String {
        cells.map { $0.map(\.text).joined() }.joined(separator: "\n")
    }
}
