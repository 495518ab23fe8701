import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// The Open-Meteo repository over the live HTTP client, against the loopback fixture server.
final class OpenMeteoWeatherRepositoryTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tapes/fixtures")
    static var seoulJSON: Data { try! Data(contentsOf: fixtures.appendingPathComponent("open-meteo-seoul.json")) }
    static let seoul = Coordinate(latitude: 37.566, longitude: 126.9784)
    static let fetchTime = Date(timeIntervalSince1970: 1_782_000_600)

    private var server: FixtureServer!
    private var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-cache-\(UUID().uuidString)")
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    private func repository(cache: Bool = true, timeout: TimeInterval = 3, base: String? = nil) -> OpenMeteoWeatherRepository {
        OpenMeteoWeatherRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: base ?? server.baseURL.absoluteString,
                                   cache: cache ? WeatherCache(directory: cacheDirectory) : nil, timeout: timeout,
                                   now: { Self.fetchTime })
    }

    /// Every value and the completion of `publisher`.
    private func collect<T>(_ publisher: AnyPublisher<T, WeatherError>, timeout: TimeInterval = 10)
        -> (values: [T], error: WeatherError?) {
        let done = expectation(description: "completion")
        var values: [T] = []
        var failure: WeatherError?
        let lock = NSLock()
        let c = publisher.sink(
            receiveCompletion: { completion in
                lock.lock()
                if case .failure(let e) = completion { failure = e }
                lock.unlock()
                done.fulfill()
            },
            receiveValue: { v in lock.lock(); values.append(v); lock.unlock() })
        wait(for: [done], timeout: timeout)
        c.cancel()
        lock.lock()
        defer { lock.unlock() }
        return (values, failure)
    }

    func testAForecastDecodesIntoTheDomain() throws {
        server.route("/v1/forecast", .init(body: Self.seoulJSON))
        let result = collect(repository().forecast(for: Self.seoul))
        XCTAssertNil(result.error)
        XCTAssertEqual(result.values.count, 1)
        let fetched = try XCTUnwrap(result.values.first)
        XCTAssertFalse(fetched.isCached)
        XCTAssertEqual(fetched.fetchedAt, Self.fetchTime)
        let forecast = fetched.value
        XCTAssertEqual(forecast.utcOffsetSeconds, 32400)
        XCTAssertEqual(forecast.current.temperature, 23.4)
        XCTAssertEqual(forecast.current.condition, .partlyCloudy)
        XCTAssertEqual(forecast.current.windDirection, 248)
        XCTAssertEqual(forecast.hourly.count, 168)
        XCTAssertEqual(forecast.daily.count, 7)
        XCTAssertEqual(forecast.daily[1].condition, .rain)
        XCTAssertEqual(forecast.daily[0].high, 28.0)
        // The hour of the fixture's now: 09:00, partly cloudy, dry, day; rain at 06:00 the next day.
        XCTAssertEqual(forecast.hourly[9].condition, .partlyCloudy)
        XCTAssertEqual(forecast.hourly[9].isDay, true)
        XCTAssertEqual(forecast.hourly[9].rain, 0)
        XCTAssertEqual(forecast.hourly[0].isDay, false)
        XCTAssertEqual(forecast.hourly[34].condition, .rain)
        XCTAssertEqual(forecast.hourly[34].precipitation, 3.7)
        XCTAssertEqual(forecast.hourly[34].rain, 3.7)
        XCTAssertEqual(forecast.hourly[34].snowfall, 0)
        let query = try XCTUnwrap(server.requests.first?.query)
        XCTAssertEqual(query["hourly"], "temperature_2m,precipitation_probability,weather_code,is_day,precipitation,rain,showers,snowfall")
        XCTAssertEqual(query["latitude"], "37.5660")
        XCTAssertEqual(query["longitude"], "126.9784")
        XCTAssertEqual(query["timeformat"], "unixtime")
        XCTAssertEqual(query["timezone"], "auto")
    }

    func testOpenMeteoSunTimesAgreeWithTheLocalCalculation() throws {
        server.route("/v1/forecast", .init(body: Self.seoulJSON))
        let forecast = try XCTUnwrap(collect(repository().forecast(for: Self.seoul)).values.first?.value)
        let day = try XCTUnwrap(forecast.daily.first)
        let local = SolarCalculator.sunTimes(on: day.day, at: Self.seoul, zone: SystemZoneDatabase.forTests.zone(named: "Asia/Seoul")!)
        XCTAssertLessThanOrEqual(abs(try XCTUnwrap(local.sunrise).timeIntervalSince(try XCTUnwrap(day.sunrise))), 120)
        XCTAssertLessThanOrEqual(abs(try XCTUnwrap(local.sunset).timeIntervalSince(try XCTUnwrap(day.sunset))), 120)
    }

    func testTheCachedForecastComesFirstThenTheFreshOne() throws {
        server.route("/v1/forecast", .init(body: Self.seoulJSON))
        _ = collect(repository().forecast(for: Self.seoul))
        let second = collect(repository().forecast(for: Self.seoul))
        XCTAssertNil(second.error)
        XCTAssertEqual(second.values.map(\.isCached), [true, false])
        XCTAssertEqual(second.values.first?.value, second.values.last?.value)
        let file = cacheDirectory.appendingPathComponent("weather").appendingPathComponent(WeatherCache.key(Self.seoul))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func testOfflineWithACacheGivesTheCacheThenOffline() {
        server.route("/v1/forecast", .init(body: Self.seoulJSON))
        _ = collect(repository().forecast(for: Self.seoul))
        server.stop()
        let result = collect(repository().forecast(for: Self.seoul))
        XCTAssertEqual(result.values.map(\.isCached), [true])
        XCTAssertEqual(result.values.first?.fetchedAt, Self.fetchTime)
        XCTAssertEqual(result.error, .offline)
    }

    func testOfflineWithoutACacheIsOffline() {
        server.stop()
        let result = collect(repository().forecast(for: Self.seoul))
        XCTAssertTrue(result.values.isEmpty)
        XCTAssertEqual(result.error, .offline)
    }

    func testServerErrorsAreTyped() {
        server.route("/v1/forecast", .init(status: 500, json: #"{"error":true,"reason":"boom"}"#))
        XCTAssertEqual(collect(repository(cache: false).forecast(for: Self.seoul)).error, .server(status: 500))
        server.route("/v1/forecast", .init(status: 429, json: #"{"error":true,"reason":"Too many requests"}"#))
        XCTAssertEqual(collect(repository(cache: false).forecast(for: Self.seoul)).error, .rateLimited)
    }

    func testASilentServerTimesOut() {
        server.route("/v1/forecast", .init(body: Self.seoulJSON, behaviour: .hang))
        let start = Date()
        XCTAssertEqual(collect(repository(cache: false, timeout: 0.5).forecast(for: Self.seoul)).error, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    func testBadBodiesAreBadResponses() {
        let json = String(decoding: Self.seoulJSON, as: UTF8.self)
        let bodies: [String: Data] = [
            "truncated JSON": Data(json.prefix(700).utf8),
            "wrong types": Data(json.replacingOccurrences(of: #""temperature_2m":23.4"#, with: #""temperature_2m":"warm""#).utf8),
            "missing fields": Data(#"{"latitude":37.55,"longitude":127.0,"current":{"time":1782000000,"temperature_2m":23.4}}"#.utf8),
            "empty arrays": Data(#"{"latitude":37.55,"longitude":127.0,"current":{"time":1782000000,"temperature_2m":23.4},"hourly":{"time":[],"temperature_2m":[]},"daily":{"time":[],"temperature_2m_max":[],"temperature_2m_min":[]}}"#.utf8),
            "invalid UTF-8": Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]),
            "not JSON": Data("<html>\u{1B}[2J gateway</html>".utf8),
            "an error object": Data(#"{"error":true,"reason":"Parameter 'latitude' out of range"}"#.utf8),
        ]
        for (name, body) in bodies {
            server.route("/v1/forecast", .init(body: body))
            let result = collect(repository(cache: false).forecast(for: Self.seoul))
            XCTAssertTrue(result.values.isEmpty, name)
            XCTAssertEqual(result.error, .badResponse, name)
        }
    }

    func testAHugeBodyIsTooLargeNotAMemoryBlowUp() {
        server.route("/v1/forecast", .init(behaviour: .huge(bytes: 64 << 20, announced: false)))
        XCTAssertEqual(collect(repository(cache: false).forecast(for: Self.seoul)).error, .tooLarge)
    }

    func testAnUnusableBaseURLIsABadConfiguration() {
        XCTAssertEqual(collect(repository(base: "not a url").forecast(for: Self.seoul)).error, .badConfiguration)
    }

    func testSeveralLocationsGoInOneRequestAndEachPlaceGetsItsOwnAnswer() throws {
        server.route("/v1/forecast") { request in
            let lats = (request.query["latitude"] ?? "").split(separator: ",")
            let lons = (request.query["longitude"] ?? "").split(separator: ",")
            let items = zip(lats, lons).enumerated().map { i, pair in
                #"{"latitude":\#(pair.0),"longitude":\#(pair.1),"utc_offset_seconds":0,"current_units":{"temperature_2m":"°C"},"current":{"time":1782000000,"interval":900,"temperature_2m":\#(10 + i),"weather_code":\#(i)}}"#
            }
            return .init(json: "[" + items.joined(separator: ",") + "]")
        }
        let busan = Coordinate(latitude: 35.1028, longitude: 129.0403), saoPaulo = Coordinate(latitude: -23.5475, longitude: -46.63611)
        let places = [Self.seoul, busan, saoPaulo]
        let result = collect(repository().currentTemperatures(for: places))
        XCTAssertNil(result.error)
        let answers = try XCTUnwrap(result.values.first)
        XCTAssertEqual(places.map { try? answers[$0]?.get().temperature }, [10, 11, 12])
        XCTAssertEqual(places.map { try? answers[$0]?.get().condition }, [.clear, .mainlyClear, .partlyCloudy])
        XCTAssertEqual(places.map { try? answers[$0]?.get().coordinate }, places, "each answer is for the place as asked")
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(server.requests.first?.query["latitude"], "37.5660,35.1028,-23.5475")
        XCTAssertEqual(server.requests.first?.query["current"], "temperature_2m,weather_code")
    }

    func testOneLocationMayComeBackAsAnObject() {
        server.route("/v1/forecast", .init(body: Self.seoulJSON))
        let result = collect(repository().todayRanges(for: [Self.seoul]))
        XCTAssertEqual(try result.values.first?[Self.seoul]?.get().high, 28.0)
        XCTAssertEqual(try result.values.first?[Self.seoul]?.get().low, 17.0)
    }

    func testAPlaceWithoutAnItemIsABadResponseAndOnlyIt() throws {
        server.route("/v1/forecast", .init(body: Self.seoulJSON))
        let busan = Coordinate(latitude: 35.1, longitude: 129.0)
        let answers = try XCTUnwrap(collect(repository().currentTemperatures(for: [Self.seoul, busan])).values.first)
        XCTAssertNotNil(try? answers[Self.seoul]?.get())
        guard case .failure(let error)? = answers[busan] else { return XCTFail("Busan has no item: \(String(describing: answers[busan]))") }
        XCTAssertEqual(error, .badResponse)
    }
}
