import Foundation
import NimbusDomain
import XCTest
@testable import NimbusApp

/// `--format` against wttr.in's own documented examples: the weather of wttr.in's renderer test
/// (internal/renderer/oneline/render_test.go: Thibodaux, 18 °C feeling 10 °C, 92 %, 12.7 mm,
/// 1012 hPa, UV 5, 10 km/h from the south, partly cloudy) fed to every code, with the outputs
/// that test and wttr.in's format table (share/defs/oneline/oneline.yaml, the README) give.
final class OneLineFormatTests: XCTestCase {
    /// 2026-06-04 12:00 in Thibodaux (America/Chicago, UTC-5 in June), the fixture's observation time.
    static let noon = Date(timeIntervalSince1970: 1_780_592_400)

    private func thibodaux(imperial: Bool = false, now: Date = noon) -> OneLineFormat.Weather {
        let zone = Zone(builtIn: TimeZone(identifier: "America/Chicago")!)
        return OneLineFormat.Weather(
            location: "Thibodaux", condition: "Partly cloudy",
            current: CurrentConditions(time: now, temperature: 18, apparentTemperature: 10, humidity: 92, pressure: 1012,
                                       precipitation: 12.7, windSpeed: 10, windDirection: 180, condition: .partlyCloudy,
                                       isDay: true),
            chanceOfRain: 0, uvIndex: 5, imperial: imperial, coordinate: Coordinate(latitude: 29.79576, longitude: -90.82287),
            zone: zone, zoneName: "America/Chicago", now: now)
    }

    /// render_test.go's three cases, verbatim.
    func testWttrInsOwnRendererTests() {
        // TestRenderPrecipitationKeepsMetricDefault
        XCTAssertEqual(OneLineFormat.render("%p", thibodaux()), "12.7mm")
        // TestRenderPrecipitationUsesInchesForImperialFormats
        XCTAssertEqual(OneLineFormat.render("%p", thibodaux(imperial: true)), "0.50 in")
        // TestRenderUSCSUsesImperialWeatherFields
        XCTAssertEqual(OneLineFormat.render("%t %w %p", thibodaux(imperial: true)), "+64\u{00b0}F ↑6mph 0.50 in")
    }

    /// Every code wttr.in has, on the same weather, as wttr.in's render.go prints it.
    func testEveryWttrCodeOnTheSameWeather() {
        let metric: [(String, String)] = [
            ("%c", "⛅ "), ("%C", "Partly cloudy"), ("%x", "m"), ("%h", "92%"), ("%t", "+18°C"), ("%f", "+10°C"),
            ("%w", "↑10km/h"), ("%l", "Thibodaux"), ("%p", "12.7mm"), ("%o", ""), ("%P", "1012hPa"), ("%u", "5"),
            ("%Z", "America/Chicago"), ("%T", "12:00:00-0500"),
        ]
        for (format, expected) in metric {
            XCTAssertEqual(OneLineFormat.render(format, thibodaux()), expected, format)
        }
        let imperial: [(String, String)] = [("%t", "+64°F"), ("%f", "+50°F"), ("%w", "↑6mph"), ("%p", "0.50 in"), ("%P", "1012hPa")]
        for (format, expected) in imperial {
            XCTAssertEqual(OneLineFormat.render(format, thibodaux(imperial: true)), expected, "imperial \(format)")
        }
        // wttr.in's preconfigured formats 1-4 (oneline.go), on the same weather.
        XCTAssertEqual(OneLineFormat.render("%c %t", thibodaux()), "⛅  +18°C")
        XCTAssertEqual(OneLineFormat.render("%c 🌡️%t 🌬️%w", thibodaux()), "⛅  🌡️+18°C 🌬️↑10km/h")
        XCTAssertEqual(OneLineFormat.render("%l: %c %t", thibodaux()), "Thibodaux: ⛅  +18°C")
        XCTAssertEqual(OneLineFormat.render("%l: %c 🌡️%t 🌬️%w", thibodaux()), "Thibodaux: ⛅  🌡️+18°C 🌬️↑10km/h")
        // Escapes: \n is a new line, %% a percent sign, a code neither has stays as written.
        XCTAssertEqual(OneLineFormat.render("%t\\n%h %% %Q %", thibodaux()), "+18°C\n92% % %Q %")
    }

    /// The examples of wttr.in's format table (oneline.yaml), each from the weather that gives it.
    func testTheFormatTablesExamples() {
        var w = thibodaux()
        w.current = CurrentConditions(time: Self.noon, temperature: 7, apparentTemperature: 4, humidity: 82, pressure: 1018,
                                      precipitation: 1.2, windSpeed: 12, windDirection: 270, condition: .partlyCloudy, isDay: true)
        w.chanceOfRain = 60
        w.location = "Berlin"
        w.zoneName = "Europe/Berlin"
        for (format, expected) in [("%t", "+7°C"), ("%f", "+4°C"), ("%w", "→12km/h"), ("%h", "82%"), ("%p", "1.2mm"),
                                   ("%o", "60%"), ("%P", "1018hPa"), ("%u", "5"), ("%l", "Berlin"), ("%Z", "Europe/Berlin")] {
            XCTAssertEqual(OneLineFormat.render(format, w), expected, format)
        }
        // "-3°F", "↑8mph": −19.4 °C, 12.9 km/h from the south.
        var cold = thibodaux(imperial: true)
        cold.current = CurrentConditions(time: Self.noon, temperature: -19.4, apparentTemperature: -19.4, humidity: 50,
                                         pressure: 1000, precipitation: 0, windSpeed: 12.9, windDirection: 180,
                                         condition: .clear, isDay: true)
        XCTAssertEqual(OneLineFormat.render("%t %w", cold), "-3°F ↑8mph")
        // The issue's own: 0.0mm, and +0°C for a temperature just below zero that rounds to it.
        cold.imperial = false
        cold.current = CurrentConditions(time: Self.noon, temperature: -0.4, apparentTemperature: -0.4, humidity: 62,
                                         pressure: 1000, precipitation: 0, windSpeed: 0, windDirection: 0,
                                         condition: .clear, isDay: true)
        XCTAssertEqual(OneLineFormat.render("%h %p %f %t", cold), "62% 0.0mm +0°C +0°C")
    }

    /// wttr.in's wind arrows, sector by sector (getWindDirectionIndex), and the moon's eight symbols.
    func testWindArrowsAndTheMoon() {
        for degrees in stride(from: 0.0, to: 360, by: 0.5) {
            let index = Int((degrees + 22.5).truncatingRemainder(dividingBy: 360) / 45)
            let wind = OneLineFormat.wind(speed: 5, from: degrees, imperial: false)
            XCTAssertEqual(wind, OneLineFormat.arrows[index] + "5km/h", "\(degrees)°")
        }
        XCTAssertEqual(OneLineFormat.wind(speed: 5, from: .nan, imperial: false), "5km/h", "no direction: no arrow")
        // Full moon of 2026-05-31 08:45 UTC, new moon of 2026-06-15 02:54 UTC (USNO).
        XCTAssertEqual(OneLineFormat.moonPhase(at: Date(timeIntervalSince1970: 1_780_217_100)), "🌕")
        XCTAssertEqual(OneLineFormat.moonDay(at: Date(timeIntervalSince1970: 1_780_217_100)), "15")
        XCTAssertEqual(OneLineFormat.moonPhase(at: Date(timeIntervalSince1970: 1_781_492_040)), "🌑")
        XCTAssertEqual(OneLineFormat.moonDay(at: Date(timeIntervalSince1970: 1_781_492_040)), "0")
    }

    /// The sun's times are HH:MM:SS on the city's clock, in the order of the day.
    func testSunTimesFollowTheDay() throws {
        let line = OneLineFormat.render("%D %S %z %s %d", thibodaux())
        let parts = line.split(separator: " ").map(String.init)
        XCTAssertEqual(parts.count, 5, line)
        for part in parts { XCTAssertNotNil(part.range(of: #"^\d\d:\d\d:\d\d$"#, options: .regularExpression), line) }
        XCTAssertEqual(parts, parts.sorted(), "dawn < sunrise < noon < sunset < dusk: \(line)")
    }
}
