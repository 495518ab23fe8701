import Foundation
import XCTest
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Reference test of the zone database: every zone of the city catalogue, at every instant its UTC
/// offset changes from 1970 to 2037, one second before, at and after it, against Python's zoneinfo
/// reading the same files (`scripts/zone_reference.py`: CPython's own TZif reader, and a scan of every
/// day for the footer rule's changes). Both ways: the changes Python finds and the changes Nimbus
/// lists must be the same instants with the same offsets. Run on the system's database and on IANA
/// 2026f (`tzdata==2026.6` from PyPI, installed by scripts/setup.sh), newer than the system's.
final class ZoneReferenceTests: XCTestCase {
    private struct Answer: Decodable {
        struct Zone: Decodable {
            let transitions: [[Int64]]
            let instants: [[Int64]]
        }
        let version: String?
        let zones: [String: Zone]
        let missing: [String]
    }

    private static let range: ClosedRange<Int64> = 0...(2_145_916_800 - 1) // 1970-01-01 ..< 2038-01-01

    /// Every zone a catalogue city is in.
    static let catalogueZones: [String] = {
        let catalog = try! CityCatalog.bundled()
        var zones = Set<String>()
        for i in 0..<catalog.cityCount { zones.insert(catalog.summary(CityRef(Int32(i))).timeZone) }
        return zones.sorted()
    }()

    /// Checks every catalogue zone in `directory`; returns (checks, failures).
    private func check(directory: String, file: StaticString = #filePath, line: UInt = #line) throws -> (Int, [String], String?) {
        let database = SystemZoneDatabase(tzdir: directory, defaultDirectory: "/nonexistent")
        XCTAssertEqual(database.origin, .directory(path: directory), file: file, line: line)
        var instants: [String: [Int64]] = [:]
        for name in Self.catalogueZones {
            instants[name] = database.zone(named: name)?.transitions(in: Self.range) ?? []
        }
        let request = try JSONSerialization.data(withJSONObject: ["zones": Self.catalogueZones, "instants": instants,
                                                                  "from": 1970, "to": 2038])
        let output = try PythonReference.run(["scripts/zone_reference.py", "--tzdir", directory], input: request)
        let answer = try JSONDecoder().decode(Answer.self, from: output)
        var checks = 0
        var failures: [String] = []
        for name in Self.catalogueZones {
            guard let expected = answer.zones[name] else {
                checks += 1
                XCTAssertTrue(answer.missing.contains(name), name, file: file, line: line)
                // A zone the database lacks is not made up from its files: none, or the toolkit's copy, said so.
                if let zone = database.zone(named: name), !zone.isBuiltIn { failures.append("\(name): found, Python has no file") }
                continue
            }
            guard let zone = database.zone(named: name), !zone.isBuiltIn else {
                failures.append("\(name): not read from \(directory)")
                continue
            }
            for row in expected.transitions + expected.instants {
                checks += 1
                let t = row[0]
                let ours = [zone.offset(at: t - 1), zone.offset(at: t), zone.offset(at: t + 1)].map(Int64.init)
                if ours != Array(row[1...3]) { failures.append("\(name) at \(t): \(ours) vs Python's \(Array(row[1...3]))") }
            }
            checks += 1
            let theirs = expected.transitions.map { $0[0] }
            if theirs != instants[name] {
                let extra = Set(instants[name] ?? []).subtracting(theirs).sorted().prefix(3)
                let lacking = Set(theirs).subtracting(instants[name] ?? []).sorted().prefix(3)
                failures.append("\(name): changes listed differ (only ours: \(Array(extra)), only Python's: \(Array(lacking)))")
            }
        }
        return (checks, failures, answer.version)
    }

    func testEveryCatalogueZoneAtEveryChangeAgreesWithPythonOnTheSystemDatabase() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/UTC"), "no system zone database (scripts/setup.sh installs tzdata)")
        let (checks, failures, version) = try check(directory: "/usr/share/zoneinfo")
        let passed = checks - failures.count
        print("zone reference (system tzdata \(version ?? "?")): \(Self.catalogueZones.count) zones, \(passed)/\(checks) checks agree "
              + String(format: "(%.2f%%)", 100 * Double(passed) / Double(max(1, checks))))
        XCTAssertGreaterThan(checks, 10_000)
        XCTAssertEqual(failures, [], failures.prefix(20).joined(separator: "\n"))
    }

    /// IANA 2026f: Vancouver, Edmonton (Calgary), Winnipeg and Havana keep their summer offset from
    /// 2026-11-01, Casablanca and Laayoune stay on +00 from 2026-09-20, Chișinău changes clocks at
    /// 01:00 UTC. With `TZDIR` there, Nimbus says what that release says, wherever the system's differs.
    func testANewerDatabaseNamedByTZDIRIsTheOneRead() throws {
        let directory = PythonReference.packages.appendingPathComponent("tzdata/zoneinfo").path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: directory + "/tzdata.zi"),
                          "tzdata==2026.6 is not installed in .build/reference-python (scripts/setup.sh)")
        let (checks, failures, version) = try check(directory: directory)
        XCTAssertEqual(version, "2026f")
        let passed = checks - failures.count
        print("zone reference (TZDIR = PyPI tzdata 2026.6, IANA \(version ?? "?")): \(passed)/\(checks) checks agree "
              + String(format: "(%.2f%%)", 100 * Double(passed) / Double(max(1, checks))))
        XCTAssertEqual(failures, [], failures.prefix(20).joined(separator: "\n"))

        let zones = SystemZoneDatabase(environment: ["TZDIR": directory])
        func offset(_ name: String, _ iso: String) throws -> Int {
            let date = try XCTUnwrap(ISO8601DateFormatter().date(from: iso))
            return try XCTUnwrap(zones.zone(named: name)).offset(at: date) / 3600
        }
        for (name, summer) in [("America/Vancouver", -7), ("America/Edmonton", -6), ("America/Winnipeg", -5), ("America/Havana", -4)] {
            XCTAssertEqual(try offset(name, "2026-10-31T12:00:00Z"), summer, name)
            XCTAssertEqual(try offset(name, "2026-12-02T00:30:00Z"), summer, "\(name) keeps its summer offset")
            XCTAssertEqual(try offset(name, "2027-01-15T12:00:00Z"), summer, name)
        }
        for name in ["Africa/Casablanca", "Africa/El_Aaiun"] {
            XCTAssertEqual(try offset(name, "2026-09-19T12:00:00Z"), 1, name)
            XCTAssertEqual(try offset(name, "2026-09-21T12:00:00Z"), 0, name)
        }
        let chisinau = try XCTUnwrap(zones.zone(named: "Europe/Chisinau"))
        let change = try XCTUnwrap(ISO8601DateFormatter().date(from: "2027-03-28T01:00:00Z"))
        XCTAssertEqual(chisinau.offset(at: change.addingTimeInterval(-1)), 7200)
        XCTAssertEqual(chisinau.offset(at: change), 10800)
        // The city list's clock for Vancouver, on 2 December 2026 at 00:30 UTC: 17:30, not 16:30.
        let times = NimbusDataZonesClock(zones: zones)
        XCTAssertEqual(times.wall("America/Vancouver", "2026-12-02T00:30:00Z"), "17:30")
        XCTAssertEqual(NimbusDataZonesClock(zones: SystemZoneDatabase(tzdir: "/usr/share/zoneinfo")).wall("America/Vancouver", "2026-12-02T00:30:00Z"),
                       (try? String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8))?.hasPrefix("# version 2026f") == true ? "17:30" : "16:30",
                       "the system's own database says what it says")
    }
}

/// The wall clock "HH:mm" of a zone at an instant, straight from the zone's offset.
private struct NimbusDataZonesClock {
    let zones: SystemZoneDatabase
    func wall(_ name: String, _ iso: String) -> String? {
        guard let date = ISO8601DateFormatter().date(from: iso), let zone = zones.zone(named: name) else { return nil }
        let wall = zone.wallClock(at: date)
        return String(format: "%02d:%02d", wall.hour, wall.minute)
    }
}
