import Foundation

/// Changes the top-level keys of a TOML document where they are written, never re-serialising it: a
/// key's value is replaced in place (its spelling, spacing and trailing comment kept), a removed key
/// loses its line(s), and a new key goes after the last top-level key (else before the first table
/// and the comments just above it). Every other byte stays as the user wrote it.
///
/// A scanner of TOML's structure, not a parser: it finds where each top-level key/value pair starts
/// and ends, following strings (multi-line ones too), arrays and inline tables across lines and
/// comments, up to the first table header. It trusts a document TOMLKit has accepted; anything it
/// can't follow makes `init` fail, so nothing is edited.
public struct TOMLLineEditor: Sendable {
    /// A value the app writes.
    public enum Value: Equatable, Sendable {
        case string(String)
        case integer(Int)
        case boolean(Bool)
    }

    /// A top-level key/value pair, by byte offsets into the document.
    struct Entry: Equatable {
        /// The key's parts (more than one for a dotted key), unquoted and unescaped.
        let key: [String]
        let lineStart: Int
        let valueStart: Int
        let valueEnd: Int
        /// Just after its newline (or the end of the document).
        let lineEnd: Int
    }

    let bytes: [UInt8]
    let entries: [Entry]
    /// Where a new key goes.
    let insertionPoint: Int
    /// The document's line ending ("\r\n" when its first line has one).
    let newline: [UInt8]

    /// Nil when the text can't be followed (it is not TOML the scanner knows).
    public init?(_ text: String) {
        bytes = Array(text.utf8)
        var scanner = Scanner(bytes: bytes)
        guard let root = scanner.rootTable() else { return nil }
        entries = root.entries
        insertionPoint = root.entries.last?.lineEnd ?? root.firstTable ?? bytes.count
        if let lf = bytes.firstIndex(of: Scanner.lf), lf > 0, bytes[lf - 1] == Scanner.cr {
            newline = [Scanner.cr, Scanner.lf]
        } else {
            newline = [Scanner.lf]
        }
    }

    /// The line (from 1) where the top-level key `key` is set, or the first key under it is (`key.x = 1`).
    public func line(of key: String) -> Int? {
        guard let entry = entries.first(where: { $0.key.first == key }) else { return nil }
        return bytes[..<entry.lineStart].reduce(1) { $1 == Scanner.lf ? $0 + 1 : $0 }
    }

    /// The document with each key set to its value, or removed where the value is nil; keys are
    /// one plain name (the app's own), a new one written bare (`name = value`).
    public func setting(_ changes: [(key: String, value: Value?)]) -> String {
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        var added: [UInt8] = []
        for (key, value) in changes {
            if let entry = entries.first(where: { $0.key == [key] }) {
                if let value {
                    let old = bytes[entry.valueStart..<entry.valueEnd]
                    edits.append((entry.valueStart..<entry.valueEnd, Array(Self.literal(value, like: old).utf8)))
                } else {
                    edits.append((entry.lineStart..<entry.lineEnd, []))
                }
            } else if let value {
                added += Array("\(key) = \(Self.literal(value, like: []))".utf8) + newline
            }
        }
        if !added.isEmpty {
            let at = insertionPoint
            let atLineStart = at == 0 || bytes[at - 1] == Scanner.lf || (at == 3 && bytes.starts(with: Scanner.byteOrderMark))
            let needsBreak = !atLineStart
            edits.append((at..<at, (needsBreak ? newline : []) + added))
        }
        var result = bytes
        // From the end, so the offsets of the edits not yet made stay right.
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            result.replaceSubrange(edit.range, with: edit.bytes)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `value` as TOML: a string in single quotes where the old value was one and it can be, else in
    /// double quotes with escapes.
    static func literal(_ value: Value, like old: ArraySlice<UInt8>) -> String {
        switch value {
        case .integer(let n): return String(n)
        case .boolean(let b): return b ? "true" : "false"
        case .string(let s):
            let literalOld = old.first == Scanner.apostrophe && !old.starts(with: [Scanner.apostrophe, Scanner.apostrophe, Scanner.apostrophe])
            if literalOld, !s.unicodeScalars.contains(where: { $0 == "'" || $0.value < 0x20 || $0.value == 0x7F }) {
                return "'" + s + "'"
            }
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    out += String(format: "\\u%04X", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
    }
}

/// Walks TOML bytes: the root table's key/value pairs, each value skipped whole.
private struct Scanner {
    static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, space: UInt8 = 0x20, tab: UInt8 = 0x09
    static let quote: UInt8 = 0x22, apostrophe: UInt8 = 0x27, backslash: UInt8 = 0x5C, hash: UInt8 = 0x23
    static let openBracket: UInt8 = 0x5B, closeBracket: UInt8 = 0x5D, openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
    static let comma: UInt8 = 0x2C, dot: UInt8 = 0x2E, equals: UInt8 = 0x3D
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// Arrays and inline tables nested deeper than this are not followed (TOMLKit refuses them sooner).
    static let maximumDepth = 1024

    let bytes: [UInt8]
    var i = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func peek(_ k: Int = 0) -> UInt8? { i + k < bytes.count ? bytes[i + k] : nil }

    var atLineEnd: Bool {
        guard let c = peek() else { return true }
        return c == Self.lf || (c == Self.cr && peek(1) == Self.lf)
    }

    mutating func skipSpaces() {
        while let c = peek(), c == Self.space || c == Self.tab { i += 1 }
    }

    /// Past one line ending; false when there is none here.
    mutating func skipNewline() -> Bool {
        if peek() == Self.lf { i += 1; return true }
        if peek() == Self.cr, peek(1) == Self.lf { i += 2; return true }
        return false
    }

    /// To the end of the line (its ending not taken).
    mutating func skipComment() {
        while !atLineEnd { i += 1 }
    }

    /// Spaces, comments and line endings, as between an array's values.
    mutating func skipBlank() {
        while true {
            skipSpaces()
            if peek() == Self.hash { skipComment() }
            if !skipNewline() { return }
        }
    }

    /// The key/value pairs before the first table header, and where that header's block starts (the
    /// comment lines just above it included).
    mutating func rootTable() -> (entries: [TOMLLineEditor.Entry], firstTable: Int?)? {
        var entries: [TOMLLineEditor.Entry] = []
        if bytes.starts(with: Self.byteOrderMark) { i = 3 }
        var comments: Int?
        while i < bytes.count {
            let lineStart = i
            skipSpaces()
            if skipNewline() { comments = nil; continue }
            guard let c = peek() else { break }
            if c == Self.hash {
                if comments == nil { comments = lineStart }
                skipComment()
                _ = skipNewline()
                continue
            }
            if c == Self.openBracket { return (entries, comments ?? lineStart) }
            guard let key = key(), peek() == Self.equals else { return nil }
            i += 1
            skipSpaces()
            let valueStart = i
            guard value() else { return nil }
            let valueEnd = i
            skipSpaces()
            if peek() == Self.hash { skipComment() }
            guard atLineEnd else { return nil }
            _ = skipNewline()
            entries.append(.init(key: key, lineStart: lineStart, valueStart: valueStart, valueEnd: valueEnd, lineEnd: i))
            comments = nil
        }
        return (entries, nil)
    }

    /// A key, dotted or not: its parts unquoted.
    mutating func key() -> [String]? {
        var parts: [String] = []
        while true {
            skipSpaces()
            guard let c = peek() else { return nil }
            if c == Self.quote {
                guard let part = basicString() else { return nil }
                parts.append(part)
            } else if c == Self.apostrophe {
                guard let part = literalString() else { return nil }
                parts.append(part)
            } else {
                let start = i
                while let c = peek(), Self.isBare(c) { i += 1 }
                guard i > start else { return nil }
                parts.append(String(decoding: bytes[start..<i], as: UTF8.self))
            }
            skipSpaces()
            guard peek() == Self.dot else { return parts }
            i += 1
        }
    }

    static func isBare(_ c: UInt8) -> Bool {
        (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || (0x30...0x39).contains(c) || c == 0x5F || c == 0x2D
    }

    mutating func value() -> Bool {
        guard let c = peek() else { return false }
        switch c {
        case Self.quote:
            if peek(1) == Self.quote, peek(2) == Self.quote { return multiLineString(Self.quote) }
            return basicString() != nil
        case Self.apostrophe:
            if peek(1) == Self.apostrophe, peek(2) == Self.apostrophe { return multiLineString(Self.apostrophe) }
            return literalString() != nil
        case Self.openBracket: return array()
        case Self.openBrace: return inlineTable()
        default: return bareValue()
        }
    }

    /// `"""…"""` or `'''…'''`: up to two quotes may end the text just before the closing three.
    mutating func multiLineString(_ delimiter: UInt8) -> Bool {
        i += 3
        while let c = peek() {
            if delimiter == Self.quote, c == Self.backslash { i += 2; continue }
            if c == delimiter, peek(1) == delimiter, peek(2) == delimiter {
                var run = 3
                while run < 5, peek(run) == delimiter { run += 1 }
                i += run
                return true
            }
            i += 1
        }
        return false
    }

    /// `"…"` on one line, unescaped.
    mutating func basicString() -> String? {
        i += 1
        var text: [UInt8] = []
        while let c = peek() {
            if c == Self.quote { i += 1; return String(decoding: text, as: UTF8.self) }
            if c == Self.lf || c == Self.cr { return nil }
            if c == Self.backslash {
                guard let e = peek(1) else { return nil }
                i += 2
                switch e {
                case 0x62: text.append(0x08) // b
                case 0x74: text.append(0x09) // t
                case 0x6E: text.append(0x0A) // n
                case 0x66: text.append(0x0C) // f
                case 0x72: text.append(0x0D) // r
                case 0x65: text.append(0x1B) // e
                case 0x75, 0x55, 0x78: // u, U, x
                    let count = e == 0x75 ? 4 : e == 0x55 ? 8 : 2
                    guard i + count <= bytes.count,
                          let value = UInt32(String(decoding: bytes[i..<(i + count)], as: UTF8.self), radix: 16),
                          let scalar = Unicode.Scalar(value) else { return nil }
                    text += Array(String(scalar).utf8)
                    i += count
                default: text.append(e) // \" and \\
                }
                continue
            }
            text.append(c)
            i += 1
        }
        return nil
    }

    /// `'…'` on one line, as written.
    mutating func literalString() -> String? {
        i += 1
        let start = i
        while let c = peek() {
            if c == Self.apostrophe {
                defer { i += 1 }
                return String(decoding: bytes[start..<i], as: UTF8.self)
            }
            if c == Self.lf || c == Self.cr { return nil }
            i += 1
        }
        return nil
    }

    mutating func array() -> Bool {
        i += 1
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return false }
        while true {
            skipBlank()
            if peek() == Self.closeBracket { i += 1; return true }
            guard value() else { return false }
            skipBlank()
            if peek() == Self.comma { i += 1; continue }
            guard peek() == Self.closeBracket else { return false }
            i += 1
            return true
        }
    }

    /// `{ a = 1, b.c = "x" }` (line endings and a trailing comma followed too, as TOML 1.1 allows).
    mutating func inlineTable() -> Bool {
        i += 1
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return false }
        while true {
            skipBlank()
            if peek() == Self.closeBrace { i += 1; return true }
            guard key() != nil, peek() == Self.equals else { return false }
            i += 1
            skipSpaces()
            guard value() else { return false }
            skipBlank()
            if peek() == Self.comma { i += 1; continue }
            guard peek() == Self.closeBrace else { return false }
            i += 1
            return true
        }
    }

    /// A number, boolean or date and time (which may hold one space): up to what ends a value.
    mutating func bareValue() -> Bool {
        let start = i
        while let c = peek(), c != Self.comma, c != Self.closeBracket, c != Self.closeBrace, c != Self.hash,
              c != Self.lf, c != Self.cr {
            i += 1
        }
        while i > start, bytes[i - 1] == Self.space || bytes[i - 1] == Self.tab { i -= 1 }
        return i > start
    }
}
