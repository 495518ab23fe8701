import XCTest
import NimbusDomain
@testable import NimbusData

/// The hourly sky and amounts of a forecast answer, shaped by a hostile server: lists shorter or longer
/// than the hours, values of the wrong type, and sums no hour has.
final class HourlyAmountsTests: XCTestCase {
    private func forecast(hourly extra: String) throws -> Forecast {
        let json = #"{"latitude":37.5,"longitude":127,"utc_offset_seconds":32400,"current":{"time":1782000000,"temperature_2m":20},"#
            + #""hourly":{"time":[1782000000,1782003600,1782007200],"temperature_2m":[20,21,22]"# + extra + "},"
            + #""daily":{"time":[1781967600],"weather_code":[1],"temperature_2m_max":[28],"temperature_2m_min":[17],"sunrise":[1781986260],"sunset":[1782039420]}}"#
        return try JSONDecoder().decode(OpenMeteoForecastDTO.self, from: Data(json.utf8)).toDomain()
    }

    func testRainAndShowersTogetherAreNoMoreThanAnHourCanHold() throws {
        let hours = try forecast(hourly: #","rain":[900,0.5,null],"showers":[900,0.25,2]"#).hourly
        XCTAssertNil(hours[0].rain, "1,800 mm in an hour is not a reading")
        XCTAssertEqual(hours[1].rain, 0.75)
        XCTAssertEqual(hours[2].rain, 2)
    }

    func testListsOfOtherLengthsLeaveTheHoursTheyDoNotReachUnknown() throws {
        let hours = try forecast(hourly: #","weather_code":[61],"is_day":[1,0,1,1,1,1],"snowfall":[],"precipitation":[1,2,3,4,5,6,7]"#).hourly
        XCTAssertEqual(hours.map(\.condition), [.rain, .unknown, .unknown])
        XCTAssertEqual(hours.map(\.isDay), [true, false, true])
        XCTAssertEqual(hours.map(\.snowfall), [nil, nil, nil])
        XCTAssertEqual(hours.map(\.precipitation), [1, 2, 3])
    }

    func testOddCodesAndDayFlagsAreUnknown() throws {
        let hours = try forecast(hourly: #","weather_code":[-1,99999999,95],"is_day":[2,-1,0]"#).hourly
        XCTAssertEqual(hours.map(\.condition), [.unknown, .unknown, .thunderstorm])
        XCTAssertEqual(hours.map(\.isDay), [nil, nil, false])
    }
}
