import Foundation

/// A populated place from the bundled catalogue.
public struct City: Equatable, Hashable, Sendable, Identifiable {
    /// The GeoNames id.
    public let id: Int
    public let name: String
    /// ISO 3166-1 alpha-2 country code.
    public let countryCode: String
    public let latitude: Double
    public let longitude: Double
    public let population: Int
    /// IANA time-zone identifier.
    public let timeZone: String
    /// Every other name of the place, in any script.
    public let alternateNames: [String]

    public init(id: Int, name: String, countryCode: String, latitude: Double, longitude: Double,
                population: Int, timeZone: String, alternateNames: [String]) {
        self.id = id
        self.name = name
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
        self.timeZone = timeZone
        self.alternateNames = alternateNames
    }
}

/// What a result row needs of a city; far cheaper to read than a whole `City`.
public struct CitySummary: Equatable, Hashable, Sendable {
    public let id: Int
    public let name: String
    public let countryCode: String
    public let population: Int
    public init(id: Int, name: String, countryCode: String, population: Int) {
        self.id = id
        self.name = name
        self.countryCode = countryCode
        self.population = population
    }
}

/// A position in a catalogue: catalogues are ordered by population, largest first.
public struct CityRef: Hashable, Sendable, Comparable {
    public let index: Int32
    public init(_ index: Int32) { self.index = index }
    public static func < (l: CityRef, r: CityRef) -> Bool { l.index < r.index }
}

/// The cities matching one query, most populous first.
public struct CityMatches: Equatable, Sendable {
    public let query: String
    public let refs: [CityRef]
    public init(query: String, refs: [CityRef]) {
        self.query = query
        self.refs = refs
    }
    public var count: Int { refs.count }
}

/// One city of a result list, with the alternate name that the query matched when it was not the canonical name.
public struct CitySearchHit: Equatable, Sendable {
    public let city: CitySummary
    public let matchedName: String?
    public init(city: CitySummary, matchedName: String?) {
        self.city = city
        self.matchedName = matchedName
    }
}
