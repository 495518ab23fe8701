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
