import Foundation
import Synchronization

/// Country names in the UI language, through Foundation/ICU, memoised per code.
public final class CountryNames: Sendable {
    private let locale: Locale
    private let cache = Mutex<[String: String]>([:])

    public init(locale: Locale) { self.locale = locale }

    /// ICU on Linux names CN "China mainland" (its short form for contexts that list Hong Kong and
    /// Macao beside it); a city list wants the plain country name.
    private static let overrides: [String: [String: String]] = [
        "CN": ["en": "China", "ko": "중국", "ja": "中国"],
    ]

    /// The localised name of an ISO 3166 code, or the code itself when ICU has none.
    public func name(_ code: String) -> String {
        cache.withLock { cache in
            if let hit = cache[code] { return hit }
            let name = Self.overrides[code]?[locale.language.languageCode?.identifier ?? ""]
                ?? locale.localizedString(forRegionCode: code) ?? code
            cache[code] = name
            return name
        }
    }
}
