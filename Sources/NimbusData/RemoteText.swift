import Foundation

/// Limits on text from a server, applied where DTOs become domain values: a title or name of at
/// most 1,000 scalars, an overview of at most 10,000, at most `maxCombiningMarks` combining marks
/// after one base character, and lists of at most `maxItems`. Escape sequences are left to
/// `DisplayWidth.sanitize` where text is drawn (`clip`), or removed here for text that is kept as
/// it is (`clean`); these limits keep that (and everything else) cheap.
enum RemoteText {
    static let name = 1_000
    static let overview = 10_000
    static let maxCombiningMarks = 8
    static let maxItems = 100
    static let maxCrew = 2_000

    /// `text` cut to `limit` scalars with combining runs capped; the same string when nothing was cut.
    static func clip(_ text: String, to limit: Int) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        var marks = 0
        var changed = false
        for scalar in text.unicodeScalars {
            if count == limit { changed = true; break }
            if scalar.value >= 0x300, isCombiningMark(scalar) {
                marks += 1
                if marks > maxCombiningMarks { changed = true; continue }
            } else {
                marks = 0
            }
            out.append(scalar)
            count += 1
        }
        return changed ? String(out) : text
    }

    /// `clip`, after removing control characters and bidirectional overrides (line breaks, the line
    /// and paragraph separators and tabs become spaces) and replacing what is unassigned (and the
    /// noncharacters) with U+FFFD, trimmed: for short fields kept on disk and shown as they are (event
    /// places, ids). What else a terminal cannot print with a known width is replaced where text is
    /// drawn (`ScalarWidth`, through `DisplayWidth`), by the same rule.
    static func clean(_ text: String, maxScalars limit: Int) -> String {
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v == 0x0A || v == 0x09 || v == 0x0D || v == 0x2028 || v == 0x2029 {
                kept.append(" ")
            } else if v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                        || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C {
                continue
            } else if isUnassigned(scalar) {
                kept.append(replacement)
            } else {
                kept.append(scalar)
            }
            count += 1
            // `clip` below counts precisely; this only stops the copy of a long text early.
            if count > limit + maxCombiningMarks + 1 { break }
        }
        return clip(String(kept), to: limit).trimmingCharacters(in: .whitespaces)
    }

    /// What an unassigned code point or a noncharacter becomes.
    static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Unassigned in the Unicode this Swift knows, noncharacters included.
    static func isUnassigned(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x378 && scalar.properties.generalCategory == .unassigned
    }

    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}
