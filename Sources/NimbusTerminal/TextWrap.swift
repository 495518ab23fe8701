/// Breaks text into lines of at most `width` display columns: at spaces where it can, inside a word
/// (or a run of CJK text, which has no spaces) where it must.
public enum TextWrap {
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let w = DisplayWidth.of(String(word))
            let needed = lineWidth == 0 ? w : lineWidth + 1 + w
            if needed <= width {
                if lineWidth > 0 { line += " " }
                line += word
                lineWidth = needed
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            // The word alone is too wide: cut it by columns.
            for ch in word {
                let cw = DisplayWidth.of(ch)
                if lineWidth + cw > width, lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                line.append(ch)
                lineWidth += cw
            }
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Draws `paragraphs` wrapped to the painter's width, each line centred, from row `top` down;
    /// what does not fit below is left out. Returns the rows used.
    @discardableResult
    public static func drawCentred(_ p: Painter, _ paragraphs: [String], top: Int, style: Style) -> Int {
        guard p.width > 0 else { return 0 }
        var y = max(0, top)
        for paragraph in paragraphs {
            for line in lines(DisplayWidth.sanitize(paragraph), width: p.width) {
                guard y < p.height else { return y - top }
                p.text(line, x: max(0, (p.width - DisplayWidth.of(line)) / 2), y: y, style: style)
                y += 1
            }
        }
        return y - top
    }
}
