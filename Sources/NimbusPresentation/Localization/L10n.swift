import Foundation
import NimbusLocalization
import Synchronization

/// Localised strings of one language, loaded from `Localization/<lang>.lproj/Localizable.strings`.
///
/// A value in every view model's `State` (so `present` is a function of the state): equal when it
/// is the same language with the same tables, which `bundled` loads once per language (a file it
/// could not read is read again on the next call, so two such values are not equal).
public struct L10n: Sendable, Equatable {
    public let language: Language
    private let tables: Tables
    private let groupingSeparator: String

    /// The tables, shared by every copy and compared by identity (a state is compared on every
    /// action; a table has a thousand strings).
    private final class Tables: Sendable {
        let table: [String: String]
        let fallback: [String: String]
        let countryNames: CountryNames
        init(table: [String: String], fallback: [String: String], locale: Locale) {
            self.table = table
            self.fallback = fallback
            countryNames = CountryNames(locale: locale)
        }
    }

    public init(language: Language, table: [String: String], fallback: [String: String] = [:]) {
        self.language = language
        self.groupingSeparator = language.groupingSeparator
        self.tables = Tables(table: table, fallback: fallback, locale: language.locale)
    }

    public static func == (a: L10n, b: L10n) -> Bool { a.language == b.language && a.tables === b.tables }

    private static let loaded = Mutex<[Language: L10n]>([:])

    /// The bundled strings for `language`, falling back to English for any missing key; read from
    /// disk once per language. A file that cannot be read gives the keys themselves and is not kept:
    /// the next call reads it again.
    public static func bundled(_ language: Language) -> L10n {
        if let known = loaded.withLock({ $0[language] }) { return known }
        let english = try? StringsFile.load(language: .en)
        let own = language == .en ? english : try? StringsFile.load(language: language)
        let made = L10n(language: language, table: own ?? [:], fallback: english ?? [:])
        guard english != nil, own != nil else { return made }
        return loaded.withLock { known in
            if let first = known[language] { return first }
            known[language] = made
            return made
        }
    }

    /// Country names in this language.
    public var countryNames: CountryNames { tables.countryNames }

    private var table: [String: String] { tables.table }
    private var fallback: [String: String] { tables.fallback }

    public subscript(_ key: L10nKey) -> String {
        table[key.rawValue] ?? fallback[key.rawValue] ?? key.rawValue
    }

    /// The string for `key` with its `%@` (or positional `%1$@`) placeholders replaced by `args`.
    public func format(_ key: L10nKey, _ args: String...) -> String {
        StringsFile.substitute(self[key], args)
    }

    /// `key` in the plural form for `count` things, formatted with `args` (the count among them, where
    /// the text shows it): a language whose nouns change with the count (English: "1 event",
    /// "2 events") keeps the singular under `<key>.one`; Korean and Japanese count words do not change
    /// and have the key alone. The one plural mechanism of the app: every count in a sentence goes
    /// through it (`LocalizationTests` lists the English texts that count).
    public func count(_ key: L10nKey, _ count: Int, _ args: String...) -> String {
        let one = key.rawValue + ".one"
        let template = language.pluralCategory(count) == .one ? (table[one] ?? fallbackOne(one)) ?? self[key] : self[key]
        return StringsFile.substitute(template, args)
    }

    /// The English singular is used only for English: another language falls back to its own plural key.
    private func fallbackOne(_ key: String) -> String? { language == .en ? fallback[key] : nil }

    public var locale: Locale { language.locale }

    /// Groups digits the way the language does ("10,349,312").
    public func number(_ n: Int) -> String {
        NumberFormatting.grouped(n, separator: groupingSeparator)
    }
}

/// Digit grouping (every language Nimbus ships groups by threes) without a `NumberFormatter` call per number (those cost ~15 µs each on Linux,
/// and every visible row formats one on every keystroke).
enum NumberFormatting {
    static func grouped(_ n: Int, separator: String) -> String {
        var digits = Array(String(n.magnitude).utf8)[...]
        var out = n < 0 ? "-" : ""
        let head = digits.count % 3 == 0 ? 3 : digits.count % 3
        out += String(decoding: digits.prefix(head), as: UTF8.self)
        digits = digits.dropFirst(head)
        while !digits.isEmpty {
            out += separator
            out += String(decoding: digits.prefix(3), as: UTF8.self)
            digits = digits.dropFirst(3)
        }
        return out
    }
}

/// Parser for the `"key" = "value";` format of `.strings` files.
public enum StringsFile {
    public enum ParseError: Error, Equatable {
        case missingFile(String)
        case syntax(line: Int)
    }

    public static func load(language: Language) throws -> [String: String] {
        guard let data = LocalizationFiles.strings(language: language.rawValue) else {
            throw ParseError.missingFile("\(language.rawValue).lproj/Localizable.strings")
        }
        return try parse(utf8: [UInt8](data))
    }

    /// Parses the text of a strings file; comments (`/* */`, `//`) and blank lines are skipped.
    public static func parse(_ text: String) throws -> [String: String] {
        try parse(utf8: Array(text.utf8))
    }

    /// `parse` over the file's bytes: every delimiter is ASCII, so the text is never decoded
    /// scalar by scalar (start-up reads two of these files before the first frame).
    static func parse(utf8 bytes: [UInt8]) throws -> [String: String] {
        var result: [String: String] = [:]
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0 // a byte-order mark
        var line = 1
        let n = bytes.count
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")

        func skipSpaceAndComments() {
            while i < n {
                let c = bytes[i]
                if c == newline { line += 1; i += 1 }
                else if c == 0x20 || c == 0x09 || c == 0x0D { i += 1 }
                else if c == slash, i + 1 < n, bytes[i + 1] == star {
                    i += 2
                    while i < n, !(bytes[i] == star && i + 1 < n && bytes[i + 1] == slash) {
                        if bytes[i] == newline { line += 1 }
                        i += 1
                    }
                    i = min(n, i + 2)
                } else if c == slash, i + 1 < n, bytes[i + 1] == slash {
                    while i < n, bytes[i] != newline { i += 1 }
                } else { return }
            }
        }
        func quoted() throws -> String {
            guard i < n, bytes[i] == quote else { throw ParseError.syntax(line: line) }
            i += 1
            var out: [UInt8] = []
            while i < n {
                let c = bytes[i]
                i += 1
                switch c {
                case quote: return String(decoding: out, as: UTF8.self)
                case backslash:
                    guard i < n else { throw ParseError.syntax(line: line) }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(newline)
                    case UInt8(ascii: "t"): out.append(0x09)
                    default: out.append(e)
                    }
                case newline: throw ParseError.syntax(line: line)
                default: out.append(c)
                }
            }
            throw ParseError.syntax(line: line)
        }
        func expect(_ c: UInt8) throws {
            skipSpaceAndComments()
            guard i < n, bytes[i] == c else { throw ParseError.syntax(line: line) }
            i += 1
        }

        while true {
            skipSpaceAndComments()
            if i >= n { break }
            let key = try quoted()
            try expect(UInt8(ascii: "="))
            skipSpaceAndComments()
            let value = try quoted()
            try expect(UInt8(ascii: ";"))
            result[key] = value
        }
        return result
    }

    /// The placeholders of a format string, in order (`%@`, `%1$@`, `%d`).
    public static func placeholders(_ format: String) -> [String] {
        var found: [String] = []
        var scalars = Array(format.unicodeScalars)[...]
        while let c = scalars.first {
            scalars.removeFirst()
            guard c == "%" else { continue }
            var spec = "%"
            while let d = scalars.first, d.properties.numericType != nil || d == "$" {
                spec.unicodeScalars.append(d); scalars.removeFirst()
            }
            if let d = scalars.first { spec.unicodeScalars.append(d); scalars.removeFirst() }
            if spec != "%%" { found.append(spec) }
        }
        return found
    }

    static func substitute(_ format: String, _ args: [String]) -> String {
        var out = ""
        var next = 0
        var scalars = Array(format.unicodeScalars)[...]
        while let c = scalars.first {
            scalars.removeFirst()
            guard c == "%" else { out.unicodeScalars.append(c); continue }
            if scalars.first == "%" { scalars.removeFirst(); out.append("%"); continue }
            var digits = ""
            var probe = scalars
            while let d = probe.first, ("0"..."9").contains(d) { digits.unicodeScalars.append(d); probe.removeFirst() }
            if !digits.isEmpty, probe.first == "$", probe.dropFirst().first == "@", let n = Int(digits), n >= 1 {
                scalars = probe.dropFirst(2)
                out += n <= args.count ? args[n - 1] : ""
            } else if scalars.first == "@" {
                scalars.removeFirst()
                out += next < args.count ? args[next] : ""
                next += 1
            } else {
                out.append("%")
            }
        }
        return out
    }
}
