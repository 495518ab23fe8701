/// Turns a frame's changed cells into the bytes that draw them on a terminal: a cursor move where
/// a run of changed cells starts, the style's sequence where the style changes, then the glyphs
/// as UTF-8. `Renderer` has already diffed the frame, so this is the only pass over the cells.
///
/// The escape sequences come from the terminal's terminfo entry (`NCursesBackend`), so nothing
/// here assumes a particular terminal.
public struct FrameEncoder {
    /// The terminal's own sequences.
    public struct Sequences {
        /// Cursor to column `x`, row `y` (terminfo `cup`).
        public var moveTo: (_ x: Int, _ y: Int) -> [UInt8]
        /// Everything `style` needs, starting from plain (reset, attributes, colours).
        public var style: (Style) -> [UInt8]
        /// Back to plain (`sgr0`).
        public var reset: [UInt8]
        /// Blank the screen (`clear`).
        public var clear: [UInt8]
        public var showCursor: [UInt8]
        public var hideCursor: [UInt8]
        /// True when writing the bottom-right cell would scroll the screen (`am` without `xenl`).
        public var lastCellScrolls: Bool

        public init(moveTo: @escaping (Int, Int) -> [UInt8], style: @escaping (Style) -> [UInt8], reset: [UInt8],
                    clear: [UInt8], showCursor: [UInt8], hideCursor: [UInt8], lastCellScrolls: Bool) {
            self.moveTo = moveTo
            self.style = style
            self.reset = reset
            self.clear = clear
            self.showCursor = showCursor
            self.hideCursor = hideCursor
            self.lastCellScrolls = lastCellScrolls
        }
    }

    private let sequences: Sequences
    private var styleBytes: [Style: [UInt8]] = [:]
    /// Cursor moves already asked of `sequences`, by position (the same few dozen every frame).
    private var moves: [Int: [UInt8]] = [:]
    private var bytes: [UInt8] = []
    /// Where the terminal's cursor is, when known for certain.
    private var position: (x: Int, y: Int)?
    /// The style the terminal is in, when known.
    private var style: Style?
    private var cursorShown: Bool?

    public init(sequences: Sequences) {
        self.sequences = sequences
        bytes.reserveCapacity(8192)
    }

    /// Blanks the screen; what was known about the terminal's state is dropped.
    public mutating func clear() {
        bytes += sequences.reset
        bytes += sequences.clear
        style = nil
        position = nil
    }

    /// Something else wrote to the terminal (it was suspended, or curses redrew it).
    public mutating func forget() {
        style = nil
        position = nil
        cursorShown = nil
    }

    /// Adds the bytes for `changes`, which come in row order as `Renderer` sends them.
    public mutating func draw(_ changes: [CellChange], size: Size) {
        for change in changes where change.cell.width > 0 {
            if sequences.lastCellScrolls, change.y == size.rows - 1, change.x + Int(change.cell.width) >= size.cols {
                continue
            }
            if position.map({ $0.x != change.x || $0.y != change.y }) ?? true {
                move(to: change.x, change.y)
            }
            let cell = change.cell
            if style != cell.style {
                if let known = styleBytes[cell.style] {
                    bytes += known
                } else {
                    let made = sequences.style(cell.style)
                    styleBytes[cell.style] = made
                    bytes += made
                }
                style = cell.style
            }
            let next = change.x + Int(cell.width)
            if let scalar = cell.glyph.scalar {
                if scalar.value < 0x80 {
                    bytes.append(UInt8(scalar.value))
                } else {
                    UTF8.encode(scalar) { bytes.append($0) }
                }
                // Past the last column the terminal waits to wrap; where it then is depends on it.
                position = next < size.cols && Self.widthIsCertain(scalar.value) ? (next, change.y) : nil
            } else {
                bytes += cell.text.utf8
                position = nil // a sequence of scalars: the terminal may not agree on its width
            }
        }
    }

    /// Ends the frame: the hardware cursor at `cursor` (shown) or hidden, the style back to plain.
    /// Returns the frame's bytes and starts a new one.
    public mutating func finish(cursor: Point?, size: Size) -> [UInt8] {
        var out: [UInt8] = []
        finish(cursor: cursor, size: size) { out = Array($0) }
        return out
    }

    /// `finish`, handing the frame's bytes to `write` without copying them; the buffer is then
    /// reused for the next frame.
    public mutating func finish(cursor: Point?, size: Size, write: (UnsafeBufferPointer<UInt8>) -> Void) {
        if style != nil && style != .plain {
            bytes += sequences.reset
            style = .plain
        }
        if let p = cursor, p.x >= 0, p.y >= 0, p.x < size.cols, p.y < size.rows {
            if position.map({ $0.x != p.x || $0.y != p.y }) ?? true {
                move(to: p.x, p.y)
                position = (p.x, p.y)
            }
            if cursorShown != true { bytes += sequences.showCursor; cursorShown = true }
        } else if cursorShown != false {
            bytes += sequences.hideCursor
            cursorShown = false
        }
        bytes.withUnsafeBufferPointer(write)
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func move(to x: Int, _ y: Int) {
        let key = y << 16 | x
        if let known = moves[key] {
            bytes += known
        } else {
            if moves.count > 4096 { moves.removeAll() }
            let made = sequences.moveTo(x, y)
            moves[key] = made
            bytes += made
        }
    }

    /// Scalars whose width terminals agree with `DisplayWidth` on: below U+0300, the East Asian
    /// Wide ranges (Hangul, kana, CJK, fullwidth) and braille (maps). After anything else the next
    /// cell is reached with an explicit cursor move. (East Asian "ambiguous" ones below U+0300,
    /// such as ° and é, are taken as narrow, as `wcwidth` and curses take them too.)
    static func widthIsCertain(_ v: UInt32) -> Bool {
        v < 0x300 || (0x2800...0x28FF).contains(v) || DisplayWidth.isWide(v)
    }
}

extension FrameEncoder.Sequences {
    /// The sequences of terminfo's `xterm-256color` entry, which every terminal emulator and player
    /// in use understands: what the tapes' recordings (`nimbus tape --cast`) are written with, where
    /// there is no terminal to ask. A test checks them against `tput -T xterm-256color`.
    public static var xterm256Color: FrameEncoder.Sequences { FrameEncoder.Sequences(
        moveTo: { x, y in Array("\u{1B}[\(y + 1);\(x + 1)H".utf8) },
        style: { style in
            var out = Array("\u{1B}(B\u{1B}[m".utf8)
            if style.bold { out += Array("\u{1B}[1m".utf8) }
            if style.dim { out += Array("\u{1B}[2m".utf8) }
            if style.reverse { out += Array("\u{1B}[7m".utf8) }
            if style.underline { out += Array("\u{1B}[4m".utf8) }
            if let n = xtermColorNumber(style.fg) { out += Array(setColor(n, base: 3, bright: 9, extended: 38).utf8) }
            if let n = xtermColorNumber(style.bg) { out += Array(setColor(n, base: 4, bright: 10, extended: 48).utf8) }
            return out
        },
        reset: Array("\u{1B}(B\u{1B}[m".utf8), clear: Array("\u{1B}[H\u{1B}[2J".utf8),
        showCursor: Array("\u{1B}[?12l\u{1B}[?25h".utf8), hideCursor: Array("\u{1B}[?25l".utf8),
        lastCellScrolls: false) }

    /// `setaf`/`setab` of xterm-256color: `ESC[3Nm` below 8, `ESC[9(N-8)m` below 16, else `ESC[38;5;Nm`.
    private static func setColor(_ n: Int, base: Int, bright: Int, extended: Int) -> String {
        if n < 8 { return "\u{1B}[\(base)\(n)m" }
        if n < 16 { return "\u{1B}[\(bright)\(n - 8)m" }
        return "\u{1B}[\(extended);5;\(n)m"
    }

    /// The palette entry of a colour on a 256-colour terminal; nil for the default.
    static func xtermColorNumber(_ c: Color) -> Int? {
        switch c {
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
}
