import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// The air-quality repository over the live HTTP client, against the loopback fixture server.
final class OpenMeteoAirQualityRepositoryTests: XCTestCase {
    static var seoulJSON: Data {
        try! Data(contentsOf: OpenMeteoWeatherRepositoryTests.fixtures.appendingPathComponent("open-meteo-air-seoul.json"))
    }
    static let seoul = Coordinate(latitude: 37.566, longitude: 126.9784)
    static let fetchTime = Date(timeIntervalSince1970: 1_782_000_600)

    private var server: FixtureServer!
    private var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-air-\(UUID().uuidString)")
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    private var cache: WeatherCache {
        WeatherCache(directory: cacheDirectory, folder: "air", maxBytes: OpenMeteoAirQualityRepository.maxBytes)
    }

    private func repository(base: String? = nil) -> OpenMeteoAirQualityRepository {
        OpenMeteoAirQualityRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: base ?? server.baseURL.absoluteString,
                                      cache: cache, timeout: 3, now: { Self.fetchTime })
    }

    private func collect(_ publisher: AnyPublisher<Fetched<AirQuality>, WeatherError>) -> (values: [Fetched<AirQuality>], error: WeatherError?) {
        let done = expectation(description: "completion")
        var values: [Fetched<AirQuality>] = []
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
        wait(for: [done], timeout: 10)
        c.cancel()
        lock.lock()
        defer { lock.unlock() }
        return (values, failure)
    }

    func testTheAnswerDecodesWithTodaysUVMaximumAndTheRequestAsksForWhatIsShown() throws {
        server.route("/v1/air-quality", .init(body: Self.seoulJSON))
        let result = collect(repository().airQuality(for: Self.seoul))
        XCTAssertNil(result.error)
        let air = try XCTUnwrap(result.values.first?.value)
        XCTAssertEqual(result.values.map(\.isCached), [false])
        XCTAssertEqual(air.usIndex, 57)
        XCTAssertEqual(air.europeanIndex, 38)
        XCTAssertEqual(air.pm2_5, 16.4)
        XCTAssertEqual(air.pm10, 27.9)
        XCTAssertEqual(air.ozone, 88)
        XCTAssertEqual(air.uvIndex, 4.35)
        XCTAssertEqual(air.uvIndexMax, 7.95)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.path, "/v1/air-quality")
        XCTAssertEqual(request.query["current"], "us_aqi,european_aqi,pm2_5,pm10,ozone,uv_index")
        XCTAssertEqual(request.query["hourly"], "uv_index")
        XCTAssertEqual(request.query["forecast_days"], "1")
        XCTAssertEqual(request.query["latitude"], "37.5660")
        XCTAssertEqual(request.query["timezone"], "auto")
        XCTAssertEqual(request.query["timeformat"], "unixtime")
    }

    func testTheKeptAnswerComesFirstThenTheFreshOneAndOfflineLeavesTheKeptOne() throws {
        server.route("/v1/air-quality", .init(body: Self.seoulJSON))
        _ = collect(repository().airQuality(for: Self.seoul))
        let second = collect(repository().airQuality(for: Self.seoul))
        XCTAssertEqual(second.values.map(\.isCached), [true, false])
        let file = cacheDirectory.appendingPathComponent("air").appendingPathComponent(WeatherCache.key(Self.seoul))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, 0o600)
        server.stop()
        let offline = collect(repository().airQuality(for: Self.seoul))
        XCTAssertEqual(offline.values.map(\.isCached), [true])
        XCTAssertEqual(offline.error, .offline)
    }

    /// Answers that are not air (poisoned values, the wrong shape, nothing believable) are bad
    /// responses, and none of them replaces what is kept.
    func testPoisonedAnswersAreNeitherShownNorKept() throws {
        server.route("/v1/air-quality", .init(body: Self.seoulJSON))
        _ = collect(repository().airQuality(for: Self.seoul))
        let kept = try XCTUnwrap(cache.read(Self.seoul)?.body)
        let poisoned: [String: String] = [
            "every value out of range": #"{"latitude":37.5,"longitude":127,"current":{"time":1782000000,"us_aqi":1e308,"european_aqi":-5,"pm2_5":1e20,"pm10":-1,"ozone":99999,"uv_index":400},"hourly":{"time":[1782000000],"uv_index":[1e300]}}"#,
            "no current": #"{"latitude":37.5,"longitude":127,"hourly":{"time":[],"uv_index":[]}}"#,
            "a time from another age": #"{"latitude":37.5,"longitude":127,"current":{"time":99999999999,"us_aqi":40}}"#,
            "off the globe": #"{"latitude":137.5,"longitude":127,"current":{"time":1782000000,"us_aqi":40}}"#,
            "not JSON": "<html>502 Bad Gateway</html>",
            "a string index": #"{"latitude":37.5,"longitude":127,"current":{"time":1782000000,"us_aqi":"40"}}"#,
        ]
        for (name, body) in poisoned {
            server.route("/v1/air-quality", .init(json: body))
            let result = collect(repository().airQuality(for: Self.seoul))
            XCTAssertEqual(result.values.map(\.isCached), [true], name)
            XCTAssertEqual(result.error, .badResponse, name)
            XCTAssertEqual(cache.read(Self.seoul)?.body, kept, name)
        }
    }

    func testValuesOutOfRangeAreMissingNotClampedAndUVComesFromTodaysHoursOnly() throws {
        server.route("/v1/air-quality", .init(json: #"{"latitude":37.5,"longitude":127,"current":{"time":1782000000,"us_aqi":812,"european_aqi":2000,"pm2_5":-3,"pm10":40,"ozone":null,"uv_index":60},"hourly":{"time":[1782000000,1782003600,-5],"uv_index":[3.5,1e9,12]}}"#))
        let air = try XCTUnwrap(collect(repository().airQuality(for: Self.seoul)).values.first?.value)
        XCTAssertEqual(air.usIndex, 812)
        XCTAssertNil(air.europeanIndex)
        XCTAssertNil(air.pm2_5)
        XCTAssertEqual(air.pm10, 40)
        XCTAssertNil(air.ozone)
        XCTAssertNil(air.uvIndex)
        XCTAssertEqual(air.uvIndexMax, 3.5, "an hour with no real time is not today's")
    }

    func testTooLargeAndServerErrorsAreTypedAndABadAddressIsConfiguration() {
        server.route("/v1/air-quality", .init(body: Data(repeating: 0x20, count: OpenMeteoAirQualityRepository.maxBytes + 1)))
        XCTAssertEqual(collect(repository().airQuality(for: Self.seoul)).error, .tooLarge)
        server.route("/v1/air-quality", .init(status: 404, json: "{}"))
        XCTAssertEqual(collect(repository().airQuality(for: Self.seoul)).error, .server(status: 404))
        XCTAssertEqual(collect(repository(base: "not a url ://").airQuality(for: Self.seoul)).error, .badConfiguration)
        XCTAssertEqual(collect(repository().airQuality(for: Coordinate(latitude: .nan, longitude: 0))).error, .badConfiguration)
    }

    func testTheEnvironmentNamesTheServer() {
        XCTAssertEqual(OpenMeteoAirQualityRepository.baseURL(environment: [:]), "https://air-quality-api.open-meteo.com")
        XCTAssertEqual(OpenMeteoAirQualityRepository.baseURL(environment: ["NIMBUS_AIR_URL": " "]),
                       "https://air-quality-api.open-meteo.com")
        XCTAssertEqual(OpenMeteoAirQualityRepository.baseURL(environment: ["NIMBUS_AIR_URL": "http://127.0.0.1:9"]),
                       "http://127.0.0.1:9")
    }
}
