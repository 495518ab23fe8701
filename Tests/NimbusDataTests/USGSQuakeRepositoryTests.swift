import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// The USGS feeds over the live HTTP client, against the loopback fixture server: conditional
/// requests, the disk cache, and events checked one by one.
final class USGSQuakeRepositoryTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tapes/fixtures/usgs-2.5_day.geojson")
    static let feed = QuakeFeed(magnitude: .twoAndAHalf, period: .day)
    /// Half an hour after the fixture's feed was generated.
    static let now = Date(timeIntervalSince1970: 1_781_998_200)

    private var server: FixtureServer!
    private var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-quakes-\(UUID().uuidString)")
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    private func repository(cache: Bool = true) -> USGSQuakeRepository {
        USGSQuakeRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                            cache: cache ? QuakeFeedCache(directory: cacheDirectory) : nil, timeout: 5, now: { Self.now })
    }

    private func collect(_ publisher: AnyPublisher<QuakeFeedUpdate, QuakeError>) -> (values: [QuakeFeedUpdate], error: QuakeError?) {
        let done = expectation(description: "completion")
        let lock = NSLock()
        var values: [QuakeFeedUpdate] = []
        var failure: QuakeError?
        let c = publisher.sink(receiveCompletion: { completion in
            lock.lock()
            if case .failure(let e) = completion { failure = e }
            lock.unlock()
            done.fulfill()
        }, receiveValue: { v in lock.lock(); values.append(v); lock.unlock() })
        wait(for: [done], timeout: 10)
        c.cancel()
        lock.lock()
        defer { lock.unlock() }
        return (values, failure)
    }

    private func serveFixture(etag: String = "\"v1\"", lastModified: String = "Sun, 21 Jun 2026 00:00:00 GMT") throws {
        server.route(Self.feed.path, .init(headers: ["Content-Type": "application/json", "ETag": etag, "Last-Modified": lastModified],
                                          body: try Data(contentsOf: Self.fixture)))
    }

    func testEachEventIsCheckedOnItsOwnAndBadOnesAreDroppedAndCounted() throws {
        try serveFixture()
        let result = collect(repository().feed(Self.feed))
        XCTAssertNil(result.error)
        let update = try XCTUnwrap(result.values.last)
        XCTAssertEqual(update.origin, .fresh)
        XCTAssertEqual(update.snapshot.quakes.map(\.id), ["us7000bad3", "us7000pk01", "us7000pk02", "us7000pk03", "ci40000001"],
                       "newest first")
        XCTAssertEqual(update.snapshot.dropped, 3, "a magnitude that is not a number, a latitude of 95, no geometry")
        let pohang = update.snapshot.quakes[1]
        XCTAssertEqual(pohang.magnitude, 5.1)
        XCTAssertEqual(pohang.coordinate, Coordinate(latitude: 35.90, longitude: 129.21))
        XCTAssertEqual(pohang.depthKilometres, 10)
        XCTAssertEqual(pohang.alert, .green)
        XCTAssertEqual(pohang.felt, 120)
        XCTAssertTrue(update.snapshot.quakes[3].tsunami)
        let hostile = update.snapshot.quakes[0].place
        XCTAssertFalse(hostile.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E }, hostile.debugDescription)
    }

    func testA200KeepsItsValidatorsAndTheNextRequestSendsThemAndA304KeepsTheEvents() throws {
        try serveFixture()
        let first = collect(repository().feed(Self.feed))
        XCTAssertEqual(first.values.map(\.origin), [.fresh])
        XCTAssertNil(server.requests.last?.headers["if-none-match"], "nothing kept yet: a plain GET")
        server.route(Self.feed.path, .init(status: 304, headers: [:]))
        // A new repository, as after a restart: the kept feed comes from the disk first.
        let second = collect(repository().feed(Self.feed))
        XCTAssertNil(second.error)
        XCTAssertEqual(second.values.map(\.origin), [.cache, .notModified])
        XCTAssertEqual(second.values.last?.snapshot, first.values.last?.snapshot)
        XCTAssertEqual(second.values.last?.checkedAt, Self.now)
        let sent = try XCTUnwrap(server.requests.last?.headers)
        XCTAssertEqual(sent["if-none-match"], "\"v1\"")
        XCTAssertEqual(sent["if-modified-since"], "Sun, 21 Jun 2026 00:00:00 GMT")
        let files = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.appendingPathComponent("quakes").path)
        XCTAssertEqual(files, ["2.5_day.json"])
        let mode = try FileManager.default.attributesOfItem(
            atPath: cacheDirectory.appendingPathComponent("quakes/2.5_day.json").path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
    }

    func testA304WithNothingKeptIsATypedError() {
        server.route(Self.feed.path, .init(status: 304, headers: [:]))
        let result = collect(repository(cache: false).feed(Self.feed))
        XCTAssertEqual(result.error, .notModifiedWithoutCache)
        XCTAssertTrue(result.values.isEmpty)
    }

    func testOfflineShowsTheKeptFeedThenSaysWhy() throws {
        try serveFixture()
        _ = collect(repository().feed(Self.feed))
        server.stop()
        let result = collect(repository().feed(Self.feed))
        XCTAssertEqual(result.values.map(\.origin), [.cache])
        XCTAssertEqual(result.error, .offline)
    }

    func testAnUpdatedEventReplacesTheKeptOneAndOldOnesLeaveWithTheirPeriod() throws {
        try serveFixture()
        _ = collect(repository().feed(Self.feed))
        var doc = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixture)) as! [String: Any]
        var features = doc["features"] as! [[String: Any]]
        var first = features[0]
        var properties = first["properties"] as! [String: Any]
        properties["mag"] = 5.4
        properties["updated"] = (properties["updated"] as! Double) + 600_000
        first["properties"] = properties
        features = [first]
        doc["features"] = features
        server.route(Self.feed.path, .init(body: try JSONSerialization.data(withJSONObject: doc)))
        let result = collect(repository().feed(Self.feed))
        let quakes = try XCTUnwrap(result.values.last?.snapshot.quakes)
        XCTAssertEqual(quakes.count, 5, "events seen within the day are kept")
        XCTAssertEqual(quakes.first { $0.id == "us7000pk01" }?.magnitude, 5.4, "updated in place")
        XCTAssertEqual(quakes.filter { $0.id == "us7000pk01" }.count, 1)
    }

    func testNotACollectionIsATypedErrorAndTooLargeIsRefused() {
        server.route(Self.feed.path, .init(json: #"{"type":"Feature","features":[]}"#))
        XCTAssertEqual(collect(repository().feed(Self.feed)).error, .badResponse)
        server.route(Self.feed.path, .init(json: "[1,2,3"))
        XCTAssertEqual(collect(repository().feed(Self.feed)).error, .badResponse)
        server.route(Self.feed.path, .init(body: Data(), behaviour: .huge(bytes: 20 << 20, announced: true)))
        XCTAssertEqual(collect(repository().feed(Self.feed)).error, .tooLarge)
    }

    func testAKeptFileIsCheckedAgainWhenRead() throws {
        let cache = QuakeFeedCache(directory: cacheDirectory)
        let quake = Quake(id: "x", magnitude: 4, place: "ok", time: Self.now, updated: Self.now, timeZoneOffsetMinutes: nil,
                          coordinate: Coordinate(latitude: 10, longitude: 10), depthKilometres: 5, url: nil, felt: nil,
                          alert: nil, tsunami: false, significance: nil, magnitudeType: nil, kind: nil, reviewed: false)
        cache.write(.init(snapshot: QuakeFeedSnapshot(quakes: [quake], dropped: 0, generated: nil), fetchedAt: Self.now,
                          validators: HTTPValidators(etag: nil, lastModified: nil)), for: Self.feed)
        XCTAssertEqual(cache.read(Self.feed)?.snapshot.quakes, [quake])
        // Edited on disk to hold a magnitude no earthquake has: it is not shown.
        let url = cacheDirectory.appendingPathComponent("quakes/2.5_day.json")
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\"mag\":4", with: "\"mag\":1e300")
        try text.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertEqual(cache.read(Self.feed)?.snapshot.quakes, [])
    }
}
