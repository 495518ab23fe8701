import XCTest
@testable import NimbusApp
import NimbusData
import TestSupport

/// The forecast part of `nimbus weather --json` is independent of the warnings and archive
/// services: whatever hostile answer either gives (the slow drip aside: it only waits), the
/// forecast's keys are what they are with both answering well. Every mode is tried on both sides
/// at once, and on each of JMA's four pieces in turn.
final class OneShotIndependenceTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tapes/fixtures")
    static let now = Date(timeIntervalSince1970: 1_782_000_720)
    static let forecastKeys = ["city", "current", "hourly", "daily", "yesterday", "todayAgainstYesterday", "utcOffsetSeconds"]
    static let modes = FixtureServer.Hostile.allCases.filter { $0 != .slowDrip }

    static func file(_ name: String) -> Data { try! Data(contentsOf: fixtures.appendingPathComponent(name)) }

    static let jma: [(String, String)] = [
        ("/bosai/common/const/relm.json", "warnings/jma-relm.json"), ("/bosai/common/const/area.json", "warnings/jma-area.json"),
        ("/bosai/common/const/geojson/class20s_1.json", "warnings/jma-class20s_1.json"),
        ("/bosai/warning/data/warning/130000.json", "warnings/jma-warning-130000.json"),
    ]

    /// The JSON for Tokyo with the archive and JMA answering as `archive` and `warnings` say (nil: well).
    @MainActor
    static func json(archive: FixtureServer.Hostile?, warnings: FixtureServer.Hostile?, piece: Int) throws -> Answer {
        // The answers are made before the command runs: making a hostile body is the server's work.
        let archiveBody = file("open-meteo-archive-seoul.json")
        // Made hostile from its first 500 days: rewriting 22,000 numbers is slow, and the point here
        // is what a failing archive does to the forecast (`HostileWarningsTests` has the whole answer).
        let archiveAnswer = archive.map { FixtureServer.hostile($0, fixture: shortArchive) } ?? .init(body: archiveBody)
        let pieces = jma.enumerated().map { i, entry -> (String, FixtureServer.Response) in
            let body = file(entry.1)
            return (entry.0, i == piece % jma.count ? warnings.map { FixtureServer.hostile($0, fixture: body) } ?? .init(body: body)
                                                    : .init(body: body))
        }
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/v1/forecast", .init(body: file("open-meteo-seoul-past-day.json")))
        server.route("/v1/archive", archiveAnswer)
        for (path, answer) in pieces { server.route(path, answer) }
        let start = Date()
        defer { lastDuration = Date().timeIntervalSince(start) }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-independence-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let base = server.baseURL.absoluteString
        let environment = ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                           "XDG_DATA_HOME": home.appendingPathComponent("data").path, "NIMBUS_LANG": "en", "NIMBUS_UNITS": "metric",
                           "TZ": "UTC", "NIMBUS_WEATHER_URL": base, "NIMBUS_AIR_URL": base, "NIMBUS_ARCHIVE_URL": base,
                           "NIMBUS_JMA_URL": base, "NIMBUS_NWS_URL": base, "NIMBUS_METEOALARM_URL": base]
        let now = Self.now
        let text = try OneShot.weather(query: "tokyo", mode: .json, options: .defaults,
                                       context: OneShot.Context(environment: environment, now: { now }))
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        return Answer(forecast: forecastPart(json), source: (json["warnings"] as? [String: Any])?["source"] as? String,
                      hasNormal: json["normal"] != nil)
    }

    struct Answer: Sendable {
        let forecast: Data
        let source: String?
        let hasNormal: Bool
    }

    static let shortArchive: Data = {
        var root = (try? JSONSerialization.jsonObject(with: file("open-meteo-archive-seoul.json"))) as? [String: Any] ?? [:]
        var daily = root["daily"] as? [String: Any] ?? [:]
        for (key, value) in daily { daily[key] = (value as? [Any]).map { Array($0.prefix(500)) } }
        root["daily"] = daily
        return (try? JSONSerialization.data(withJSONObject: root)) ?? Data()
    }()

    /// How long the last command took (the answers' making excluded).
    nonisolated(unsafe) static var lastDuration: TimeInterval = 0

    static func forecastPart(_ json: [String: Any]) -> Data {
        let part = json.filter { forecastKeys.contains($0.key) }
        return (try? JSONSerialization.data(withJSONObject: part, options: [.sortedKeys])) ?? Data()
    }

    func testFailingWarningsOrArchiveNeverChangeTheForecast() throws {
        try onMain {
            let baseline = try Self.json(archive: nil, warnings: nil, piece: 0)
            XCTAssertEqual(baseline.source, "jma")
            XCTAssertTrue(baseline.hasNormal)
            // Each mode on both sides at once, the warnings' on each of JMA's pieces in turn.
            for (i, mode) in Self.modes.enumerated() {
                let answer = try Self.json(archive: mode, warnings: mode, piece: i)
                XCTAssertEqual(answer.forecast, baseline.forecast, "\(mode) on piece \(i % Self.jma.count)")
                // A bound for a hang, not a speed: the machine may be busy.
                XCTAssertLessThan(Self.lastDuration, OneShot.patience + OneShotExtras.patience + 15, "\(mode)")
                print("independence \(mode): \(String(format: "%.2f", Self.lastDuration)) s")
            }
        }
    }
}
