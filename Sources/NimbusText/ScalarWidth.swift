import Glibc

/// The one rule for every string from outside (warnings, films, quakes, the catalogue, the command
/// line's output): how many columns a terminal advances for a scalar, or nil when a terminal cannot
/// print it with a known width. Such a scalar is replaced (`replacement`) wherever text reaches a
/// terminal: a terminal advances nothing for it (or something of its own choosing), and the cells
/// after it are left unpainted. Unprintable are: C0 and C1 controls and DEL; the line and paragraph
/// separators; unassigned code points and noncharacters; and any scalar the C library's `wcwidth`
/// (which ncurses and tmux measure with) does not know, as those assigned in a newer Unicode than
/// its tables.
///
/// Unprintable too are the scalars whose width terminals disagree on (`isDisputed`): the C library
/// (ncurses, tmux) and the wcwidth tables of newer terminal emulators give them different widths,
/// so no count of columns holds everywhere.
///
/// `TerminalWidthReferenceTests` checks every scalar against an independent reading (Python's
/// `unicodedata` and the pinned `wcwidth` package).
public enum ScalarWidth {
    /// What an unprintable scalar becomes: U+FFFD, one column everywhere.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Columns `scalar` takes (0, 1 or 2), or nil when it is not printable with a known width.
    public static func of(_ scalar: Unicode.Scalar) -> Int? {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return nil }
        if v < 0x300 { return 1 }
        // Hangul syllables, the CJK ideographs and kana: every one assigned since Unicode 2 to 13,
        // wide everywhere; most of the non-Latin text drawn, measured without a property lookup.
        if (0xAC00...0xD7A3).contains(v) || (0x4E00...0x9FFC).contains(v) || (0x3041...0x3096).contains(v)
            || (0x30A1...0x30FA).contains(v) { return 2 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .unassigned, .surrogate, .lineSeparator, .paragraphSeparator, .control, .spacingMark:
            return nil
        default:
            break
        }
        if isDisputed(v) { return nil }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) || v == 0x200B { return 0 }
        // Known to the C library: assigned in the Unicode version of its tables.
        let known = utf8LocaleReady ? Int(c_wcwidth(Int32(bitPattern: v))) : 1
        if known < 0 { return nil }
        if isWide(v) { return 2 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark:
            return 0
        case .format:
            // The prepended concatenation marks (Arabic number signs) are printed, one column.
            return isPrependedConcatenationMark(v) ? 1 : 0
        default:
            break
        }
        if properties.isEmojiPresentation { return 2 }
        return utf8LocaleReady ? min(known, 2) : 1
    }

    /// Scalars whose width the C library (glibc 2.36: what ncurses and tmux measure with) and the
    /// `wcwidth` tables of newer terminals give differently: the spacing combining marks (Mc, taken
    /// out by category: 1 column or none), the symbols Unicode 16 made wide (trigrams, digrams, Tai
    /// Xuan Jing, counting rods: 1 or 2), the ambiguous circled numbers U+3248–324F (2 or 1), the
    /// Hangul fillers (2 or 1 or none), and a regional indicator on its own (1 or 2; a pair, a flag,
    /// is two columns everywhere: `DisplayWidth`).
    public static func isDisputed(_ v: UInt32) -> Bool {
        (0x2630...0x2637).contains(v) || (0x268A...0x268F).contains(v) || (0x3248...0x324F).contains(v)
            || v == 0x3164 || v == 0xFFA0 || (0x1D300...0x1D356).contains(v) || (0x1D360...0x1D376).contains(v)
            || isRegionalIndicator(v)
    }

    public static func isRegionalIndicator(_ v: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(v) }

    /// The Unicode property Prepended_Concatenation_Mark (PropList.txt): format characters that
    /// are drawn.
    public static func isPrependedConcatenationMark(_ v: UInt32) -> Bool {
        (0x0600...0x0605).contains(v) || v == 0x06DD || v == 0x070F || (0x0890...0x0891).contains(v) || v == 0x08E2
            || v == 0x110BD || v == 0x110CD
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        // The combining marks U+302A–302D and U+3099–309A sit inside East Asian Wide blocks but
        // take no column of their own; nor does U+16FE4, a filler among the wide ideographic symbols.
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x3029, 0x302E...0x303E, 0x3041...0x3098,
        0x309B...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE3,
        0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// East Asian Wide and Fullwidth, from the table (no locale needed).
    public static func isWide(_ v: UInt32) -> Bool {
        if v < 0x1100 { return false }
        for r in wideRanges {
            if v < r.lowerBound { return false }
            if v <= r.upperBound { return true }
        }
        return false
    }

    /// `wcwidth` only knows non-ASCII under a UTF-8 `LC_CTYPE`; switch to C.UTF-8 once if needed.
    private static let utf8LocaleReady: Bool = {
        if codesetIsUTF8() { return true }
        if setlocale(LC_CTYPE, "C.UTF-8") != nil || setlocale(LC_CTYPE, "C.utf8") != nil {
            return codesetIsUTF8()
        }
        return false
    }()

    public static func codesetIsUTF8() -> Bool {
        guard let cs = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: cs).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }
}

/// `wcwidth` is hidden behind `_XOPEN_SOURCE` in the platform module map; bind the C symbol directly.
@_silgen_name("wcwidth")
private func c_wcwidth(_ c: Int32) -> Int32
