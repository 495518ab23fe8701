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
        /// The ways this terminal moves the lines it shows; none when it has none.
        public var lineMoves: LineMoveSequences
        /// Cursor `n` columns right on its row (terminfo `cuf`), used where shorter than `moveTo`;
        /// nil when the terminal has none.
        public var moveRight: ((_ n: Int) -> [UInt8])?
        /// `n` cells from the cursor blanked, the cursor left where it is (terminfo `ech`), used for
        /// a run of blanks where shorter than writing them, as curses does; nil when the terminal has none.
        public var eraseCharacters: ((_ n: Int) -> [UInt8])?
        /// True when erasing fills the cells with the background colour the terminal is in (terminfo
        /// `bce`, on a terminal that shows colours): blanks on a coloured background, such as the
        /// rest of a highlighted row, can be erased too. Otherwise only blanks in the default colours are.
        public var backColorErase: Bool

        public init(moveTo: @escaping (Int, Int) -> [UInt8], style: @escaping (Style) -> [UInt8], reset: [UInt8],
                    clear: [UInt8], showCursor: [UInt8], hideCursor: [UInt8], lastCellScrolls: Bool,
                    lineMoves: LineMoveSequences = LineMoveSequences(), moveRight: ((Int) -> [UInt8])? = nil,
                    eraseCharacters: ((Int) -> [UInt8])? = nil, backColorErase: Bool = false) {
            self.moveTo = moveTo
            self.style = style
            self.reset = reset
            self.clear = clear
            self.showCursor = showCursor
            self.hideCursor = hideCursor
            self.lastCellScrolls = lastCellScrolls
            self.lineMoves = lineMoves
            self.moveRight = moveRight
            self.eraseCharacters = eraseCharacters
            self.backColorErase = backColorErase
        }
    }

    /// A terminal's sequences for moving the lines it shows, from its terminfo entry; each is nil
    /// when the terminal lacks the capability.
    public struct LineMoveSequences {
        /// Scroll region from row `top` to row `bottom` (`csr`); the cursor goes somewhere unknown.
        public var setScrollRegion: ((_ top: Int, _ bottom: Int) -> [UInt8])?
        /// The region up one line, the cursor on its bottom row (`ind`).
        public var scrollForward: [UInt8]?
        /// The region down one line, the cursor on its top row (`ri`).
        public var scrollReverse: [UInt8]?
        /// The region up or down `n` lines, the cursor inside it (`indn`, `rin`).
        public var scrollForwardLines: ((_ n: Int) -> [UInt8])?
        public var scrollReverseLines: ((_ n: Int) -> [UInt8])?
        /// `n` blank lines in at the cursor's row, those below pushed down (`il`, or `il1` repeated).
        public var insertLines: ((_ n: Int) -> [UInt8])?
        /// `n` lines out at the cursor's row, those below pulled up (`dl`, or `dl1` repeated).
        public var deleteLines: ((_ n: Int) -> [UInt8])?

        public init(setScrollRegion: ((Int, Int) -> [UInt8])? = nil, scrollForward: [UInt8]? = nil,
                    scrollReverse: [UInt8]? = nil, scrollForwardLines: ((Int) -> [UInt8])? = nil,
                    scrollReverseLines: ((Int) -> [UInt8])? = nil, insertLines: ((Int) -> [UInt8])? = nil,
                    deleteLines: ((Int) -> [UInt8])? = nil) {
            self.setScrollRegion = setScrollRegion
            self.scrollForward = scrollForward
            self.scrollReverse = scrollReverse
            self.scrollForwardLines = scrollForwardLines
            self.scrollReverseLines = scrollReverseLines
            self.insertLines = insertLines
            self.deleteLines = deleteLines
        }

        /// True when no line move can be made.
        public var isEmpty: Bool {
            !(setScrollRegion != nil && (scrollForward != nil || scrollForwardLines != nil)
              && (scrollReverse != nil || scrollReverseLines != nil))
                && !(insertLines != nil && deleteLines != nil)
        }
    }

    private let sequences: Sequences
    /// What this terminal's sequences cost, for `LineMoves`; nil when it cannot move lines.
    public let costs: Costs?
    private var styleBytes = SlotCache<[UInt8]>()
    /// Cursor moves already asked of `sequences`, by position (the same few dozen every frame), and
    /// moves right by distance.
    private var moves = SlotCache<[UInt8]>(slotBits: 12)
    private var rights = SlotCache<[UInt8]>()
    private var erases = SlotCache<[UInt8]>()
    private var bytes: [UInt8] = []
    /// Where the terminal's cursor is, when known for certain.
    private var position: (x: Int, y: Int)?
    /// The style the terminal is in, when known.
    private var style: Style?
    private var cursorShown: Bool?

    public init(sequences: Sequences) {
        self.sequences = sequences
        costs = sequences.lineMoves.isEmpty ? nil : Costs(sequences)
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

    /// Adds the bytes for `changes`, which come in row order as `Renderer` sends them. With the
    /// `frame` they come from, a short gap between two changes on a row is crossed by writing the
    /// frame's cells there again (plain ASCII in the style the terminal is in) where that takes
    /// fewer bytes than moving the cursor, as curses does.
    ///
    /// A run of changes to the same blank is erased (`ech`) where that, with the move past it, takes
    /// fewer bytes than writing the blanks: a row's text replaced by shorter text, or by none, or
    /// the rest of a highlighted row (`backColorErase`).
    public mutating func draw(_ changes: [CellChange], size: Size, frame: ScreenBuffer? = nil) {
        var i = changes.startIndex
        // Changes before this index are not erased: a run there was weighed and written.
        var writtenUntil = changes.startIndex
        while i < changes.endIndex {
            let change = changes[i]
            i += 1
            guard change.cell.width > 0 else { continue }
            if sequences.lastCellScrolls, change.y == size.rows - 1, change.x + Int(change.cell.width) >= size.cols {
                continue
            }
            go(to: change.x, change.y, frame: frame)
            if i > writtenUntil, sequences.eraseCharacters != nil, erasable(change.cell) {
                let run = Self.blankRun(changes, from: i - 1, size: size, lastCellScrolls: sequences.lastCellScrolls)
                if run >= 4, erase(run, at: change, then: Self.next(changes, after: i - 1 + run), frame: frame) {
                    i += run - 1
                    continue
                }
                writtenUntil = i - 1 + run
            }
            let cell = change.cell
            if style != cell.style {
                bytes += styleBytes.value(UInt64(cell.style.bits)) { sequences.style(cell.style) }
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

    /// A blank the terminal's erase makes as it shows: a space neither reversed nor underlined (whose
    /// colour, boldness and dimness do not show), in the default background or, where erasing
    /// fills with the background the terminal is in, any.
    private func erasable(_ cell: Cell) -> Bool {
        cell.glyph.scalar == " " && cell.width == 1 && Self.erasesAsShown(cell.style)
            && (cell.style.bg == .default || sequences.backColorErase)
    }

    /// A style in which an erase leaves blanks that look like spaces written in it.
    private static func erasesAsShown(_ style: Style) -> Bool { !style.reverse && !style.underline }

    /// How many changes from `start` are the same blank side by side on one row (the bottom-right cell
    /// left out where writing it would scroll).
    private static func blankRun(_ changes: [CellChange], from start: Int, size: Size, lastCellScrolls: Bool) -> Int {
        let first = changes[start]
        var n = 0
        while start + n < changes.endIndex {
            let c = changes[start + n]
            guard c.y == first.y, c.x == first.x + n, c.cell == first.cell else { break }
            if lastCellScrolls, c.y == size.rows - 1, c.x + 1 >= size.cols { break }
            n += 1
        }
        return n
    }

    /// The first change at or after `index` that draws a cell.
    private static func next(_ changes: [CellChange], after index: Int) -> CellChange? {
        changes[min(index, changes.endIndex)...].first { $0.cell.width > 0 }
    }

    /// Erases `n` cells from `change`'s (the cursor is there) when that, with the way on to the `next` change on the row,
    /// takes fewer bytes than writing the blanks (after which the cursor is already past them);
    /// false (nothing written) otherwise. Either way the terminal is first put in the blank's style
    /// (unless an erase in its style already makes the blank), so that part of the price is left out.
    private mutating func erase(_ n: Int, at change: CellChange, then next: CellChange?, frame: ScreenBuffer?) -> Bool {
        guard let eraseCharacters = sequences.eraseCharacters else { return false }
        let erased = erases.value(UInt64(truncatingIfNeeded: n)) { eraseCharacters(n) }
        let blank = change.cell.style
        var erasing = erased.count, writing = n
        if let next, next.y == change.y {
            // From the run's start after erasing; from its end, in the blank's style, after writing.
            erasing += way(to: next.x, row: change.y, from: change.x, in: nil, frame: nil).bytes
            writing += way(to: next.x, row: change.y, from: change.x + n, in: blank, frame: frame).bytes
        }
        guard erasing < writing else { return false }
        // In the blank's background: the one the terminal fills with where it has `bce`, the default
        // one (which a blank erased there has) where it may not.
        let already = style.map { Self.erasesAsShown($0) && $0.bg == blank.bg } ?? false
        if !already {
            bytes += styleBytes.value(UInt64(blank.bits)) { sequences.style(blank) }
            style = blank
        }
        bytes += erased
        position = (change.x, change.y)
        return true
    }

    /// Adds the bytes that make `moves`, in order, on a screen of `size` (`LineMoves` chose them;
    /// `costs` says what each takes). The style goes back to plain first, so that the lines scrolled
    /// in are blank in the default colours also on terminals that fill them with the current
    /// background (`bce`).
    public mutating func moveLines(_ moves: [LineMove], size: Size) {
        for move in moves {
            guard let made = sequences.bytes(making: move, rows: size.rows) else { continue }
            if style != .plain {
                bytes += sequences.reset
                style = .plain
            }
            bytes += made
            position = nil
        }
    }

    /// The bytes a frame of `moves`, then `changes` of `frame`, then its cursor would take from the
    /// terminal's state now: the exact price `Renderer` weighs line moves by. Nothing is written.
    public func bytes(moving moves: [LineMove], thenDrawing changes: [CellChange], of frame: ScreenBuffer, size: Size) -> Int {
        var trial = self
        let before = trial.bytes.count
        trial.moveLines(moves, size: size)
        trial.draw(changes, size: size, frame: frame)
        var total = 0
        trial.finish(cursor: frame.cursor, size: size) { total = $0.count }
        return total - before
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
            go(to: p.x, p.y, frame: nil)
            position = (p.x, p.y)
            if cursorShown != true { bytes += sequences.showCursor; cursorShown = true }
        } else if cursorShown != false {
            bytes += sequences.hideCursor
            cursorShown = false
        }
        bytes.withUnsafeBufferPointer(write)
        bytes.removeAll(keepingCapacity: true)
    }

    /// The cursor to (x, y) from where it is, the shortest `way`. Its position is not set here.
    private mutating func go(to x: Int, _ y: Int, frame: ScreenBuffer?) {
        let from = position?.y == y ? position?.x : nil
        switch way(to: x, row: y, from: from, in: style, frame: frame).by {
        case .none: break
        case .address: bytes += address(x, y)
        case .right: bytes += rightBytes(x - from!)!
        case .rewrite: for column in from!..<x { bytes.append(UInt8(frame![column, y].glyph.scalar!.value)) }
        }
    }

    /// How the cursor reaches a column: it is there, an address, a move right, or the cells between
    /// written again.
    private enum Way { case none, address, right, rewrite }

    /// How many bytes take the cursor from column `from` of row `y` (nil: from anywhere else) to
    /// column `x` of it, and how: a move right where shorter than an address, or, where shorter
    /// still, the `frame`'s cells between written again (plain ASCII in the terminal's `style`, so no
    /// style sequence and no doubt about widths).
    private mutating func way(to x: Int, row y: Int, from: Int?, in style: Style?, frame: ScreenBuffer?) -> (bytes: Int, by: Way) {
        guard from != x else { return (0, .none) }
        let addressed = address(x, y).count
        guard let from, x > from else { return (addressed, .address) }
        var best = (bytes: addressed, by: Way.address)
        if let right = rightBytes(x - from)?.count, right < addressed { best = (right, .right) }
        if let frame, x - from < best.bytes, (from..<x).allSatisfy({ Self.rewritable(frame[$0, y], in: style) }) {
            best = (x - from, .rewrite)
        }
        return best
    }

    private mutating func address(_ x: Int, _ y: Int) -> [UInt8] {
        moves.value(UInt64(truncatingIfNeeded: y) << 32 | UInt64(truncatingIfNeeded: x)) { sequences.moveTo(x, y) }
    }

    private mutating func rightBytes(_ n: Int) -> [UInt8]? {
        guard let moveRight = sequences.moveRight else { return nil }
        return rights.value(UInt64(truncatingIfNeeded: n)) { moveRight(n) }
    }

    /// A cell the encoder may write again to cross a gap: one printable ASCII character, one
    /// column, in the style the terminal is in (so no style sequence and no doubt about its width).
    static func rewritable(_ cell: Cell, in style: Style?) -> Bool {
        guard cell.width == 1, let scalar = cell.glyph.scalar, (0x20...0x7E).contains(scalar.value) else { return false }
        return cell.style == style
    }

    /// Scalars whose width terminals agree with `DisplayWidth` on: below U+0300, the East Asian
    /// Wide ranges (Hangul, kana, CJK, fullwidth) and braille (maps). After anything else the next
    /// cell is reached with an explicit cursor move. (East Asian "ambiguous" ones below U+0300,
    /// such as ° and é, are taken as narrow, as `wcwidth` and curses take them too.)
    static func widthIsCertain(_ v: UInt32) -> Bool {
        v < 0x300 || (0x2800...0x28FF).contains(v) || DisplayWidth.isWide(v)
    }
}

extension FrameEncoder {
    /// What drawing with a terminal's sequences costs, in bytes (`LineMoves` weighs line moves
    /// with it). Remembers what it measured: the same few dozen cursor moves and styles every frame.
    public final class Costs: DrawingCosts {
        private let sequences: Sequences
        private var addresses: [UInt8] = []
        private var moves = SlotCache<Int>(slotBits: 12)
        private var rights = SlotCache<Int>()
        private var styles = SlotCache<Int>()
        /// What each line move costs, by region, distance and screen height.
        private var lineMoves = SlotCache<Int>()

        init(_ sequences: Sequences) {
            self.sequences = sequences
        }

        public func bytesToMove(toColumn x: Int, row y: Int, fromColumn from: Int?) -> Int {
            let addressed: Int
            if x < 256, y < 256 {
                // A table for the screens there are: this is asked for every run of changed cells.
                if addresses.isEmpty { addresses = [UInt8](repeating: 0, count: 256 * 256) }
                let known = addresses[y << 8 | x]
                if known > 0 {
                    addressed = Int(known)
                } else {
                    addressed = sequences.moveTo(x, y).count
                    addresses[y << 8 | x] = UInt8(clamping: addressed)
                }
            } else {
                addressed = moves.value(UInt64(truncatingIfNeeded: y) << 32 | UInt64(truncatingIfNeeded: x)) { sequences.moveTo(x, y).count }
            }
            guard let from, x > from, let moveRight = sequences.moveRight else { return addressed }
            return min(addressed, rights.value(UInt64(truncatingIfNeeded: x - from)) { moveRight(x - from).count })
        }

        public func bytes(switchingTo style: Style) -> Int {
            styles.value(UInt64(style.bits)) { sequences.style(style).count }
        }

        public func bytes(making move: LineMove, rows: Int) -> Int? {
            guard (0..<0x8000).contains(move.top), (0..<0x8000).contains(move.bottom), (0..<0x8000).contains(rows),
                  (-0x7FFF..<0x8000).contains(move.by) else {
                return sequences.bytes(making: move, rows: rows)?.count
            }
            let key = UInt64(move.top) << 48 | UInt64(move.bottom) << 32 | UInt64(move.by + 0x8000) << 16 | UInt64(rows)
            // -1: the terminal cannot make it.
            let known = lineMoves.value(key) { sequences.bytes(making: move, rows: rows)?.count ?? -1 }
            return known < 0 ? nil : known
        }
    }
}

extension FrameEncoder.Sequences {
    /// The fewest bytes that make `move` on a screen of `rows` rows with this terminal's
    /// capabilities (a scroll region and `ind`/`ri`, or `dl` and `il`); nil when it cannot, or
    /// when the move would take the bottom row on a terminal that never has its last cell written
    /// (`lastCellScrolls`: the row does not show what the frame says there).
    func bytes(making move: LineMove, rows: Int) -> [UInt8]? {
        guard move.by != 0, move.top >= 0, move.top < move.bottom, move.bottom < rows,
              abs(move.by) <= move.bottom - move.top, !(lastCellScrolls && move.bottom == rows - 1) else { return nil }
        let k = abs(move.by)
        let m = lineMoves
        var best: [UInt8]?
        func consider(_ candidate: [UInt8]?) {
            if let candidate, candidate.count < best?.count ?? .max { best = candidate }
        }
        // A scroll region around the rows, one scroll at its edge, the whole screen's region back.
        if let region = m.setScrollRegion {
            let whole = move.top == 0 && move.bottom == rows - 1
            let scroll: [UInt8]?
            if move.by < 0 {
                scroll = cheaper(m.scrollForward.map { Array(repeating: $0, count: k).flatMap { $0 } }, m.scrollForwardLines?(k))
                    .map { moveTo(0, move.bottom) + $0 }
            } else {
                scroll = cheaper(m.scrollReverse.map { Array(repeating: $0, count: k).flatMap { $0 } }, m.scrollReverseLines?(k))
                    .map { moveTo(0, move.top) + $0 }
            }
            consider(scroll.map { whole ? $0 : region(move.top, move.bottom) + $0 + region(0, rows - 1) })
        }
        // Lines deleted where the rows leave and inserted where they arrive; below the region,
        // the one undoes the other.
        if let insert = m.insertLines, let delete = m.deleteLines {
            let belowStays = move.bottom < rows - 1
            if move.by < 0 {
                consider(moveTo(0, move.top) + delete(k) + (belowStays ? moveTo(0, move.bottom + 1 - k) + insert(k) : []))
            } else {
                consider((belowStays ? moveTo(0, move.bottom + 1 - k) + delete(k) : []) + moveTo(0, move.top) + insert(k))
            }
        }
        return best
    }

    private func cheaper(_ a: [UInt8]?, _ b: [UInt8]?) -> [UInt8]? {
        guard let a, let b else { return a ?? b }
        return b.count < a.count ? b : a
    }

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
        lastCellScrolls: false, lineMoves: xterm256ColorLineMoves, moveRight: { n in Array("\u{1B}[\(n)C".utf8) },
        eraseCharacters: { n in Array("\u{1B}[\(n)X".utf8) }, backColorErase: true) }

    /// `csr`, `ind`, `ri`, `indn`, `rin`, `il1`/`il` and `dl1`/`dl` of xterm-256color (`cuf` is `moveRight`).
    private static var xterm256ColorLineMoves: FrameEncoder.LineMoveSequences {
        func csi(_ text: String) -> [UInt8] { Array(("\u{1B}[" + text).utf8) }
        return FrameEncoder.LineMoveSequences(
            setScrollRegion: { top, bottom in csi("\(top + 1);\(bottom + 1)r") },
            scrollForward: [0x0A], scrollReverse: [0x1B, 0x4D],
            scrollForwardLines: { n in csi("\(n)S") }, scrollReverseLines: { n in csi("\(n)T") },
            insertLines: { n in csi(n == 1 ? "L" : "\(n)L") }, deleteLines: { n in csi(n == 1 ? "M" : "\(n)M") })
    }

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
