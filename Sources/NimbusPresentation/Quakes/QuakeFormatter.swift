import Foundation
import NimbusDomain

/// Events in words and numbers of the UI language and units.
public struct QuakeFormatter: Sendable {
    public let weather: WeatherFormatter
    public var l10n: L10n { weather.l10n }
    /// Country names in the UI language, for where an event is.
    public var countries: CountryNames { weather.l10n.countryNames }

    public init(weather: WeatherFormatter) {
        self.weather = weather
    }

    /// The same zones, writing in `display` and `l10n`'s language.
    public func with(_ display: DisplayUnits.Value, _ l10n: L10n) -> QuakeFormatter {
        QuakeFormatter(weather: weather.with(display, l10n))
    }

    /// "5.1": one decimal, as seismologists give it.
    public static func magnitude(_ m: Double) -> String {
        guard m.isFinite else { return "–" }
        return String(format: "%.1f", m)
    }

    /// 0 (minor, below 3) … 4 (major, 6 and above): how strongly a row is marked.
    public static func strength(_ m: Double) -> Int {
        guard m.isFinite else { return 0 }
        switch m {
        case ..<3: return 0
        case ..<4: return 1
        case ..<5: return 2
        case ..<6: return 3
        default: return 4
        }
    }

    /// How far from a place an event counts as near it (the Quakes tab's filter, the Today tab's
    /// section): a round number in the units shown, 500 km or 300 mi, so that the words say what the
    /// filter does ("within 300 mi", not "within 311 mi" for 500 km).
    public static func nearRadiusKilometres(_ units: UnitSystem) -> Double {
        units == .metric ? 500 : 300 * 1.609344
    }

    /// "23 km", "14 mi", with the language's digit grouping.
    public func distance(kilometres: Double) -> String {
        guard kilometres.isFinite else { return "–" }
        let value = weather.units == .metric ? kilometres : kilometres / 1.609344
        let unit = weather.units == .metric ? "km" : "mi"
        if value < 10 { return String(format: "%.1f", max(0, value)) + " " + unit }
        return l10n.number(Int(min(value, 1e9).rounded())) + " " + unit
    }

    /// The compass point of a bearing in degrees, of the sixteen USGS names places by ("SSE").
    public func direction(_ bearing: Double) -> String {
        guard bearing.isFinite else { return "" }
        let keys: [L10nKey] = [.quakesDirectionN, .quakesDirectionNNE, .quakesDirectionNE, .quakesDirectionENE,
                               .quakesDirectionE, .quakesDirectionESE, .quakesDirectionSE, .quakesDirectionSSE,
                               .quakesDirectionS, .quakesDirectionSSW, .quakesDirectionSW, .quakesDirectionWSW,
                               .quakesDirectionW, .quakesDirectionWNW, .quakesDirectionNW, .quakesDirectionNNW]
        return l10n[keys[Self.compassPoint(bearing)]]
    }

    /// 0 (N) … 15 (NNW): the 22.5° sector around each point.
    public static func compassPoint(_ bearing: Double) -> Int {
        let degrees = bearing.truncatingRemainder(dividingBy: 360) + 360
        return Int(((degrees + 11.25) / 22.5).rounded(.down)) % 16
    }

    /// Where the event was: "23 km SW of Pohang, South Korea" ("포항(대한민국) 남서쪽 23 km"); beyond
    /// `QuakePlace.regionBeyondKilometres` from any catalogue town, its seismic region ("South
    /// Atlantic Ocean"), as USGS names such events; the feed's own words without a catalogue city.
    public func place(_ quake: Quake, _ place: QuakePlace?) -> String {
        guard let place else { return quake.place }
        if place.isNamedByRegion, let region = place.region { return regionName(region) }
        return town(place)
    }

    /// The distance and direction from the nearest town, for an event named by its region (its second
    /// line: "3,909 km S of Ushuaia, Argentina"); nil when the town names the event already.
    public func nearestTown(_ place: QuakePlace?) -> String? {
        guard let place, place.isNamedByRegion else { return nil }
        return town(place)
    }

    /// "23 km SW of Pohang, South Korea". The country is named as USGS names it ("41 km NNE of
    /// Santiago, Chile"): the nearest town of 15,000 people is often one nobody abroad knows.
    private func town(_ place: QuakePlace) -> String {
        let city = CityNameChoice.name(place.city, language: l10n.language)
        let name = place.city.countryCode.isEmpty ? city
            : l10n.format(.quakesCityInCountry, city, countries.name(place.city.countryCode))
        if place.kilometres < 1 { return name }
        return l10n.format(.quakesNear, distance(kilometres: place.kilometres), direction(place.bearing), name)
    }

    /// The region's name in the UI language.
    public func regionName(_ region: SeismicRegion) -> String {
        switch l10n.language {
        case .en: region.english
        case .ko: region.korean
        case .ja: region.japanese
        }
    }

    public func depth(_ kilometres: Double) -> String {
        l10n.format(.quakesDepth, distance(kilometres: kilometres))
    }

    public func filter(_ feed: QuakeFeed) -> String { filterParts(feed).joined(separator: " · ") }

    /// The magnitude and the period, apart (a narrow header keeps the first).
    public func filterParts(_ feed: QuakeFeed) -> [String] {
        let magnitude: L10nKey
        switch feed.magnitude {
        case .all: magnitude = .quakesMagnitudeAll
        case .one: magnitude = .quakesMagnitudeOne
        case .twoAndAHalf: magnitude = .quakesMagnitudeTwoAndAHalf
        case .fourAndAHalf: magnitude = .quakesMagnitudeFourAndAHalf
        case .significant: magnitude = .quakesMagnitudeSignificant
        }
        let period: L10nKey
        switch feed.period {
        case .hour: period = .quakesPeriodHour
        case .day: period = .quakesPeriodDay
        case .week: period = .quakesPeriodWeek
        case .month: period = .quakesPeriodMonth
        }
        return [l10n[magnitude], l10n[period]]
    }

    public func alert(_ alert: Quake.Alert) -> String {
        switch alert {
        case .green: return l10n[.alertGreen]
        case .yellow: return l10n[.alertYellow]
        case .orange: return l10n[.alertOrange]
        case .red: return l10n[.alertRed]
        }
    }

    public func message(_ error: QuakeError) -> String {
        switch error {
        case .offline: return l10n[.quakesErrorOffline]
        case .timedOut: return l10n[.quakesErrorTimedOut]
        case .rateLimited: return l10n[.quakesErrorRateLimited]
        case .server(let status): return l10n.format(.quakesErrorServer, String(status))
        case .badResponse: return l10n[.quakesErrorBadResponse]
        case .tooLarge: return l10n[.quakesErrorTooLarge]
        case .notModifiedWithoutCache: return l10n[.quakesErrorNotModified]
        case .badConfiguration: return l10n[.quakesErrorConfiguration]
        }
    }
}
