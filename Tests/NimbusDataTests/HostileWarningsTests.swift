import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Every hostile-server mode against each new client (the NWS, MeteoAlarm's feed and its CAP
/// documents, JMA's report and its area table, the archive): no trap, an answer within a bound, and
/// either a typed error or warnings that are sane (cut to size, clean, believable times), never
/// cached when not believed. XML feeds get XML-shaped hostility too (`rewrite` only knows JSON).
final class HostileWarningsTests: XCTestCase {
    private var server: FixtureServer!
    private var other: FixtureServer!
    private var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try FixtureServer()
        other = try FixtureServer()
        other.fallback { _ in .init(json: "{}") }
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-hostile-warnings-\(UUID().uuidString)")
    }

    override func tearDown() {
        // Every test here ends with its client done: nothing it sent can still be on the way.
        XCTAssertEqual(other.requestsSoFar().map(\.target), [], "a redirect or link reached another origin")
        server.stop()
        other.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    private func repository() -> LiveWarningsRepository {
        WarningsFixtures.repository(server, cache: cacheDirectory, timeout: 1)
    }

    private func assertSane(_ reports: [WarningsReport], _ label: String) {
        for warning in reports.flatMap(\.warnings) {
            for text in [warning.event, warning.headline, warning.sender, warning.id].compactMap({ $0 }) {
                XCTAssertLessThanOrEqual(text.unicodeScalars.count, WarningText.id + WarningText.line, label)
                XCTAssertFalse(text.contains("\n"), label)
            }
            for text in [warning.event, warning.headline, warning.sender, warning.description, warning.instruction].compactMap({ $0 }) {
                XCTAssertLessThanOrEqual(text.unicodeScalars.count, WarningText.body, label)
                XCTAssertFalse(text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                    || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }, label)
                // Line and paragraph separators are line breaks or spaces; what is unassigned is U+FFFD.
                XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029
                    || $0.properties.generalCategory == .unassigned }, "\(label): \(text.debugDescription)")
            }
            for date in [warning.effective, warning.onset, warning.expires].compactMap({ $0 }) {
                XCTAssertTrue(WeatherWarning.believableTimes.contains(date), label)
            }
            XCTAssertFalse(warning.event.isEmpty, label)
        }
        XCTAssertTrue(reports.allSatisfy { $0.warnings.count <= WarningText.maxWarnings }, label)
    }

    /// Runs `city`'s warnings twice (cold, then with whatever was kept) under every mode made by `routes`.
    private func everyMode(_ city: City, _ label: String, routes: (FixtureServer.Hostile) -> Void) throws {
        for mode in FixtureServer.Hostile.allCases {
            try? FileManager.default.removeItem(at: cacheDirectory)
            routes(mode)
            let start = Date()
            let result = collectAll(repository().warnings(for: city), timeout: 8)
            XCTAssertTrue(result.finished, "\(label) \(mode) did not finish")
            XCTAssertTrue(result.error != nil || !result.values.isEmpty, "\(label) \(mode)")
            assertSane(result.values, "\(label) \(mode)")
            // Whatever was kept reads back sane.
            let kept = WarningsCache(directory: cacheDirectory).read(collectSource(city), city: city.id)
            assertSane(kept.map { [WarningsReport(warnings: $0.warnings, source: .nws, checkedAt: $0.checkedAt, isCached: true)] } ?? [],
                       "\(label) \(mode) kept")
            let elapsed = Date().timeIntervalSince(start)
            print("hostile \(label) \(mode.rawValue): \(result.error.map { "\($0)" } ?? "\(result.values.last?.warnings.count ?? 0) warnings") in \(String(format: "%.2f", elapsed)) s")
            XCTAssertLessThan(elapsed, 8, "\(label) \(mode)")
        }
    }

    private func collectSource(_ city: City) -> WeatherWarning.Source {
        switch city.countryCode {
        case "US": return .nws
        case "JP": return .jma
        default: return .meteoAlarm
        }
    }

    func testEveryModeAgainstTheNWS() throws {
        let fixture = WarningsFixtures.data("nws-active.json")
        try everyMode(WarningsFixtures.seattle, "nws") { mode in
            server.route("/alerts/active", FixtureServer.hostile(mode, fixture: fixture, otherPort: other.port))
        }
    }

    func testEveryModeAgainstMeteoAlarmsFeedAndDocuments() throws {
        let base = server.baseURL.absoluteString
        let feed = WarningsFixtures.data("meteoalarm-germany.xml", base: base)
        let document = WarningsFixtures.data("meteoalarm-cap-berlin-wind.xml")
        // The feed hostile, the documents fine; then the feed fine, the documents hostile.
        try everyMode(WarningsFixtures.berlin, "meteoalarm feed") { mode in
            server.route("/feeds/meteoalarm-legacy-atom-germany", Self.hostileXML(mode, fixture: feed, otherPort: other.port))
            server.route("/api/v1/warnings/feeds-germany/5d3c0a51-1e2b-4f7a-9c8d-0a1b2c3d4e5f", .init(body: document))
        }
        try everyMode(WarningsFixtures.berlin, "meteoalarm document") { mode in
            server.route("/feeds/meteoalarm-legacy-atom-germany", .init(body: feed))
            server.route("/api/v1/warnings/feeds-germany/5d3c0a51-1e2b-4f7a-9c8d-0a1b2c3d4e5f",
                         Self.hostileXML(mode, fixture: document, otherPort: other.port))
        }
    }

    func testEveryModeAgainstJMAsReportAndAreaTable() throws {
        let report = WarningsFixtures.data("jma-warning-130000.json")
        try everyMode(WarningsFixtures.tokyo, "jma report") { mode in
            WarningsFixtures.routeJMA(server)
            server.route("/bosai/warning/data/warning/130000.json", FixtureServer.hostile(mode, fixture: report, otherPort: other.port))
        }
        for piece in ["relm.json", "geojson/class20s_1.json", "area.json"] {
            let name = "jma-" + piece.replacingOccurrences(of: "geojson/", with: "")
            let fixture = WarningsFixtures.data(name)
            try everyMode(WarningsFixtures.tokyo, "jma \(piece)") { mode in
                WarningsFixtures.routeJMA(server)
                server.route("/bosai/common/const/\(piece)", FixtureServer.hostile(mode, fixture: fixture, otherPort: other.port))
            }
        }
    }

    func testEveryModeAgainstTheArchive() throws {
        let (fixture, _) = YesterdayAndNormalsTests.archiveAnswer()
        for mode in FixtureServer.Hostile.allCases {
            try? FileManager.default.removeItem(at: cacheDirectory)
            server.route("/v1/archive", FixtureServer.hostile(mode, fixture: fixture, otherPort: other.port))
            let repository = OpenMeteoArchiveRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                                                        cache: ClimateNormalsCache(directory: cacheDirectory), timeout: 1)
            let start = Date()
            let result = collectAll(repository.normals(for: WarningsFixtures.seattle.coordinate), timeout: 8)
            XCTAssertTrue(result.finished, "\(mode)")
            XCTAssertTrue(result.error != nil || !result.values.isEmpty, "\(mode)")
            for normals in result.values {
                XCTAssertTrue(normals.days.allSatisfy { (-100...70).contains($0.high) && (-100...70).contains($0.low) && $0.low <= $0.high }, "\(mode)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 8, "\(mode)")
        }
    }

    /// XML-shaped hostility for the modes `FixtureServer.hostile` makes from JSON (the others as they are).
    static func hostileXML(_ mode: FixtureServer.Hostile, fixture: Data, otherPort: UInt16) -> FixtureServer.Response {
        let text = String(decoding: fixture, as: UTF8.self)
        func body(_ s: String) -> FixtureServer.Response { .init(headers: ["Content-Type": "application/xml"], body: Data(s.utf8)) }
        func everyText(_ transform: (String) -> String) -> String {
            // Each element's text, between a '>' and the next '<'.
            var out = ""
            var rest = Substring(text)
            while let close = rest.firstIndex(of: ">") {
                out += rest[...close]
                rest = rest[rest.index(after: close)...]
                let open = rest.firstIndex(of: "<") ?? rest.endIndex
                let inner = rest[..<open]
                out += inner.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? String(inner) : transform(String(inner))
                rest = rest[open...]
            }
            return out + rest
        }
        switch mode {
        case .escapesInStrings:
            return body(everyText { "&#27;[2J&#x1B;]0;pwned&#7;\u{202E}\u{9B}31m" + $0 + "&#x2066;" })
        case .invisibleCharacters:
            // As characters and as references (XML 1.0 allows them all but U+FFFF).
            return body(everyText { "\u{2028}&#x378;&#xFDD0;" + $0 + "&#x2029;\u{E0001}\u{1F1F0}" })
        case .emptyObjectsInArrays:
            return body(text.replacingOccurrences(of: "</entry>", with: String(repeating: "<x/>", count: 2_000) + "</entry>"))
        case .invalidUTF8:
            var data = Data()
            for (i, chunk) in everyText({ "\u{E000}" + $0 }).components(separatedBy: "\u{E000}").enumerated() {
                if i > 0 { data.append(contentsOf: [0xC3, 0x28, 0xFF, 0xFE, 0xED, 0xA0, 0x80]) }
                data.append(Data(chunk.utf8))
            }
            return .init(body: data)
        case .extremeNumbers:
            return body(text.replacingOccurrences(of: "2026-01-1", with: "9999-01-1").replacingOccurrences(of: ",-", with: ",1e308 -"))
        case .nanAndInfinity:
            return body(text.replacingOccurrences(of: "2026-01-16T", with: "NaN-01-16T"))
        case .nestingBomb:
            return body(String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000))
        case .hugeStrings:
            var first = true
            return body(everyText { inner in
                defer { first = false }
                return first ? String(repeating: "e\u{301}", count: 300_000) : inner
            })
        default:
            return FixtureServer.hostile(mode, fixture: fixture, otherPort: otherPort)
        }
    }

    func testABillionLaughsAndExternalEntitiesAreRefused() {
        let laughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
        <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
        <feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&lol3;</title></entry></feed>
        """
        let external = """
        <?xml version="1.0"?><!DOCTYPE feed [<!ENTITY x SYSTEM "file:///etc/passwd">]><feed><entry><title>&x;</title></entry></feed>
        """
        for body in [laughs, external] {
            server.route("/feeds/meteoalarm-legacy-atom-germany", .init(body: Data(body.utf8)))
            XCTAssertEqual(collectAll(repository().warnings(for: WarningsFixtures.berlin)).error, .badResponse)
        }
    }
}
