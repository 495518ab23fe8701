import Foundation
import NimbusDomain
import PropertyBased
import Testing
import TestSupport
@testable import NimbusApp

/// `--format` on any weather the server could send (missing values, extremes, −0.4 °C) and any
/// format a user could write (every code, `%%`, a lone `%`, control characters, Hangul): each wttr.in
/// code prints in wttr.in's shape or not at all, and nothing but a new line reaches a status bar
/// that is not text. NIMBUS_PROPERTY_COUNT raises the count.
@Suite struct OneLineFormatPropertyTests {
    static let codes = Array("cCxhtfwlmMpoPuDSzsdTZaynqk%")
    static let shapes: [Character: String] = [
        "t": #"^([+-][0-9]+°[CF])?$"#, "f": #"^([+-][0-9]+°[CF])?$"#, "h": #"^([0-9]+%)?$"#,
        "w": #"^([↓↙←↖↑↗→↘]?[0-9]+(km/h|mph))?$"#, "p": #"^([0-9]+\.[0-9]mm|[0-9]+\.[0-9]{2} in)?$"#,
        "P": #"^([0-9]+hPa)?$"#, "o": #"^([0-9]+%)?$"#, "u": #"^([0-9]+)?$"#, "M": #"^([0-9]|[12][0-9])$"#,
        "D": #"^([0-2][0-9]:[0-5][0-9]:[0-5][0-9])?$"#, "S": #"^([0-2][0-9]:[0-5][0-9]:[0-5][0-9])?$"#,
        "z": #"^[0-2][0-9]:[0-5][0-9]:[0-5][0-9]$"#, "s": #"^([0-2][0-9]:[0-5][0-9]:[0-5][0-9])?$"#,
        "d": #"^([0-2][0-9]:[0-5][0-9]:[0-5][0-9])?$"#, "T": #"^[0-2][0-9]:[0-5][0-9]:[0-5][0-9][+-][0-9]{4}$"#,
    ]

    /// A value from a seed: usually physical, sometimes missing, extreme or just below zero.
    static func value(_ seed: Int, range: ClosedRange<Double>) -> Double {
        switch seed % 11 {
        case 0: return .nan
        case 1: return -0.4
        case 2: return range.upperBound
        case 3: return range.lowerBound
        default:
            let unit = Double(seed % 1_000_003) / 1_000_003
            return range.lowerBound + unit * (range.upperBound - range.lowerBound)
        }
    }

    static func weather(_ seeds: [Int]) -> OneLineFormat.Weather {
        let s = { (i: Int) in seeds[i % seeds.count] }
        let zones = ["Asia/Seoul", "America/St_Johns", "Pacific/Kiritimati", "Europe/Oslo", "Australia/Eucla"]
        let zoneName = zones[s(9) % zones.count]
        let zone = Zone(builtIn: TimeZone(identifier: zoneName)!)
        let conditions = WeatherCondition.allCases
        let now = Date(timeIntervalSince1970: 1_767_225_600 + Double(s(10) % (366 * 86400)))
        return OneLineFormat.Weather(
            location: ["Seoul", "서울", "São Paulo", "\u{1B}[31mred"][s(11) % 4], condition: "Partly cloudy",
            current: CurrentConditions(time: now, temperature: value(s(0), range: -90...60), apparentTemperature: value(s(1), range: -100...70),
                                       humidity: value(s(2), range: 0...100), pressure: value(s(3), range: 850...1090),
                                       precipitation: value(s(4), range: 0...500), windSpeed: value(s(5), range: 0...400),
                                       windDirection: value(s(6), range: 0...360), condition: conditions[s(7) % conditions.count],
                                       isDay: s(8) % 2 == 0),
            chanceOfRain: s(12) % 7 == 0 ? nil : value(s(12), range: 0...100), uvIndex: s(13) % 5 == 0 ? nil : value(s(13), range: 0...16),
            imperial: s(14) % 2 == 0,
            coordinate: Coordinate(latitude: value(s(15) | 4, range: -89...89), longitude: value(s(16) | 4, range: -180...180)),
            zone: zone, zoneName: zoneName, now: now)
    }

    @Test func everyCodeHasWttrInsShapeAndNothingButANewLineIsAControl() async {
        await propertyCheck(count: PropertyCount.scaled(default: 200),
                            input: Gen.int(in: 0...Int.max).array(of: 17...17), Gen.int(in: 0...Int.max).array(of: 0...30)) { seeds, formatSeeds in
            let weather = Self.weather(seeds)
            // Each code alone has its shape.
            for (code, shape) in Self.shapes {
                let out = OneLineFormat.render("%" + String(code), weather)
                #expect(out.range(of: shape, options: .regularExpression) != nil, "%\(code) → \(out.debugDescription)")
            }
            let t = weather.current.temperature
            if t.isFinite {
                let whole = Int((weather.imperial ? t * 9 / 5 + 32 : t).rounded())
                #expect(OneLineFormat.render("%t", weather).hasPrefix(whole >= 0 ? "+" : "-"), "\(t)")
            }
            // Any format: no control character but the new line; %% and a lone % as written.
            var format = ""
            for seed in formatSeeds {
                switch seed % 4 {
                case 0, 1: format += "%" + String(Self.codes[seed / 4 % Self.codes.count])
                case 2: format += ["서울", " ", ":", "\u{1B}", "\u{07}", "\\n", "+", "%", "\u{0301}"][seed / 4 % 9]
                default: format += String(UnicodeScalar(UInt8(0x20 + seed / 4 % 0x5F)))
                }
            }
            let out = OneLineFormat.render(format, weather)
            #expect(!out.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) },
                    "\(format.debugDescription) → \(out.debugDescription)")
            #expect(OneLineFormat.render("%%t %", weather) == "%t %")
        }
    }
}
