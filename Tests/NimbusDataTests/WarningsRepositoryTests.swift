import XCTest
import Synchronization
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// The three warnings services over the live HTTP client against the loopback server: every source
/// and state (active, none, expired, server down), conditional GETs, and what is kept.
final class WarningsRepositoryTests: XCTestCase {
    private var server: FixtureServer!
    private var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-warnings-\(UUID().uuidString)")
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    private func repository(cache: Bool = true) -> LiveWarningsRepository {
        WarningsFixtures.repository(server, cache: cache ? cacheDirectory : nil)
    }

    private func fresh(_ city: City, _ repository: LiveWarningsRepository? = nil) throws -> WarningsReport {
        let result = collectAll((repository ?? self.repository()).warnings(for: city))
        XCTAssertNil(result.error)
        XCTAssertTrue(result.finished)
        return try XCTUnwrap(result.values.last)
    }

    // MARK: Coverage

    /// The screens make their repositories before the first frame: the region table is read when a
    /// city is first asked about, once, and not at all while none is.
    func testTheRegionTableIsReadOnTheFirstQuestionOnly() {
        let reads = Mutex(0)
        let repository = LiveWarningsRepository(
            client: URLSessionHTTPClient(connectTimeout: 2), environment: [:], cacheDirectory: nil, version: "0.1.0",
            regions: { () -> MeteoAlarmRegions? in
                reads.withLock { $0 += 1 }
                return WarningsFixtures.regions
            }())
        XCTAssertEqual(reads.withLock { $0 }, 0)
        let useCase = GetWarningsUseCase(repository: repository)
        let answer = useCase.execute(for: WarningsFixtures.berlin)
        XCTAssertEqual(reads.withLock { $0 }, 0, "asked when the answer is subscribed to (on the work queue), not when it is made")
        _ = answer
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.berlin), .covered(.meteoAlarm))
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.london), .covered(.meteoAlarm))
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.seoul), .notCovered)
        XCTAssertEqual(reads.withLock { $0 }, 1)
    }

    func testEachCountryHasItsSourceAndOthersNone() {
        let repository = repository()
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.seattle), .covered(.nws))
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.berlin), .covered(.meteoAlarm))
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.london), .covered(.meteoAlarm))
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.tokyo), .covered(.jma))
        XCTAssertEqual(repository.coverage(for: WarningsFixtures.seoul), .notCovered)
        // A German city the table placed in no region has no source: never a silent "no warnings".
        let nowhere = City(id: 1, name: "Nowhere", countryCode: "DE", latitude: 50, longitude: 10, population: 1,
                           timeZone: "Europe/Berlin", alternateNames: [])
        XCTAssertEqual(repository.coverage(for: nowhere), .notCovered)
        XCTAssertEqual(collectAll(repository.warnings(for: WarningsFixtures.seoul)).values.count, 0)
        XCTAssertEqual(server.requests.count, 0)
    }

    // MARK: NWS

    func testNWSActiveAlertsForThePoint() throws {
        WarningsFixtures.routeActive(server)
        let report = try fresh(WarningsFixtures.seattle)
        XCTAssertFalse(report.isCached)
        XCTAssertEqual(report.source, .nws)
        XCTAssertEqual(report.checkedAt, WarningsFixtures.now)
        // The test message and the cancellation are not warnings.
        XCTAssertEqual(report.warnings.map(\.event), ["Winter Storm Warning", "Wind Advisory"])
        let storm = report.warnings[0]
        XCTAssertEqual(storm.severity, .severe)
        XCTAssertEqual(storm.sender, "NWS Seattle WA")
        XCTAssertEqual(storm.effective, ISO8601.parse("2026-01-15T18:00:00Z"))
        XCTAssertEqual(storm.onset, ISO8601.parse("2026-01-16T00:00:00Z"))
        XCTAssertEqual(storm.expires, ISO8601.parse("2026-01-16T12:00:00Z"))
        XCTAssertEqual(storm.instruction, "If you must travel, keep an extra flashlight, food, and water in your vehicle in case of an emergency.")
        // Paragraphs kept as published.
        XCTAssertEqual(storm.description?.components(separatedBy: "\n\n").count, 4)
        XCTAssertEqual(report.warnings[1].instruction, nil)
        XCTAssertEqual(report.warnings[1].severity, .minor)

        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.path, "/alerts/active")
        XCTAssertEqual(request.query["point"], "47.6062,-122.3321")
        XCTAssertEqual(request.headers["user-agent"], "nimbus/0.1.0 (terminal weather app; weather@example.org)")
        XCTAssertEqual(request.headers["accept"], "application/geo+json")
    }

    func testNWSWithNoAlertsIsCoveredAndEmpty() throws {
        server.route("/alerts/active", .init(body: WarningsFixtures.data("nws-none.json")))
        let report = try fresh(WarningsFixtures.seattle)
        XCTAssertEqual(report.warnings, [])
        XCTAssertFalse(report.isCached)
    }

    func testExpiredAlertsAreNeverInForce() throws {
        server.route("/alerts/active", .init(body: WarningsFixtures.data("nws-expired.json")))
        let report = try fresh(WarningsFixtures.seattle)
        XCTAssertEqual(report.warnings.count, 1, "kept as the service sent it")
        XCTAssertEqual(report.active(at: WarningsFixtures.now), [])
        let useCase = GetWarningsUseCase(repository: repository(), now: { WarningsFixtures.now })
        let answers = collectAll(useCase.execute(for: WarningsFixtures.seattle)).values
        XCTAssertEqual(answers.map(\.active), [[], []], "the kept copy, then the fresh answer: nothing in force")
    }

    func testTheKeptCopyComesFirstAndAServerDownLeavesIt() throws {
        server.route("/alerts/active", .init(headers: ["Content-Type": "application/geo+json", "ETag": "\"v1\""],
                                             body: WarningsFixtures.data("nws-active.json")))
        _ = try fresh(WarningsFixtures.seattle)
        for down in [FixtureServer.Response(status: 500, json: #"{"title":"Unexpected Problem","status":500}"#),
                     FixtureServer.Response(status: 503, json: "{}")] {
            server.route("/alerts/active", down)
            let result = collectAll(repository().warnings(for: WarningsFixtures.seattle))
            XCTAssertEqual(result.values.map(\.isCached), [true])
            XCTAssertEqual(result.values.first?.warnings.count, 2)
            XCTAssertEqual(result.error, .server(status: down.status))
        }
        // No server at all.
        server.stop()
        let result = collectAll(repository().warnings(for: WarningsFixtures.seattle))
        XCTAssertEqual(result.values.map(\.isCached), [true])
        XCTAssertEqual(result.error, .offline)
    }

    func testAConditionalGETKeepsTheCopyOnA304() throws {
        server.route("/alerts/active", .init(headers: ["Content-Type": "application/geo+json", "ETag": "\"v1\"",
                                                       "Last-Modified": "Thu, 15 Jan 2026 18:00:00 GMT"],
                                             body: WarningsFixtures.data("nws-active.json")))
        let first = try fresh(WarningsFixtures.seattle)
        server.route("/alerts/active", handler: { request in
            request.headers["if-none-match"] == "\"v1\"" ? .init(status: 304, headers: [:]) : .init(body: WarningsFixtures.data("nws-none.json"))
        })
        let later = Date(timeIntervalSince1970: 1_768_500_600)
        let result = collectAll(WarningsFixtures.repository(server, cache: cacheDirectory, now: { later }).warnings(for: WarningsFixtures.seattle))
        XCTAssertNil(result.error)
        XCTAssertEqual(result.values.map(\.isCached), [true, false])
        XCTAssertEqual(result.values.last?.warnings, first.warnings)
        XCTAssertEqual(result.values.last?.checkedAt, later)
        XCTAssertEqual(server.requests.last?.headers["if-modified-since"], "Thu, 15 Jan 2026 18:00:00 GMT")
    }

    func testA304WithNothingKeptIsAnError() {
        server.route("/alerts/active", .init(status: 304, headers: [:]))
        XCTAssertEqual(collectAll(repository().warnings(for: WarningsFixtures.seattle)).error, .notModifiedWithoutCache)
    }

    /// One NWS alert with `changes` made to its properties.
    private func alert(_ changes: [String: Any?]) throws -> Data {
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: WarningsFixtures.data("nws-active.json")) as? [String: Any])
        var features = try XCTUnwrap(root["features"] as? [[String: Any]])
        var properties = try XCTUnwrap(features[0]["properties"] as? [String: Any])
        for (key, value) in changes { properties[key] = value ?? NSNull() }
        features[0]["properties"] = properties
        root["features"] = [features[0]]
        return try JSONSerialization.data(withJSONObject: root)
    }

    func testAbsurdTimesAreNotBelievedAndNotKept() throws {
        server.route("/alerts/active", .init(body: WarningsFixtures.data("nws-active.json")))
        _ = try fresh(WarningsFixtures.seattle)
        let absurd: [[String: Any?]] = [
            ["expires": "9999-12-31T23:59:59Z"],
            ["expires": nil],
            ["expires": "tomorrow"],
            ["expires": "2026-02-30T10:00:00Z"],
            ["expires": "2026-01-14T00:00:00-08:00"],          // before it took effect
            ["expires": "2026-06-15T00:00:00Z"],               // five months in force
            ["event": nil],
            ["event": "\u{1B}\u{202E}\u{7} "],
            ["effective": "1850-01-01T00:00:00Z", "onset": nil, "sent": "1850-01-01T00:00:00Z", "expires": "2026-01-16T00:00:00Z"],
        ]
        for (i, changes) in absurd.enumerated() {
            server.route("/alerts/active", .init(body: try alert(changes)))
            let result = collectAll(repository().warnings(for: WarningsFixtures.seattle))
            if i == absurd.count - 1 {
                // A start before 2000 is not believed, so no start: the expiry alone stands.
                XCTAssertEqual(result.values.last?.warnings.first?.effective, nil, "\(changes)")
                continue
            }
            XCTAssertEqual(result.error, .badResponse, "\(changes)")
            XCTAssertEqual(result.values.map(\.isCached), [true], "\(changes)")
            // What was kept is the last believed answer.
            XCTAssertEqual(WarningsCache(directory: cacheDirectory).read(.nws, city: WarningsFixtures.seattle.id)?.warnings.count, 2)
        }
    }

    func testUnknownSeveritiesAreUnknownAndHostileTextIsCleaned() throws {
        let escape = "\u{1B}]8;;http://evil\u{1B}\\click\u{1B}]8;;\u{1B}\\ \u{1B}[31mred\u{202E}gnp.exe\u{2066}"
        let long = String(repeating: "Heavy snow. ", count: 100_000) // 1.2 MB
        server.route("/alerts/active", .init(body: try alert([
            "severity": "Apocalyptic", "event": "Storm\u{0}Warning\u{9B}2J", "headline": escape,
            "description": long, "instruction": "Line one\r\nLine two\u{2028}\u{85}\n\n\n\nLine three", "senderName": escape,
        ])))
        let warning = try XCTUnwrap(try fresh(WarningsFixtures.seattle).warnings.first)
        XCTAssertEqual(warning.severity, .unknown)
        XCTAssertEqual(warning.event, "StormWarning2J")
        for text in [warning.headline, warning.sender, warning.description, warning.instruction].compactMap({ $0 }) {
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }, text.prefix(80).debugDescription)
        }
        XCTAssertEqual(warning.description?.unicodeScalars.count, WarningText.body)
        XCTAssertEqual(warning.instruction, "Line one\nLine two\n\nLine three")
    }

    func testAnAnswerTooLargeIsRefusedAndTheCopyKept() throws {
        server.route("/alerts/active", .init(body: WarningsFixtures.data("nws-active.json")))
        _ = try fresh(WarningsFixtures.seattle)
        let huge = String(repeating: "x", count: 10 << 20)
        server.route("/alerts/active", .init(body: try alert(["description": huge])))
        let result = collectAll(repository().warnings(for: WarningsFixtures.seattle))
        XCTAssertEqual(result.error, .tooLarge)
        XCTAssertEqual(result.values.map(\.isCached), [true])
    }

    // MARK: MeteoAlarm

    func testMeteoAlarmWarningsOfTheCitysRegionWithTheirText() throws {
        WarningsFixtures.routeActive(server)
        let report = try fresh(WarningsFixtures.berlin)
        XCTAssertEqual(report.source, .meteoAlarm)
        // Berlin's two warnings; not the other district's, not the test.
        XCTAssertEqual(report.warnings.map(\.id), ["2.49.0.0.276.0.DWD.PVW.1768489440000.1a2b3c4d-0001.MUL",
                                                   "2.49.0.0.276.0.DWD.PVW.1768471200000.5e6f7a8b-0001.DEU"])
        let wind = report.warnings[0]
        // The English block of the CAP document.
        XCTAssertEqual(wind.event, "storm-force gusts")
        XCTAssertEqual(wind.headline, "Official WARNING of STORM-FORCE GUSTS")
        XCTAssertEqual(wind.description, "There is a risk of storm-force gusts (Level 2 of 4).\nMax. gusts: ~ 70 km/h; Wind direction: west")
        XCTAssertEqual(wind.sender, "Deutscher Wetterdienst")
        XCTAssertEqual(wind.language, "en-GB")
        XCTAssertEqual(wind.severity, .moderate)
        XCTAssertEqual(wind.expires, ISO8601.parse("2026-01-16T06:00:00Z"))
        // The frost warning's document is not on the server: the feed entry alone.
        let frost = report.warnings[1]
        XCTAssertEqual(frost.event, "frost")
        XCTAssertEqual(frost.headline, "Yellow Low-temperature Warning issued for Germany - Berlin")
        XCTAssertNil(frost.description)
        XCTAssertEqual(frost.severity, .minor)
        // Only the documents of the city's warnings were asked for.
        XCTAssertEqual(Set(server.requests.map(\.path)), ["/feeds/meteoalarm-legacy-atom-germany",
                                                          "/api/v1/warnings/feeds-germany/5d3c0a51-1e2b-4f7a-9c8d-0a1b2c3d4e5f",
                                                          "/api/v1/warnings/feeds-germany/0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"])
    }

    func testMeteoAlarmNoneForTheRegion() throws {
        server.route("/feeds/meteoalarm-legacy-atom-germany",
                     .init(body: WarningsFixtures.data("meteoalarm-germany-none.xml", base: server.baseURL.absoluteString)))
        XCTAssertEqual(try fresh(WarningsFixtures.berlin).warnings, [])
    }

    func testMeteoAlarmPolygonsPlaceTheUKsCities() throws {
        WarningsFixtures.routeActive(server)
        XCTAssertEqual(try fresh(WarningsFixtures.london).warnings.map(\.event), ["Yellow rain warning"])
        let cardiff = City(id: 2653822, name: "Cardiff", countryCode: "GB", latitude: 51.48, longitude: -3.18, population: 1,
                           timeZone: "Europe/London", alternateNames: [])
        XCTAssertEqual(try fresh(cardiff).warnings, [])
    }

    func testAFeedsLinksToAnotherServerAreNotFollowed() throws {
        let other = try FixtureServer()
        defer { other.stop() }
        other.fallback { _ in .init(json: "{}") }
        server.route("/feeds/meteoalarm-legacy-atom-germany",
                     .init(body: WarningsFixtures.data("meteoalarm-germany.xml", base: "http://localhost:\(other.port)")))
        let report = try fresh(WarningsFixtures.berlin)
        XCTAssertEqual(report.warnings.count, 2)
        XCTAssertTrue(report.warnings.allSatisfy { $0.description == nil })
        XCTAssertEqual(other.requestsSoFar(), [], "a link took Nimbus to another server")
    }

    func testAMeteoAlarmFeedThatIsNotAFeedIsABadResponse() {
        for body in ["<html><body>maintenance</body></html>", "{\"feed\": []}", "<feed><entry>", "",
                     "<!DOCTYPE feed [<!ENTITY a \"aaaa\">]><feed>&a;</feed>"] {
            server.route("/feeds/meteoalarm-legacy-atom-germany", .init(body: Data(body.utf8)))
            let error = collectAll(repository(cache: false).warnings(for: WarningsFixtures.berlin)).error
            XCTAssertTrue(error == .badResponse || error == .server(status: 204), "\(body): \(String(describing: error))")
        }
    }

    /// Found by the hostile server: a feed whose every entry had escapes in its text matched no
    /// region, and was kept as "no warnings" for every city of the country.
    func testAFeedWhoseEntriesAreAllGarbageIsNotKeptAsNoWarnings() throws {
        let base = server.baseURL.absoluteString
        WarningsFixtures.routeActive(server)
        XCTAssertEqual(try fresh(WarningsFixtures.berlin).warnings.count, 2)
        let garbled = String(decoding: WarningsFixtures.data("meteoalarm-germany.xml", base: base), as: UTF8.self)
            .replacingOccurrences(of: "<cap:expires>", with: "<cap:expires>&#27;[2J")
            .replacingOccurrences(of: "<value>DE", with: "<value>&#x202E;DE")
        server.route("/feeds/meteoalarm-legacy-atom-germany", .init(body: Data(garbled.utf8)))
        let result = collectAll(repository().warnings(for: WarningsFixtures.berlin))
        XCTAssertEqual(result.error, .badResponse)
        XCTAssertEqual(result.values.map(\.isCached), [true])
        XCTAssertEqual(WarningsCache(directory: cacheDirectory).read(.meteoAlarm, city: WarningsFixtures.berlin.id)?.warnings.count, 2)
    }

    // MARK: JMA

    func testJMAWarningsOfTheCitysMunicipalArea() throws {
        WarningsFixtures.routeJMA(server)
        let report = try fresh(WarningsFixtures.tokyo)
        XCTAssertEqual(report.source, .jma)
        // 新宿区: thunder and gale advisories in force; the heavy-rain advisory was lifted.
        XCTAssertEqual(report.warnings.map(\.event), ["強風注意報", "雷注意報"])
        XCTAssertTrue(report.warnings.allSatisfy { $0.expires == nil && $0.language == "ja" && $0.sender == "気象庁" && $0.severity == .minor })
        XCTAssertEqual(report.warnings[0].effective, ISO8601.parse("2026-01-15T07:00:00Z"))
        XCTAssertEqual(report.warnings[0].description, "東京地方では、１５日夜遅くまで落雷や突風に注意してください。")
        // Only the geometry part whose box holds Tokyo was fetched.
        XCTAssertFalse(server.requests.contains { $0.path.hasSuffix("class20s_0.json") })
        XCTAssertEqual(JMAAreaCache(directory: cacheDirectory).read(WarningsFixtures.tokyo.id),
                       JMAArea(class20: "1310400", office: "130000", name: "新宿区"))

        // The area is kept: the next time only the office's report is asked for.
        let before = server.requests.count
        _ = try fresh(WarningsFixtures.tokyo)
        XCTAssertEqual(server.requests.dropFirst(before).map(\.path), ["/bosai/warning/data/warning/130000.json"])
    }

    func testJMAWithNothingInForce() throws {
        WarningsFixtures.routeJMA(server, report: "jma-warning-130000-none.json")
        XCTAssertEqual(try fresh(WarningsFixtures.tokyo).warnings, [])
    }

    func testJMAHolesAndPlacesInNoArea() throws {
        WarningsFixtures.routeJMA(server)
        // Inside 新宿区's hole: 千代田区.
        let chiyoda = City(id: 1, name: "Chiyoda", countryCode: "JP", latitude: 35.68, longitude: 139.75, population: 1,
                           timeZone: "Asia/Tokyo", alternateNames: [])
        XCTAssertEqual(try fresh(chiyoda).warnings.map(\.event), ["雷注意報"])
        // Out at sea: no area, said so rather than "no warnings".
        let sea = City(id: 2, name: "Sea", countryCode: "JP", latitude: 35.0, longitude: 140.9, population: 1,
                       timeZone: "Asia/Tokyo", alternateNames: [])
        XCTAssertEqual(collectAll(repository().warnings(for: sea)).error, .regionUnknown)
        let farAway = City(id: 3, name: "Minamitorishima", countryCode: "JP", latitude: 24.28, longitude: 153.98, population: 1,
                           timeZone: "Asia/Tokyo", alternateNames: [])
        XCTAssertEqual(collectAll(repository().warnings(for: farAway)).error, .regionUnknown)
    }

    func testAReportThatNoLongerNamesTheAreaMakesItBeFoundAgain() throws {
        WarningsFixtures.routeJMA(server)
        _ = try fresh(WarningsFixtures.tokyo)
        var report = try XCTUnwrap(JSONSerialization.jsonObject(with: WarningsFixtures.data("jma-warning-130000.json")) as? [String: Any])
        report["areaTypes"] = [["areas": [["code": "130010", "warnings": []]]]]
        server.route("/bosai/warning/data/warning/130000.json", .init(body: try JSONSerialization.data(withJSONObject: report)))
        XCTAssertEqual(collectAll(repository(cache: true).warnings(for: WarningsFixtures.tokyo)).error, .regionUnknown)
        XCTAssertNil(JMAAreaCache(directory: cacheDirectory).read(WarningsFixtures.tokyo.id))
    }

    func testJMAServerDown() throws {
        WarningsFixtures.routeJMA(server)
        server.route("/bosai/common/const/area.json", .init(status: 500, json: "{}"))
        XCTAssertEqual(collectAll(repository().warnings(for: WarningsFixtures.tokyo)).error, .server(status: 500))
        XCTAssertNil(JMAAreaCache(directory: cacheDirectory).read(WarningsFixtures.tokyo.id), "nothing half-found is kept")
    }

    // MARK: The kept copy

    func testTheKeptCopyIsCheckedAgainWhenRead() throws {
        let cache = WarningsCache(directory: cacheDirectory)
        let good = WarningsUseCaseTests_warning()
        cache.write(.init(warnings: [good], checkedAt: WarningsFixtures.now, validators: HTTPValidators(etag: "\"a\"", lastModified: nil)),
                    .nws, city: 7)
        XCTAssertEqual(cache.read(.nws, city: 7)?.warnings, [good])
        // A file edited to hold escapes and impossible times.
        let url = cacheDirectory.appendingPathComponent("warnings/nws_7.json")
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"event\":\"Storm\"", with: "\"event\":\"\\u001b[2JStorm\"")
        try text.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertEqual(cache.read(.nws, city: 7)?.warnings.first?.event, "[2JStorm")
        try #"{"checkedAt":1e300,"warnings":[]}"#.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertNil(cache.read(.nws, city: 7))
    }

    private func WarningsUseCaseTests_warning() -> WeatherWarning {
        WeatherWarning(id: "a", source: .nws, event: "Storm", severity: .severe, headline: "h", description: "d\nd",
                       instruction: nil, sender: "s", effective: WarningsFixtures.now, onset: nil,
                       expires: WarningsFixtures.now.addingTimeInterval(3600), language: "en-US")
    }
}
