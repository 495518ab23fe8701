import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Every hostile-server mode against the weather and TMDB repositories: no trap, an answer within a
/// time bound, and either a typed error or values that are within physical ranges and cut to size.
final class HostileServerTests: XCTestCase {
    private var server: FixtureServer!
    private var other: FixtureServer!
    private var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try FixtureServer()
        other = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-hostile-\(UUID().uuidString)")
    }

    override func tearDown() {
        // Every test here ends with its client done: nothing it sent can still be on the way.
        XCTAssertEqual(other.requestsSoFar().map(\.target), [], "a redirect reached another origin")
        server.stop()
        other.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    /// Waits for `publisher` to finish, at most `bound` seconds; nil when it did not.
    private func run<T, E: Error>(_ publisher: AnyPublisher<T, E>, bound: TimeInterval) -> (values: [T], error: E?)? {
        let done = expectation(description: "completion")
        let box = LockedBox<([T], E?, Bool)>(([], nil, false))
        let c = publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let e) = completion { box.update { $0.1 = e } }
                box.update { $0.2 = true }
                done.fulfill()
            },
            receiveValue: { v in box.update { $0.0.append(v) } })
        _ = XCTWaiter.wait(for: [done], timeout: bound)
        c.cancel()
        let (values, error, finished) = box.value
        return finished ? (values, error) : nil
    }

    private func assertSane(_ f: Forecast, _ mode: FixtureServer.Hostile) {
        func ok(_ v: Double, _ r: ClosedRange<Double>) -> Bool { v.isNaN || r.contains(v) }
        XCTAssertTrue(f.hourly.allSatisfy { (-100...70).contains($0.temperature) }, "\(mode)")
        XCTAssertTrue(f.hourly.allSatisfy { $0.precipitationProbability.map { (0...100).contains($0) } ?? true }, "\(mode)")
        XCTAssertTrue(f.daily.allSatisfy { (-100...70).contains($0.high) && (-100...70).contains($0.low) }, "\(mode)")
        let c = f.current
        XCTAssertTrue(ok(c.temperature, -100...70) && ok(c.humidity, 0...100) && ok(c.pressure, 800...1100)
                      && ok(c.windSpeed, 0...500) && ok(c.precipitation, 0...1000), "\(mode)")
    }

    private func assertSane(_ m: MovieSummary, _ mode: FixtureServer.Hostile) {
        XCTAssertLessThanOrEqual(m.title.unicodeScalars.count, 1_000, "\(mode)")
        XCTAssertLessThanOrEqual(m.genres.count, 100, "\(mode)")
    }

    func testEveryModeAgainstTheWeatherRepository() throws {
        other.fallback { _ in .init(json: "{}") }
        let fixture = OpenMeteoWeatherRepositoryTests.seoulJSON
        let batch = Data("[".utf8) + fixture + Data("]".utf8)
        for mode in FixtureServer.Hostile.allCases {
            // Built before the clock starts: making a body of million-scalar strings is the server's work.
            let single = FixtureServer.hostile(mode, fixture: fixture, otherPort: other.port)
            let many = FixtureServer.hostile(mode, fixture: batch, otherPort: other.port)
            let start = Date()
            server.route("/v1/forecast", handler: { request in
                request.query["current"]?.contains("relative_humidity") == true ? single : many
            })
            let repository = OpenMeteoWeatherRepository(
                client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                cache: WeatherCache(directory: cacheDirectory), timeout: 1, now: { OpenMeteoWeatherRepositoryTests.fetchTime })
            let forecast = try XCTUnwrap(run(repository.forecast(for: OpenMeteoWeatherRepositoryTests.seoul), bound: 8), "\(mode)")
            forecast.values.forEach { assertSane($0.value, mode) }
            XCTAssertTrue(forecast.error != nil || !forecast.values.isEmpty, "\(mode)")
            let temperatures = try XCTUnwrap(run(repository.currentTemperatures(for: [OpenMeteoWeatherRepositoryTests.seoul]), bound: 8), "\(mode)")
            XCTAssertTrue(temperatures.values.flatMap { $0.values.compactMap { try? $0.get() } }.allSatisfy { $0.temperature.isNaN || (-100...70).contains($0.temperature) }, "\(mode)")
            let elapsed = Date().timeIntervalSince(start)
            print("hostile weather \(mode.rawValue): \(forecast.error.map { "\($0)" } ?? "values") in \(String(format: "%.2f", elapsed)) s")
            XCTAssertLessThan(elapsed, 8, "\(mode)")
        }
    }

    func testEveryModeAgainstTheTMDBRepository() throws {
        other.fallback { _ in .init(json: "{}") }
        let search = Data(TMDBMovieRepositoryTests.searchPage1.utf8)
        let details = Data(TMDBMovieRepositoryTests.details.utf8)
        let genres = Data(TMDBMovieRepositoryTests.genres.utf8)
        for mode in FixtureServer.Hostile.allCases {
            for (path, fixture) in [("/3/search/movie", search), ("/3/movie/272", details), ("/3/genre/movie/list", genres)] {
                server.route(path, FixtureServer.hostile(mode, fixture: fixture, otherPort: other.port))
            }
            let start = Date()
            var configuration = TMDBMovieRepository.Configuration(
                apiKey: "eyJhostile.token", baseURL: server.baseURL.absoluteString, language: "en-US",
                cacheDirectory: cacheDirectory.appendingPathComponent(mode.rawValue))
            configuration.timeout = 1
            let repository = TMDBMovieRepository(configuration: configuration, client: URLSessionHTTPClient(connectTimeout: 2))
            let page = try XCTUnwrap(run(repository.search(query: "batman", page: 1), bound: 8), "\(mode)")
            page.values.flatMap(\.movies).forEach { assertSane($0, mode) }
            XCTAssertTrue(page.error != nil || !page.values.isEmpty, "\(mode)")
            let movie = try XCTUnwrap(run(repository.details(MovieID(source: .tmdb, value: 272)), bound: 8), "\(mode)")
            for m in movie.values {
                XCTAssertLessThanOrEqual(m.title.unicodeScalars.count, 1_000, "\(mode)")
                XCTAssertLessThanOrEqual(m.overview?.unicodeScalars.count ?? 0, 10_000, "\(mode)")
                XCTAssertTrue((m.cast + m.directors + m.genres + m.languages + m.countries).allSatisfy { $0.unicodeScalars.count <= 1_000 })
            }
            let elapsed = Date().timeIntervalSince(start)
            print("hostile tmdb \(mode.rawValue): \(page.error.map { "\($0)" } ?? "values") / \(movie.error.map { "\($0)" } ?? "values") in \(String(format: "%.2f", elapsed)) s")
            XCTAssertLessThan(elapsed, 8, "\(mode)")
        }
    }
}

/// The air-quality repository and the forecast's new hourly fields under every hostile mode.
extension HostileServerTests {
    func testEveryModeAgainstTheAirQualityRepository() throws {
        other.fallback { _ in .init(json: "{}") }
        let fixture = OpenMeteoAirQualityRepositoryTests.seoulJSON
        for mode in FixtureServer.Hostile.allCases {
            let response = FixtureServer.hostile(mode, fixture: fixture, otherPort: other.port)
            let start = Date()
            server.route("/v1/air-quality", response)
            let cache = WeatherCache(directory: cacheDirectory, folder: "air", maxBytes: OpenMeteoAirQualityRepository.maxBytes)
            let repository = OpenMeteoAirQualityRepository(
                client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                cache: cache, timeout: 1, now: { OpenMeteoAirQualityRepositoryTests.fetchTime })
            let air = try XCTUnwrap(run(repository.airQuality(for: OpenMeteoAirQualityRepositoryTests.seoul), bound: 8), "\(mode)")
            XCTAssertTrue(air.error != nil || !air.values.isEmpty, "\(mode)")
            for a in air.values.map(\.value) {
                let checks: [(Double?, ClosedRange<Double>)] = [
                    (a.usIndex, 0...1000), (a.europeanIndex, 0...1000), (a.pm2_5, 0...2000), (a.pm10, 0...5000),
                    (a.ozone, 0...1000), (a.uvIndex, 0...50), (a.uvIndexMax, 0...50)]
                XCTAssertTrue(checks.allSatisfy { $0.0.map($0.1.contains) ?? true }, "\(mode)")
            }
            let elapsed = Date().timeIntervalSince(start)
            XCTAssertLessThan(elapsed, 8, "\(mode)")
        }
    }

    func testTheHourlyAmountsOfEveryHostileModeAreWithinTheirRanges() throws {
        other.fallback { _ in .init(json: "{}") }
        let fixture = OpenMeteoWeatherRepositoryTests.seoulJSON
        for mode in FixtureServer.Hostile.allCases {
            server.route("/v1/forecast", FixtureServer.hostile(mode, fixture: fixture, otherPort: other.port))
            let repository = OpenMeteoWeatherRepository(
                client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                cache: WeatherCache(directory: cacheDirectory), timeout: 1, now: { OpenMeteoWeatherRepositoryTests.fetchTime })
            let forecast = try XCTUnwrap(run(repository.forecast(for: OpenMeteoWeatherRepositoryTests.seoul), bound: 8), "\(mode)")
            for hour in forecast.values.flatMap(\.value.hourly) {
                XCTAssertTrue(hour.precipitation.map { (0...1000).contains($0) } ?? true, "\(mode)")
                XCTAssertTrue(hour.rain.map { (0...1000).contains($0) } ?? true, "\(mode)")
                XCTAssertTrue(hour.snowfall.map { (0...500).contains($0) } ?? true, "\(mode)")
            }
        }
    }
}

/// The Today tab's batched request under every hostile mode: the batch's own (reordered items, bad
/// items, an extra one) leave every good place its own weather and fail the bad one alone; the
/// others fail the request with a typed error or give believable values.
extension HostileServerTests {
    /// Seven places and the server's items for them, in the order asked: at the 0.1° grid point
    /// nearest each, with a temperature of its own.
    static let sevenPlaces: [(place: Coordinate, temperature: Double)] = [
        (Coordinate(latitude: 37.566, longitude: 126.9784), 24), (Coordinate(latitude: 31.2222, longitude: 121.4581), 31),
        (Coordinate(latitude: 35.6895, longitude: 139.6917), 29), (Coordinate(latitude: 35.1028, longitude: 129.0403), 26),
        (Coordinate(latitude: 34.6937, longitude: 135.5022), 30), (Coordinate(latitude: 25.0478, longitude: 121.5319), 33),
        (Coordinate(latitude: 14.6042, longitude: 120.9822), 32),
    ]

    static var sevenItems: Data {
        let items = sevenPlaces.map { place, t in
            let lat = (place.latitude * 10).rounded() / 10, lon = (place.longitude * 10).rounded() / 10
            return #"{"latitude":\#(lat),"longitude":\#(lon),"utc_offset_seconds":32400,"#
                + #""current":{"time":1782000000,"temperature_2m":\#(t),"weather_code":1},"#
                + #""daily":{"time":[1781967600],"weather_code":[2],"temperature_2m_max":[\#(t + 4)],"temperature_2m_min":[\#(t - 6)]}}"#
        }
        return Data(("[" + items.joined(separator: ",") + "]").utf8)
    }

    func testTodaysBatchUnderEveryMode() throws {
        other.fallback { _ in .init(json: "{}") }
        let places = Self.sevenPlaces.map(\.place)
        for mode in FixtureServer.Hostile.allCases {
            let response = FixtureServer.hostile(mode, fixture: Self.sevenItems, otherPort: other.port)
            server.route("/v1/forecast", response)
            let start = Date()
            let repository = OpenMeteoWeatherRepository(
                client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                cache: nil, placesCache: WeatherCache(directory: cacheDirectory.appendingPathComponent(mode.rawValue), folder: "today"),
                timeout: 1, now: { OpenMeteoWeatherRepositoryTests.fetchTime })
            let result = try XCTUnwrap(run(repository.placesToday(for: places), bound: 8), "\(mode)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 8, "\(mode)")
            let fresh = result.values.filter { !$0.isCached }.last?.value
            switch mode {
            case .batchReversed, .batchExtraItem, .batchCurrentNull, .batchStringTemperature, .batchEmptyDaily, .batchNullItem:
                let answers = try XCTUnwrap(fresh, "\(mode): \(String(describing: result.error))")
                XCTAssertEqual(Set(answers.keys), Set(places), "\(mode): every place has an answer")
                let spoiled = [.batchReversed, .batchExtraItem].contains(mode) ? nil : places[FixtureServer.spoiled(places.count)]
                for (place, temperature) in Self.sevenPlaces {
                    if place == spoiled {
                        guard case .failure(let error)? = answers[place] else { XCTFail("\(mode): the bad item gave a value"); continue }
                        XCTAssertEqual(error, .badResponse, "\(mode)")
                    } else {
                        let weather = try XCTUnwrap(try? answers[place]?.get(), "\(mode): \(place)")
                        XCTAssertEqual(weather.temperature, temperature, "\(mode): \(place) has its own weather")
                        XCTAssertEqual(weather.high, temperature + 4, "\(mode)")
                        XCTAssertEqual(weather.coordinate, place, "\(mode)")
                    }
                }
            default:
                // Whole-request modes: a typed error, or values that are believable.
                XCTAssertTrue(result.error != nil || fresh != nil, "\(mode)")
                for answer in fresh?.values ?? [:].values {
                    if case .success(let w) = answer {
                        XCTAssertTrue(w.temperature.isNaN || (-100...70).contains(w.temperature), "\(mode)")
                        XCTAssertTrue((-100...70).contains(w.high) && (-100...70).contains(w.low), "\(mode)")
                    }
                }
            }
        }
    }
}
