import XCTest
import Logging
import Synchronization
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// The network log: every request on the `http` logger, secrets redacted before anything is
/// formatted, a file of the user's own that rotates, and nothing at all when logging is off.
final class NetworkLogTests: XCTestCase {
    private var server: FixtureServer!
    private var folder: URL!
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private let key = "0123456789abcdef0123456789abcdef"

    override func setUpWithError() throws {
        server = try FixtureServer()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-log-\(UUID().uuidString)")
        addTeardownBlock { [folder] in try? FileManager.default.removeItem(at: folder!) }
        scheduler = DispatchQueue.test
        server.route("/3/genre/movie/list", .init(json: TMDBMovieRepositoryTests.genres))
    }

    override func tearDown() {
        server.stop()
    }

    private var logURL: URL { folder.appendingPathComponent("state/nimbus/nimbus.log") }

    /// The app's chain: logged, retried, live; the log file is given no secrets to hide, so what it
    /// holds is redacted by the client alone.
    private func client(level: Logger.Level) throws -> (HTTPClient, RetryingHTTPClient) {
        let log = NimbusLog(level: level, file: try LogFile(url: logURL))
        let retrying = RetryingHTTPClient(URLSessionHTTPClient(connectTimeout: 2), scheduler: scheduler.eraseToAnyScheduler(),
                                          jitter: { 0.5 }, logger: log.logger(.http))
        return (LoggingHTTPClient(retrying, logger: log.logger(.http), subsystem: "tmdb"), retrying)
    }

    private func logText() throws -> String {
        String(decoding: try Data(contentsOf: logURL), as: UTF8.self)
    }

    /// Searches TMDB with `key` through `client` until a page comes back (or fails).
    private func search(_ client: HTTPClient, key: String, retrying: RetryingHTTPClient) {
        let repository = TMDBMovieRepository(
            configuration: .init(apiKey: key, baseURL: server.baseURL.absoluteString, language: "en-US", cacheDirectory: nil),
            client: client)
        let done = Mutex(false)
        let cancellable = repository.search(query: "batman", page: 1)
            .sink(receiveCompletion: { _ in done.withLock { $0 = true } }, receiveValue: { _ in })
        // The first search is rate limited: its retry waits on the test scheduler. The wait is
        // announced just before it is scheduled, so the clock moves on until the search ends (a
        // single step could come between the two on a busy machine, and the retry would never go).
        waitUntil("the retry's wait", { !retrying.status.waits.isEmpty || done.withLock { $0 } })
        waitUntil("the search", {
            scheduler.advance(by: .seconds(2))
            return done.withLock { $0 }
        })
        cancellable.cancel()
    }

    private func rateLimitFirstSearch() {
        let count = Mutex(0)
        server.route("/3/search/movie") { _ in
            let n = count.withLock { $0 += 1; return $0 }
            return n == 1 ? .init(status: 429, headers: ["Retry-After": "2", "Content-Type": "application/json"],
                                  body: Data(TMDBMovieRepositoryTests.rateLimited.utf8))
                : .init(json: TMDBMovieRepositoryTests.searchPage1)
        }
    }

    func testEveryRequestIsLoggedAndTheApiKeyIsNowhereInTheFile() throws {
        rateLimitFirstSearch()
        let (client, retrying) = try client(level: .debug)
        search(client, key: key, retrying: retrying)
        let text = try logText()
        XCTAssertFalse(text.contains(key), text)
        XCTAssertFalse(text.contains(String(key.prefix(12))), "not even part of it")
        let lines = text.split(separator: "\n")
        let searches = lines.filter { $0.contains(" info http: GET ") && $0.contains("/3/search/movie") }
        XCTAssertEqual(searches.count, 2, text) // the retry's wait, then the answer
        XCTAssertTrue(searches.allSatisfy { $0.contains("api_key=REDACTED") }, text)
        XCTAssertTrue(searches[0].contains("→ 429, ") && searches[0].contains("retrying in 2.0 s (Retry-After), try 2 of 3"), text)
        XCTAssertTrue(searches[1].contains("→ 200, ") && searches[1].contains(" ms, retried (2 tries)")
                      && searches[1].hasSuffix("for=tmdb"), text)
        let genres = lines.filter { $0.contains(" info http: GET ") && $0.contains("/3/genre/movie/list") }
        XCTAssertTrue(genres.allSatisfy { $0.contains("not retried") }, text)
        let curls = lines.filter { $0.contains(" debug http: curl ") }
        XCTAssertEqual(curls.count, lines.filter { $0.contains(" info http: GET ") && !$0.contains("retrying") }.count, text)
        XCTAssertTrue(curls.allSatisfy { $0.contains("api_key=REDACTED") }, text)
        let attributes = try FileManager.default.attributesOfItem(atPath: logURL.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testABearerTokenIsRedactedInTheCurlCommand() throws {
        let token = "eyJhbGciOiJIUzI1NiJ9.eyJhdWQiOiJzZWNyZXQifQ.c2lnbmF0dXJlLXNlY3JldA"
        rateLimitFirstSearch()
        let (client, retrying) = try client(level: .debug)
        search(client, key: token, retrying: retrying)
        let text = try logText()
        XCTAssertFalse(text.contains(token), text)
        XCTAssertFalse(text.contains("c2lnbmF0dXJlLXNlY3JldA"), text)
        XCTAssertTrue(text.contains("-H 'Authorization: Bearer REDACTED'"), text)
        XCTAssertFalse(text.contains("api_key"), "a bearer token is not also sent as api_key")
    }

    func testConditionalHeadersAndA304AreLogged() throws {
        server.route("/feed", .init(status: 304, headers: ["ETag": "\"v1\""], body: Data()))
        let (client, _) = try client(level: .info)
        let done = expectation(description: "answer")
        let request = HTTPRequest(url: server.baseURL.appendingPathComponent("feed"),
                                  headers: ["If-None-Match": "\"v1\"", "If-Modified-Since": "Tue, 24 Nov 2026 00:00:00 GMT"])
        _ = client.send(request) { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        let text = try logText()
        XCTAssertTrue(text.contains("GET http://127.0.0.1:\(server.port)/feed If-Modified-Since: Tue, 24 Nov 2026 00:00:00 GMT If-None-Match: \"v1\" → 304 not modified, 0 B, "), text)
        XCTAssertFalse(text.contains("curl"), "curl commands are for debug")
    }

    /// A kept copy shown instead of (or before) a fresh answer is said too, by the subsystem that
    /// keeps it: the weather's forecast and the quakes' feed, when the server cannot be reached.
    func testAnswersFromTheKeptCopyAreLogged() throws {
        let log = NimbusLog(level: .info, file: try LogFile(url: logURL))
        let cacheFolder = folder.appendingPathComponent("cache")
        let seoul = Coordinate(latitude: 37.566, longitude: 126.9784)
        let body = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tapes/fixtures/open-meteo-seoul.json"))
        let weatherCache = WeatherCache(directory: cacheFolder)
        weatherCache.write(body, for: seoul, fetchedAt: Date().addingTimeInterval(-3600))
        let offline = OfflineHTTPClient()
        let weather = OpenMeteoWeatherRepository(client: offline, cache: weatherCache, logger: log.logger(.weather))
        _ = weather.forecast(for: seoul).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        let feedCache = QuakeFeedCache(directory: cacheFolder)
        let fresh = USGSQuakeRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                                        cache: feedCache)
        server.route(USGSQuakeRepositoryTests.feed.path, .init(body: try Data(contentsOf: USGSQuakeRepositoryTests.fixture)))
        let loaded = expectation(description: "feed")
        let keep = fresh.feed(USGSQuakeRepositoryTests.feed).sink(receiveCompletion: { _ in loaded.fulfill() }, receiveValue: { _ in })
        wait(for: [loaded], timeout: 10)
        keep.cancel()
        XCTAssertNotNil(feedCache.read(USGSQuakeRepositoryTests.feed), "the first load kept the feed")
        let quakes = USGSQuakeRepository(client: offline, cache: feedCache, logger: log.logger(.quakes))
        _ = quakes.feed(USGSQuakeRepositoryTests.feed).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        waitUntil("the quakes' line", { ((try? logText()) ?? "").contains("quakes:") })
        let text = try logText()
        XCTAssertTrue(text.contains("weather: forecast for forecast_37.5660_126.9784.json from the kept copy, fetched 3600 s ago")
                      || text.contains("from the kept copy, fetched 360"), text)
        XCTAssertTrue(text.contains("quakes: 2.5_day from the kept copy: "), text)
    }

    func testACancelledRequestIsLoggedOnce() throws {
        server.route("/hang", .init(json: "{}", behaviour: .hang))
        let (client, _) = try client(level: .info)
        let task = client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("hang"))) { _ in }
        waitUntil("the request", { server.requests.count == 1 })
        task.cancel()
        task.cancel()
        let lines = try logText().split(separator: "\n").filter { $0.contains("/hang") }
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines.first?.contains("→ cancelled, ") == true, lines.joined())
    }

    func testRedaction() {
        XCTAssertEqual(LogRedaction.url(URL(string: "https://u:p@api.example/3/x?query=a%20b&api_key=abc&page=2&access_token=t")!),
                       "https://REDACTED:REDACTED@api.example/3/x?query=a%20b&api_key=REDACTED&page=2&access_token=REDACTED")
        XCTAssertEqual(LogRedaction.header("Authorization", "Bearer abc.def"), "Bearer REDACTED")
        XCTAssertEqual(LogRedaction.header("authorization", "abc"), "REDACTED")
        XCTAssertEqual(LogRedaction.header("X-Api-Key", "abc"), "REDACTED")
        XCTAssertEqual(LogRedaction.header("If-None-Match", "\"v\""), "\"v\"")
        XCTAssertEqual(RequestLine.quoted("it's"), #"'it'\''s'"#)
    }

    func testTheFileAlsoHidesTheSecretsItIsGiven() throws {
        let file = try LogFile(url: logURL, secrets: [key, "short"])
        file.write("a line with \(key) in it, and short")
        XCTAssertEqual(try logText(), "a line with REDACTED in it, and short\n")
    }

    func testTheFileRotatesAtItsLimitKeepingThreeFiles() throws {
        let file = try LogFile(url: logURL, maxBytes: 1000)
        let line = String(repeating: "x", count: 99) // 100 bytes with its newline
        for i in 0..<45 { file.write(String(line.prefix(95)) + String(format: "%04d", i)) }
        let names = try FileManager.default.contentsOfDirectory(atPath: logURL.deletingLastPathComponent().path).sorted()
        XCTAssertEqual(names, ["nimbus.log", "nimbus.log.1", "nimbus.log.2"])
        for name in names {
            let path = logURL.deletingLastPathComponent().appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            XCTAssertLessThanOrEqual((attributes[.size] as? NSNumber)?.intValue ?? .max, 1000, name)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, name)
        }
        // The newest lines are in nimbus.log, the ten before them in nimbus.log.1.
        XCTAssertTrue(try logText().hasPrefix(String(line.prefix(95)) + "0040"))
        let older = String(decoding: try Data(contentsOf: file.rotated(1)), as: UTF8.self)
        XCTAssertTrue(older.hasPrefix(String(line.prefix(95)) + "0030"), older)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: logURL.deletingLastPathComponent().path)
        XCTAssertEqual((folderAttributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    /// `--log-file` naming a file the user has: lines are added to it, and neither it (664) nor its
    /// folder (775) has its mode changed; only what the log makes is 0600 (and 0700).
    func testAnExistingFileAndFolderKeepTheirModes() throws {
        let fm = FileManager.default
        let shared = folder.appendingPathComponent("shared")
        try fm.createDirectory(at: shared, withIntermediateDirectories: true)
        try fm.setAttributes([.posixPermissions: 0o775], ofItemAtPath: shared.path)
        let existing = shared.appendingPathComponent("session.log")
        try Data("mine\n".utf8).write(to: existing)
        try fm.setAttributes([.posixPermissions: 0o664], ofItemAtPath: existing.path)
        let log = try NimbusLog.configured(environment: [:], logFile: existing.path)
        log.logger(.http).info("a request")
        func mode(_ url: URL) throws -> Int? { (try fm.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue }
        XCTAssertEqual(try mode(existing), 0o664)
        XCTAssertEqual(try mode(shared), 0o775)
        XCTAssertTrue(try String(contentsOf: existing, encoding: .utf8).hasPrefix("mine\n"))
        XCTAssertTrue(try String(contentsOf: existing, encoding: .utf8).contains(" info http: a request"))
        let made = shared.appendingPathComponent("new.log")
        _ = try LogFile(url: made)
        XCTAssertEqual(try mode(made), 0o600)
    }

    func testOffFormatsNothingAndWritesNothing() throws {
        let environment = ["HOME": folder.path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path]
        let log = try NimbusLog.configured(environment: environment, logFile: nil)
        XCTAssertFalse(log.isOn)
        let formatted = Mutex(0)
        func expensive() -> String { formatted.withLock { $0 += 1 }; return "x" }
        for subsystem in LogSubsystem.allCases {
            let logger = log.logger(subsystem)
            logger.info("\(expensive())")
            logger.debug("\(expensive())")
            logger.error("\(expensive())")
        }
        XCTAssertEqual(formatted.withLock { $0 }, 0, "a logger that is off never makes its message")
        XCTAssertFalse(FileManager.default.fileExists(atPath: logURL.path))
        // On at info, debug lines are not made either.
        let on = try NimbusLog.configured(environment: environment.merging(["NIMBUS_LOG": "info"]) { $1 }, logFile: nil)
        on.logger(.weather).debug("\(expensive())")
        XCTAssertEqual(formatted.withLock { $0 }, 0)
        on.logger(.weather).info("forecasts \(expensive())")
        XCTAssertEqual(formatted.withLock { $0 }, 1)
        XCTAssertTrue(try logText().contains(" info weather: forecasts x"))
    }

    func testWhereTheLogGoesAndAtWhichLevel() throws {
        XCTAssertNil(NimbusLog.level(environment: [:]))
        XCTAssertNil(NimbusLog.level(environment: ["NIMBUS_LOG": ""]))
        XCTAssertNil(NimbusLog.level(environment: ["NIMBUS_LOG": "off"]))
        XCTAssertNil(NimbusLog.level(environment: ["NIMBUS_LOG": "loud"]))
        XCTAssertEqual(NimbusLog.level(environment: ["NIMBUS_LOG": "DEBUG"]), .debug)
        XCTAssertEqual(NimbusLog.level(environment: ["NIMBUS_LOG": "info"]), .info)
        XCTAssertEqual(NimbusLog.defaultFile(environment: ["HOME": "/h", "XDG_STATE_HOME": "/s"]).path, "/s/nimbus/nimbus.log")
        XCTAssertEqual(NimbusLog.defaultFile(environment: ["HOME": "/h"]).path, "/h/.local/state/nimbus/nimbus.log")
        XCTAssertEqual(NimbusLog.defaultFile(environment: ["HOME": "/h", "XDG_STATE_HOME": "relative"]).path,
                       "/h/.local/state/nimbus/nimbus.log")
        // --log-file alone logs at info.
        let path = folder.appendingPathComponent("custom.log").path
        let log = try NimbusLog.configured(environment: [:], logFile: path)
        XCTAssertEqual(log.level, .info)
        XCTAssertEqual(log.file?.url.path, path)
        XCTAssertThrowsError(try NimbusLog.configured(environment: ["NIMBUS_LOG": "debug"], logFile: "/proc/nimbus/x.log"))
    }
}
