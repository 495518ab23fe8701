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
        for m in shown { layout.reserve(x: m.x, width: 1, row: m.y) }
        if let city {
            p.text(Self.marker, x: city.x, y: city.y, style: palette.marker)
            if let label, let placement = layout.place(label, markerX: city.x, row: city.y, truncating: true) {
                p.text(placement.text, x: placement.x, y: city.y, style: palette.label)
            }
        }
        for m in shown {
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

    /// Where a label of `text` goes beside a marker at column `markerX` in a row `width` wide:
    /// the start column and the (possibly truncated) padded text, or nil when there is no room.
    public static func labelPlacement(_ text: String, markerX: Int, width: Int) -> (x: Int, text: String)? {
        var layout = LabelLayout(width: width)
        layout.reserve(x: markerX, width: 1, row: 0)
        return layout.place(text, markerX: markerX, row: 0, truncating: true)
    }

    /// "├────┤ 50 km" in `columns` + label width, or only as much as fits in `maxWidth` (nil if the bar doesn't).
    public static func scaleText(_ bar: MapScaleBar, maxWidth: Int) -> String? {
        guard bar.columns >= 2, bar.columns <= maxWidth else { return nil }
        let line = "├" + String(repeating: "─", count: bar.columns - 2) + "┤"
        let full = line + " " + DisplayWidth.sanitize(bar.label)
        return DisplayWidth.of(full) <= maxWidth ? full : line
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
