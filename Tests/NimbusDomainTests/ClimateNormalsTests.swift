import XCTest
import OpenCombineShim
@testable import NimbusDomain
import NimbusData
import TestSupport

/// Today against yesterday and against the normal for the date.
final class ClimateNormalsTests: XCTestCase {
    func testDifferencesUnderADegreeAreAboutTheSameAndKeepTheirSize() {
        func both(_ a: Double, _ b: Double) -> (TemperatureDifference.Direction?, Double?) {
            let d = TemperatureDifference(a, comparedWith: b)
            return (d?.direction, d?.degrees)
        }
        XCTAssertTrue(both(28, 25) == (.warmer, 3))
        XCTAssertTrue(both(22, 25.5) == (.colder, -3.5))
        XCTAssertTrue(both(25.9, 25) == (.aboutTheSame, 0.9))
        XCTAssertTrue(both(24.1, 25) == (.aboutTheSame, -0.9))
        // 0.8° above the normal is not "0": the size is kept, and the word follows from it.
        XCTAssertTrue(both(21.3, 20.5) == (.aboutTheSame, 0.8))
        XCTAssertTrue(both(26, 25) == (.warmer, 1))
        // The word is decided on the tenth shown: 0.96 is written 1.0, so it is warmer.
        XCTAssertTrue(both(25.96, 25) == (.warmer, 1))
        XCTAssertTrue(both(25.94, 25) == (.aboutTheSame, 0.9))
        XCTAssertTrue(both(25, 25.04) == (.aboutTheSame, 0), "no -0.0")
        XCTAssertNil(TemperatureDifference(.nan, comparedWith: 25))
        XCTAssertNil(TemperatureDifference(20, comparedWith: .infinity))
    }

    /// Whatever the two temperatures, the word agrees with the difference given: under 1° about the
    /// same, else warmer or colder by its sign, and the difference is the real one to a tenth.
    func testTheWordAlwaysAgreesWithTheDifference() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<PropertyCount.scaled(default: 2_000) {
            let a = Double.random(in: -60...60, using: &generator), b = Double.random(in: -60...60, using: &generator)
            guard let d = TemperatureDifference(a, comparedWith: b) else { return XCTFail("finite") }
            XCTAssertEqual(d.degrees, ((a - b) * 10).rounded() / 10 + 0, accuracy: 1e-9)
            switch d.direction {
            case .aboutTheSame: XCTAssertLessThan(abs(d.degrees), 1)
            case .warmer: XCTAssertGreaterThanOrEqual(d.degrees, 1)
            case .colder: XCTAssertLessThanOrEqual(d.degrees, -1)
            }
        }
    }

    func testEveryDayOfALeapYearHasOneSlot() {
        var slots: [Int] = []
        for month in 1...12 {
            for day in 1...31 {
                if let i = ClimateNormals.index(month: month, day: day) { slots.append(i) }
            }
        }
        XCTAssertEqual(slots, Array(0..<366))
        XCTAssertEqual(ClimateNormals.index(month: 2, day: 29), 59)
        XCTAssertNil(ClimateNormals.index(month: 2, day: 30))
        XCTAssertNil(ClimateNormals.index(month: 13, day: 1))
        XCTAssertNil(ClimateNormals.index(month: 4, day: 31))
    }

    private func normals() -> ClimateNormals {
        // A season, as every climate has: smooth through the year and across its end (`ClimatePlausibility`).
        let days = (0..<366).map { slot in
            let high = 15 + 12 * sin(Double(slot) / 366 * 2 * .pi)
            return DayNormal(month: 0, day: slot, high: high, low: high - 7)
        }
        return ClimateNormals(coordinate: Coordinate(latitude: 37.5, longitude: 127), days: days)!
    }

    func testTheNormalIsTheCalendarDayAtThePlace() throws {
        // 2026-06-30 20:00 UTC is already 1 July in Seoul.
        let instant = Date(timeIntervalSince1970: 1_782_849_600)
        let seoul = try XCTUnwrap(SystemZoneDatabase.forTests.zone(named: "Asia/Seoul"))
        XCTAssertEqual(normals().normal(on: seoul.localDate(at: instant))?.day, ClimateNormals.index(month: 7, day: 1))
        XCTAssertEqual(normals().normal(on: Zone.utc.localDate(at: instant))?.day, ClimateNormals.index(month: 6, day: 30))
    }

    func testOnlyAWholeBelievableYearMakesNormals() {
        let good = (0..<366).map { DayNormal(month: 1, day: $0, high: 10, low: 2) }
        XCTAssertNotNil(ClimateNormals(coordinate: Coordinate(latitude: 0, longitude: 0), days: good))
        XCTAssertNil(ClimateNormals(coordinate: Coordinate(latitude: 0, longitude: 0), days: Array(good.prefix(365))))
        var inverted = good
        inverted[10] = DayNormal(month: 1, day: 11, high: 1, low: 2)
        XCTAssertNil(ClimateNormals(coordinate: Coordinate(latitude: 0, longitude: 0), days: inverted))
        var nan = good
        nan[3] = DayNormal(month: 1, day: 4, high: .nan, low: 2)
        XCTAssertNil(ClimateNormals(coordinate: Coordinate(latitude: 0, longitude: 0), days: nan))
    }

    func testTodayIsComparedWithYesterdaysHigh() {
        let day = { (high: Double) in DailyForecast(day: LocalDate(daysSince1970: 0), high: high, low: 0, condition: .clear, sunrise: nil, sunset: nil) }
        let current = CurrentConditions(time: Date(timeIntervalSince1970: 0), temperature: 20, apparentTemperature: 20, humidity: 50,
                                        pressure: 1000, precipitation: 0, windSpeed: 0, windDirection: 0, condition: .clear, isDay: true)
        let forecast = Forecast(coordinate: Coordinate(latitude: 0, longitude: 0), utcOffsetSeconds: 0, current: current,
                                hourly: [], daily: [day(28)], yesterday: DayTemperatures(day: LocalDate(daysSince1970: -1), high: 25, low: 18))
        XCTAssertEqual(forecast.todayAgainstYesterday, TemperatureDifference(degrees: 3))
        let without = Forecast(coordinate: Coordinate(latitude: 0, longitude: 0), utcOffsetSeconds: 0, current: current,
                               hourly: [], daily: [day(28)])
        XCTAssertNil(without.todayAgainstYesterday)
    }

    func testTheUseCaseComparesTodayWithTheNormalOfTodaysDate() throws {
        let city = City(id: 1835848, name: "Seoul", countryCode: "KR", latitude: 37.566, longitude: 126.9784,
                        population: 1, timeZone: "Asia/Seoul", alternateNames: [])
        let normals = normals()
        // Local midnight of 1 July 2026 in Seoul (15:00 UTC the day before).
        let midnight = Date(timeIntervalSince1970: 1_782_831_600)
        let today = DailyForecast(day: LocalDate(year: 2026, month: 7, day: 1)!, high: 30, low: 10, condition: .clear, sunrise: nil, sunset: nil)
        let current = CurrentConditions(time: midnight, temperature: 20, apparentTemperature: 20, humidity: 50, pressure: 1000,
                                        precipitation: 0, windSpeed: 0, windDirection: 0, condition: .clear, isDay: true)
        let forecast = Forecast(coordinate: city.coordinate, utcOffsetSeconds: 32_400, current: current, hourly: [], daily: [today])
        var answer: NormalComparison?
        let repository = ScriptedNormalsRepository()
        let subscription = GetClimateNormalsUseCase(repository: repository).compare(forecast, for: city)
            .sink(receiveCompletion: { _ in }, receiveValue: { answer = $0 })
        defer { subscription.cancel() }
        XCTAssertEqual(repository.requests, [city.coordinate])
        repository.subject.send(normals)
        let slot = try XCTUnwrap(ClimateNormals.index(month: 7, day: 1))
        XCTAssertEqual(answer?.normal, normals.days[slot])
        XCTAssertEqual(answer?.high, TemperatureDifference(30, comparedWith: normals.days[slot].high))
        XCTAssertEqual(answer?.low, TemperatureDifference(10, comparedWith: normals.days[slot].low))
    }
}

/// What a climate allows a normal to be: within the records of its latitude, smooth through the
/// year, a daily range any climate has, and near enough today's forecast.
final class ClimatePlausibilityTests: XCTestCase {
    private func flat(_ high: Double, _ low: Double) -> ClimateNormals {
        ClimateNormals(coordinate: Coordinate(latitude: 37.5, longitude: 127),
                       days: (0..<366).map { DayNormal(month: 0, day: $0, high: high, low: low) })!
    }

    func testNormalsNoClimateHasAreNotPlausible() {
        XCTAssertTrue(flat(30, 22).isPlausible(latitude: 37.5))
        XCTAssertFalse(flat(69.9, -99.9).isPlausible(latitude: 37.5), "69.9 / −99.9: past every record")
        XCTAssertFalse(flat(57, 40).isPlausible(latitude: 37.5), "above the world's highest")
        XCTAssertFalse(flat(30, -10).isPlausible(latitude: 37.5), "a daily range of 40°")
        XCTAssertFalse(flat(-40, -50).isPlausible(latitude: 0), "the equator's normal lows are never −50")
        XCTAssertTrue(flat(-55, -65).isPlausible(latitude: -78), "Vostok's winter is")
        XCTAssertFalse(flat(40, 30).isPlausible(latitude: 70), "the Arctic's highest is 38")
        let jump = ClimateNormals(coordinate: Coordinate(latitude: 37.5, longitude: 127), days: (0..<366).map {
            DayNormal(month: 0, day: $0, high: $0 < 183 ? 10 : 25, low: $0 < 183 ? 3 : 18)
        })!
        XCTAssertFalse(jump.isPlausible(latitude: 37.5), "15° from one day to the next")
    }

    func testTheRecordRangeWidensAtTheBordersOfItsBands() {
        XCTAssertEqual(ClimatePlausibility.recordRange(latitude: 66.5), -69.6 ... 56.7)
        XCTAssertEqual(ClimatePlausibility.recordRange(latitude: 0), -35 ... 56.7)
        XCTAssertEqual(ClimatePlausibility.recordRange(latitude: -89), -89.2 ... 19.8)
    }

    func testAForecastFurtherFromTheNormalThanAnyDayHasBeenIsNot() {
        let normal = DayNormal(month: 7, day: 1, high: 29, low: 21)
        XCTAssertTrue(normal.isPlausible(againstHigh: 35, low: 25))
        XCTAssertTrue(normal.isPlausible(againstHigh: 0, low: -5), "29° below: a cold outbreak, but one that has been")
        XCTAssertFalse(normal.isPlausible(againstHigh: 28, low: -40), "61° below")
    }
}
