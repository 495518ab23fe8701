import Foundation
import NimbusDomain

/// How the nearest city was found, in words: "Nearest city to 35.20°N 129.10°E (--location), 12 km
/// away", "Busan (home)", "Approximate: the largest city in the time zone Asia/Seoul", or why no city
/// is known; and the settings that were skipped, one line each.
public struct LocationSummary: Equatable, Sendable {
    public enum Status: Equatable, Sendable {
        /// The nearest city; `summary` says how it was found and how far it is.
        case located(City, summary: String, approximate: Bool)
        case failed(String)
    }

    public let status: Status
    /// Settings that were skipped, one line each.
    public let warnings: [String]

    public init(status: Status, warnings: [String]) {
        self.status = status
        self.warnings = warnings
    }

    public init(_ result: Result<CurrentCity, LocateCityError>, format: WeatherFormatter) {
        let l10n = format.l10n
        func lines(_ ignored: [IgnoredLocationSetting]) -> [String] {
            ignored.map { l10n.format(.currentIgnored, $0.name, DisplayText.clip($0.value, 40)) }
        }
        switch result {
        case .success(let current):
            let summary: String
            switch current.location {
            case .argument(let point):
                summary = l10n.format(.currentFromArgument, Self.point(point), Self.distance(current.distance ?? 0, format))
            case .environment(let point):
                summary = l10n.format(.currentFromEnvironment, Self.point(point), Self.distance(current.distance ?? 0, format))
            case .home(let point):
                // A home chosen as a city is that city's position: it is named, not measured from.
                if let distance = current.distance, distance < Self.sameCityMetres {
                    summary = l10n.format(.currentHomeCity, CityNameChoice.name(current.city, language: l10n.language))
                } else {
                    summary = l10n.format(.currentFromHome, Self.point(point), Self.distance(current.distance ?? 0, format))
                }
            case .timeZone(let zone):
                summary = l10n.format(.currentFromTimeZone, zone)
            case .unknown:
                summary = ""
            }
            status = .located(current.city, summary: summary, approximate: current.isApproximate)
            self.warnings = lines(current.ignored)
        case .failure(.noLocation(let zone, let ignored)):
            let message = zone.map { l10n.format(.currentNoCityInZone, $0) } ?? l10n[.currentNoLocation]
            status = .failed(message)
            self.warnings = lines(ignored)
        }
    }

    /// A home this close to the city found is that city. A home chosen as a city in the settings is
    /// stored as the city and located at its exact position (0 m); a position typed in with two
    /// decimals, as the examples give it (35.10,129.04), is within 0.8 km of the point it was
    /// rounded from anywhere on Earth. Past 1 km a home is a place of its own, and Today says how
    /// far it is from the city it found.
    static let sameCityMetres = 1_000.0

    static func point(_ p: GeoPoint) -> String {
        WeatherFormatter.coordinates(p.coordinate)
    }

    /// "4.2 km", "35 km", "1,234 km", "2.6 mi".
    static func distance(_ metres: Double, _ format: WeatherFormatter) -> String {
        let value = format.units == .metric ? metres / 1000 : metres / 1609.344
        let unit = format.units == .metric ? "km" : "mi"
        guard value.isFinite, abs(value) < WeatherFormatter.displayLimit else { return "–" }
        // With the language's digit grouping, as every other distance ("1,234 km").
        return (value < 10 ? String(format: "%.1f", value) : format.l10n.number(Int(value.rounded()))) + " " + unit
    }
}

/// Clipping of text from settings before it is shown.
enum DisplayText {
    static func clip(_ s: String, _ n: Int) -> String {
        let clean = String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        return clean.count > n ? String(clean.prefix(n - 1)) + "…" : clean
    }
}
