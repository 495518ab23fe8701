import Foundation
import Synchronization

/// Folds names and queries into search tokens; mirrors `fold_tokens` in `scripts/build-resources.py`.
///
/// Per scalar: Hangul (U+1100–11FF, U+3130–318F, U+AC00–D7A3) and kana (U+3040–30FF) are kept as they are;
/// anything else is NFKD-decomposed, nonspacing marks dropped, lowercased with its full case mapping
/// (nonspacing marks dropped again) and a few undecomposable letters replaced (ß→ss, ø→o, ł→l, …).
/// Katakana, kept or out of a decomposition (half-width ｶ), then folds to hiragana (`hiragana`), so
/// トウキョウ, とうきょう and the readings in the index are one token; a kana and the voicing mark after
/// it (ﾄﾞ, or ト and the combining U+3099) are first the one voiced kana (`voiced`).
/// Tokens are split at separators, punctuation, symbols, controls and format characters.
public enum NameFolding {
    /// The folded tokens of `text`, in order (duplicates kept).
    public static func tokens(_ text: String) -> [String] {
        var buffer = FoldedTokens()
        fold(text, into: &buffer)
        return (0..<buffer.count).map { String(decoding: buffer.token($0), as: UTF8.self) }
    }

    /// Folds `text` into `buffer`, replacing its contents; reuses the buffer's storage.
    static func fold(_ text: String, into buffer: inout FoldedTokens) {
        var text = text
        text.withUTF8 { fold(utf8: UnsafeRawBufferPointer($0), into: &buffer) }
    }

    /// Folds UTF-8 bytes (a name read in place from the catalogue) into `buffer`. A byte that does
    /// not start a valid sequence ends the token, as a separator would.
    static func fold(utf8: UnsafeRawBufferPointer, into buffer: inout FoldedTokens) {
        buffer.removeAll()
        // One lock for the whole name: the table is read and grown in place.
        table.withLock { table in fold(utf8: utf8, into: &buffer, table: &table) }
    }

    private static func fold(utf8: UnsafeRawBufferPointer, into buffer: inout FoldedTokens, table: inout FoldTable) {
        let n = utf8.count
        var i = 0
        while i < n {
            let lead = utf8[i]
            if lead < UTF8Lead.firstNonASCII {
                // ASCII: letters and digits are token characters; everything else is P*, S*, Zs or Cc.
                switch lead {
                case 0x41...0x5A: buffer.append(byte: lead + 0x20)
                case 0x61...0x7A, 0x30...0x39: buffer.append(byte: lead)
                default: buffer.endToken()
                }
                i += 1
                continue
            }
            let length = UTF8Lead.sequenceLength(lead) // 0 for a continuation byte or 0xC0, 0xC1, 0xF8…
            // The lead byte's payload bits: 3 of a four-byte sequence, 4 of a three-byte one, 5 of a two-byte one.
            var value = UInt32(lead) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
            var valid = length > 0 && i + length <= n
            if valid {
                for k in 1..<length {
                    let b = utf8[i + k]
                    if !UTF8Lead.isContinuation(b) { valid = false; break }
                    value = value << 6 | UInt32(b & 0x3F)
                }
                // Overlong forms are invalid, as String(decoding:) has them (surrogates and values
                // past U+10FFFF fail Unicode.Scalar below).
                if length == 3 && value < 0x800 || length == 4 && value < 0x10000 { valid = false }
            }
            guard valid, let scalar = Unicode.Scalar(value) else {
                buffer.endToken()
                i += 1
                continue
            }
            i += length
            var folded = scalar
            if i + 3 <= n, let voiced = voiced(scalar, mark: (utf8[i], utf8[i + 1], utf8[i + 2])) {
                folded = voiced
                i += 3
            }
            let (start, count) = table.folded(folded)
            for k in start..<(start + count) {
                let b = table.pool[k]
                if b == FoldTable.separator { buffer.endToken() } else { buffer.append(byte: b) }
            }
        }
        buffer.endToken()
    }

    /// Folding a non-ASCII scalar goes through Foundation's decomposition and the scalar's
    /// properties, which cost microseconds; names repeat the same few hundred scalars, so each is
    /// folded once per process.
    private static let table = Mutex(FoldTable())

    /// What `scalar` adds to a token, as UTF-8 bytes with `FoldTable.separator` where a token ends.
    fileprivate static func foldedBytes(_ scalar: Unicode.Scalar) -> [UInt8] {
        var out: [UInt8] = []
        for folded in isKept(scalar.value) ? [scalar] : foldScalar(scalar) {
            let s = hiragana(folded)
            if isSeparator(s) { out.append(FoldTable.separator) } else { UTF8.encode(s) { out.append($0) } }
        }
        return out
    }

    /// What one non-ASCII, non-kept scalar folds to (possibly nothing, possibly several scalars).
    static func foldScalar(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        for decomposed in String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars {
            if decomposed.properties.generalCategory == .nonspacingMark { continue }
            if decomposed.value < 0x80 {
                out.append(decomposed.lowercasedASCII)
                continue
            }
            for lower in decomposed.properties.lowercaseMapping.unicodeScalars {
                if lower.properties.generalCategory == .nonspacingMark { continue }
                if let replacement = special(lower) {
                    out += replacement.unicodeScalars
                } else {
                    out.append(lower)
                }
            }
        }
        return out
    }

    /// The kana `base` voiced by the mark whose UTF-8 bytes follow it (゙ U+3099 or ﾞ U+FF9E, ゚ U+309A
    /// or ﾟ U+FF9F): ﾄﾞ and ド are ド, as typed on one key; nil when no mark follows or the kana takes none.
    /// The same rule as `compose_voicing` in `scripts/build-resources.py`.
    static func voiced(_ base: Unicode.Scalar, mark bytes: (UInt8, UInt8, UInt8)) -> Unicode.Scalar? {
        guard (0x3041...0x30FF).contains(base.value) || (0xFF66...0xFF9D).contains(base.value) else { return nil }
        let mark: Unicode.Scalar
        switch bytes {
        case (0xE3, 0x82, 0x99), (0xEF, 0xBE, 0x9E): mark = "\u{3099}"
        case (0xE3, 0x82, 0x9A), (0xEF, 0xBE, 0x9F): mark = "\u{309A}"
        default: return nil
        }
        let full = String(base).precomposedStringWithCompatibilityMapping
        let composed = (full + String(mark)).precomposedStringWithCanonicalMapping.unicodeScalars
        return composed.count == 1 ? composed.first : nil
    }

    /// Katakana to hiragana: U+30A1–30F6 and U+30FD–30FE less 0x60 (ア→あ, ヴ→ゔ, ヶ→ゖ, ヽ→ゝ); ヷ–ヺ,
    /// ー and everything else unchanged. The same table as `hiragana` in `scripts/citynames.py`.
    static func hiragana(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x30A1...0x30F6, 0x30FD...0x30FE: return Unicode.Scalar(scalar.value - 0x60)!
        default: return scalar
        }
    }

    static func isKept(_ value: UInt32) -> Bool {
        (0x1100...0x11FF).contains(value) || (0x3130...0x318F).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0x3040...0x30FF).contains(value)
    }

    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
             .control, .format:
            return true
        default:
            return false
        }
    }

    /// Letters that NFKD leaves alone but a reader would fold (the same table as `SPECIAL` in the script).
    private static func special(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "ß": return "ss"
        case "ø": return "o"
        case "ł": return "l"
        case "đ", "ð": return "d"
        case "æ": return "ae"
        case "œ": return "oe"
        case "ı": return "i"
        case "þ": return "th"
        case "ħ": return "h"
        case "ŧ": return "t"
        case "ς": return "σ"
        default: return nil
        }
    }
}

/// The folded bytes of every non-ASCII scalar seen so far: a slot per BMP scalar (a dictionary
/// for the rest) pointing into one byte pool. Kept in a `Mutex`, taken once per folded name.
private struct FoldTable: Sendable {
    /// Ends a token; never a byte of UTF-8.
    static let separator: UInt8 = 0xFF

    private(set) var pool: [UInt8] = [0] // offset 0 is never used, so slot 0 means "not folded yet"
    private var bmp: [UInt32] = []
    private var astral: [UInt32: UInt32] = [:]

    /// Where `scalar`'s folded bytes are in `pool`; folds it the first time.
    mutating func folded(_ scalar: Unicode.Scalar) -> (start: Int, count: Int) {
        let v = scalar.value
        if v < 0x10000 {
            if bmp.isEmpty { bmp = Array(repeating: 0, count: 0x10000) }
            if bmp[Int(v)] == 0 { bmp[Int(v)] = add(NameFolding.foldedBytes(scalar)) }
            return Self.decode(bmp[Int(v)])
        }
        if let slot = astral[v] { return Self.decode(slot) }
        let slot = add(NameFolding.foldedBytes(scalar))
        astral[v] = slot
        return Self.decode(slot)
    }

    private mutating func add(_ bytes: [UInt8]) -> UInt32 {
        let start = pool.count
        pool += bytes.prefix(255)
        return UInt32(start) << 8 | UInt32(min(bytes.count, 255))
    }

    private static func decode(_ slot: UInt32) -> (start: Int, count: Int) {
        (Int(slot >> 8), Int(slot & 0xFF))
    }
}

private extension Unicode.Scalar {
    var lowercasedASCII: Unicode.Scalar {
        (0x41...0x5A).contains(value) ? Unicode.Scalar(UInt8(value + 0x20)) : self
    }
}

/// Folded tokens as UTF-8 bytes in one reusable buffer.
struct FoldedTokens {
    private(set) var bytes: [UInt8] = []
    /// End offset (in `bytes`) of each completed token.
    private(set) var ends: [Int] = []
    private var tokenStart = 0

    var count: Int { ends.count }

    func token(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        tokenStart = 0
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    mutating func endToken() {
        if bytes.count > tokenStart {
            ends.append(bytes.count)
            tokenStart = bytes.count
        }
    }
}
