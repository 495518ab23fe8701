import NimbusDomain
import NimbusPresentation
import NimbusTerminal

/// Draws map snapshots: the cells, the city's marker and label, and a scale bar.
public enum MapSnapshotView {
    /// The city's marker glyph.
    public static let marker = "●"

    /// Draws `snapshot` from the painter's top-left corner, clipped to the painter, with the marker and,
    /// when `label` is given, the label beside it (on the side with room, never over the marker or
    /// past the edge; truncated by display width when neither side has room).
    public static func draw(_ snapshot: MapSnapshot, in p: Painter, palette: MapPalette, label: String? = nil) {
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
        guard let marker = snapshot.marker, marker.x < p.width, marker.y < p.height else { return }
        p.text(Self.marker, x: marker.x, y: marker.y, style: palette.marker)
        if let label { drawLabel(label, at: marker, in: p, width: min(p.width, snapshot.key.size.cols), style: palette.label) }
    }

    /// Where a label of `text` goes beside a marker at column `markerX` in a row `width` wide:
    /// the start column and the (possibly truncated) padded text, or nil when there is no room.
    public static func labelPlacement(_ text: String, markerX: Int, width: Int) -> (x: Int, text: String)? {
        let name = DisplayWidth.sanitize(text)
        let padded = " " + name + " "
        let needed = DisplayWidth.of(padded)
        let right = width - (markerX + 1)
        let left = markerX
        if needed <= right { return (markerX + 1, padded) }
        if needed <= left { return (markerX - needed, padded) }
        let room = max(left, right)
        guard room >= 3 else { return nil }
        let shown = " " + DisplayWidth.truncate(name, to: room - 2) + " "
        let w = DisplayWidth.of(shown)
        return right >= left ? (markerX + 1, shown) : (markerX - w, shown)
    }

    private static func drawLabel(_ text: String, at marker: (x: Int, y: Int), in p: Painter, width: Int, style: Style) {
        guard let placement = labelPlacement(text, markerX: marker.x, width: width) else { return }
        p.text(placement.text, x: placement.x, y: marker.y, style: style)
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
