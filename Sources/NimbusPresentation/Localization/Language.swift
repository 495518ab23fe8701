import Foundation

/// A UI language Nimbus ships strings for.
public enum Language: String, CaseIterable, Sendable {
    case en, ko, ja

    /// Picks the language from `NIMBUS_LANG`, then `LC_ALL`, `LC_MESSAGES`, `LANG` (POSIX order).
    ///
    /// The first variable that is set and non-empty decides; `C`, `POSIX` and unknown values mean English.
    public static func resolve(environment: [String: String]) -> Language {
        for name in ["NIMBUS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return Language(localeValue: value) ?? .en
        }
        return .en
    }

    /// Parses `ko`, `ko_KR`, `ko-KR`, `ko_KR.UTF-8@euro`, case-insensitively.
    public init?(localeValue: String) {
        let code = localeValue
            .prefix { $0 != "_" && $0 != "-" && $0 != "." && $0 != "@" }
            .lowercased()
        guard let language = Language(rawValue: code) else { return nil }
        self = language
    }

    /// The Foundation locale used for numbers, dates and country names.
    public var locale: Locale {
        switch self {
        case .en: Locale(identifier: "en_US")
        case .ko: Locale(identifier: "ko_KR")
        case .ja: Locale(identifier: "ja_JP")
        }
    }

    /// The digit-group separator of `locale` (a test checks it against ICU), without asking ICU
    /// for it at start-up, which builds a number formatter.
    public var groupingSeparator: String {
        switch self {
        case .en, .ko, .ja: ","
        }
    }
}

/// CLDR's plural categories that Nimbus's languages use for whole numbers.
public enum PluralCategory: Equatable, Sendable { case one, other }

public extension Language {
    /// The plural category of a whole count (CLDR: English "one" is exactly 1; Korean and Japanese have
    /// only "other").
    func pluralCategory(_ count: Int) -> PluralCategory {
        switch self {
        case .en: count == 1 ? .one : .other
        case .ko, .ja: .other
        }
    }
}
