import NimbusData
import Foundation
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// Charts and formatters are total: any `Double` (NaN, ±∞, ±1e308, subnormals) gives a string, never a trap,
/// and a value too large to be real shows as "–", not as "0°C" or thirty digits.
@Suite struct HostileValuesTests {
    static let extremes: [Double] = [.nan, -.nan, .infinity, -.infinity, 1e308, -1e308, .greatestFiniteMagnitude,
                                     -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e20, -1e20, 9.3e18, 0, -0.0, 1e9, -1e9]

    /// Any bit pattern, a third of the time one of the extremes.
    static let anyDouble = Gen.int().map { n -> Double in
        let bits = UInt64(bitPattern: Int64(n))
        return bits % 3 == 0 ? extremes[Int((bits / 3) % UInt64(extremes.count))] : Double(bitPattern: bits)
    }

    static let formats = [Language.en, .ko, .ja].flatMap { language in
        [UnitSystem.metric, .imperial].map { WeatherFormatter(l10n: L10n.bundled(language), units: $0, zones: SystemZoneDatabase.forTests) }
    }

    @Test func sparklinesOfExtremesDrawOneBarOrSpacePerValue() {
        let poisoned: [Double?] = [1e308, -1e308, 20, nil, .nan, .infinity]
        let line = Sparkline.line(poisoned)
        #expect(line.count == poisoned.count)
        #expect(Sparkline.line([1e20, 1.5e20, 50], low: 0, high: 100) == "██▅")
        #expect(Sparkline.line([-1e308, 1e308]) == "▁█")
        #expect(Sparkline.line([5, 6], low: .nan, high: .infinity) == "▁█")
    }

    @Test func formattersShowDashForValuesTooLargeToBeReal() {
        let f = WeatherFormatter(l10n: L10n.bundled(.en), units: .metric, zones: SystemZoneDatabase.forTests)
        #expect(f.temperature(1e308) == "–")
        #expect(f.temperature(-1e30) == "–")
        #expect(f.shortTemperature(1e300) == "–")
        #expect(f.wind(speed: 1e300, from: 90) == "–")
        #expect(f.humidity(1e20) == "–")
        #expect(f.pressure(1e300) == "–")
        #expect(f.precipitation(1e300) == "–")
        #expect(f.duration(.infinity) == "–")
        #expect(f.temperature(21.4) == "21°C")
        #expect(WeatherFormatter.arrow(towards: .nan) == "")
        #expect(WeatherFormatter(l10n: L10n.bundled(.en), units: .imperial, zones: SystemZoneDatabase.forTests).pressure(1e300) == "–")
    }

    @Test func sparklinesAreTotal() async {
        await propertyCheck(count: PropertyCount.scaled(default: 1000),
                            input: Self.anyDouble.array(of: 0...30), Self.anyDouble, Self.anyDouble) { values, low, high in
            let line = Sparkline.line(values)
            #expect(line.count == values.count)
            #expect(Sparkline.line(values, low: low, high: high).count == values.count)
            #expect(Sparkline.line(values.map { $0.isNaN ? nil : $0 }, low: 0, high: 100).count == values.count)
        }
    }

    @Test func formattersAreTotalAndShort() async {
        await propertyCheck(count: PropertyCount.scaled(default: 1000), input: Self.anyDouble, Self.anyDouble) { v, w in
            for f in Self.formats {
                let texts = [f.temperature(v), f.shortTemperature(v), f.wind(speed: v, from: w), f.humidity(v),
                             f.pressure(v), f.precipitation(v), f.snow(v), f.duration(v), f.age(v)]
                for text in texts { #expect(text.count < 40, "\(text)") }
                if !v.isFinite || abs(v) > 1e12 {
                    #expect(f.temperature(v) == "–")
                    #expect(f.pressure(v) == "–")
                }
            }
        }
    }
}
