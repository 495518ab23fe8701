import Foundation
import NimbusDomain

/// Turns weather values (metric, as the domain keeps them) into localised text in the chosen units:
/// a value, made from the language, units and clock it writes in. A view model keeps the language and
/// the settings' units in its `State` and formats with `with(state.display, state.l10n)`, so what it
/// shows follows from its state alone.
public struct WeatherFormatter: Sendable {
    public let l10n: L10n
    /// The units and clock this formatter writes in.
    public let display: DisplayUnits.Value
    /// The zone database every local time is read from.
    public let zones: any ZoneLookup

    /// Pressures, precipitation and distances.
    public var units: UnitSystem { display.system }

    /// Fixed units: the temperature, wind and clock follow `units`.
    public init(l10n: L10n, units: UnitSystem, zones: any ZoneLookup) {
        self.init(l10n: l10n, display: DisplayUnits.Value(system: units), zones: zones)
    }

    public init(l10n: L10n, display: DisplayUnits.Value, zones: any ZoneLookup) {
        self.l10n = l10n
        self.display = display
        self.zones = zones
    }

    /// The same zones, writing in `display` and `l10n`'s language (a state's: `present` is a
    /// function of the state).
    public func with(_ display: DisplayUnits.Value, _ l10n: L10n) -> WeatherFormatter {
        WeatherFormatter(l10n: l10n, display: display, zones: zones)
    }

    /// A temperature in display units (°C or °F), not rounded.
    public func degrees(_ celsius: Double) -> Double {
        display.temperature == .c ? celsius : celsius * 9 / 5 + 32
    }

    /// "23°C" / "74°F"; "–" when unknown.
    public func temperature(_ celsius: Double) -> String {
        guard let n = Self.rounded(degrees(celsius)) else { return "–" }
        return "\(n)°" + (display.temperature == .c ? "C" : "F")
    }

    /// "23°" (short, for lists and min/max labels).
    public func shortTemperature(_ celsius: Double) -> String {
        guard let n = Self.rounded(degrees(celsius)) else { return "–" }
        return "\(n)°"
    }

    /// "10 km/h ↗" / "6 mph ↗": the arrow points where the wind blows to.
    public func wind(speed kmh: Double, from degrees: Double) -> String {
        let unit = display.wind
        let value = unit == .kmh ? kmh : unit == .mph ? kmh / 1.609344 : kmh / 3.6
        guard let n = Self.rounded(value) else { return "–" }
        let speed = "\(n) " + (unit == .kmh ? "km/h" : unit == .mph ? "mph" : "m/s")
        guard degrees.isFinite else { return speed }
        return speed + " " + Self.arrow(towards: degrees + 180)
    }

    public func humidity(_ percent: Double) -> String {
        Self.rounded(percent).map { "\($0)%" } ?? "–"
    }

    public func pressure(_ hPa: Double) -> String {
        guard let n = Self.rounded(hPa) else { return "–" }
        return units == .metric ? "\(n) hPa" : String(format: "%.2f inHg", hPa * 0.029529983)
    }

    public func precipitation(_ mm: Double) -> String {
        guard Self.rounded(mm) != nil else { return "–" }
        return units == .metric ? String(format: "%.1f mm", mm) : String(format: "%.2f in", mm / 25.4)
    }

    /// Fresh snow: "1.2 cm" / "0.47 in".
    public func snow(_ cm: Double) -> String {
        guard Self.rounded(cm) != nil else { return "–" }
        return units == .metric ? String(format: "%.1f cm", cm) : String(format: "%.2f in", cm / 2.54)
    }

    /// "37.57°N 126.98°E".
    public static func coordinates(_ c: Coordinate) -> String {
        String(format: "%.2f°%@ %.2f°%@", abs(c.latitude), c.latitude >= 0 ? "N" : "S",
               abs(c.longitude), c.longitude >= 0 ? "E" : "W")
    }

    /// "14 h 46 min" in the UI language.
    public func duration(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds < Self.displayLimit else { return "–" }
        let minutes = Int((max(0, seconds) / 60).rounded())
        return l10n.format(.weatherDuration, String(minutes / 60), String(minutes % 60))
    }

    /// "just now", "12 min ago", "3 h ago", "2 d ago".
    public func age(_ interval: TimeInterval) -> String {
        let minutes = interval.isFinite ? Int(min(max(0, interval), Self.displayLimit) / 60) : 0
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

    /// A few words for a row that has no weather ("offline", "bad response"), where `message` has no room.
    public func shortMessage(_ error: WeatherError) -> String {
        switch error {
        case .offline: l10n[.weatherShortOffline]
        case .timedOut: l10n[.weatherShortTimeout]
        case .rateLimited: l10n[.weatherShortRateLimited]
        case .server(let status): l10n.format(.weatherShortServer, String(status))
        case .badResponse: l10n[.weatherShortBadResponse]
        case .badConfiguration: l10n[.weatherShortConfiguration]
        case .connectionLost: l10n[.weatherShortConnectionLost]
        case .tooLarge: l10n[.weatherShortTooLarge]
        case .badReply: l10n[.weatherShortBadReply]
        case .redirected: l10n[.weatherShortRedirected]
        }
    }

    /// Largest magnitude shown as a number; beyond it (and for NaN or ±∞) a value shows as "–".
    static let displayLimit = 1e9

    /// `v` to the nearest whole number, or nil when it is not a number that can be shown.
    static func rounded(_ v: Double) -> Int? {
        let r = v.rounded()
        guard r.isFinite, abs(r) < displayLimit else { return nil }
        return r == 0 ? 0 : Int(r) // no "-0"
    }

    static func arrow(towards degrees: Double) -> String {
        let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
        guard degrees.isFinite else { return "" }
        let d = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return arrows[Int((d / 45).rounded()) % 8]
    }
}

/// Small ASCII pictures of the sky, in the spirit of wttr.in (5 lines, at most 13 columns).
public enum WeatherIcon {
    /// One symbol for the sky, as wttr.in's `%c` ("☀️", "⛅", "🌧").
    public static func symbol(_ c: WeatherCondition, isDay: Bool = true) -> String {
        switch c {
        case .clear, .mainlyClear: isDay ? "☀️" : "🌙"
        case .partlyCloudy: "⛅"
        case .overcast: "☁️"
        case .fog: "🌫"
        case .drizzle, .freezingDrizzle, .rain, .freezingRain, .rainShowers: "🌧"
        case .snow, .snowGrains, .snowShowers: "🌨"
        case .thunderstorm, .thunderstormHail: "⛈"
        case .unknown: "✨"
        }
    }

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

extension WeatherIcon {
    /// One hour's sky in one column, for the row under the hourly chart: symbols that are a single
    /// column wide in every terminal (text presentation, East Asian width neutral).
    public static func hour(_ c: WeatherCondition, isDay: Bool = true) -> HourSky {
        switch c {
        case .clear: isDay ? HourSky(symbol: "☀", kind: .sun) : HourSky(symbol: "☾", kind: .moon)
        case .mainlyClear: isDay ? HourSky(symbol: "☼", kind: .sun) : HourSky(symbol: "☾", kind: .moon)
        case .partlyCloudy: HourSky(symbol: "◒", kind: .cloud)
        case .overcast: HourSky(symbol: "☁", kind: .cloud)
        case .fog: HourSky(symbol: "=", kind: .fog)
        case .drizzle, .freezingDrizzle: HourSky(symbol: "'", kind: .rain)
        case .rain, .freezingRain, .rainShowers: HourSky(symbol: "☂", kind: .rain)
        case .snow, .snowGrains, .snowShowers: HourSky(symbol: "❄", kind: .snow)
        case .thunderstorm, .thunderstormHail: HourSky(symbol: "☇", kind: .storm)
        case .unknown: HourSky(symbol: " ", kind: .unknown)
        }
    }
}

/// A one-line chart: "▁▂▃▅▇█".
public enum Sparkline {
    static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One bar per value, scaled between `low` and `high` (the values' own range when nil); unknown values are spaces.
    /// Total over any `Double`: NaN and ±∞ are unknown, values outside the range take the end bars, and a
    /// range too wide for a `Double` (−1e308…1e308) is scaled in halves.
    public static func line(_ values: [Double?], low: Double? = nil, high: Double? = nil) -> String {
        let known = values.compactMap { $0 }.filter(\.isFinite)
        guard let lo = (low?.isFinite == true ? low : nil) ?? known.min(),
              let hi = (high?.isFinite == true ? high : nil) ?? known.max() else {
            return String(repeating: " ", count: values.count)
        }
        // Halved so that hi − lo and v − lo stay finite for any finite values.
        let span = hi / 2 - lo / 2
        let top = Double(bars.count - 1)
        return String(values.map { v -> Character in
            guard let v, v.isFinite else { return " " }
            guard span > 0 else { return bars[3] }
            let position = ((v / 2 - lo / 2) / span * top).rounded()
            guard position.isFinite else { return " " }
            return bars[Int(min(top, max(0, position)))]
        })
    }
}
