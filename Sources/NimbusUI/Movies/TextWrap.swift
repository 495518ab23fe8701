import NimbusTerminal

/// Breaks text into lines of at most `width` display columns: at spaces where it can, inside a word
/// (or a run of CJK text, which has no spaces) where it must.
enum TextWrap {
    static func lines(_ text: String, width: Int) -> [String] {
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
}
