/// A screen as a snapshot file a person can read and review in a diff: the text, row by row (as
/// before styles were kept); under it a layer of the same shape with one letter a cell naming the
/// cell's style in a legend; then the legend and the hardware cursor.
///
/// ```
///  1 Cities  2 Today
/// › Seoul    South Korea
/// -- styles: a letter a cell, named in the legend --
/// bbbbbbbbbbaaaaaaaaaa
/// cccccccccccccccccccccc
/// -- legend --
/// .  plain
/// a  fg=250 bg=236
/// b  bold fg=black bg=75
/// c  bold fg=white bg=24
/// -- cursor hidden --
/// ```
/// `.` is always the plain style. Letters are given in the order styles first appear (row by row),
/// so the tab bar takes the same letters on every screen. A file with no style layer (written before
/// styles were kept) is compared by its text only.
public struct ScreenSnapshot: Equatable, Sendable {
    /// The rows' text, trailing spaces trimmed; a wide glyph appears once.
    public var lines: [String]
    /// Each row's cells' styles up to its last cell that is not plain; nil for a text-only file. A
    /// cell whose style the legend could not name (more styles than letters) is nil and compares with anything.
    public var styles: [[Style?]]?
    /// The hardware cursor; nil when hidden. Only meaningful with `styles`.
    public var cursor: Point?

    public static let stylesMarker = "-- styles: a letter a cell, named in the legend --"
    public static let legendMarker = "-- legend --"

    public init(lines: [String], styles: [[Style?]]?, cursor: Point?) {
        self.lines = lines
        self.styles = styles
        self.cursor = cursor
    }

    /// What `buffer` shows, with `cursor` as the hardware cursor.
    public init(_ buffer: ScreenBuffer, cursor: Point?) {
        lines = buffer.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let cols = buffer.size.cols
        let cells = buffer.allCells
        // Rows end at their last cell that is not plain, as the file writes them.
        styles = (0..<buffer.size.rows).map { y in
            var row: [Style?] = (0..<cols).map { x in cells[y * cols + x].style }
            while row.last == .plain { row.removeLast() }
            return row
        }
        self.cursor = cursor
    }

    /// The text alone, as text-only snapshot files hold it: the rows and a final newline.
    public var text: String { lines.joined(separator: "\n") + "\n" }

    /// The file's contents.
    public var fileText: String {
        guard let styles else { return text }
        var letters: [Style: Character] = [.plain: "."]
        var legend: [(Character, Style)] = [(".", .plain)]
        var rows: [String] = []
        for row in styles {
            var line = ""
            for style in row {
                guard let style else { line.append("?"); continue }
                if let letter = letters[style] { line.append(letter); continue }
                let letter = legend.count - 1 < Self.letters.count ? Self.letters[legend.count - 1] : "?"
                if letter != "?" {
                    letters[style] = letter
                    legend.append((letter, style))
                }
                line.append(letter)
            }
            while line.last == "." { line.removeLast() }
            rows.append(line)
        }
        var out = text + Self.stylesMarker + "\n"
        out += rows.map { $0 + "\n" }.joined()
        out += Self.legendMarker + "\n"
        out += legend.map { "\($0.0)  \(StyleWords.describe($0.1))\n" }.joined()
        if legend.count - 1 >= Self.letters.count { out += "?  one of the styles past the last letter (not compared)\n" }
        out += "-- cursor \(cursor.map { "\($0.x),\($0.y)" } ?? "hidden") --\n"
        return out
    }

    /// Letters for styles, one display column each: never `.` (plain), `?` (unnamed) or space.
    static let letters: [Character] = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!$%&*+/:;<=>@^_~"
                                            + "αβγδεζηθικλμνξοπρστυφχψωΓΔΘΛΞΠΣΦΨΩ")

    /// Reads a snapshot file; a file without the style layer has `styles` nil. Nil when the style
    /// layer is damaged (a letter missing from the legend, a legend line that is not style words).
    public init?(fileText: String) {
        var all = fileText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let marker = all.lastIndex(of: Self.stylesMarker) else {
            if all.last == "" { all.removeLast() }
            self.init(lines: all, styles: nil, cursor: nil)
            return
        }
        let lines = Array(all[..<marker])
        guard let legendStart = all[marker...].firstIndex(of: Self.legendMarker) else { return nil }
        let rows = all[(marker + 1)..<legendStart]
        var legend: [Character: Style?] = [".": .plain, "?": nil]
        var cursor: Point?
        var sawCursor = false
        for line in all[(legendStart + 1)...] where !line.isEmpty {
            if line.hasPrefix("-- cursor "), line.hasSuffix(" --") {
                let value = line.dropFirst("-- cursor ".count).dropLast(3)
                if value != "hidden" {
                    let parts = value.split(separator: ",").compactMap { Int($0) }
                    guard parts.count == 2 else { return nil }
                    cursor = Point(x: parts[0], y: parts[1])
                }
                sawCursor = true
                continue
            }
            guard let letter = line.first, line.dropFirst().hasPrefix("  ") else { return nil }
            if letter == "?" { continue }
            guard let style = StyleWords.style(String(line.dropFirst(3))) else { return nil }
            legend[letter] = style
        }
        guard sawCursor else { return nil }
        var styles: [[Style?]] = []
        for row in rows {
            var cells: [Style?] = []
            for letter in row {
                guard let style = legend[letter] else { return nil }
                cells.append(style)
            }
            styles.append(cells)
        }
        self.init(lines: lines, styles: styles, cursor: cursor)
    }

    /// How `actual` differs from this expected snapshot: the text's differing lines, then (when this
    /// one has styles) the cells whose style changed, as runs per row, and the cursor. Empty when
    /// they agree; a text-only snapshot is compared by its text alone.
    public func differences(from actual: ScreenSnapshot) -> String {
        var out: [String] = []
        let textDiff = LineDiff.describe(expected: text, actual: actual.text)
        if !textDiff.isEmpty { out.append(textDiff) }
        guard let expectedStyles = styles else { return out.joined(separator: "\n") }
        let actualStyles = actual.styles ?? []
        for y in 0..<max(expectedStyles.count, actualStyles.count) {
            let e = y < expectedStyles.count ? expectedStyles[y] : []
            let a = y < actualStyles.count ? actualStyles[y] : []
            var x = 0
            let width = max(e.count, a.count)
            while x < width {
                let was = x < e.count ? e[x] : .plain
                let now = x < a.count ? a[x] : .plain
                guard let was, let now, was != now else { x += 1; continue }
                var end = x + 1
                while end < width, (end < e.count ? e[end] : .plain) == was, (end < a.count ? a[end] : .plain) == now { end += 1 }
                let shown = y < actual.lines.count ? Self.columns(actual.lines[y], x..<end) : ""
                out.append("  style, row \(y + 1) columns \(x + 1)-\(end) \"\(shown)\":\n"
                           + "    - \(StyleWords.describe(was))\n    + \(StyleWords.describe(now))")
                x = end
            }
        }
        if cursor != actual.cursor {
            func at(_ p: Point?) -> String { p.map { "\($0.x),\($0.y)" } ?? "hidden" }
            out.append("  cursor:\n    - \(at(cursor))\n    + \(at(actual.cursor))")
        }
        return out.joined(separator: "\n")
    }

    /// The text in display columns `range` of a row (a wide glyph counts as two).
    static func columns(_ line: String, _ range: Range<Int>) -> String {
        var col = 0
        var out = ""
        for ch in line {
            let w = max(1, DisplayWidth.of(ch))
            if col >= range.upperBound { break }
            if col + w > range.lowerBound { out.append(ch) }
            col += w
        }
        return out
    }
}
