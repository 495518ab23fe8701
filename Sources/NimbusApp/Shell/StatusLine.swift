import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// The bottom of the frame: key hints on the left of the status bar; on its right a message (what
/// `y` copied, a retry's countdown) or else where the data comes from; and a notice the user must
/// read once (the settings file's problem) on its own line over the screen, so that it takes
/// nothing from the hints.
struct StatusLine {
    var hints: [(key: String, label: String)]
    /// Said until the next key: shown whole where the bar is wide enough, in place of the source and
    /// before the hints.
    var message: String?
    /// "GeoNames · 34,006 cities": loses its last parts before it is cut.
    var source: String
    var notice: String?

    /// Draws on the last row of `p` (and the notice on the rows above it).
    func draw(_ p: Painter, theme: Theme) {
        let bar = p.sub(Rect(x: 0, y: p.height - 1, width: p.width, height: 1))
        let right = message ?? source
        StatusBar.draw(bar, hints: hints, right: right, style: theme.statusBar, keyStyle: theme.statusKey,
                       partsDrop: message == nil)
        guard let notice, p.height > 2 else { return }
        let lines = Array(TextWrap.lines(DisplayWidth.sanitize(notice), width: max(1, p.width - 2)).prefix(max(1, (p.height - 2) / 3)))
        let top = p.height - 1 - lines.count
        for (i, line) in lines.enumerated() {
            p.fill(Rect(x: 0, y: top + i, width: p.width, height: 1), style: theme.overlay)
            p.text(line, x: 1, y: top + i, style: theme.overlay)
        }
    }

    /// "Terminal too small (need 40×10, have 30×8)", centred: broken after its list separator
    /// rather than cut when one line is too narrow.
    static func drawTooSmall(_ p: Painter, size: Size, minimum: Size, l10n: L10n, theme: Theme) {
        let detail = l10n.format(.tooSmallDetail, String(minimum.cols), String(minimum.rows), String(size.cols), String(size.rows))
        var lines = [l10n[.tooSmall], detail]
        if DisplayWidth.of(detail) > size.cols, let cut = detail.range(of: ", ") ?? detail.range(of: "、") {
            lines = [l10n[.tooSmall], String(detail[..<cut.lowerBound]), String(detail[cut.upperBound...])]
        }
        let top = max(0, (size.rows - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < size.rows {
            let shown = DisplayWidth.truncate(line, to: size.cols)
            p.text(shown, x: max(0, (size.cols - DisplayWidth.of(shown)) / 2), y: top + i, style: theme.warning)
        }
    }
}
