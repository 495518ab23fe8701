import NimbusDomain

/// The one rule for a city's name on screen: in Japanese and Korean the name the catalogue chose for
/// that language (東京, 서울), where GeoNames has one; the canonical name otherwise and in English.
/// Lists, the detail header, Today, Quakes' "km from" and map labels all go through here.
public enum CityNameChoice {
    public static func name(_ city: City, language: Language) -> String {
        local(city.localNames, language: language) ?? city.name
    }

    public static func name(_ city: CitySummary, language: Language) -> String {
        local(city.localNames, language: language) ?? city.name
    }

    /// The name in the UI language's own script, nil in English or where the catalogue has none.
    /// GeoNames lists most Japanese and Chinese cities in Korean only as the city form with a spaced
    /// 시 (요코하마 시), which Korean writes 요코하마 or 요코하마시: the app shows 요코하마.
    public static func local(_ names: CityLocalNames, language: Language) -> String? {
        switch language {
        case .en: return nil
        case .ja: return names.japanese
        case .ko: return names.korean.map(withoutSpacedCitySuffix)
        }
    }

    static func withoutSpacedCitySuffix(_ name: String) -> String {
        guard name.hasSuffix(" 시") else { return name }
        let stem = name.dropLast(2)
        return stem.count >= 2 ? String(stem) : name
    }
}
