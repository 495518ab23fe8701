import Foundation
import NimbusDomain

/// Turns weather values (metric, as the domain keeps them) into localised text in the chosen units.
public struct WeatherFormatter: Sendable {
    public let l10n: L10n
    public let units: UnitSystem

    public init(l10n: L10n, units: UnitSystem) {
        self.l10n = l10n
        self.units = units
    }

    /// A temperature in display units (°C or °F), not rounded.
    public func degrees(_ celsius: Double) -> Double {
        units == .metric ? celsius : celsius * 9 / 5 + 32
    }

    /// "23°C" / "74°F"; "–" when unknown.
    public func temperature(_ celsius: Double) -> String {
        guard celsius.isFinite else { return "–" }
        return "\(Self.rounded(degrees(celsius)))°" + (units == .metric ? "C" : "F")
    }

    /// "23°" (short, for lists and min/max labels).
    public func shortTemperature(_ celsius: Double) -> String {
        guard celsius.isFinite else { return "–" }
        return "\(Self.rounded(degrees(celsius)))°"
    }

    /// "10 km/h ↗" / "6 mph ↗": the arrow points where the wind blows to.
    public func wind(speed kmh: Double, from degrees: Double) -> String {
        guard kmh.isFinite else { return "–" }
        let speed = units == .metric ? "\(Self.rounded(kmh)) km/h" : "\(Self.rounded(kmh / 1.609344)) mph"
        guard degrees.isFinite else { return speed }
        return speed + " " + Self.arrow(towards: degrees + 180)
    }

    public func humidity(_ percent: Double) -> String {
        percent.isFinite ? "\(Self.rounded(percent))%" : "–"
    }

    public func pressure(_ hPa: Double) -> String {
        guard hPa.isFinite else { return "–" }
        return units == .metric ? "\(Self.rounded(hPa)) hPa" : String(format: "%.2f inHg", hPa * 0.029529983)
    }

    public func precipitation(_ mm: Double) -> String {
        guard mm.isFinite else { return "–" }
        return units == .metric ? String(format: "%.1f mm", mm) : String(format: "%.2f in", mm / 25.4)
    }

    /// "37.57°N 126.98°E".
    public static func coordinates(_ c: Coordinate) -> String {
        String(format: "%.2f°%@ %.2f°%@", abs(c.latitude), c.latitude >= 0 ? "N" : "S",
               abs(c.longitude), c.longitude >= 0 ? "E" : "W")
    }

    /// "14 h 46 min" in the UI language.
    public func duration(_ seconds: TimeInterval) -> String {
        let minutes = Int((max(0, seconds) / 60).rounded())
        return l10n.format(.weatherDuration, String(minutes / 60), String(minutes % 60))
    }

    /// "just now", "12 min ago", "3 h ago", "2 d ago".
    public func age(_ interval: TimeInterval) -> String {
        let minutes = Int(max(0, interval) / 60)
        if minutes < 1 { return l10n[.weatherAgeNow] }
        if minutes < 120 { return l10n.format(.weatherAgeMinutes, l10n.number(minutes)) }
        if minutes < 48 * 60 { return l10n.format(.weatherAgeHours, l10n.number(minutes / 60)) }
        return l10n.format(.weatherAgeDays, l10n.number(minutes / 1440))
    }

    public func condition(_ c: WeatherCondition) -> String {
        switch c {
        case .clear: l10n[.conditionClear]
        case .mainlyClear: l10n[.conditionMainlyClear]
        case .partlyCloudy: l10n[.conditionPartlyCloudy]
        case .overcast: l10n[.conditionOvercast]
        case .fog: l10n[.conditionFog]
        case .drizzle: l10n[.conditionDrizzle]
        case .freezingDrizzle: l10n[.conditionFreezingDrizzle]
        case .rain: l10n[.conditionRain]
        case .freezingRain: l10n[.conditionFreezingRain]
        case .snow: l10n[.conditionSnow]
        case .snowGrains: l10n[.conditionSnowGrains]
        case .rainShowers: l10n[.conditionRainShowers]
        case .snowShowers: l10n[.conditionSnowShowers]
        case .thunderstorm: l10n[.conditionThunderstorm]
        case .thunderstormHail: l10n[.conditionThunderstormHail]
        case .unknown: l10n[.conditionUnknown]
        }
    }

    /// The localised message for an error.
    public func message(_ error: WeatherError) -> String {
        switch error {
        case .offline: l10n[.weatherErrorOffline]
        case .timedOut: l10n[.weatherErrorTimeout]
        case .rateLimited: l10n[.weatherErrorRateLimited]
        case .server(let status): l10n.format(.weatherErrorServer, String(status))
        case .badResponse: l10n[.weatherErrorBadResponse]
        case .badConfiguration: l10n[.weatherErrorConfiguration]
        case .connectionLost: l10n[.weatherErrorConnectionLost]
        case .tooLarge: l10n[.weatherErrorTooLarge]
        case .badReply: l10n[.weatherErrorBadReply]
        case .redirected: l10n[.weatherErrorRedirected]
        }
    }

    static func rounded(_ v: Double) -> Int {
        let r = v.rounded()
        guard r.isFinite, abs(r) < 1e9 else { return 0 }
        return r == 0 ? 0 : Int(r) // no "-0"
    }

    static func arrow(towards degrees: Double) -> String {
        let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
        let d = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return arrows[Int((d / 45).rounded()) % 8]
    }
}

/// Small ASCII pictures of the sky, in the spirit of wttr.in (5 lines, at most 13 columns).
public enum WeatherIcon {
    public static func lines(_ c: WeatherCondition, isDay: Bool = true) -> [String] {
        switch c {
        case .clear, .mainlyClear:
            return isDay
                ? ["    \\   /    ", "     .-.     ", "  - (   ) -  ", "     `-'     ", "    /   \\    "]
                : ["      _      ", "     / )     ", "    ( (      ", "     \\_)     ", "             "]
        case .partlyCloudy:
            return ["   \\  /      ", " _ /\"\".-.    ", "   \\_(   ).  ", "   /(___(__) ", "             "]
        case .overcast:
            return ["             ", "     .--.    ", "  .-(    ).  ", " (___.__)__) ", "             "]
        case .fog:
            return ["             ", " _ - _ - _ - ", "  _ - _ - _  ", " _ - _ - _ - ", "             "]
        case .drizzle, .freezingDrizzle:
            return ["     .-.     ", "    (   ).   ", "   (___(__)  ", "    ' ' ' '  ", "   ' ' ' '   "]
        case .rain, .freezingRain, .rainShowers:
            return ["     .-.     ", "    (   ).   ", "   (___(__)  ", "  ,',',','   ", "  ,',',','   "]
        case .snow, .snowGrains, .snowShowers:
            return ["     .-.     ", "    (   ).   ", "   (___(__)  ", "    *  *  *  ", "   *  *  *   "]
        case .thunderstorm, .thunderstormHail:
            return ["     .-.     ", "    (   ).   ", "   (___(__)  ", "  ,'ϟ,'ϟ,'   ", "  ,',',','   "]
        case .unknown:
            return ["    .-.      ", "     __)     ", "    (        ", "     `-'     ", "      •      "]
        }
    }
}

/// A one-line chart: "▁▂▃▅▇█".
public enum Sparkline {
    static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One bar per value, scaled between `low` and `high` (the values' own range when nil); unknown values are spaces.
    public static func line(_ values: [Double?], low: Double? = nil, high: Double? = nil) -> String {
        let known = values.compactMap { $0 }.filter(\.isFinite)
        guard let lo = low ?? known.min(), let hi = high ?? known.max() else {
            return String(repeating: " ", count: values.count)
        }
        let span = hi - lo
        return String(values.map { v -> Character in
            guard let v, v.isFinite else { return " " }
            guard span > 0 else { return bars[3] }
            let i = Int(((v - lo) / span * Double(bars.count - 1)).rounded())
            return bars[min(bars.count - 1, max(0, i))]
        })
    }
}
