import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim

// One double for every dependency the view models and use cases take, each `.failing` or `.noop`
// (see `Unexpected`). Calls that must answer with a value answer the empty one: no rows, nil, zero.
// The scripted doubles beside them (`ScriptedWeatherRepository`, `InMemoryLikes`, …) are for the
// dependencies a test drives.

/// A city catalogue with no cities.
public final class CityRepositoryDouble: CityRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> CityRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: CityRepositoryDouble { .init(.noop) }

    /// What `city(_:)` answers: a city at 0°, 0° in UTC.
    public static let nowhere = City(id: 0, name: "", countryCode: "", latitude: 0, longitude: 0, population: 0,
                                     timeZone: "UTC", alternateNames: [])

    public var cityCount: Int { unexpected.call("CityRepository.cityCount"); return 0 }
    public func search(_ query: String, in language: CityNameLanguage) -> CityMatches {
        unexpected.call("CityRepository.search(\"\(query)\", in: \(language))")
        return CityMatches(query: query, refs: [])
    }
    public func city(_ ref: CityRef) -> City {
        unexpected.call("CityRepository.city(\(ref.index))")
        return Self.nowhere
    }
    public func summary(_ ref: CityRef) -> CitySummary {
        unexpected.call("CityRepository.summary(\(ref.index))")
        let city = Self.nowhere
        return CitySummary(id: city.id, name: city.name, countryCode: city.countryCode, population: 0,
                           latitude: 0, longitude: 0, timeZone: city.timeZone)
    }
    public func matchedName(_ ref: CityRef, query: String, in language: CityNameLanguage) -> String? {
        unexpected.call("CityRepository.matchedName(\(ref.index), query: \"\(query)\", in: \(language))")
        return nil
    }
    public func suggestions(for query: String, in language: CityNameLanguage, limit: Int) -> [CityRef] {
        unexpected.call("CityRepository.suggestions(for: \"\(query)\", in: \(language), limit: \(limit))")
        return []
    }
}

/// Likes with nothing liked; a change is not kept.
public final class LikesRepositoryDouble: LikesRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> LikesRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: LikesRepositoryDouble { .init(.noop) }

    public func likedCityIDs() throws -> [Int] { unexpected.call("LikesRepository.likedCityIDs()"); return [] }
    public func isLiked(_ cityID: Int) throws -> Bool { unexpected.call("LikesRepository.isLiked(\(cityID))"); return false }
    public func setLiked(_ cityID: Int, _ liked: Bool) throws { unexpected.call("LikesRepository.setLiked(\(cityID), \(liked))") }
    public var contents: AnyPublisher<[Int], Never> { unexpected.publisher("LikesRepository.contents") }
}

/// Climate normals that never come.
public final class ClimateNormalsRepositoryDouble: ClimateNormalsRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> ClimateNormalsRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: ClimateNormalsRepositoryDouble { .init(.noop) }

    public func normals(for coordinate: Coordinate, refresh: Bool) -> AnyPublisher<ClimateNormals, ClimateError> {
        unexpected.publisher("ClimateNormalsRepository.normals(for: \(coordinate), refresh: \(refresh))")
    }
    public func forget(_ coordinate: Coordinate) { unexpected.call("ClimateNormalsRepository.forget(\(coordinate))") }
}

/// Weather that never comes.
public final class WeatherRepositoryDouble: WeatherRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> WeatherRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: WeatherRepositoryDouble { .init(.noop) }

    public func forecast(for coordinate: Coordinate) -> AnyPublisher<Fetched<Forecast>, WeatherError> {
        unexpected.publisher("WeatherRepository.forecast(for: \(coordinate))")
    }
    public func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<CurrentTemperature>, WeatherError> {
        unexpected.publisher("WeatherRepository.currentTemperatures(for: \(coordinates))")
    }
    public func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<DayRange>, WeatherError> {
        unexpected.publisher("WeatherRepository.todayRanges(for: \(coordinates))")
    }
    public func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> {
        unexpected.publisher("WeatherRepository.placesToday(for: \(coordinates))")
    }
}

/// Air quality that never comes.
public final class AirQualityRepositoryDouble: AirQualityRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> AirQualityRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: AirQualityRepositoryDouble { .init(.noop) }

    public func airQuality(for coordinate: Coordinate) -> AnyPublisher<Fetched<AirQuality>, WeatherError> {
        unexpected.publisher("AirQualityRepository.airQuality(for: \(coordinate))")
    }
}

/// Warnings for no place; a report that never comes.
public final class WarningsRepositoryDouble: WarningsRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> WarningsRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: WarningsRepositoryDouble { .init(.noop) }

    public func coverage(for city: City) -> WarningsCoverage {
        unexpected.call("WarningsRepository.coverage(for: \(city.name))")
        return .notCovered
    }
    public func warnings(for city: City) -> AnyPublisher<WarningsReport, WarningsError> {
        unexpected.publisher("WarningsRepository.warnings(for: \(city.name))")
    }
}

/// A film source whose pages and details never come.
public final class MovieRepositoryDouble: MovieRepository {
    private let unexpected: Unexpected
    public let source: MovieSource
    private init(_ unexpected: Unexpected, source: MovieSource) {
        self.unexpected = unexpected
        self.source = source
    }
    public static func failing(source: MovieSource = .catalogue, file: StaticString = #filePath, line: UInt = #line) -> MovieRepositoryDouble {
        .init(.failing(file: file, line: line), source: source)
    }
    public static var noop: MovieRepositoryDouble { .init(.noop, source: .catalogue) }

    public let filterSupport = MovieFilterSupport.all
    public func search(query: String, page: Int, pageSize: Int, filter: MovieFilter) -> AnyPublisher<MoviesPage, MovieError> {
        unexpected.publisher("MovieRepository.search(query: \"\(query)\", page: \(page))")
    }
    public func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError> {
        unexpected.publisher("MovieRepository.details(\(id))")
    }
}

/// A film history that keeps nothing.
public final class MovieHistoryRepositoryDouble: MovieHistoryRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> MovieHistoryRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: MovieHistoryRepositoryDouble { .init(.noop) }

    public func recentQueries(limit: Int) -> [String] { unexpected.call("MovieHistoryRepository.recentQueries(limit: \(limit))"); return [] }
    public func saveQuery(_ query: String) throws { unexpected.call("MovieHistoryRepository.saveQuery(\"\(query)\")") }
    public func recentlyViewed(limit: Int) -> [MovieSummary] {
        unexpected.call("MovieHistoryRepository.recentlyViewed(limit: \(limit))")
        return []
    }
    public func recordViewed(_ movie: MovieSummary) throws { unexpected.call("MovieHistoryRepository.recordViewed(\(movie.id))") }
    public func forgetQuery(_ query: String) throws { unexpected.call("MovieHistoryRepository.forgetQuery(\"\(query)\")") }
    public func forgetViewed(_ id: MovieID) throws { unexpected.call("MovieHistoryRepository.forgetViewed(\(id))") }
    public var queries: AnyPublisher<[String], Never> { unexpected.publisher("MovieHistoryRepository.queries") }
    public var viewed: AnyPublisher<[MovieSummary], Never> { unexpected.publisher("MovieHistoryRepository.viewed") }
}

/// An empty wishlist; a change is not kept.
public final class WishlistRepositoryDouble: WishlistRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> WishlistRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: WishlistRepositoryDouble { .init(.noop) }

    public func entries() throws -> [WishlistEntry] { unexpected.call("WishlistRepository.entries()"); return [] }
    public func contains(_ id: MovieID) -> Bool { unexpected.call("WishlistRepository.contains(\(id))"); return false }
    public func add(_ movie: MovieSummary) throws { unexpected.call("WishlistRepository.add(\(movie.id))") }
    public func remove(_ id: MovieID) throws { unexpected.call("WishlistRepository.remove(\(id))") }
    public func removeAll() throws { unexpected.call("WishlistRepository.removeAll()") }
    public var contents: AnyPublisher<[WishlistEntry], Never> { unexpected.publisher("WishlistRepository.contents") }
}

/// Settings as they are without a file; a change is not kept.
public final class SettingsRepositoryDouble: SettingsRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> SettingsRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: SettingsRepositoryDouble { .init(.noop) }

    public var current: SettingsContents { unexpected.call("SettingsRepository.current"); return SettingsContents() }
    public var contents: AnyPublisher<SettingsContents, Never> { unexpected.publisher("SettingsRepository.contents") }
    public func change(save: Bool, _ edit: @escaping @Sendable (inout UserSettings) -> Void) {
        unexpected.call("SettingsRepository.change(save: \(save))")
    }
}

/// A map with nothing cached and nothing drawn.
public final class MapRepositoryDouble: MapRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> MapRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: MapRepositoryDouble { .init(.noop) }

    public func cachedSnapshot(_ key: MapSnapshotKey) -> MapSnapshot? { unexpected.call("MapRepository.cachedSnapshot(\(key))"); return nil }
    public func renderSnapshot(_ request: MapRequest, cancel: CancellationFlag) throws(MapError) -> MapSnapshot? {
        unexpected.call("MapRepository.renderSnapshot(\(request))")
        return nil
    }
    public var statistics: MapCacheStatistics { unexpected.call("MapRepository.statistics"); return MapCacheStatistics() }
}

/// A quake feed that never answers.
public final class QuakeRepositoryDouble: QuakeRepository {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> QuakeRepositoryDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: QuakeRepositoryDouble { .init(.noop) }

    public func feed(_ feed: QuakeFeed) -> AnyPublisher<QuakeFeedUpdate, QuakeError> {
        unexpected.publisher("QuakeRepository.feed(\(feed))")
    }
}

/// No seismic region anywhere.
public final class SeismicRegionsDouble: SeismicRegions {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> SeismicRegionsDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: SeismicRegionsDouble { .init(.noop) }

    public func region(at coordinate: Coordinate) -> SeismicRegion? { unexpected.call("SeismicRegions.region(at: \(coordinate))"); return nil }
}

/// A device whose place is unknown.
public final class DeviceLocationDouble: DeviceLocationProviding {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> DeviceLocationDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: DeviceLocationDouble { .init(.noop) }

    public func currentLocation() -> (location: DeviceLocation, ignored: [IgnoredLocationSetting]) {
        unexpected.call("DeviceLocationProviding.currentLocation()")
        return (.unknown, [])
    }
}

/// No city near anything.
public final class CityLocatingDouble: CityLocating {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> CityLocatingDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: CityLocatingDouble { .init(.noop) }

    public func nearestCity(to point: GeoPoint) -> CityRef? { unexpected.call("CityLocating.nearestCity(to: \(point))"); return nil }
    public func largestCity(inTimeZone zone: String) -> CityRef? {
        unexpected.call("CityLocating.largestCity(inTimeZone: \(zone))")
        return nil
    }
}

/// No zone by any name.
public final class ZoneLookupDouble: ZoneLookup {
    private let unexpected: Unexpected
    private init(_ unexpected: Unexpected) { self.unexpected = unexpected }
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> ZoneLookupDouble {
        .init(.failing(file: file, line: line))
    }
    public static var noop: ZoneLookupDouble { .init(.noop) }

    public func zone(named identifier: String) -> Zone? { unexpected.call("ZoneLookup.zone(named: \"\(identifier)\")"); return nil }
}
