import XCTest
@testable import NimbusDomain

final class SolarCalculatorTests: XCTestCase {
    private func local(_ text: String, _ zone: String) -> Date {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: zone)
        f.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return f.date(from: text)!
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
                                           timeZone: TimeZone(identifier: zone)!)
        XCTAssertEqual(sun.kind, .normal)
        assertClose(sun.sunrise, local("2026-09-11T06:36", zone))
        assertClose(sun.sunset, local("2026-09-11T19:24", zone))
    }

    /// The published almanac times for Seoul on the June solstice: sunrise 05:11, sunset 19:57 KST.
    func testMatchesTheSolsticeInSeoul() {
        let zone = "Asia/Seoul"
        let sun = SolarCalculator.sunTimes(on: local("2026-06-21T23:59", zone),
                                           at: Coordinate(latitude: 37.566, longitude: 126.9784),
                                           timeZone: TimeZone(identifier: zone)!)
        assertClose(sun.sunrise, local("2026-06-21T05:11", zone))
        assertClose(sun.sunset, local("2026-06-21T19:57", zone))
        XCTAssertEqual(sun.dayLength / 3600, 14.77, accuracy: 0.05)
    }

    func testTheDayIsTheLocalDayEvenFarFromUTC() {
        // Kiritimati is UTC+14: its local day starts ten hours before UTC's.
        let zone = "Pacific/Kiritimati"
        let sun = SolarCalculator.sunTimes(on: local("2026-03-01T00:30", zone),
                                           at: Coordinate(latitude: 1.87, longitude: -157.4),
                                           timeZone: TimeZone(identifier: zone)!)
        let tz = TimeZone(identifier: zone)!
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = tz
        XCTAssertEqual(cal.component(.day, from: sun.sunrise!), 1)
        XCTAssertEqual(cal.component(.day, from: sun.sunset!), 1)
        XCTAssertEqual(cal.component(.hour, from: sun.sunrise!), 6)
    }

    func testPolarDayAndNight() {
        let tromso = Coordinate(latitude: 69.6496, longitude: 18.956)
        let zone = TimeZone(identifier: "Europe/Oslo")!
        let june = SolarCalculator.sunTimes(on: local("2026-06-21T12:00", "Europe/Oslo"), at: tromso, timeZone: zone)
        XCTAssertEqual(june, SunTimes(kind: .allDay, sunrise: nil, sunset: nil, dayLength: 86400))
        let december = SolarCalculator.sunTimes(on: local("2026-12-21T12:00", "Europe/Oslo"), at: tromso, timeZone: zone)
        XCTAssertEqual(december, SunTimes(kind: .allNight, sunrise: nil, sunset: nil, dayLength: 0))
    }

    func testTheEquatorHasTwelveHourDays() {
        let sun = SolarCalculator.sunTimes(on: local("2026-03-20T12:00", "UTC"), at: Coordinate(latitude: 0, longitude: 0),
                                           timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertEqual(sun.dayLength / 3600, 12.1, accuracy: 0.1)
    }
}
