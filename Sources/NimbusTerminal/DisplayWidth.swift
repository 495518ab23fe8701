import Foundation
import Glibc
import NimbusText

/// Terminal column widths of text, measured per grapheme.
///
/// Wide (East Asian Wide/Fullwidth) and zero-width scalars come from a built-in table so results
/// do not depend on the process locale; other scalars fall back to `wcwidth` under a UTF-8 `LC_CTYPE`.
public enum DisplayWidth {
    /// Columns of a whole string, grapheme by grapheme (the same for every canonically equivalent form, so no NFC pass).
    public static func of(_ s: String) -> Int {
        if let ascii = asciiWidth(s) { return ascii }
        var total = 0
        if isSimple(s) {
            for scalar in s.unicodeScalars { total += scalarWidth(scalar) }
        } else {
            for ch in s { total += of(ch) }
        }
        return total
    }

    /// Columns of one grapheme: 0 for controls and lone combining marks, 2 for wide glyphs and emoji sequences.
    public static func of(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        let base = scalarWidth(first)
        guard let second = iterator.next() else { return base }
        if base == 0 && isControl(first.value) { return 0 }
        // Drawn as one replacement when any of its scalars is not printable (`ScreenBuffer.put`).
        if !isPrintable(c) { return 1 }
        // A prepended concatenation mark (U+0600 ARABIC NUMBER SIGN…) joins what follows it into one
        // grapheme, but a terminal gives it a column of its own: its column and the rest's.
        if ScalarWidth.isPrependedConcatenationMark(first.value) {
            return base + of(String(String.UnicodeScalarView(scalars.dropFirst())))
        }
        // Multi-scalar grapheme: emoji presentation and ZWJ / modifier sequences are wide.
        let emojiBase = first.properties.isEmoji
        var next: Unicode.Scalar? = second
        var textPresentation = false
        while let s = next {
            switch s.value {
            case 0xFE0F, 0x200D, 0x1F3FB...0x1F3FF, 0x20E3:
                if emojiBase && !textPresentation { return 2 }
            case 0xFE0E:
                textPresentation = true
            case 0x1F1E6...0x1F1FF:
                if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
            default:
                break
            }
            next = iterator.next()
        }
        return base
    }

    /// Cuts `s` to at most `cols` columns, ending with "…" when anything was cut.
    public static func truncate(_ s: String, to cols: Int, ellipsis: Bool = true) -> String {
        guard cols > 0 else { return "" }
        if let ascii = asciiWidth(s), ascii <= cols { return s }
        let limit = ellipsis ? cols - 1 : cols
        if isSimple(s) {
            // One scalar per grapheme, and already NFC: measured scalar by scalar, without
            // grapheme breaking or a normalisation pass.
            let text = s
            let scalars = text.unicodeScalars
            var used = 0, total = 0
            var cut: String.UnicodeScalarView.Index?
            var index = scalars.startIndex
            while index < scalars.endIndex {
                let w = scalarWidth(scalars[index])
                total += w
                if total > cols { break }
                if cut == nil {
                    if used + w <= limit { used += w } else { cut = index }
                }
                index = scalars.index(after: index)
            }
            if total <= cols { return text }
            var out = String(scalars[..<(cut ?? index)])
            if ellipsis { out.append("…") }
            return out
        }
        let text = nfc(s)
        var out = ""
        var used = 0
        var cutAt: String.Index? = nil
        var index = text.startIndex
        var total = 0
        // Single pass: remember where the limit was exceeded, keep measuring to see if a cut is needed at all.
        while index < text.endIndex {
            let ch = text[index]
            let w = of(ch)
            total += w
            if total > cols { break }
            if cutAt == nil {
                if used + w <= limit {
                    used += w
                } else {
                    cutAt = index
                }
            }
            index = text.index(after: index)
        }
        if total <= cols { return text }
        let end = cutAt ?? index
        out = String(text[text.startIndex..<end])
        if ellipsis { out.append("…") }
        return out
    }

    /// Truncates or pads `s` with spaces to exactly `cols` columns.
    public static func pad(_ s: String, to cols: Int) -> String {
        guard cols > 0 else { return "" }
        let t = truncate(s, to: cols)
        let w = of(t)
        return w < cols ? t + String(repeating: " ", count: cols - w) : t
    }

    /// Whether every scalar of `c` is printable with a known width (a control counts as printable
    /// here: it takes no cell and is never drawn).
    static func isPrintable(_ c: Character) -> Bool {
        let scalars = Array(c.unicodeScalars)
        // A flag: two regional indicators, two columns everywhere (one alone is disputed), then
        // whatever joins the grapheme after it.
        let flag = scalars.count >= 2 && ScalarWidth.isRegionalIndicator(scalars[0].value)
            && ScalarWidth.isRegionalIndicator(scalars[1].value)
        return scalars[(flag ? 2 : 0)...].allSatisfy { isControl($0.value) || ScalarWidth.of($0) != nil }
    }

    /// Removes C0/C1 controls, DEL, escape sequences (CSI, OSC, DCS…) and bidi overrides, and
    /// replaces every other scalar that is not printable with a known width (line and paragraph
    /// separators, unassigned code points, noncharacters: `ScalarWidth`) with U+FFFD; returns NFC text.
    public static func sanitize(_ s: String) -> String {
        let (clean, needsNFC) = stripControls(s)
        guard needsNFC else { return clean }
        // NFC splits some marks in two (U+0F81 TIBETAN VOWEL SIGN REVERSED II is U+0F71 U+0F80), so
        // a run of marks at the cap can grow past it: capped and normalised again until neither
        // changes it (each round only removes marks, so this ends).
        var text = nfc(clean)
        while true {
            let capped = stripControls(text).0
            if capped == text { return text }
            text = nfc(capped)
        }
    }

    /// `sanitize` without the NFC pass; also reports whether NFC could change the result.
    static func stripControls(_ s: String) -> (String, needsNFC: Bool) {
        enum State { case ground, esc, csi, string, stringEsc }
        var state = State.ground
        var out = String.UnicodeScalarView()
        var changed = false
        var onlyStable = true
        var marks = 0 // combining marks since the last other scalar
        // A regional indicator kept while waiting for the one that makes it a flag.
        var loneIndicator = false
        for scalar in s.unicodeScalars {
            let v = scalar.value
            if loneIndicator {
                loneIndicator = false
                if !ScalarWidth.isRegionalIndicator(v) || state != .ground {
                    out.removeLast()
                    out.append(ScalarWidth.replacement)
                    changed = true
                } else {
                    out.append(scalar) // the flag's second half
                    marks = 0
                    continue
                }
            }
            var reprocess = true
            while reprocess {
                reprocess = false
                switch state {
                case .ground:
                    switch v {
                    case 0x1B: state = .esc; changed = true
                    case 0x9B: state = .csi; changed = true
                    case 0x90, 0x98, 0x9D, 0x9E, 0x9F: state = .string; changed = true
                    case 0..<0x20, 0x7F, 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069:
                        changed = true
                    case 0x1F1E6...0x1F1FF:
                        // Printable only as the first half of a flag.
                        onlyStable = false
                        marks = 0
                        out.append(scalar)
                        loneIndicator = true
                    case 0x300...0x10FFFF where ScalarWidth.of(scalar) == nil:
                        // Not printable with a known width: the replacement, one column.
                        changed = true
                        marks = 0
                        out.append(ScalarWidth.replacement)
                    default:
                        if v >= 0x300, !isStableUnderNFC(v) {
                            onlyStable = false
                            if isCombiningMark(scalar) {
                                marks += 1
                                if marks > maxCombiningMarks { changed = true; break }
                            } else {
                                marks = 0
                            }
                        } else if (0xFE00...0xFE0F).contains(v) {
                            // Variation selectors: the only marks NFC leaves alone.
                            marks += 1
                            if marks > maxCombiningMarks { changed = true; break }
                        } else {
                            marks = 0
                        }
                        out.append(scalar)
                    }
                case .esc:
                    switch v {
                    case 0x5B: state = .csi                         // [
                    case 0x5D, 0x50, 0x58, 0x5E, 0x5F: state = .string // ] P X ^ _
                    case 0x1B: state = .esc
                    case 0x20...0x2F: state = .esc                  // intermediates, e.g. ESC ( B
                    case 0x30...0x7E: state = .ground
                    default: state = .ground; reprocess = true
                    }
                case .csi:
                    switch v {
                    case 0x40...0x7E: state = .ground
                    case 0x20...0x3F: break
                    default: state = .ground; reprocess = true
                    }
                case .string:
                    switch v {
                    case 0x07, 0x9C: state = .ground
                    case 0x1B: state = .stringEsc
                    default: break
                    }
                case .stringEsc:
                    if v == 0x5C { state = .ground } else { state = .esc; reprocess = true }
                }
            }
        }
        if loneIndicator {
            out.removeLast()
            out.append(ScalarWidth.replacement)
            changed = true
        }
        return (changed ? String(out) : s, !onlyStable)
    }

    /// Most combining marks kept after one base character (Zalgo text stacks thousands); `sanitize`
    /// drops the rest.
    public static let maxCombiningMarks = 8

    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        if (0x300...0x36F).contains(scalar.value) { return true } // the common block, without a property lookup
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    // MARK: - Internals

    /// NFC form. Text that NFC cannot change (nearly all text a frame draws) is returned as is:
    /// Foundation's normalization goes through `CFString` and was a fifth of drawing a frame.
    static func nfc(_ s: String) -> String {
        isNFC(s) ? s : ChunkedNFC.normalize(s)
    }

    /// True when NFC leaves `s` unchanged because every scalar is one that `isStableUnderNFC` accepts.
    static func isNFC(_ s: String) -> Bool {
        if s.utf8.allSatisfy({ $0 < 0xCC }) { return true } // every scalar < U+0300
        return s.unicodeScalars.allSatisfy { isStableUnderNFC($0.value) }
    }

    /// True when every scalar of `s` is a grapheme of its own and NFC leaves it alone (see
    /// `standsAlone`): such text is measured and drawn scalar by scalar, without grapheme breaking.
    static func isSimple(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { standsAlone($0.value) }
    }

    /// A scalar that no neighbour joins into a grapheme (no combining mark, joiner, variation
    /// selector, conjoining jamo, emoji or halfwidth voicing mark) and that NFC never changes:
    /// Latin, Greek, Cyrillic, punctuation, symbols, box drawing, braille, kana, Hangul syllables,
    /// CJK ideographs and fullwidth forms.
    static func standsAlone(_ v: UInt32) -> Bool {
        v < 0x300 || (isStableUnderNFC(v) && v != 0x200C && v != 0x200D && !(0xFE00...0xFE0F).contains(v)
                      && v != 0xFF9E && v != 0xFF9F && v < 0x1F000)
    }

    /// Scalars NFC never touches whatever surrounds them: combining class 0, NFC of the scalar
    /// alone is itself, and no canonical composition takes them as its second part. Latin,
    /// Cyrillic, Vietnamese, punctuation, symbols, box drawing, braille, kana (less the combining
    /// voicing marks), Hangul syllables, CJK ideographs, fullwidth forms, emoji. Anything else
    /// (combining marks, conjoining jamo, singletons such as U+212B) goes through Foundation.
    /// `DisplayWidthTests` checks every range against Foundation's normalization.
    static func isStableUnderNFC(_ v: UInt32) -> Bool {
        switch v {
        case 0..<0x300, 0x388...0x3FF, 0x400...0x482, 0x48A...0x52F, 0x1E00...0x1EFF,
             0x2002...0x20CF, 0x2100...0x2125, 0x2127...0x2129, 0x212C...0x2328, 0x232B...0x2ADB,
             0x2ADD...0x2BFF, 0x2E00...0x3029, 0x3030...0x3098, 0x309B...0x33FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xFE00...0xFE0F, 0xFF00...0xFFEF,
             0x1F000...0x1FAFF:
            return true
        default:
            return false
        }
    }

    /// Width of a pure-ASCII string (controls count 0), or nil when the string has non-ASCII bytes.
    static func asciiWidth(_ s: String) -> Int? {
        var n = 0
        for b in s.utf8 {
            if b >= 0x80 { return nil }
            if b >= 0x20 && b != 0x7F { n += 1 }
        }
        return n
    }

    static func isControl(_ v: UInt32) -> Bool {
        v < 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0)
    }

    /// Width of one scalar (`ScalarWidth`); a scalar that is not printable with a known width counts
    /// as the one column of the replacement drawn in its place, controls as none.
    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        if isControl(scalar.value) { return 0 }
        return ScalarWidth.of(scalar) ?? 1
    }

    /// The scalar's width, or nil when a terminal cannot print it with a known width (`ScalarWidth`).
    public static func knownWidth(_ scalar: Unicode.Scalar) -> Int? { ScalarWidth.of(scalar) }

    static func isWide(_ v: UInt32) -> Bool { ScalarWidth.isWide(v) }

    static func codesetIsUTF8() -> Bool { ScalarWidth.codesetIsUTF8() }
}

/// NFC in time linear in the text's length. Foundation's normalisation slows down with the length
/// of text that needs it (200,000 letter + mark pairs took 3.7 s, a million ~100 s), so text is
/// normalised in pieces of about a thousand scalars, each ending just before a scalar that NFC never
/// changes and that never combines with what precedes it (`isStableUnderNFC`): NFC of the whole
/// is then the pieces' NFCs joined. A run of thousands of scalars without such a break (only
/// possible in made-up text) is cut where it reaches `maxPiece`.
enum ChunkedNFC {
    static let piece = 1024
    static let maxPiece = 4096

    static func normalize(_ s: String) -> String {
        let scalars = s.unicodeScalars
        var out = ""
        var start = scalars.startIndex
        var length = 0
        var index = start
        while index < scalars.endIndex {
            if length >= piece, length >= maxPiece || DisplayWidth.isStableUnderNFC(scalars[index].value) {
                out += String(String.UnicodeScalarView(scalars[start..<index])).precomposedStringWithCanonicalMapping
                start = index
                length = 0
            }
            length += 1
            index = scalars.index(after: index)
        }
        if start == scalars.startIndex { return s.precomposedStringWithCanonicalMapping }
        out += String(String.UnicodeScalarView(scalars[start...])).precomposedStringWithCanonicalMapping
        return out
    }
}

