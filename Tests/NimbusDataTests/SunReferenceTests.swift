import Foundation
import XCTest
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Reference test of sunrise and sunset: catalogue cities on the 2026 solstices and equinoxes and six
/// other dates (two of them days clocks change), against skyfield with JPL's DE421 ephemeris
/// (`scripts/sun_reference.py`), within 2 minutes; polar day and night must agree too. Each day is
/// the city's local date (its midnights from the zone database, read by Python's zoneinfo there),
/// in every zone from UTC−12 to UTC+14.
///
/// By default a sample (every city at 62° of latitude or more, every city in a zone 12 hours or more
/// from UTC, and every 300th of the rest: about 300 cities, half a minute); `NIMBUS_SUN_REFERENCE=all`
/// checks every city (some 20 minutes of skyfield).
final class SunReferenceTests: XCTestCase {
    static let dates = ["2026-03-20", "2026-06-21", "2026-09-23", "2026-12-21",
                        "2026-01-01", "2026-02-14", "2026-05-05", "2026-08-08", "2026-10-25", "2026-11-01"]

    private struct Place: Encodable {
        let id: Int, latitude: Double, longitude: Double, zone: String
    }

    /// One city-day that disagrees, with what each said.
    struct Difference: CustomStringConvertible {
        let city: String, date: LocalDate
        let ours: SunTimes, theirs: (Double?, Double?, String)
        let zone: Zone
        var description: String {
            func time(_ t: Double?) -> String {
                guard let t else { return "–" }
                let wall = zone.wallClock(at: Date(timeIntervalSince1970: t))
                return String(format: "%02d:%02d:%02d", wall.hour, wall.minute, wall.second)
            }
            return "\(city) \(date): ours \(ours.kind) \(time(ours.sunrise?.timeIntervalSince1970))/\(time(ours.sunset?.timeIntervalSince1970)), "
                + "skyfield \(theirs.2) \(time(theirs.0))/\(time(theirs.1))"
        }
    }

    func testSunriseAndSunsetAgreeWithSkyfieldOnTheCitysOwnDate() throws {
        try XCTSkipUnless(PythonReference.has(module: "skyfield"), "skyfield is not installed in .build/reference-python (scripts/setup.sh)")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/UTC"), "no system zone database")
        let catalog = try CityCatalog.bundled()
        let zones = SystemZoneDatabase(tzdir: "/usr/share/zoneinfo")
        let all = ProcessInfo.processInfo.environment["NIMBUS_SUN_REFERENCE"] == "all"
        let january = Date(timeIntervalSince1970: 1_767_225_600)
        var cities: [City] = []
        for i in 0..<catalog.cityCount {
            let city = catalog.city(CityRef(Int32(i)))
            let far = abs(zones.zone(for: city).offset(at: january)) >= 12 * 3600
            if all || abs(city.latitude) >= 62 || far || i % 300 == 0 { cities.append(city) }
        }
        let places = cities.map { Place(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, zone: $0.timeZone) }
        var object: [String: Any] = ["dates": Self.dates]
        object["places"] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(places))
        let output = try PythonReference.run(["scripts/sun_reference.py", "--tzdir", "/usr/share/zoneinfo"],
                                             input: try JSONSerialization.data(withJSONObject: object))
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: output) as? [String: [[Any]]])
        var checks = 0
        var differences: [Difference] = []
        let days = Self.dates.map { text -> LocalDate in
            let p = text.split(separator: "-").map { Int($0)! }
            return LocalDate(year: p[0], month: p[1], day: p[2])!
        }
        for city in cities {
            let rows = try XCTUnwrap(answer[String(city.id)], city.name)
            let zone = zones.zone(for: city)
            for (day, row) in zip(days, rows) {
                checks += 1
                let theirs = (row[0] as? Double, row[1] as? Double, row[2] as? String ?? "")
                let ours = SolarCalculator.sunTimes(on: day, at: city.coordinate, zone: zone)
                if !Self.agree(ours, theirs) {
                    differences.append(Difference(city: "\(city.name) (\(city.countryCode), \(city.timeZone), \(String(format: "%.2f", city.latitude)))",
                                                  date: day, ours: ours, theirs: theirs, zone: zone))
                }
            }
        }
        let passed = checks - differences.count
        print("sun reference: \(cities.count) cities × \(days.count) dates, \(passed)/\(checks) agree within 2 min "
              + String(format: "(%.3f%%)", 100 * Double(passed) / Double(max(1, checks))))
        for difference in differences.prefix(40) { print("  " + difference.description) }
        XCTAssertEqual(differences.map(\.description), [])
    }

    /// The same kind of day, and each time within 2 minutes (or missing on both sides).
    static func agree(_ ours: SunTimes, _ theirs: (Double?, Double?, String)) -> Bool {
        switch ours.kind {
        case .allDay: return theirs.2 == "allDay"
        case .allNight: return theirs.2 == "allNight"
        case .normal:
            guard theirs.2 == "normal" else { return false }
            func close(_ a: Date?, _ b: Double?) -> Bool {
                switch (a, b) {
                case (nil, nil): return true
                case (let a?, let b?): return abs(a.timeIntervalSince1970 - b) <= 120
                default: return false
                }
            }
            return close(ours.sunrise, theirs.0) && close(ours.sunset, theirs.1)
        }
    }
}
