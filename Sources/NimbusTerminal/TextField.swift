import Foundation

/// Text and caret of a single-line input.
public struct TextFieldState: Equatable, Sendable {
    public var text: String
    /// Caret position as a grapheme index, 0...text.count.
    public var caret: Int

    public init(text: String = "") {
        self.text = text
        self.caret = text.count
    }

    public enum Edit: Equatable, Sendable {
        /// The text changed.
        case changed
        /// Enter.
        case submitted
        /// Escape.
        case cancelled
        /// Not a text-field key; let the screen handle it.
        case ignored
        /// Consumed but the text is the same (caret moves, backspace at start, full field).
        case unchanged
    }

    /// Applies an editing key; at most `maxLength` graphemes are kept.
    /// What a search field's key means for its screen, under the focus rules every search screen
    /// shares (fzf's): ↓ and Enter leave the field keeping the query, Esc clears the query and leaves.
    public enum SearchKey: Equatable, Sendable {
        /// The query is now this text (typed or deleted).
        case edited(String)
        /// Enter: run this query and go to the results.
        case submitted(String)
        /// ↓: go to what is below the field.
        case down
        /// Esc: the field is emptied; the query is now empty, and the focus goes back to the list.
        case cancelled
        /// A key the field took without changing anything (a cursor move at an edge).
        case unchanged
        /// Not a key for the field.
        case ignored
    }

    /// Applies `key` to the field as a search field (see `SearchKey`).
    public mutating func handleSearchKey(_ key: Key) -> SearchKey {
        if key == .down { return .down }
        switch handle(key) {
        case .changed: return .edited(text)
        case .submitted: return .submitted(text)
        case .cancelled:
            self = TextFieldState()
            return .cancelled
        case .unchanged: return .unchanged
        case .ignored: return .ignored
        }
    }

    public mutating func handle(_ key: Key, maxLength: Int = 256) -> Edit {
        var chars = Array(text)
        caret = min(max(caret, 0), chars.count)
        switch key {
        case .char(let c):
            guard DisplayWidth.of(c) > 0 || !c.unicodeScalars.contains(where: { DisplayWidth.isControl($0.value) }) else {
                return .ignored
            }
            guard chars.count < maxLength else { return .unchanged }
            return insert(String(c), into: chars)
        case .paste(let s):
            let room = maxLength - chars.count
            guard room > 0 else { return .unchanged }
            // Strip first, normalise only the part that fits: O(n) scan, NFC on at most `room` graphemes.
            let (clean, needsNFC) = DisplayWidth.stripControls(TextFieldState.flattenLines(s))
            let prefix = String(clean.prefix(room))
            let piece = needsNFC ? DisplayWidth.nfc(prefix) : prefix
            guard !piece.isEmpty else { return .unchanged }
            return insert(piece, into: chars)
        case .backspace, .ctrl("h"):
            guard caret > 0 else { return .unchanged }
            chars.remove(at: caret - 1)
            caret -= 1
            text = String(chars)
            return .changed
        case .delete:
            guard caret < chars.count else { return .unchanged }
            chars.remove(at: caret)
            text = String(chars)
            return .changed
        case .left:
            caret = max(0, caret - 1)
            return .unchanged
        case .right:
            caret = min(chars.count, caret + 1)
            return .unchanged
        case .home, .ctrl("a"):
            caret = 0
            return .unchanged
        case .end, .ctrl("e"):
            caret = chars.count
            return .unchanged
        case .ctrl("u"):
            guard !chars.isEmpty else { return .unchanged }
            text = ""
            caret = 0
            return .changed
        case .ctrl("w"):
            guard caret > 0 else { return .unchanged }
            var start = caret
            while start > 0 && chars[start - 1].isWhitespace { start -= 1 }
            while start > 0 && !chars[start - 1].isWhitespace { start -= 1 }
            chars.removeSubrange(start..<caret)
            caret = start
            text = String(chars)
            return .changed
        case .enter:
            return .submitted
        case .escape:
            return .cancelled
        default:
            return .ignored
        }
    }

    private mutating func insert(_ s: String, into chars: [Character]) -> Edit {
        let before = Self.fullwidthKana(String(chars[..<caret]) + s)
        let after = String(chars[caret...])
        let newText = DisplayWidth.nfc(before + after)
        guard newText != text else { return .unchanged }
        text = newText
        caret = min(DisplayWidth.nfc(before).count, text.count)
        return .changed
    }

    /// Half-width katakana (U+FF61–FF9F) as their full-width forms: ﾊﾟﾘ is typed and shown as パリ.
    /// A half-width voicing mark is a grapheme extender of its own width, which Swift joins to the kana
    /// before it while a terminal draws it in a column of its own; full-width, the two make one kana.
    static func fullwidthKana(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { (0xFF61...0xFF9F).contains($0.value) }) else { return s }
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            if (0xFF61...0xFF9F).contains(scalar.value) {
                out.append(contentsOf: String(scalar).precomposedStringWithCompatibilityMapping.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out).precomposedStringWithCanonicalMapping
    }

    private static func flattenLines(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return s }
        return String(s.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }

    /// Display column of the caret within `text`.
    public var caretColumn: Int {
        var col = 0
        for (i, ch) in text.enumerated() {
            if i >= caret { break }
            col += DisplayWidth.of(ch)
        }
        return col
    }
}

/// Single-line text input drawing.
public enum TextField {
    /// Draws `prompt` then the text, scrolled by columns so the caret is visible; when focused the hardware
    /// cursor is left at the caret so IME composition appears in place.
    public static func draw(_ p: Painter, state: TextFieldState, prompt: String, placeholder: String, focused: Bool,
                            style: Style, placeholderStyle: Style) {
        guard p.width > 0, p.height > 0 else { return }
        p.fill(Rect(x: 0, y: 0, width: p.width, height: 1), style: style)
        let promptCols = min(p.text(prompt, x: 0, y: 0, style: style), p.width)
        let avail = p.width - promptCols
        guard avail > 0 else {
            if focused { p.setCursor(x: p.width - 1, y: 0) }
            return
        }
        let field = p.sub(Rect(x: promptCols, y: 0, width: avail, height: 1))
        let chars = Array(state.text)
        let caret = min(max(state.caret, 0), chars.count)
        if chars.isEmpty {
            field.text(DisplayWidth.truncate(placeholder, to: avail), x: 0, y: 0, style: placeholderStyle)
            if focused { field.setCursor(x: 0, y: 0) }
            return
        }
        let widths = chars.map { DisplayWidth.of($0) }
        var caretCol = 0
        for i in 0..<caret { caretCol += widths[i] }
        // Scroll so the caret column (plus room for a wide glyph under it) fits.
        let caretWidth = caret < chars.count ? max(1, widths[caret]) : 1
        let scroll = max(0, caretCol + caretWidth - avail)
        var start = 0
        var startCol = 0
        while start < chars.count && startCol < scroll {
            startCol += widths[start]
            start += 1
        }
        var col = 0
        var i = start
        while i < chars.count && col + widths[i] <= avail {
            field.text(String(chars[i]), x: col, y: 0, style: style)
            col += widths[i]
            i += 1
        }
        if focused { field.setCursor(x: min(caretCol - startCol, avail - 1), y: 0) }
    }
}
