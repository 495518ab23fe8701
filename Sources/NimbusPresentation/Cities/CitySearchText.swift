import NimbusDomain

/// What a city search says beyond its rows, in the Cities tab and on the command line alike: why
/// nothing is listed (no such city; no such region or country; no such city in the region named),
/// the cities a query may have meant, and where a narrowed query looked.
public struct CitySearchText: Sendable {
    public let l10n: L10n
    public var countries: CountryNames { l10n.countryNames }

    public init(l10n: L10n) {
        self.l10n = l10n
    }

    /// The places a qualifier named, as a reader says them: "Illinois, United States", "France",
    /// "Georgia, United States or Georgia"; more than two as typed (“ca”: California, Canada and
    /// five regions elsewhere whose code is CA); nil for a qualifier that named none.
    public func places(_ qualifier: CityQualifier?) -> String? {
        guard case .places(let named, let regions, let codes)? = qualifier else { return nil }
        if regions.count + codes.count > 2 { return l10n.format(.citiesMatched, named) }
        let names = regions.map { place in
            CityPlace.text(countryCode: place.countryCode, region: place.region, namesakes: [], coordinate: Coordinate(latitude: 0, longitude: 0),
                           language: l10n.language, countries: countries, always: true)
        } + codes.map(countries.name)
        return names.isEmpty ? nil : list(names)
    }

    /// Why `matches` (none) lists nothing, for the Cities tab: "No city matches “pariss”", "No region
    /// or country is called “xx”", "No city “paris” in Texas, United States".
    public func nothing(_ matches: CityMatches) -> String {
        switch matches.qualifier {
        case .unknown(let text)?: return l10n.format(.citiesEmptyUnknownPlace, text)
        case .places?: return l10n.format(.citiesEmptyWithin, trimmed(matches.nameQuery), places(matches.qualifier) ?? "")
        case nil: return l10n.format(.citiesEmpty, matches.query)
        }
    }

    /// The same for the command line, with the cities it may have meant: `no city matches "pariss" —
    /// did you mean Paris (France)?` (what the user typed is in it as typed: the caller sanitises).
    public func commandLine(_ matches: CityMatches, suggested: [CitySummary]) -> String {
        let said: String
        switch matches.qualifier {
        case .unknown(let text)?: said = l10n.format(.cliCityUnknownPlace, text, matches.query)
        case .places?: said = l10n.format(.cliCityWithin, trimmed(matches.nameQuery), places(matches.qualifier) ?? "")
        case nil: said = l10n.format(.cliCityNone, matches.query)
        }
        guard !suggested.isEmpty else { return said }
        return l10n.format(.cliCitySuggest, said, list(suggested.map(suggestion), last: .listOr))
    }

    /// One city a query may have meant: "Paris (France)", "Paris (Texas, United States)".
    public func suggestion(_ city: CitySummary) -> String {
        l10n.format(.citiesSuggestion, CityNameChoice.name(city, language: l10n.language),
                    CityPlace.text(city, language: l10n.language, countries: countries))
    }

    /// The heading above the cities a query may have meant: "No city matches “pariss”. Did you mean:".
    public func suggesting(_ matches: CityMatches) -> String {
        l10n.format(.citiesSuggest, trimmed(matches.nameQuery))
    }

    /// "A, B or C" (the last two joined by `last`, the others by the language's comma).
    private func list(_ items: [String], last: L10nKey = .listOr) -> String {
        guard var text = items.last else { return "" }
        if items.count >= 2 { text = l10n.format(last, items[items.count - 2], text) }
        for item in items.dropLast(2).reversed() { text = l10n.format(.listComma, item, text) }
        return text
    }

    private func trimmed(_ text: String) -> String {
        String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
