import Foundation

/// Folds names and queries into search tokens; mirrors `fold_tokens` in `scripts/build-resources.py`.
///
/// Per scalar: Hangul (U+1100–11FF, U+3130–318F, U+AC00–D7A3) and kana (U+3040–30FF) are kept as they are;
/// anything else is NFKD-decomposed, nonspacing marks dropped, lowercased with its full case mapping
/// (nonspacing marks dropped again) and a few undecomposable letters replaced (ß→ss, ø→o, ł→l, …).
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
        buffer.removeAll()
        memo.withTable { table in
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                // ASCII: letters and digits are token characters; everything else is P*, S*, Zs or Cc.
                switch value {
                case 0x41...0x5A: buffer.append(byte: UInt8(value + 0x20))
                case 0x61...0x7A, 0x30...0x39: buffer.append(byte: UInt8(value))
                default: buffer.endToken()
                }
            } else if isKept(value) {
                buffer.append(scalar: scalar)
            } else {
                let folded: [Unicode.Scalar]
                if let hit = table[value] {
                    folded = hit
                } else {
                    folded = foldScalar(scalar)
                    table[value] = folded
                }
                for f in folded { buffer.append(scalar: f) }
            }
        }
        }
        buffer.endToken()
    }

    /// Folding a non-ASCII scalar goes through Foundation's decomposition, which costs microseconds;
    /// names repeat the same few hundred scalars, so each is folded once per process.
    private static let memo = ScalarMemo()

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

/// A thread-safe memo of `NameFolding.foldScalar`.
private final class ScalarMemo: @unchecked Sendable {
    private var table: [UInt32: [Unicode.Scalar]] = [:]
    private let lock = NSLock()

    /// Runs `body` with the table locked: one lock per folded name, not one per scalar.
    func withTable<T>(_ body: (inout [UInt32: [Unicode.Scalar]]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&table)
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

    mutating func append(scalar: Unicode.Scalar) {
        if NameFolding.isSeparator(scalar) {
            endToken()
        } else {
            UTF8.encode(scalar) { bytes.append($0) }
        }
    }

    mutating func endToken() {
        if bytes.count > tokenStart {
            ends.append(bytes.count)
            tokenStart = bytes.count
        }
    }
}
