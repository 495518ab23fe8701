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
