import Foundation
import NimbusDomain

/// Today against yesterday and against the normal, and warnings in one line, in the display's
/// units and the UI's language.
extension WeatherFormatter {
    /// A temperature difference in display units ("3°": °F differences are 9/5 of °C ones).
    public func temperatureDifference(_ celsius: Double) -> String {
        guard let n = Self.rounded(abs(degrees(celsius) - degrees(0))) else { return "–" }
        return "\(n)°"
    }

    /// "3° warmer than yesterday", "2° colder than yesterday", "about the same as yesterday".
    public func againstYesterday(_ difference: TemperatureDifference) -> String {
        switch difference.direction {
        case .warmer: return l10n.format(.weatherYesterdayWarmer, temperatureDifference(difference.degrees))
        case .colder: return l10n.format(.weatherYesterdayColder, temperatureDifference(difference.degrees))
        case .aboutTheSame: return l10n[.weatherYesterdaySame]
        }
    }

    /// "normal 28° / 19°".
    public func normal(_ normal: DayNormal) -> String {
        l10n.format(.weatherNormal, shortTemperature(normal.high), shortTemperature(normal.low))
    }

    /// "2° above normal", "3° below normal", "near normal".
    public func againstNormal(_ difference: TemperatureDifference) -> String {
        switch difference.direction {
        case .warmer: return l10n.format(.weatherNormalAbove, temperatureDifference(difference.degrees))
        case .colder: return l10n.format(.weatherNormalBelow, temperatureDifference(difference.degrees))
        case .aboutTheSame: return l10n[.weatherNormalSame]
        }
    }

    /// The most severe warning and how many more ("Winter Storm Warning +1 more"); empty when there
    /// is none. The event is the service's own text, in its language. One whose weather is still to
    /// come says from when, in the city's clock ("Winter Storm Warning from Thu 16:00 +1 more"),
    /// rather than reading as in force.
    public func warningsLine(_ active: [WeatherWarning], city: City, now: Date) -> String {
        guard let first = active.first else { return "" }
        let when = WarningsText.isComing(first, at: now) ? " " + WarningsText.fromWhen(first, clock: clock(in: zone(for: city)), l10n: l10n) : ""
        let more = active.count > 1 ? " " + l10n.format(.warningsMore, l10n.number(active.count - 1)) : ""
        return first.event + when + more
    }
}
