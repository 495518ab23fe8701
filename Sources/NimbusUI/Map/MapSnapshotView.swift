import NimbusDomain
import NimbusPresentation
import NimbusTerminal

/// Draws map snapshots: the cells, the city's marker and label, other markers with their labels, and
/// a scale bar.
public enum MapSnapshotView {
    /// The city's marker glyph.
    public static let marker = "●"
    /// The glyphs of other markers, by kind: a place of mine, an earthquake.
    public static func glyph(_ kind: MapMarker.Kind) -> String {
        switch kind {
        case .place: return "◆"
        case .quake: return "✱"
        case .town: return "•"
        }
    }

    /// Draws `snapshot` from the painter's top-left corner, clipped to the painter, with the marker and,
    /// when `label` is given, the label beside it (on the side with room, never over the marker or
    /// past the edge; truncated by display width when neither side has room), then `markers` over land
    /// and sea in their order, each labelled where its label fits whole without covering another
    /// marker or label (else the marker stays and its label is left out).
    public static func draw(_ snapshot: MapSnapshot, in p: Painter, palette: MapPalette, label: String? = nil,
                            markers: [PlacedMapMarker] = []) {
        guard p.width > 0, p.height > 0 else { return }
        for (y, row) in snapshot.rows.prefix(p.height).enumerated() {
            var x = 0
            while x < row.count, x < p.width {
                let kind = row[x].kind
                var run = String(row[x].glyph)
                var end = x + 1
                while end < row.count, end < p.width, row[end].kind == kind {
                    run.append(row[end].glyph)
                    end += 1
                }
                p.text(run, x: x, y: y, style: style(kind, palette))
                x = end
            }
        }
        let width = min(p.width, snapshot.key.size.cols)
        let city = snapshot.marker.flatMap { $0.x < p.width && $0.y < p.height ? $0 : nil }
        let shown = markers.filter { $0.x < width && $0.y < p.height }
        var layout = LabelLayout(width: width)
        if let city { layout.reserve(x: city.x, width: 1, row: city.y) }
        for m in shown where m.kind != .town { layout.reserve(x: m.x, width: 1, row: m.y) }
        if let city {
            p.text(Self.marker, x: city.x, y: city.y, style: palette.marker)
            if let label, snapshot.key.zoom == .world {
                // At world zoom the label goes on the side covering less of other countries' land.
                if let placement = worldLabelPlacement(label, in: snapshot, marker: city, height: p.height, layout: &layout) {
                    p.text(placement.text, x: placement.x, y: placement.y, style: palette.label)
                }
            } else if let label, let placement = layout.place(label, markerX: city.x, row: city.y, truncating: true) {
                p.text(placement.text, x: placement.x, y: city.y, style: palette.label)
            }
        }
        for m in shown {
            if m.kind == .town {
                // A town is shown only with its label, both where nothing else is (after the city's label).
                // (With a free column either side: no two dots side by side.)
                guard layout.isFree(max(0, m.x - 1)..<min(width, m.x + 2), row: m.y) else { continue }
                layout.reserve(x: m.x, width: 1, row: m.y)
                guard let placement = layout.place(m.label, markerX: m.x, row: m.y, truncating: false) else {
                    layout.release(x: m.x, row: m.y)
                    continue
                }
                p.text(glyph(m.kind), x: m.x, y: m.y, style: palette.otherLabel)
                p.text(placement.text, x: placement.x, y: m.y, style: palette.otherLabel)
                continue
            }
            p.text(glyph(m.kind), x: m.x, y: m.y, style: palette.marker)
            if let placement = layout.place(m.label, markerX: m.x, row: m.y, truncating: false) {
                p.text(placement.text, x: placement.x, y: m.y, style: palette.otherLabel)
            }
        }
    }

    /// Columns taken on each row, so labels never cover a marker or each other.
    struct LabelLayout {
        let width: Int
        private var taken: [Int: [Range<Int>]] = [:]

        init(width: Int) { self.width = width }

        mutating func reserve(x: Int, width: Int, row: Int) {
            taken[row, default: []].append(x..<(x + width))
        }

        /// Frees the one column reserved last at `x` on `row`.
        mutating func release(x: Int, row: Int) {
            if let i = taken[row]?.lastIndex(of: x..<(x + 1)) { taken[row]?.remove(at: i) }
        }

        func isFree(_ range: Range<Int>, row: Int) -> Bool {
            range.lowerBound >= 0 && range.upperBound <= width && !(taken[row] ?? []).contains { $0.overlaps(range) }
        }

        /// The label's place beside the marker (right first, then left) where it is free, and reserves
        /// it; with `truncating`, a label too long for either side is cut to the larger free side.
        mutating func place(_ text: String, markerX: Int, row: Int, truncating: Bool) -> (x: Int, text: String)? {
            let name = DisplayWidth.sanitize(text)
            guard !name.isEmpty else { return nil }
            let padded = " " + name + " "
            let needed = DisplayWidth.of(padded)
            var candidates = [(markerX + 1, padded), (markerX - needed, padded)]
            if truncating {
                // The free run on each side of the marker, for a cut label.
                let right = (markerX + 1..<width).prefix { isFree($0..<($0 + 1), row: row) }.count
                let left = (0..<markerX).reversed().prefix { isFree($0..<($0 + 1), row: row) }.count
                let room = max(left, right)
                if room >= 3 {
                    let cut = " " + DisplayWidth.truncate(name, to: room - 2) + " "
                    let w = DisplayWidth.of(cut)
                    candidates.append(right >= left ? (markerX + 1, cut) : (markerX - w, cut))
                }
            }
            for (x, text) in candidates {
                let range = x..<(x + DisplayWidth.of(text))
                if isFree(range, row: row) {
                    reserve(x: x, width: range.count, row: row)
                    return (x, text)
                }
            }
            return nil
        }
    }

    /// The cells showing land of another country than the city's. Where the snapshot knows the
    /// city's own land (the marker's row at world zoom, from the catalogue:
    /// every land dot of the cell lies nearest one of the country's cities), every other land cell
    /// there but the marker's is foreign, joined to the marker's landmass or not (the land borders
    /// stop short of coasts and miss small countries at this scale; islands have none). Elsewhere,
    /// land dots not joined to the land dots of the marker's cell without crossing the sea or a border.
    /// The cells a border runs through are foreign too (other than the marker's: at world zoom a border
    /// line may stop short of the coast, so the walk never passes through a border's cells).
    public static func foreignLand(in snapshot: MapSnapshot, marker: (x: Int, y: Int)) -> Set<Int> {
        let rows = snapshot.rows
        let height = rows.count, cols = rows.first?.count ?? 0
        let style = snapshot.key.style
        let across = style.dotsAcross, down = style.dotsDown
        let dotsWide = cols * across, dotsHigh = height * down
        guard cols > 0, height > 0 else { return [] }
        var land = [Bool](repeating: false, count: dotsWide * dotsHigh)
        for (y, row) in rows.enumerated() {
            for (x, cell) in row.prefix(cols).enumerated() where cell.kind != .sea {
                let bits = dotBits(cell.glyph, style: style)
                for dy in 0..<down {
                    for dx in 0..<across where bits & dotBit(dx: dx, dy: dy, style: style) != 0 {
                        land[(y * down + dy) * dotsWide + x * across + dx] = true
                    }
                }
            }
        }
        var home = [Bool](repeating: false, count: land.count)
        var stack: [Int] = []
        if marker.x >= 0, marker.y >= 0, marker.x < cols, marker.y < height {
            for dy in 0..<down {
                for dx in 0..<across {
                    let i = (marker.y * down + dy) * dotsWide + marker.x * across + dx
                    if land[i] { home[i] = true; stack.append(i) }
                }
            }
        }
        while let i = stack.popLast() {
            let x = i % dotsWide, y = i / dotsWide
            for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            where nx >= 0 && ny >= 0 && nx < dotsWide && ny < dotsHigh {
                let n = ny * dotsWide + nx
                guard land[n], !home[n] else { continue }
                let cx = nx / across, cy = ny / down
                guard rows[cy][cx].kind != .border || (cx == marker.x && cy == marker.y) else { continue }
                home[n] = true
                stack.append(n)
            }
        }
        var foreign = Set<Int>()
        let known = snapshot.ownCountryCells.map { ($0, marker.y...marker.y) }
        for i in land.indices where land[i] {
            let y = i / dotsWide / down, x = (i % dotsWide) / across
            if let (own, rows) = known, rows.contains(y) {
                if !own.contains(y * cols + x) && !(x == marker.x && y == marker.y) { foreign.insert(y * cols + x) }
            } else if !home[i] {
                foreign.insert(y * cols + x)
            }
        }
        for (y, row) in rows.enumerated() {
            for (x, cell) in row.prefix(cols).enumerated() where cell.kind == .border && !(x == marker.x && y == marker.y) {
                foreign.insert(y * cols + x)
            }
        }
        return foreign
    }

    /// The dots a map glyph shows, as the renderer's bits.
    static func dotBits(_ glyph: Character, style: MapStyle) -> Int {
        switch style {
        case .braille:
            guard let v = glyph.unicodeScalars.first?.value, (0x2800...0x28FF).contains(v) else { return 0 }
            return Int(v - 0x2800)
        case .blocks:
            return blockGlyphs.firstIndex(of: glyph) ?? 0
        }
    }

    private static let blockGlyphs: [Character] = [" ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█"]

    static func dotBit(dx: Int, dy: Int, style: MapStyle) -> Int {
        switch style {
        case .braille: return dy == 3 ? (dx == 0 ? 0x40 : 0x80) : (1 << (dy + 3 * dx))
        case .blocks: return 1 << (dy * 2 + dx)
        }
    }

    /// The city label's place at world zoom, on the marker's row as at every other zoom: of right and
    /// left of the marker, those inside the map and free, the one covering fewer cells of other
    /// countries' land (right on a tie); nil (the label is left out) when neither fits.
    static func worldLabelPlacement(_ label: String, in snapshot: MapSnapshot, marker: (x: Int, y: Int), height: Int,
                                    layout: inout LabelLayout) -> (x: Int, y: Int, text: String)? {
        let name = DisplayWidth.sanitize(label)
        guard !name.isEmpty else { return nil }
        let text = " " + name + " "
        let w = DisplayWidth.of(text)
        let cols = snapshot.rows.first?.count ?? 0
        let width = min(layout.width, cols)
        let foreign = foreignLand(in: snapshot, marker: marker)
        let y = marker.y
        guard y >= 0, y < height else { return nil }
        var best: (x: Int, covered: Int)?
        for x in [marker.x + 1, marker.x - w] where x >= 0 && x + w <= width && layout.isFree(x..<(x + w), row: y) {
            let covered = (x..<(x + w)).filter { foreign.contains(y * cols + $0) }.count
            if best == nil || covered < best!.covered { best = (x, covered) }
        }
        guard let best else { return nil }
        layout.reserve(x: best.x, width: w, row: y)
        return (best.x, y, text)
    }

    /// Where a label of `text` goes beside a marker at column `markerX` in a row `width` wide:
    /// the start column and the (possibly truncated) padded text, or nil when there is no room.
    public static func labelPlacement(_ text: String, markerX: Int, width: Int) -> (x: Int, text: String)? {
        var layout = LabelLayout(width: width)
        layout.reserve(x: markerX, width: 1, row: 0)
        return layout.place(text, markerX: markerX, row: 0, truncating: true)
    }

    /// "├────┤ 50 km": the longest of the bar's round distances whose bar and text fit in `maxWidth`
    /// (the bar is shortened before the text goes); when no text fits, the longest bar alone that fits
    /// (nil if none does).
    public static func scaleText(_ bar: MapScaleBar, maxWidth: Int) -> String? {
        func line(_ columns: Int) -> String { "├" + String(repeating: "─", count: columns - 2) + "┤" }
        let steps = bar.steps.filter { $0.columns >= 2 }
        for step in steps where step.columns <= maxWidth {
            let full = line(step.columns) + " " + DisplayWidth.sanitize(step.label)
            if DisplayWidth.of(full) <= maxWidth { return full }
        }
        return steps.first { $0.columns <= maxWidth }.map { line($0.columns) }
    }

    public static func style(_ kind: MapCellKind, _ palette: MapPalette) -> Style {
        switch kind {
        case .sea: return .plain
        case .land: return palette.land
        case .coast: return palette.coast
        case .border: return palette.border
        }
    }
}
