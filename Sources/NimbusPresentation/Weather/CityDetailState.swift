import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// The header of a city's detail: what the catalogue and the clock know, with no network.
public struct CityHeader: Equatable, Sendable {
    public let name: String
    /// The city's name in the UI language's script, when the catalogue has one (서울 for Seoul in Korean).
    public let localName: String?
    public let country: String
    /// "Sun 21 Jun 09:00" in the city's time zone.
    public let localTime: String
    public let coordinates: String
    public let population: String
}

/// Sunrise, sunset and day length, and the Moon, computed locally.
public struct SunLine: Equatable, Sendable {
    public let text: String
    /// "Moon: waxing gibbous, 78% lit · full Nov 24 · new Dec 9" in the city's time zone.
    public let moon: String
    /// The Moon as it looks from the city ("🌔"; mirrored south of the equator).
    public let moonSymbol: String
}

/// The weather part of the detail, formatted.
public struct WeatherPanel: Equatable, Sendable {
    public struct Day: Equatable, Sendable {
        public let weekday: String
        public let high: String
        public let low: String
        public let condition: String
    }

    public let temperature: String
    public let feelsLike: String
    public let condition: String
    public let icon: [String]
    /// One symbol for the sky ("⛅"), for one-line output.
    public let symbol: String
    public let wind: String
    /// The wind without its label: "9 km/h ↘".
    public let windValue: String
    public let humidity: String
    public let pressure: String
    public let precipitation: String
    /// The next 24 hours, and the next 48 for a wide screen.
    public let next24: Hours
    public let next48: Hours
    public let days: [Day]
    /// Today's high against yesterday's: "3° warmer than yesterday"; nil when either is not known.
    public var againstYesterday: String?
    /// Beside today's high and low: "normal 28° / 19° · 2° above normal"; nil until the normal is known.
    public var normal: String?

    /// The hours ahead, one chart column each.
    public struct Hours: Equatable, Sendable {
        /// "Next 24 hours".
        public let title: String
        /// Temperatures in display units.
        public let temperatures: [Double]
        /// The sky of each hour, one column wide.
        public let sky: [HourSky]
        /// What falls ("Rain", "Snow", "Precipitation"), the row's label.
        public let falls: String
        /// Chances of it (percent), one per hour.
        public let chances: [Double?]
        /// How much falls in these hours and the highest chance: "0.9 mm · up to 35% chance".
        public let fallsSummary: String
        /// The axis label of every sixth hour of the city's clock ("06", "6 AM"); nil between them.
        public let marks: [String?]
        public let min: String
        public let max: String

        public var isEmpty: Bool { temperatures.isEmpty }
    }
}

/// One hour's sky as a single column: a symbol, and what kind of sky it is (its colour).
public struct HourSky: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case sun, moon, cloud, fog, rain, snow, storm, unknown }
    public let symbol: String
    public let kind: Kind
}

/// The air now and today's strongest sun, formatted.
public struct AirPanel: Equatable, Sendable {
    /// "US AQI 42" or "European AQI 18": the index of the city's region, named.
    public let index: String
    /// The index's band in words ("good"); nil without an index.
    public let band: String?
    /// 0 (good) … 5 (the worst band), for its colour.
    public let severity: Int?
    /// "PM2.5 8 · PM10 15 · O₃ 60 µg/m³".
    public let details: String
    /// "UV max 7, high"; nil when the source gave no UV index.
    public let uv: String?
    /// 0 (low) … 4 (extreme).
    public let uvSeverity: Int?
    /// "cached 3 h ago" while a kept answer is shown (refreshing, or the refresh failed).
    public let notice: String?
}

/// The official warnings line above the weather.
public struct WarningsLine: Equatable, Sendable {
    /// The most severe warning in force, as its service names it ("Winter Storm Warning", "大雨警報");
    /// nil when none is in force (then `note` says why nothing is shown).
    public let event: String?
    /// How bad it is, for its style.
    public let severity: WeatherWarning.Severity
    /// When it is in force, in the city's clock: "Jan 15 10:00 – Jan 16 04:00".
    public let times: String
    /// "+1 more" when others are in force too.
    public let more: String?
    /// Instead of a warning: "No warnings in force", "No official warnings source for South Korea
    /// yet", "Warnings unavailable: offline"; nil while the first answer is awaited.
    public let note: String?

    /// Whether a warning is shown (`a` opens its full text).
    public var isActive: Bool { event != nil }
}

/// What the detail screen shows.
public struct CityDetailState: Equatable, Sendable {
    public enum Weather: Equatable, Sendable {
        case loading
        case loaded(WeatherPanel)
        /// No weather to show; the message says why and how to retry.
        case unavailable(String)
    }

    /// The air section has its own state: it never holds back or hides the forecast.
    public enum Air: Equatable, Sendable {
        case loading
        case loaded(AirPanel)
        /// Why there is none ("Air quality unavailable: …").
        case unavailable(String)
    }

    public let header: CityHeader
    public let sun: SunLine
    public let weather: Weather
    /// The air section; nil when the detail has no air-quality source.
    public let air: Air?
    /// A line about the data's age or trouble: "Offline, updated 12 min ago", "Refreshing…",
    /// and after `r`, "Updated just now" until the next key.
    public let notice: String?
    public let liked: Bool
    /// The official warnings; nil when the detail has no warnings source (one-line output).
    public var warnings: WarningsLine? = nil
    /// A warning is in force: `a` shows its full text.
    public var warningsActive: Bool { warnings?.isActive == true }
}

public enum CityDetailRoute: Equatable, Sendable {
    case back
    /// The full text of the warnings in force, over the detail, said in the language of the state
    /// that asked.
    case showWarnings(WarningsShown, in: L10n)
}
