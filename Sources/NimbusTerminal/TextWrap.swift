/// Breaks text into lines of at most `width` display columns: at spaces where it can; in text
/// without spaces (Japanese and Chinese), between two of its characters, keeping a run of Latin
/// letters and digits whole (`--location`, `LAT,LON`) and following the Japanese line-breaking rules
/// (kinsoku): no line starts with a closing mark (`。`, `）`, `ー`, small kana) and none ends with an
/// opening one (`（`, `「`). Only a piece wider than the whole line is cut inside, by columns.
public enum TextWrap {
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        func endLine() {
            lines.append(line)
            line = ""
            lineWidth = 0
        }
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            for (index, piece) in pieces(word).enumerated() {
                let w = DisplayWidth.of(piece)
                // A space before a word's first piece; the pieces of one word join without one.
                let gap = index == 0 && lineWidth > 0 ? 1 : 0
                if lineWidth + gap + w <= width {
                    if gap > 0 { line += " " }
                    line += piece
                    lineWidth += gap + w
                    continue
                }
                if lineWidth > 0 { endLine() }
                if w <= width {
                    line = piece
                    lineWidth = w
                    continue
                }
                // The piece alone is too wide: cut it by columns.
                for ch in piece {
                    let cw = DisplayWidth.of(ch)
                    if lineWidth + cw > width, lineWidth > 0 { endLine() }
                    line.append(ch)
                    lineWidth += cw
                }
            }
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// A word cut where a line may break inside it: before and after each CJK character, never
    /// inside a run of other characters, never before a closing mark or after an opening one.
    static func pieces(_ word: Substring) -> [String] {
        // Most words (Latin, Hangul, digits) hold no such character: one piece, without a walk by characters.
        guard word.unicodeScalars.contains(where: { isIdeographic($0.value) }) else { return [String(word)] }
        var pieces: [String] = []
        var run = ""
        for ch in word {
            if isIdeographic(ch) {
                if !run.isEmpty { pieces.append(run); run = "" }
                pieces.append(String(ch))
            } else {
                run.append(ch)
            }
        }
        if !run.isEmpty { pieces.append(run) }
        var joined: [String] = []
        for piece in pieces {
            if let last = joined.last, let first = piece.first,
               noLineStart.contains(first) || last.last.map(noLineEnd.contains) == true {
                joined[joined.count - 1] += piece
            } else {
                joined.append(piece)
            }
        }
        return joined
    }

    /// Characters of scripts written without spaces (Han, kana, CJK and full-width punctuation): a
    /// line may break on either side of one. Hangul is written with spaces and is not among them.
    static func isIdeographic(_ ch: Character) -> Bool {
        ch.unicodeScalars.first.map { isIdeographic($0.value) } ?? false
    }

    private static func isIdeographic(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x2E80...0x2FFF, 0x3000...0x303F, 0x3040...0x30FF, 0x3100...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// Marks a line may not start with (JIS X 4051's closing brackets, full stops, middle dots,
    /// iteration marks, the prolonged sound mark and small kana), and their ASCII counterparts.
    static let noLineStart: Set<Character> = Set("、。，．・：；？！ー〜）」』】〕〉》〙〗］｝ヽヾゝゞ々ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ),.:;!?]}%")
    /// Marks a line may not end with: opening brackets.
    static let noLineEnd: Set<Character> = Set("（「『【〔〈《〘〖［｛([{")

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
