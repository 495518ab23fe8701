import NimbusDomain

/// What is wrong with a line the TOML parser stopped on, found by reading the line itself: the app
/// says it in its own words and languages rather than passing on the parser's English.
enum TOMLSyntax {
    /// Line `number` (from 1) of `text`, without its line ending; empty when there is no such line.
    static func line(_ number: Int, of text: String) -> Substring {
        // By bytes: "\r\n" is one Character, which a split on "\n" would not cut (a CRLF file was one line).
        var n = 1
        for bytes in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if n == number {
                let line = Substring(bytes)
                return line.utf8.last == 0x0D ? Substring(line.utf8.dropLast()) : line
            }
            n += 1
        }
        return ""
    }

    static func classify(line: Substring) -> SettingsProblem.Syntax {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("[") {
            return unclosed(trimmed) ? .unclosedString : .other
        }
        if unclosed(trimmed) { return .unclosedString }
        guard let equals = indexOfEquals(trimmed) else { return .notKeyValue }
        let value = trimmed[trimmed.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
        if value.isEmpty || value.hasPrefix("#") { return .missingValue }
        return .other
    }

    /// True when a basic (`"`) or literal (`'`) string opened on the line is not closed on it (a
    /// multi-line string's opening `"""` or `'''` is not counted).
    static func unclosed(_ line: Substring) -> Bool {
        var quote: Character?
        var escaped = false
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if let open = quote {
                if escaped { escaped = false }
                else if c == "\\" && open == "\"" { escaped = true }
                else if c == open { quote = nil }
            } else if c == "#" {
                return false
            } else if c == "\"" || c == "'" {
                let rest = line[i...]
                if rest.hasPrefix(String(repeating: c, count: 3)) { return false }
                quote = c
            }
            i = line.index(after: i)
        }
        return quote != nil
    }

    /// The `=` after the key, outside quoted key parts.
    private static func indexOfEquals(_ line: Substring) -> Substring.Index? {
        var quote: Character?
        for i in line.indices {
            let c = line[i]
            if let open = quote { if c == open { quote = nil } }
            else if c == "\"" || c == "'" { quote = c }
            else if c == "=" { return i }
            else if c == "#" { return nil }
        }
        return nil
    }

    /// The English for the log and for `SettingsProblem.message`.
    static func english(_ syntax: SettingsProblem.Syntax) -> String {
        switch syntax {
        case .unclosedString: "a quote is not closed"
        case .notKeyValue: "not a key = value line"
        case .missingValue: "a key with no value"
        case .nulByte: "a NUL byte"
        case .other: "not a value TOML allows"
        }
    }
}
