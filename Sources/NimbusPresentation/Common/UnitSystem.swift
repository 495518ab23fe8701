import Foundation

/// Units for temperatures, speeds, pressures and distances: `NIMBUS_UNITS` overrides the region.
public enum UnitSystem: String, Sendable, CaseIterable {
    /// °C, km/h, hPa, mm, km.
    case metric
    /// °F, mph, inHg, in, mi.
    case imperial

    /// Regions that measure in imperial units.
    static let imperialRegions: Set<String> = ["US", "LR", "MM"]

    /// `NIMBUS_UNITS=metric|imperial` when set and valid; else the locale's default (`localeDefault`).
    public static func resolve(environment: [String: String], language: Language) -> UnitSystem {
        if let value = environment["NIMBUS_UNITS"]?.lowercased(), let units = UnitSystem(rawValue: value) {
            return units
        }
        return localeDefault(environment: environment)
    }

    /// The region of the first of `LC_ALL`, `LC_MEASUREMENT`, `LANG` that is set: en_US, en_LR and
    /// my_MM → imperial, any other region (en_GB, ko_KR) → metric; with no region to go on, metric
    /// (as Open-Meteo and wttr.in outside the United States).
    public static func localeDefault(environment: [String: String]) -> UnitSystem {
        for name in ["LC_ALL", "LC_MEASUREMENT", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let base = value.prefix { $0 != "." && $0 != "@" }
            let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" })
            guard parts.count >= 2 else { break }
            return imperialRegions.contains(parts[1].uppercased()) ? .imperial : .metric
        }
        return .metric
    }
}
