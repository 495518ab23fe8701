import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Forecasts with values no planet has (±1e308 °C, a 1e20 % chance of rain) are cleaned at the DTO
/// boundary, before anything is cached, and a cache file holding them (from an older version) is
/// cleaned the same way when read back.
final class PoisonedForecastTests: XCTestCase {
    static let seoul = OpenMeteoWeatherRepositoryTests.seoul
    static let fetchTime = OpenMeteoWeatherRepositoryTests.fetchTime

    private var server: FixtureServer!
    private var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-poison-\(UUID().uuidString)")
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    private func repository() -> OpenMeteoWeatherRepository {
        OpenMeteoWeatherRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                                   cache: WeatherCache(directory: cacheDirectory), timeout: 3, now: { Self.fetchTime })
    }

    /// The Seoul fixture with `edit` applied to its JSON object.
    static func poisoned(_ edit: (inout [String: Any]) -> Void) throws -> Data {
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: OpenMeteoWeatherRepositoryTests.seoulJSON) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// Every hour's temperature ±1e308 but the first two, every rain chance 1e20 %, the current values absurd.
    static func poisonedSeoul() throws -> Data {
        try poisoned { json in
            var hourly = json["hourly"] as! [String: Any]
            let temperatures = hourly["temperature_2m"] as! [Double]
            hourly["temperature_2m"] = temperatures.enumerated().map { i, t in i < 2 ? t : (i % 2 == 0 ? 1e308 : -1e308) }
            hourly["precipitation_probability"] = temperatures.map { _ in 1e20 }
            json["hourly"] = hourly
            var current = json["current"] as! [String: Any]
            current["temperature_2m"] = 1e308
            current["apparent_temperature"] = -1e308
            current["relative_humidity_2m"] = 1e20
            current["pressure_msl"] = -5
            current["wind_speed_10m"] = 1e300
            current["wind_direction_10m"] = 1e300
            current["precipitation"] = 1e300
            json["current"] = current
            var daily = json["daily"] as! [String: Any]
            var highs = daily["temperature_2m_max"] as! [Double]
            highs[1] = 1e308
            daily["temperature_2m_max"] = highs
            var sunrises = daily["sunrise"] as! [Int]
            sunrises[0] = Int.max
            daily["sunrise"] = sunrises
            json["daily"] = daily
            json["utc_offset_seconds"] = Int.min
        }
    }

    private func collect(_ publisher: AnyPublisher<Fetched<Forecast>, WeatherError>)
        -> (values: [Fetched<Forecast>], error: WeatherError?) {
        let done = expectation(description: "completion")
        let box = LockedBox<([Fetched<Forecast>], WeatherError?)>(([], nil))
        let c = publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let e) = completion { box.update { $0.1 = e } }
                done.fulfill()
            },
            receiveValue: { v in box.update { $0.0.append(v) } })
        wait(for: [done], timeout: 10)
        c.cancel()
        return box.value
    }

    private func assertClean(_ forecast: Forecast, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(forecast.hourly.count, 2, "only the real hours stay", file: file, line: line)
        XCTAssertTrue(forecast.hourly.allSatisfy { (-100...70).contains($0.temperature) }, file: file, line: line)
        XCTAssertTrue(forecast.hourly.allSatisfy { $0.precipitationProbability == nil }, file: file, line: line)
        let c = forecast.current
        for value in [c.temperature, c.apparentTemperature, c.humidity, c.pressure, c.windSpeed, c.windDirection,
                      c.precipitation] {
            XCTAssertTrue(value.isNaN, "missing, not \(value)", file: file, line: line)
        }
        XCTAssertEqual(forecast.daily.count, 6, "the day with a 1e308 high is dropped", file: file, line: line)
        XCTAssertNil(forecast.daily.first?.sunrise, file: file, line: line)
        XCTAssertEqual(forecast.utcOffsetSeconds, 0, file: file, line: line)
    }

    func testOutOfRangeValuesAreMissingBeforeTheyAreCachedOrDrawn() throws {
        server.route("/v1/forecast", .init(body: try Self.poisonedSeoul()))
        let result = collect(repository().forecast(for: Self.seoul))
        XCTAssertNil(result.error)
        assertClean(try XCTUnwrap(result.values.last?.value))
    }

    func testAPoisonedCacheFileFromAnOlderVersionIsCleanedWhenRead() throws {
        // Written straight to disk, as a version without the checks did.
        WeatherCache(directory: cacheDirectory).write(try Self.poisonedSeoul(), for: Self.seoul, fetchedAt: Self.fetchTime)
        server.stop()
        let result = collect(repository().forecast(for: Self.seoul))
        XCTAssertEqual(result.values.map(\.isCached), [true])
        assertClean(try XCTUnwrap(result.values.first?.value))
        XCTAssertEqual(result.error, .offline)
    }

    func testAForecastWithNoBelievableHourIsABadResponseAndNotCached() throws {
        server.route("/v1/forecast", .init(body: try Self.poisoned { json in
            var hourly = json["hourly"] as! [String: Any]
            hourly["temperature_2m"] = (hourly["temperature_2m"] as! [Double]).map { _ in 1e308 }
            json["hourly"] = hourly
        }))
        XCTAssertEqual(collect(repository().forecast(for: Self.seoul)).error, .badResponse)
        XCTAssertNil(WeatherCache(directory: cacheDirectory).read(Self.seoul), "never cache what would not be drawn")
    }

    func testBatchedTemperaturesOutOfRangeAreMissing() throws {
        server.route("/v1/forecast", .init(json: #"[{"latitude":37.5,"longitude":127,"current":{"time":1782000000,"temperature_2m":1e308,"weather_code":2}}]"#))
        let done = expectation(description: "done")
        let box = LockedBox<[CurrentTemperature]>([])
        let seoul = Self.seoul
        let c = repository().currentTemperatures(for: [Self.seoul]).sink(
            receiveCompletion: { _ in done.fulfill() }, receiveValue: { v in box.update { $0 = v[seoul].flatMap { try? $0.get() }.map { [$0] } ?? [] } })
        wait(for: [done], timeout: 10)
        c.cancel()
        XCTAssertEqual(box.value.count, 1)
        XCTAssertTrue(box.value.first?.temperature.isNaN ?? false)
    }
}

final class LockedBox<T>: @unchecked Sendable { // unchecked: `lock` guards `stored`
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    func update(_ change: (inout T) -> Void) { lock.lock(); change(&stored); lock.unlock() }
    var value: T { lock.lock(); defer { lock.unlock() }; return stored }
}
