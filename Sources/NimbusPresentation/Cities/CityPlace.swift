import Foundation
import NimbusDomain

/// Where a city is, as a row or a header writes it beside the city's name: its country, with its
/// region (state, province, prefecture) when another city of the country is shown by the same name
/// ("Illinois, United States" for one of eight Springfields), and its coordinates too when even
/// that region has another ("Minas Gerais, Brazil, 19.77°S 43.85°W"). Korean and Japanese write
/// the larger place first (미국 일리노이주, アメリカ合衆国 イリノイ州). The detail header gives the region always.
public enum CityPlace {
    public static func text(_ city: CitySummary, language: Language, countries: CountryNames, always: Bool = false) -> String {
        // Most cities have no namesake: the country alone, without working out the shown name (a list's every row asks).
        if !always, city.namesakes.isEmpty { return countries.name(city.countryCode) }
        return text(countryCode: city.countryCode, region: city.region, namesakes: city.namesakes, coordinate: city.coordinate,
             language: language, countries: countries, always: always, cityName: CityNameChoice.name(city, language: language))
    }

    /// Whether a region's name is the city's, give or take its kind ("Seoul" and "서울특별시" for 서울;
    /// "Tokyo"; "東京都" for 東京; "Beijing").
    static func sameName(_ region: String, _ city: String) -> Bool {
        guard !city.isEmpty else { return false }
        let kinds = ["특별자치시", "특별시", "광역시", "特別市", "広域市", "都", "府", "市", "시", " City", " Municipality"]
        var bare = region
        for kind in kinds where bare.hasSuffix(kind) && bare.count > kind.count { bare = String(bare.dropLast(kind.count)); break }
        return bare.compare(city, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
            || region.compare(city, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
    }

    public static func text(_ city: City, language: Language, countries: CountryNames, always: Bool = false) -> String {
        text(CitySummary(city), language: language, countries: countries, always: always)
    }

    public static func text(countryCode: String, region: CityRegion?, namesakes: CityNamesakes, coordinate: Coordinate,
                            language: Language, countries: CountryNames, always: Bool = false, cityName: String = "") -> String {
        let country = countries.name(countryCode)
        let names = language.cityNames
        var parts: [String] = []
        // Not "Seoul · Seoul, South Korea": a region named as the city says nothing more (unless
        // it is what tells two namesakes apart).
        if let region, always || namesakes.sharesName(in: names),
           namesakes.sharesName(in: names) || !sameName(region.name(in: names), cityName) {
            let regionName = region.name(in: names)
            switch language {
            case .en: parts = [regionName + ", " + country]
            case .ko, .ja: parts = [country + " " + regionName]
            }
        } else {
            parts = [country]
        }
        if namesakes.sharesRegion(in: names) || (region == nil && namesakes.sharesName(in: names)) {
            parts.append(WeatherFormatter.coordinates(coordinate))
        }
        return parts.joined(separator: language == .en ? ", " : " ")
    }
}

extension CityPlace {
    /// `text` for a narrow column where it gives a region: the region and the country's ISO code
    /// ("Illinois, US"), so that what tells namesakes apart is what stays; nil where it gives none.
    public static func short(_ city: CitySummary, language: Language) -> String? {
        let names = language.cityNames
        guard city.namesakes.sharesName(in: names), let region = city.region else { return nil }
        return region.name(in: names) + ", " + city.countryCode
    }

    /// The city's name for a place that shows no country beside it (Today's rows, the settings' home):
    /// with its region when another city of the country is shown by the same name ("Springfield,
    /// Illinois"; "스프링필드(일리노이주)"), and its coordinates too when the region is shared as well.
    public static func qualifiedName(_ city: CitySummary, language: Language) -> String {
        let name = CityNameChoice.name(city, language: language)
        let names = language.cityNames
        guard city.namesakes.sharesName(in: names) else { return name }
        var details: [String] = []
        if let region = city.region { details.append(region.name(in: names)) }
        if city.namesakes.sharesRegion(in: names) || city.region == nil {
            details.append(WeatherFormatter.coordinates(city.coordinate))
        }
        switch language {
        case .en: return ([name] + details).joined(separator: ", ")
        case .ko, .ja: return name + "(" + details.joined(separator: " ") + ")"
        }
    }

    public static func qualifiedName(_ city: City, language: Language) -> String {
        qualifiedName(CitySummary(city), language: language)
    }
}
