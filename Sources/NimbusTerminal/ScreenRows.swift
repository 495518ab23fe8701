/// A row of a screen as text, with the cells each character was drawn in: what finds where a text
/// is on screen (the tapes' `ExpectStyle`), so its cells' styles can be read.
public struct ScreenRow: Sendable {
    public let y: Int
    /// The row's graphemes, the right halves of wide glyphs left out (trailing spaces kept).
    public let characters: [Character]
    /// For each character, its first cell and how many cells it takes (1 or 2).
    public let cells: [(x: Int, width: Int)]

    public init(_ buffer: ScreenBuffer, y: Int) {
        self.y = y
        var characters: [Character] = []
        var cells: [(x: Int, width: Int)] = []
        for x in 0..<buffer.size.cols {
            let cell = buffer[x, y]
            guard !cell.isContinuation, let ch = cell.text.first else { continue }
            characters.append(ch)
            cells.append((x, Int(cell.width)))
        }
        self.characters = characters
        self.cells = cells
    }

    public var text: String { String(characters) }

    /// The cells (columns) of characters `range`.
    public func columns(_ range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else { return 0..<0 }
        let first = cells[range.lowerBound], last = cells[range.upperBound - 1]
        return first.x..<(last.x + last.width)
    }

    /// Where `needle` (NFC, compared by grapheme) starts in this row, every place, as character ranges.
    public func ranges(of needle: String) -> [Range<Int>] {
        let wanted = Array(DisplayWidth.nfc(needle))
        guard !wanted.isEmpty, wanted.count <= characters.count else { return [] }
        var found: [Range<Int>] = []
        for start in 0...(characters.count - wanted.count)
        where characters[start] == wanted[0] && characters[start..<(start + wanted.count)].elementsEqual(wanted) {
            found.append(start..<(start + wanted.count))
        }
        return found
    }
}

extension ScreenBuffer {
    /// Every row as a `ScreenRow`.
    public var rows: [ScreenRow] { (0..<size.rows).map { ScreenRow(self, y: $0) } }
}
