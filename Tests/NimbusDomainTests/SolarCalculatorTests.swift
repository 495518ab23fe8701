import XCTest
@testable import NimbusDomain
import NimbusData
import TestSupport

final class SolarCalculatorTests: XCTestCase {
    private func zone(_ name: String) -> Zone { SystemZoneDatabase.forTests.zone(named: name)! }

    /// "2026-09-11T09:00" on the clocks of `zone`.
    private func local(_ text: String, _ name: String) -> Date {
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
        let day = LocalDate(year: parts[0], month: parts[1], day: parts[2])!
        return zone(name).instant(wallSeconds: Int64(day.daysSince1970) * 86400 + Int64(parts[3] * 3600 + parts[4] * 60))
    }

    private func assertClose(_ actual: Date?, _ expected: Date, within minutes: Double = 2,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard let actual else { return XCTFail("no time", file: file, line: line) }
        XCTAssertLessThanOrEqual(abs(actual.timeIntervalSince(expected)), minutes * 60,
                                 "\(actual) vs \(expected)", file: file, line: line)
    }

    /// Open-Meteo's own `daily.sunrise`/`daily.sunset` (local time, `timezone=auto`) for Chișinău,
    /// as recorded in a public client's test fixture.
    func testMatchesOpenMeteoForChisinau() {
        let zone = "Europe/Chisinau"
        let sun = SolarCalculator.sunTimes(on: local("2026-09-11T09:00", zone),
                                           at: Coordinate(latitude: 47.00902, longitude: 28.85938),
                                           zone: self.zone(zone))
        XCTAssertEqual(sun.kind, .normal)
        assertClose(sun.sunrise, local("2026-09-11T06:36", zone))
        assertClose(sun.sunset, local("2026-09-11T19:24", zone))
    }

    /// The published almanac times for Seoul on the June solstice: sunrise 05:11, sunset 19:57 KST.
    func testMatchesTheSolsticeInSeoul() {
        let zone = "Asia/Seoul"
        let sun = SolarCalculator.sunTimes(on: local("2026-06-21T23:59", zone),
                                           at: Coordinate(latitude: 37.566, longitude: 126.9784),
                                           zone: self.zone(zone))
        assertClose(sun.sunrise, local("2026-06-21T05:11", zone))
        assertClose(sun.sunset, local("2026-06-21T19:57", zone))
        XCTAssertEqual(sun.dayLength / 3600, 14.77, accuracy: 0.05)
    }

    func testTheDayIsTheLocalDayEvenFarFromUTC() {
        // Kiritimati is UTC+14: its local day starts ten hours before UTC's.
        let zone = "Pacific/Kiritimati"
        let sun = SolarCalculator.sunTimes(on: local("2026-03-01T00:30", zone),
                                           at: Coordinate(latitude: 1.87, longitude: -157.4),
                                           zone: self.zone(zone))
        let tz = self.zone(zone)
        XCTAssertEqual(tz.wallClock(at: sun.sunrise!).date.day, 1)
        XCTAssertEqual(tz.wallClock(at: sun.sunset!).date.day, 1)
        XCTAssertEqual(tz.wallClock(at: sun.sunrise!).hour, 6)
    }

    func testPolarDayAndNight() {
        let tromso = Coordinate(latitude: 69.6496, longitude: 18.956)
        let zone = self.zone("Europe/Oslo")
        let june = SolarCalculator.sunTimes(on: local("2026-06-21T12:00", "Europe/Oslo"), at: tromso, zone: zone)
        XCTAssertEqual(june, SunTimes(kind: .allDay, sunrise: nil, sunset: nil, dayLength: 86400))
        let december = SolarCalculator.sunTimes(on: local("2026-12-21T12:00", "Europe/Oslo"), at: tromso, zone: zone)
        XCTAssertEqual(december, SunTimes(kind: .allNight, sunrise: nil, sunset: nil, dayLength: 0))
    }

    func testTheEquatorHasTwelveHourDays() {
        let sun = SolarCalculator.sunTimes(on: local("2026-03-20T12:00", "UTC"), at: Coordinate(latitude: 0, longitude: 0),
                                           zone: .utc)
        XCTAssertEqual(sun.dayLength / 3600, 12.1, accuracy: 0.1)
    }

    /// At UTC+13 (Dunedin in summer) the sun rises and sets on the local date asked for, not the day
    /// before: the UTC date of local noon is the day before there. NOAA's calculator for Dunedin on
    /// 2026-03-20 gives 07:39 and 19:50 NZDT.
    func testNewZealandSummerIsTodaysSun() {
        let dunedin = Coordinate(latitude: -45.87416, longitude: 170.50361)
        let sun = SolarCalculator.sunTimes(on: local("2026-03-20T12:00", "Pacific/Auckland"), at: dunedin,
                                           zone: zone("Pacific/Auckland"))
        assertClose(sun.sunrise, local("2026-03-20T07:39", "Pacific/Auckland"))
        assertClose(sun.sunset, local("2026-03-20T19:50", "Pacific/Auckland"))
    }

    /// In every zone from UTC−12 to UTC+14, at any hour of a day, the sunrise and sunset given are
    /// that local day's (between its midnights), and a day's answer does not depend on the hour asked.
    func testEventsFallOnTheLocalDateInEveryOffset() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<PropertyCount.scaled(default: 300) {
            let offset = Int.random(in: -48...56, using: &generator) * 900
            let zone = Zone.fixed(seconds: offset)
            let place = Coordinate(latitude: Double.random(in: -60...60, using: &generator),
                                   longitude: Double(offset) / 240 + Double.random(in: -20...20, using: &generator))
            guard place.isValid else { continue }
            let day = LocalDate(daysSince1970: Int.random(in: 19_000...22_000, using: &generator))
            let start = zone.startOfDay(day), end = zone.startOfDay(day.adding(days: 1))
            let sun = SolarCalculator.sunTimes(on: day, at: place, zone: zone)
            for event in [sun.sunrise, sun.sunset].compactMap({ $0 }) {
                XCTAssertTrue(event >= start && event < end, "\(day) at \(place), UTC\(offset / 3600)")
            }
            let asked = start.addingTimeInterval(Double.random(in: 0..<86400, using: &generator))
            XCTAssertEqual(SolarCalculator.sunTimes(on: asked, at: place, zone: zone), sun)
        }
    }
}
