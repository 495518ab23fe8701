import NimbusDomain

/// A catalogue in memory that keeps what it was asked. Used on one thread only.
public final class InMemoryCityRepository: CityRepository, @unchecked Sendable {
    /// How a query picks cities.
    public enum Search: Sendable {
        /// Every word of the query starts a word of a city's name or of one of its other names; the
        /// cities are held most populous first.
        case words
        /// Every city matches every query, in the order given.
        case everything
    }

    public let cities: [City]
    private let rule: Search
    /// The queries searched, in order, and the language of each.
    public private(set) var searches: [String] = []
    public private(set) var languages: [CityNameLanguage] = []
    /// Cities decoded whole (`city(_:)`), in order.
    public private(set) var decoded: [CityRef] = []

    public init(_ cities: [City], search: Search = .words) {
        self.cities = search == .words ? cities.sorted { $0.population > $1.population } : cities
        self.rule = search
    }

    public var cityCount: Int { cities.count }

    public func search(_ query: String, in language: CityNameLanguage) -> CityMatches {
        searches.append(query)
        languages.append(language)
        if rule == .everything { return CityMatches(query: query, allOf: cities.count) }
        let words = query.lowercased().split(separator: " ")
        let refs = cities.indices.filter { i in
            let tokens = ([cities[i].name] + cities[i].alternateNames).flatMap { $0.lowercased().split(separator: " ") }
            return words.allSatisfy { w in tokens.contains { $0.hasPrefix(w) } }
        }
        return CityMatches(query: query, refs: refs.map { CityRef(Int32($0)) })
    }

    public func city(_ ref: CityRef) -> City {
        decoded.append(ref)
        return cities[Int(ref.index)]
    }

    public func summary(_ ref: CityRef) -> CitySummary {
        CitySummary(cities[Int(ref.index)])
    }

    /// The first other name the query starts, when no word of the city's own name does.
    public func matchedName(_ ref: CityRef, query: String, in language: CityNameLanguage) -> String? {
        guard rule == .words else { return nil }
        let city = cities[Int(ref.index)]
        let q = query.lowercased()
        if q.isEmpty || city.name.lowercased().split(separator: " ").contains(where: { $0.hasPrefix(q) }) { return nil }
        return city.alternateNames.first { $0.lowercased().hasPrefix(q) }
    }
}
