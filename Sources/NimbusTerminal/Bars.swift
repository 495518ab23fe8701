/// A row of numbered tabs: " 1 Cities  2 Movies ".
public enum TabBar {
    /// Draws the bar; returns the columns (relative to the painter) each tab shown took, for clicks.
    @discardableResult
    public static func draw(_ p: Painter, titles: [String], active: Int, activeStyle: Style, style: Style) -> [(tab: Int, columns: Range<Int>)] {
        guard p.width > 0, p.height > 0 else { return [] }
        p.fill(Rect(x: 0, y: 0, width: p.width, height: 1), style: style)
        guard !titles.isEmpty else { return [] }
        var labels = titles.enumerated().map { " \($0.offset + 1) \(DisplayWidth.sanitize($0.element)) " }
        if labels.reduce(0, { $0 + DisplayWidth.of($1) }) > p.width {
            // The active tab keeps its title when it can; the others share what is left, their titles
            // shrinking with "…" and then leaving just the numbers.
            let activeLabel = labels.indices.contains(active) ? labels[active] : ""
            let others = max(1, titles.count - (activeLabel.isEmpty ? 0 : 1))
            let keepActive = DisplayWidth.of(activeLabel) + others * 3 <= p.width
            let budget = (p.width - (keepActive ? DisplayWidth.of(activeLabel) : 0)) / (keepActive ? others : titles.count)
            labels = titles.enumerated().map { i, title in
                if i == active && keepActive { return activeLabel }
                let number = " \(i + 1) "
                let room = budget - number.count - 1
                if room >= 3 {
                    return number + DisplayWidth.truncate(DisplayWidth.sanitize(title), to: room) + " "
                }
                return budget >= number.count ? number : "\(i + 1)"
            }
        }
        // When even the compact labels overflow, start late enough that the active tab shows.
        var first = 0
        let widths = labels.map { DisplayWidth.of($0) }
        if active >= 0 && active < labels.count {
            while first < active && widths[first...active].reduce(0, +) > p.width { first += 1 }
        }
        var x = 0
        var placed: [(tab: Int, columns: Range<Int>)] = []
        for i in first..<labels.count {
            if x >= p.width { break }
            let start = x
            x += p.text(labels[i], x: x, y: 0, style: i == active ? activeStyle : style)
            placed.append((i, start..<min(x, p.width)))
        }
        return placed
    }
}

/// Key hints on the left, status text right-aligned; both truncated so they never overlap. A message
/// comes first, the hints after it; the hints come before the source.
public enum StatusBar {
    /// `partsDrop`: the right text is a list of " · " parts ("GeoNames · 34,006 cities") that loses its
    /// last parts before it is cut short; a message (false) is cut at its end.
    public static func draw(_ p: Painter, hints: [(key: String, label: String)], right: String, style: Style,
                            keyStyle: Style, partsDrop: Bool = false) {
        guard p.width > 0, p.height > 0 else { return }
        p.fill(Rect(x: 0, y: 0, width: p.width, height: 1), style: style)
        let pieces = hints.map { (key: DisplayWidth.sanitize($0.key), label: DisplayWidth.sanitize($0.label)) }
        let hintWidths = pieces.map { 1 + DisplayWidth.of($0.key) + 1 + DisplayWidth.of($0.label) + 1 }
        let hintsTotal = hintWidths.reduce(0, +)
        // A message is said once and gets the whole bar if it needs it (the hints give way: they are
        // there after the next key); the source gets whatever the hints leave, but never less than half.
        let room = partsDrop ? max(p.width - hintsTotal - 1, p.width / 2) : p.width
        let rightText = partsDrop ? shortened(DisplayWidth.sanitize(right), to: room) : DisplayWidth.sanitize(right)
        let rightFull = DisplayWidth.of(rightText)
        let rightCols = min(rightFull, room)
        var leftCols = p.width
        if rightCols > 0 {
            let shown = DisplayWidth.truncate(rightText, to: rightCols)
            let w = DisplayWidth.of(shown)
            p.text(shown, x: p.width - w, y: 0, style: style)
            leftCols = p.width - w - 1
        }
        guard leftCols > 0 else { return }
        let left = p.sub(Rect(x: 0, y: 0, width: leftCols, height: 1))
        var x = 0
        for (i, piece) in pieces.enumerated() {
            guard x + hintWidths[i] <= leftCols else { break }
            x += 1
            x += left.text(piece.key, x: x, y: 0, style: keyStyle)
            x += 1
            x += left.text(piece.label, x: x, y: 0, style: style)
            x += 1
        }
    }

    /// `text` without its last " · " parts until it fits `columns`; a single part is kept whole (and cut).
    public static func shortened(_ text: String, to columns: Int) -> String {
        var parts = text.components(separatedBy: " · ")
        while parts.count > 1, DisplayWidth.of(parts.joined(separator: " · ")) > columns { parts.removeLast() }
        return parts.joined(separator: " · ")
    }
}

/// A centred, bordered box sized to its content and clipped to the painter; content taller than the
/// box scrolls, with the position shown in the bottom border.
public enum Overlay {
    /// Draws the box with its content from line `scroll` on; returns the largest scroll that still
    /// fills the box (0 when everything fits), for the caller to clamp to.
    @discardableResult
    /// `minimum` keeps the box at least that many columns and rows (the content it had when it
    /// opened), so it does not change size while what it holds changes.
    public static func draw(_ p: Painter, title: String, lines: [String], style: Style, borderStyle: Style,
                            scroll: Int = 0, minimum: Size = Size(cols: 0, rows: 0)) -> Int {
        guard p.width > 0, p.height > 0 else { return 0 }
        let title = DisplayWidth.sanitize(title)
        let lines = lines.map { DisplayWidth.sanitize($0) }
        let titleCols = title.isEmpty ? 0 : DisplayWidth.of(title) + 4
        let contentCols = max(titleCols, lines.map { DisplayWidth.of($0) + 2 }.max() ?? 0)
        let boxW = min(p.width, max(minimum.cols, contentCols + 2))
        let boxH = min(p.height, max(minimum.rows, lines.count + 2))
        let box = p.sub(Rect(x: (p.width - boxW) / 2, y: (p.height - boxH) / 2, width: boxW, height: boxH))
        box.fill(style: style)
        let visible = max(1, boxH - 2)
        let maxScroll = max(0, lines.count - visible)
        let top = min(max(0, scroll), maxScroll)
        guard boxW >= 2, boxH >= 2 else {
            if lines.indices.contains(top) { box.text(lines[top], x: 0, y: 0, style: style) }
            return maxScroll
        }
        let inner = boxW - 2
        let hline = String(repeating: "─", count: inner)
        box.text("┌" + hline + "┐", x: 0, y: 0, style: borderStyle)
        for y in 1..<(boxH - 1) {
            box.text("│", x: 0, y: y, style: borderStyle)
            box.text("│", x: boxW - 1, y: y, style: borderStyle)
        }
        box.text("└" + hline + "┘", x: 0, y: boxH - 1, style: borderStyle)
        if !title.isEmpty && inner >= 3 {
            let t = " " + DisplayWidth.truncate(title, to: inner - 3) + " "
            box.text(t, x: 2, y: 0, style: borderStyle)
        }
        if maxScroll > 0, inner >= 9 {
            // "↑↓ 3-8/20": which lines are showing, and that there are more.
            let arrows = (top > 0 ? "↑" : "") + (top < maxScroll ? "↓" : "")
            let position = " \(arrows) \(top + 1)-\(min(lines.count, top + visible))/\(lines.count) "
            let shown = DisplayWidth.truncate(position, to: inner - 1, ellipsis: false)
            box.text(shown, x: max(1, boxW - 2 - DisplayWidth.of(shown)), y: boxH - 1, style: borderStyle)
        }
        let body = box.sub(Rect(x: 2, y: 1, width: max(0, boxW - 4), height: boxH - 2))
        for (i, line) in lines.dropFirst(top).enumerated() where i < body.height {
            body.text(DisplayWidth.truncate(line, to: body.width), x: 0, y: i, style: style)
        }
        return maxScroll
    }
}

/// Braille spinner frames.
public struct Spinner {
    public static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    public static func frame(_ tick: Int) -> String {
        let n = frames.count
        return frames[((tick % n) + n) % n]
    }
}
