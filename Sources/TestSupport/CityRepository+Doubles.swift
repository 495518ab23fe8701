import Synchronization
import NimbusDomain

/// A catalogue in memory that keeps what it was asked, and finds its cities by position.
public final class InMemoryCityRepository: CityRepository, CityLocating, Sendable {
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
    private struct Asked {
        var searches: [String] = []
        var languages: [CityNameLanguage] = []
        var decoded: [CityRef] = []
    }
    private let asked = Mutex(Asked())

    /// The queries searched, in order.
    public var searches: [String] { asked.withLock { $0.searches } }
    /// The language of each search.
    public var languages: [CityNameLanguage] { asked.withLock { $0.languages } }
    /// Cities decoded whole (`city(_:)`), in order.
    public var decoded: [CityRef] { asked.withLock { $0.decoded } }

    public init(_ cities: [City], search: Search = .words) {
        self.cities = search == .words ? cities.sorted { $0.population > $1.population } : cities
        self.rule = search
    }

    public var cityCount: Int { cities.count }

    public func search(_ query: String, in language: CityNameLanguage) -> CityMatches {
        asked.withLock { asked in
            asked.searches.append(query)
            asked.languages.append(language)
        }
        if rule == .everything { return CityMatches(query: query, allOf: cities.count) }
        let words = query.lowercased().split(separator: " ")
        let refs = cities.indices.filter { i in
            let tokens = ([cities[i].name] + cities[i].alternateNames).flatMap { $0.lowercased().split(separator: " ") }
            return words.allSatisfy { w in tokens.contains { $0.hasPrefix(w) } }
        }
        return CityMatches(query: query, refs: refs.map { CityRef(Int32($0)) })
    }

    public func city(_ ref: CityRef) -> City {
        asked.withLock { $0.decoded.append(ref) }
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

    /// The city nearest to `point`, by great-circle distance.
    public func nearestCity(to point: GeoPoint) -> CityRef? {
        func distance(_ city: City) -> Double {
            GeoPoint(latitude: city.latitude, longitude: city.longitude).map { point.distance(to: $0) } ?? .infinity
        }
        return cities.indices.min { distance(cities[$0]) < distance(cities[$1]) }.map { CityRef(Int32($0)) }
    }

    /// The most populous city in the time zone `zone`.
    public func largestCity(inTimeZone zone: String) -> CityRef? {
        cities.indices.filter { cities[$0].timeZone == zone }.max { cities[$0].population < cities[$1].population }
            .map { CityRef(Int32($0)) }
    }
}
