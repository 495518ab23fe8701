import NimbusTerminal

/// The Cities list's columns for a terminal width, laid out as htop lays out its own: the name
/// takes what the others leave, up to `ListColumns.nameCap`, and a wider terminal adds columns in
/// order of use (the local time, then the coordinates, then the time zone) as long as the name keeps
/// `nameMinimum` columns. Columns keep their places as others appear to their right.
struct CityListColumns: Equatable {
    enum Kind: Equatable, CaseIterable {
        case country, temperature, population, localTime, coordinates, timeZone
    }

    enum Alignment: Equatable { case left, right }

    /// A column: `width` columns from `x`, of which the `gapBefore` first and `gapAfter` last are
    /// always blank, so the text of two columns never touches.
    struct Column: Equatable {
        let kind: Kind
        let x: Int
        let width: Int
        let alignment: Alignment
        let gapBefore: Int
        let gapAfter: Int

        var contentWidth: Int { max(0, width - gapBefore - gapAfter) }
        var end: Int { x + width }

        /// `text` as the column shows it: cut by display width (with "…"), aligned, and padded to
        /// exactly `width` columns; never cut inside a character.
        func fit(_ text: String) -> String {
            let content = contentWidth
            let cut = DisplayWidth.truncate(text, to: content)
            let fill = String(repeating: " ", count: max(0, content - DisplayWidth.of(cut)))
            let inner = alignment == .left ? cut + fill : fill + cut
            return String(repeating: " ", count: gapBefore) + inner + String(repeating: " ", count: gapAfter)
        }
    }

    /// The selection mark and the liked star before the name.
    static let gutter = 2
    /// A country column this narrow gives the country's code where its name does not fit.
    static let codeOnlyWidth = 12
    /// The name keeps at least this many columns when the extra columns are added.
    static let nameMinimum = 32
    /// "90.00°S 180.00°W".
    static let coordinatesWidth = 16
    /// IANA names up to "America/Argentina/Buenos_Aires"; longer ones are cut.
    static let timeZoneWidth = 30

    /// Columns of the name, its one blank column after it included.
    let name: Int
    /// The columns after the name, left to right.
    let columns: [Column]
    /// The columns used: the gutter, the name and every column (at most the width given).
    let used: Int

    /// The layout for `width` columns, with local times `timeWidth()` columns wide (0: no local
    /// times), asked only when the width could show a column `narrowestTime` wide (the question
    /// makes a date formatter the first time: an 80-column list never asks).
    init(width: Int, timeWidth: () -> Int, narrowestTime: Int = 5) {
        let width = max(0, width)
        var base: [(Kind, Int, Alignment, Int, Int)] = []
        // The columns every width shows when it has room, as before wide terminals were thought of.
        // The temperature (what people came for) comes with the country, which gives its code
        // where its name does not fit.
        if width >= 36 { base.append((.country, min(26, width / 4), .left, 0, 1)) }
        if width >= 36 { base.append((.temperature, 6, .right, 1, 0)) }
        if width >= 50 { base.append((.population, 12, .right, 1, 0)) }
        // One column spare at the right edge.
        var left = width - Self.gutter - 1 - base.reduce(0) { $0 + $1.1 }
        var extras: [(Kind, Int, Alignment, Int, Int)] = []
        let time = left - (max(1, narrowestTime) + 2) >= Self.nameMinimum ? timeWidth() : 0
        if time > 0 { extras.append((.localTime, time + 2, .right, 2, 0)) }
        extras.append((.coordinates, Self.coordinatesWidth + 2, .right, 2, 0))
        extras.append((.timeZone, Self.timeZoneWidth + 2, .left, 2, 0))
        for extra in extras {
            guard left - extra.1 >= Self.nameMinimum else { break }
            base.append(extra)
            left -= extra.1
        }
        name = min(ListColumns.nameCap, max(0, left))
        var x = Self.gutter + name
        var made: [Column] = []
        for (kind, w, alignment, before, after) in base {
            made.append(Column(kind: kind, x: x, width: w, alignment: alignment, gapBefore: before, gapAfter: after))
            x += w
        }
        columns = made
        used = x
    }

    func column(_ kind: Kind) -> Column? { columns.first { $0.kind == kind } }

    /// "37.57°N 126.98°E" with the latitude and the longitude each right-aligned, so the degrees
    /// line up down the column; anything else as it is.
    static func alignedCoordinates(_ text: String) -> String {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return text }
        let lat = String(parts[0]), lon = String(parts[1])
        let latPad = max(0, 7 - DisplayWidth.of(lat)), lonPad = max(0, 8 - DisplayWidth.of(lon))
        return String(repeating: " ", count: latPad) + lat + " " + String(repeating: " ", count: lonPad) + lon
    }
}
