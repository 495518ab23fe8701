import Foundation
import Synchronization

/// One terminal cell: a grapheme, its column width and style.
///
/// A plain value with no references (the grapheme is packed in a `Glyph`), so frames copy and
/// compare without reference counting: the renderer compares every cell of every frame.
public struct Cell: Equatable, Sendable {
    public var glyph: Glyph
    /// 0 for the right half of a wide glyph, otherwise 1 or 2.
    public var width: UInt8
    public var style: Style

    public init(text: String, width: UInt8, style: Style = .plain) {
        self.init(glyph: Glyph(text), width: width, style: style)
    }

    public init(glyph: Glyph, width: UInt8, style: Style = .plain) {
        self.glyph = glyph
        self.width = width
        self.style = style
    }

    /// The grapheme; "" for the right half of a wide glyph.
    public var text: String { glyph.text }

    public static let blank = Cell(glyph: .space, width: 1, style: .plain)

    /// A space in `style`.
    public static func space(_ style: Style) -> Cell { Cell(glyph: .space, width: 1, style: style) }

    /// The right half of a wide glyph.
    public static func continuation(_ style: Style) -> Cell { Cell(glyph: .empty, width: 0, style: style) }

    public var isContinuation: Bool { width == 0 }
}

/// A grapheme in 32 bits: one Unicode scalar stored inline (nearly every cell: ASCII, Hangul,
/// kana, CJK, braille, NFC-composed Latin), or a grapheme of several scalars (a combining
/// sequence that has no composed form, an emoji sequence) stored once in a process-wide table.
public struct Glyph: Hashable, Sendable {
    /// A scalar value (below 0x110000), `emptyValue`, or `internedFlag` | table index. Equal
    /// glyphs have equal values (`LineMoves` hashes rows by them).
    let raw: UInt32

    private static let emptyValue: UInt32 = 0xFFFF_FFFF
    private static let internedFlag: UInt32 = 0x8000_0000

    public static let space = Glyph(scalar: " ")
    /// What is drawn for a grapheme a terminal cannot print with a known width: U+FFFD.
    public static let replacement = Glyph(scalar: "\u{FFFD}")
    /// No grapheme: the right half of a wide glyph.
    public static let empty = Glyph(raw: emptyValue)

    private init(raw: UInt32) { self.raw = raw }

    public init(scalar: Unicode.Scalar) { raw = scalar.value }

    /// The glyph of `text`, one grapheme ("" gives `empty`).
    public init(_ text: String) {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { self = .empty; return }
        self.init(first: first, isSingle: scalars.next() == nil) { text }
    }

    public init(_ character: Character) {
        var scalars = character.unicodeScalars.makeIterator()
        let first = scalars.next() ?? " "
        self.init(first: first, isSingle: scalars.next() == nil) { String(character) }
    }

    private init(first: Unicode.Scalar, isSingle: Bool, text: () -> String) {
        if isSingle {
            raw = first.value
        } else if let index = GlyphTable.shared.index(of: text()) {
            raw = Self.internedFlag | index
        } else {
            raw = first.value // table full (only hostile input gets there): keep the base character
        }
    }

    /// The scalar when the glyph is a single one.
    public var scalar: Unicode.Scalar? {
        raw < Self.internedFlag ? Unicode.Scalar(raw) : nil
    }

    public var text: String {
        if raw == Self.emptyValue { return "" }
        if let scalar { return String(Character(scalar)) }
        return GlyphTable.shared.text(at: raw & ~Self.internedFlag)
    }
}

/// Graphemes of several scalars seen so far, each stored once; bounded so that pasted junk
/// cannot grow it without end.
final class GlyphTable: Sendable {
    static let shared = GlyphTable()
    static let capacity = 65_536

    private struct State {
        var texts: [String] = []
        var indices: [String: UInt32] = [:]
    }
    private let state = Mutex(State())

    func index(of text: String) -> UInt32? {
        state.withLock { state in
            if let i = state.indices[text] { return i }
            guard state.texts.count < Self.capacity else { return nil }
            let i = UInt32(state.texts.count)
            state.texts.append(text)
            state.indices[text] = i
            return i
        }
    }

    func text(at index: UInt32) -> String {
        state.withLock { $0.texts[Int(index)] }
    }
}

/// A frame of terminal cells, rendered by widgets and diffed by `Renderer`.
public struct ScreenBuffer: Equatable, Sendable {
    public let size: Size
    /// Hardware cursor position; nil hides it.
    public var cursor: Point?
    private(set) var cells: [Cell]

    public init(size: Size) {
        let s = Size(cols: max(0, size.cols), rows: max(0, size.rows))
        self.size = s
        self.cursor = nil
        self.cells = Array(repeating: .blank, count: s.cols * s.rows)
    }

    public var bounds: Rect { Rect(size: size) }

    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < size.cols, y < size.rows else { return .blank }
        return cells[y * size.cols + x]
    }

    /// Labelled form of the cell subscript: `buffer[x: 3, y: 1]`.
    public subscript(x x: Int, y y: Int) -> Cell { self[x, y] }

    /// Writes the graphemes of `text` from column `x`, clipped to the buffer and `clip`.
    ///
    /// Returns the columns advanced from `x` (stopping at the clip's right edge); 0 when row `y` is clipped.
    /// A wide glyph that would straddle an edge becomes a single space; controls and lone combining marks
    /// are skipped; a grapheme with a scalar that is not printable with a known width (unassigned, a
    /// line separator: `ScalarWidth`) is drawn as U+FFFD, one column, so that no cell is left unpainted.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard !area.isEmpty, y >= area.y, y < area.maxY else { return 0 }
        if let advanced = putASCII(text, x: x, y: y, style: style, area: area) { return advanced }
        var col = x
        if DisplayWidth.isSimple(text) {
            // One scalar per grapheme, already NFC (Hangul, kana, CJK, accented Latin…).
            for scalar in text.unicodeScalars {
                if col >= area.maxX { break }
                if DisplayWidth.isControl(scalar.value) { continue }
                let known = DisplayWidth.knownWidth(scalar)
                let w = known ?? 1
                if w == 0 { continue }
                put(known == nil ? Glyph.replacement : Glyph(scalar: scalar), width: w, col: col, y: y, style: style, area: area)
                col += w
            }
            return min(col, area.maxX) - x
        }
        for ch in DisplayWidth.nfc(text) {
            if col >= area.maxX { break }
            let w = DisplayWidth.of(ch)
            if w == 0 { continue }
            put(DisplayWidth.isPrintable(ch) ? Glyph(ch) : Glyph.replacement, width: w, col: col, y: y, style: style, area: area)
            col += w
        }
        return min(col, area.maxX) - x
    }

    /// One glyph of width `w` at `col`, clipped to `area`: a wide glyph cut by an edge leaves a
    /// space on the side inside.
    private mutating func put(_ glyph: Glyph, width w: Int, col: Int, y: Int, style: Style, area: Rect) {
        if col + w <= area.x { return }
        if w == 2 && (col < area.x || col + 1 >= area.maxX) {
            setCell(col < area.x ? col + 1 : col, y, .space(style))
        } else {
            setCell(col, y, Cell(glyph: glyph, width: UInt8(w), style: style))
        }
    }

    /// `put` for text of printable ASCII only (no grapheme breaking, widths all 1); nil for any other text.
    private mutating func putASCII(_ text: String, x: Int, y: Int, style: Style, area: Rect) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            for b in bytes where b < 0x20 || b >= 0x7F { return nil }
            let start = max(x, area.x)
            let end = min(x + bytes.count, area.maxX)
            if start < end {
                for col in start..<end {
                    setCell(col, y, Cell(glyph: Glyph(scalar: Unicode.Scalar(bytes[col - x])), width: 1, style: style))
                }
            }
            return min(x + bytes.count, area.maxX) - x
        }
    }

    /// Fills `rect` (clipped to the buffer) with `ch`; a wide `ch` is drawn every two columns.
    public mutating func fill(_ rect: Rect, with ch: Character = " ", style: Style = .plain) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        var w = DisplayWidth.of(ch)
        let glyph = w == 0 ? Glyph.space : Glyph(ch)
        if w == 0 { w = 1 }
        for y in area.y..<area.maxY {
            var x = area.x
            while x < area.maxX {
                if w == 2 && x + 1 >= area.maxX {
                    setCell(x, y, .space(style))
                } else {
                    setCell(x, y, Cell(glyph: glyph, width: UInt8(w), style: style))
                }
                x += w
            }
        }
    }

    /// Plain text of every row, exactly `cols` columns wide; a wide glyph appears once.
    public func lines() -> [String] {
        guard size.cols > 0 else { return Array(repeating: "", count: size.rows) }
        return (0..<size.rows).map { y in
            var line = ""
            for x in 0..<size.cols { line += cells[y * size.cols + x].text }
            return line
        }
    }

    /// Rows joined with "\n", trailing spaces trimmed.
    public func text() -> String {
        lines().map { line in
            var l = Substring(line)
            while l.last == " " { l.removeLast() }
            return String(l)
        }.joined(separator: "\n")
    }

    /// Stores one cell (width 1 or 2) at (x, y), blanking any wide glyph it partly overwrites.
    /// A wide cell at the last column becomes a space. Out-of-range writes are ignored.
    mutating func setCell(_ x: Int, _ y: Int, _ cell: Cell) {
        guard x >= 0, y >= 0, x < size.cols, y < size.rows, cell.width > 0 else { return }
        var cell = cell
        if cell.width == 2 && x + 1 >= size.cols { cell = .space(cell.style) }
        detach(x, y)
        if cell.width == 2 { detach(x + 1, y) }
        let i = y * size.cols + x
        cells[i] = cell
        if cell.width == 2 { cells[i + 1] = .continuation(cell.style) }
    }

    /// Blanks both halves of a wide glyph that covers (x, y).
    private mutating func detach(_ x: Int, _ y: Int) {
        guard x >= 0, x < size.cols else { return }
        let i = y * size.cols + x
        let c = cells[i]
        if c.width == 0, x > 0 {
            cells[i - 1] = .space(cells[i - 1].style)
            cells[i] = .space(c.style)
        } else if c.width == 2, x + 1 < size.cols {
            cells[i] = .space(c.style)
            cells[i + 1] = .space(cells[i + 1].style)
        }
    }

    /// Raw cell storage, row-major (for renderers and tests).
    public var allCells: [Cell] { cells }

    /// Scrolls rows `move.top...move.bottom` by `move.by` rows as a terminal scrolls a region: the
    /// rows scrolled out of it are gone and the rows scrolled in are blank. What the terminal shows
    /// after `FrameEncoder.moveLines`; out-of-range moves change nothing.
    public mutating func scroll(_ move: LineMove) {
        let cols = size.cols
        guard move.by != 0, cols > 0, move.top >= 0, move.top <= move.bottom, move.bottom < size.rows else { return }
        let k = min(abs(move.by), move.bottom - move.top + 1)
        cells.withUnsafeMutableBufferPointer { cells in
            let base = cells.baseAddress!
            let kept = (move.bottom - move.top + 1 - k) * cols
            if move.by < 0 {
                (base + move.top * cols).update(from: base + (move.top + k) * cols, count: kept)
                (base + (move.bottom + 1 - k) * cols).update(repeating: .blank, count: k * cols)
            } else {
                // `update(from:count:)` copies overlapping ranges in the safe direction.
                (base + (move.top + k) * cols).update(from: base + move.top * cols, count: kept)
                (base + move.top * cols).update(repeating: .blank, count: k * cols)
            }
        }
    }
}
