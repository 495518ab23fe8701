import Foundation
import NimbusDomain

/// The regions and countries a query can name after a city's name to narrow it ("springfield, il",
/// "portland me", "paris france", "london ontario", "파리, 프랑스"), found by their folded names:
/// a region's names in English, Korean and Japanese and its short code (IL, ON); a country's ISO code,
/// its names in English, Korean and Japanese (CLDR, through Foundation) and a few names people use
/// that CLDR does not give (UK, USA). A name can stand for several places ("georgia": the US state
/// and the country; "ca": California and Canada): the query is narrowed to all of them.
struct CityQualifiers: Sendable {
    enum Place: Hashable, Sendable {
        /// An index into the catalogue's region table.
        case region(Int)
        /// An ISO 3166-1 alpha-2 code.
        case country(String)
    }

    /// Places by folded name: the name's folded words joined by a space.
    private let byName: [String: [Place]]
    /// The most words a name has (a query's last words are tried up to this many).
    let longestName: Int

    /// Names people write for a country that are not CLDR's, by ISO code.
    static let aliases: [String: [String]] = [
        "GB": ["UK", "Britain", "Great Britain"], "US": ["USA", "America", "United States of America"],
        "AE": ["UAE"], "KR": ["Korea", "Republic of Korea"], "CZ": ["Czech Republic"], "NL": ["Holland"],
        "CD": ["DRC", "Congo-Kinshasa"], "CG": ["Congo-Brazzaville"], "MM": ["Burma"], "CI": ["Ivory Coast"],
        "TR": ["Turkey"], "SZ": ["Swaziland"], "MK": ["Macedonia"],
    ]

    /// The index of `regions` (the catalogue's table, in order) and of the countries in `countries`.
    init(regions: [CityCatalog.Region], countries: Set<String>) {
        var byName: [String: [Place]] = [:]
        var longest = 1
        func add(_ name: String, _ place: Place) {
            let words = NameFolding.tokens(name)
            guard !words.isEmpty else { return }
            let key = words.joined(separator: " ")
            if byName[key]?.contains(place) != true { byName[key, default: []].append(place) }
            longest = max(longest, words.count)
        }
        for (index, entry) in regions.enumerated() where countries.contains(entry.country) {
            let region = entry.region
            for name in [region.english, region.korean, region.japanese].compactMap({ $0 }) where !name.isEmpty {
                add(name, .region(index))
                // Korean and Japanese write a region's kind after its name (일리노이주, 神奈川県): the bare name too.
                for suffix in Self.kinds where name.hasSuffix(suffix) && name.count > suffix.count + 1 {
                    add(String(name.dropLast(suffix.count)), .region(index))
                }
            }
            if region.code.count >= 2 { add(region.code, .region(index)) }
        }
        let locales = ["en", "ko", "ja"].map { Locale(identifier: $0) }
        for code in countries {
            add(code, .country(code))
            for locale in locales {
                if let name = locale.localizedString(forRegionCode: code) { add(name, .country(code)) }
            }
            for alias in Self.aliases[code] ?? [] { add(alias, .country(code)) }
        }
        self.byName = byName
        self.longestName = longest
    }

    /// The suffixes of a region's kind in Korean and Japanese (주 state, 도 province, 현 prefecture, …).
    private static let kinds = ["특별자치시", "특별자치도", "특별시", "광역시", "주", "도", "현", "부", "성", "州", "県", "府", "都", "省", "道"]

    /// The places `words` (folded, joined by a space) name, nil when none.
    func places(named words: String) -> [Place]? {
        byName[words]
    }
}
