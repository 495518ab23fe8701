import Foundation
import Testing
import NimbusDomain
import NimbusData
import Synchronization
@preconcurrency import OpenCombineShim
import TestSupport

/// Every dependency's double: `.failing` reports each call it was not meant to get, one issue a call,
/// and its publishers end at once without a value; `.noop` reports nothing and its publishers never
/// answer.
@Suite struct DoublesTests {
    /// What a publisher did when subscribed: values and whether it ended, synchronously.
    struct Outcome: Equatable {
        var values = 0
        var ended = false
    }

    static func outcome<P: Publisher>(_ publisher: P) -> Outcome {
        var outcome = Outcome()
        let cancellable = publisher.sink(receiveCompletion: { _ in outcome.ended = true }, receiveValue: { _ in outcome.values += 1 })
        cancellable.cancel()
        return outcome
    }

    enum Kind { case failing, noop }

    /// Every call of every double of `kind`: the calls made, and what each publisher among them did.
    static func callEverything(_ kind: Kind) throws -> (calls: Int, publishers: [Outcome]) {
        let failing = kind == .failing
        let here = Coordinate(latitude: 37.57, longitude: 126.98)
        let point = try #require(GeoPoint(latitude: 37.57, longitude: 126.98))
        let city = CityRepositoryDouble.nowhere
        let film = MovieID(source: .catalogue, value: 1)
        let summary = MovieSummary(id: film, title: "Heat", year: 1995, genres: [], directors: [])
        var publishers: [Outcome] = []
        var calls = 0
        func call(_ body: () throws -> Void) rethrows { calls += 1; try body() }
        func publisher<P: Publisher>(_ made: () -> P) { calls += 1; publishers.append(outcome(made())) }

        let cities = failing ? CityRepositoryDouble.failing() : .noop
        call { _ = cities.cityCount }
        call { _ = cities.search("seoul", in: .geoNames) }
        call { _ = cities.city(CityRef(0)) }
        call { _ = cities.summary(CityRef(0)) }
        call { _ = cities.matchedName(CityRef(0), query: "s", in: .geoNames) }
        call { _ = cities.suggestions(for: "s", in: .geoNames, limit: 3) }

        let likes = failing ? LikesRepositoryDouble.failing() : .noop
        try call { _ = try likes.likedCityIDs() }
        try call { _ = try likes.isLiked(1) }
        try call { try likes.setLiked(1, true) }
        publisher { likes.contents }

        let normals = failing ? ClimateNormalsRepositoryDouble.failing() : .noop
        publisher { normals.normals(for: here, refresh: false) }
        call { normals.forget(here) }

        let weather = failing ? WeatherRepositoryDouble.failing() : .noop
        publisher { weather.forecast(for: here) }
        publisher { weather.currentTemperatures(for: [here]) }
        publisher { weather.todayRanges(for: [here]) }
        publisher { weather.placesToday(for: [here]) }

        let air = failing ? AirQualityRepositoryDouble.failing() : .noop
        publisher { air.airQuality(for: here) }

        let warnings = failing ? WarningsRepositoryDouble.failing() : .noop
        call { _ = warnings.coverage(for: city) }
        publisher { warnings.warnings(for: city) }

        let films = failing ? MovieRepositoryDouble.failing() : .noop
        publisher { films.search(query: "heat", page: 1, pageSize: 20, filter: MovieFilter()) }
        publisher { films.details(film) }

        let history = failing ? MovieHistoryRepositoryDouble.failing() : .noop
        call { _ = history.recentQueries(limit: 5) }
        try call { try history.saveQuery("heat") }
        call { _ = history.recentlyViewed(limit: 5) }
        try call { try history.recordViewed(summary) }
        try call { try history.forgetQuery("heat") }
        try call { try history.forgetViewed(summary.id) }
        publisher { history.queries }
        publisher { history.viewed }

        let wishlist = failing ? WishlistRepositoryDouble.failing() : .noop
        try call { _ = try wishlist.entries() }
        call { _ = wishlist.contains(film) }
        try call { try wishlist.add(summary) }
        try call { try wishlist.remove(film) }
        try call { try wishlist.removeAll() }
        publisher { wishlist.contents }

        let settings = failing ? SettingsRepositoryDouble.failing() : .noop
        call { _ = settings.current }
        publisher { settings.contents }
        call { settings.change(save: true) { _ in } }

        let map = failing ? MapRepositoryDouble.failing() : .noop
        let request = MapRequest(city: city, zoom: .city, size: MapSize(cols: 10, rows: 4), style: .braille)
        call { _ = map.cachedSnapshot(request.key) }
        try call { _ = try map.renderSnapshot(request, cancel: CancellationFlag()) }
        call { _ = map.statistics }

        let quakes = failing ? QuakeRepositoryDouble.failing() : .noop
        publisher { quakes.feed(QuakeFeed(magnitude: .significant, period: .week)) }

        let regions = failing ? SeismicRegionsDouble.failing() : .noop
        call { _ = regions.region(at: here) }

        let device = failing ? DeviceLocationDouble.failing() : .noop
        call { _ = device.currentLocation() }

        let locating = failing ? CityLocatingDouble.failing() : .noop
        call { _ = locating.nearestCity(to: point) }
        call { _ = locating.largestCity(inTimeZone: "Asia/Seoul") }

        let zones = failing ? ZoneLookupDouble.failing() : .noop
        call { _ = zones.zone(named: "Asia/Seoul") }

        return (calls, publishers)
    }

    @Test func aFailingDoubleReportsEveryCallAndItsPublishersEndAtOnce() throws {
        let recorded = Mutex<[String]>([])
        var result: (calls: Int, publishers: [Outcome]) = (0, [])
        try withKnownIssue {
            result = try Self.callEverything(.failing)
        } matching: { issue in
            recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        let issues = recorded.withLock { $0 }
        #expect(result.calls == 47)
        #expect(issues.count == result.calls, "one issue a call: \(issues)")
        #expect(issues.allSatisfy { $0.hasPrefix("unexpected call to ") }, "\(issues)")
        #expect(issues.contains("unexpected call to WeatherRepository.forecast(for: \(Coordinate(latitude: 37.57, longitude: 126.98)))"))
        #expect(result.publishers.count == 15)
        #expect(result.publishers.allSatisfy { $0 == Outcome(values: 0, ended: true) })
    }

    @Test func aNoopDoubleReportsNothingAndItsPublishersNeverAnswer() throws {
        let result = try Self.callEverything(.noop)
        #expect(result.calls == 47)
        #expect(result.publishers.count == 15)
        #expect(result.publishers.allSatisfy { $0 == Outcome(values: 0, ended: false) })
    }

    @Test func theNetworksFailingDoubleReportsARequest() {
        withKnownIssue {
            _ = HTTPClientDouble.failing().send(HTTPRequest(base: "http://127.0.0.1:9", path: "/x")!) { _ in }
        }
    }
}
