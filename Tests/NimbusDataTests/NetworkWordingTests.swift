import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// What a failure is called is what happened: a server that redirects to itself for ever has
/// redirected, one that sends less than it announced broke the connection off; neither is "offline"
/// (the network was there, and answered). A country whose warning regions cannot be read is
/// covered by MeteoAlarm all the same, and says the file is missing, not that it has no source.
final class NetworkWordingTests: XCTestCase {
    private var server: FixtureServer!
    private var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-wording-\(UUID().uuidString)")
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    func testARedirectLoopHasRedirectedAndAShortBodyBrokeOff() throws {
        let nws = WarningsFixtures.data("nws-active.json")
        let archive = YesterdayAndNormalsTests.archiveAnswer().0
        let forecast = OpenMeteoWeatherRepositoryTests.seoulJSON
        let search = Data(TMDBMovieRepositoryTests.searchPage1.utf8)
        for mode in [FixtureServer.Hostile.redirectLoop, .lyingLength] {
            try? FileManager.default.removeItem(at: cacheDirectory)
            server.route("/alerts/active", FixtureServer.hostile(mode, fixture: nws))
            server.route("/v1/archive", FixtureServer.hostile(mode, fixture: archive))
            server.route("/v1/forecast", FixtureServer.hostile(mode, fixture: forecast))
            server.route("/3/search/movie", FixtureServer.hostile(mode, fixture: search))
            let warnings = collectAll(WarningsFixtures.repository(server, cache: cacheDirectory, timeout: 3)
                .warnings(for: WarningsFixtures.seattle)).error
            let normals = collectAll(OpenMeteoArchiveRepository(client: URLSessionHTTPClient(connectTimeout: 2),
                                                                baseURL: server.baseURL.absoluteString, cache: nil, timeout: 3)
                .normals(for: WarningsFixtures.seattle.coordinate)).error
            let weather = collectAll(OpenMeteoWeatherRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                                                                cache: nil, timeout: 3)
                .forecast(for: OpenMeteoWeatherRepositoryTests.seoul)).error
            var configuration = TMDBMovieRepository.Configuration(apiKey: "eyJkey", baseURL: server.baseURL.absoluteString,
                                                                  language: "en-US", cacheDirectory: nil)
            configuration.timeout = 3
            let films = collectAll(TMDBMovieRepository(configuration: configuration, client: URLSessionHTTPClient(connectTimeout: 2))
                .search(query: "batman", page: 1)).error
            switch mode {
            case .redirectLoop:
                XCTAssertEqual(warnings, .redirected)
                XCTAssertEqual(normals, .redirected)
                XCTAssertEqual(weather, .redirected)
                XCTAssertEqual(films, .redirected)
            default:
                XCTAssertEqual(warnings, .connectionLost)
                XCTAssertEqual(normals, .connectionLost)
                XCTAssertEqual(weather, .connectionLost)
                XCTAssertEqual(films, .connectionLost)
            }
        }
    }

    func testACountryWhoseRegionsCannotBeReadIsCoveredAndSaysTheFileIsMissing() {
        let base = server.baseURL.absoluteString
        let repository = LiveWarningsRepository(
            client: URLSessionHTTPClient(connectTimeout: 2),
            environment: ["NIMBUS_NWS_URL": base, "NIMBUS_METEOALARM_URL": base, "NIMBUS_JMA_URL": base],
            cacheDirectory: cacheDirectory, version: "0", regions: nil, timeout: 3)
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.berlin), .covered(.meteoAlarm))
        XCTAssertEqual(collectAll(repository.warnings(for: WarningsFixtures.berlin)).error, .regionsUnavailable)
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.seoul), .notCovered, "Korea has no source at all")
        XCTAssertTrue(server.requests.isEmpty, "nothing asked")
        // The countries covered without the table are the table's own.
        XCTAssertEqual(MeteoAlarmWarnings.countries, Set(MeteoAlarmRegions.bundled()?.countries.keys.map { $0 } ?? []))
    }
}
