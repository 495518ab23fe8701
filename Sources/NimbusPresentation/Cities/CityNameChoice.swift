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

    /// The name in the UI language's own script, nil in English or where the catalogue has none
    /// (`CityLocalNames.shown(in:)`).
    public static func local(_ names: CityLocalNames, language: Language) -> String? {
        names.shown(in: language.cityNames)
    }
}

extension Language {
    /// The language city names are shown and ranked in.
    public var cityNames: CityNameLanguage {
        switch self {
        case .en: .geoNames
        case .ja: .japanese
        case .ko: .korean
        }
    }
}
