import Foundation

/// Units for temperatures, speeds, pressures and lengths on screen.
public enum UnitSystem: String, Equatable, Sendable, CaseIterable {
    /// °C, km/h, hPa, mm.
    case metric
    /// °F, mph, inHg, in.
    case imperial

    /// Regions that measure in imperial units.
    static let imperialRegions: Set<String> = ["US", "LR", "MM"]

    /// `NIMBUS_UNITS=metric|imperial`, else the region of `LC_ALL`, `LC_MEASUREMENT`, `LANG` (the first
    /// set one): en_US → imperial; anything else, or no region, → metric.
    public static func resolve(environment: [String: String]) -> UnitSystem {
        if let value = environment["NIMBUS_UNITS"]?.lowercased(), let units = UnitSystem(rawValue: value) {
            return units
        }
        for name in ["LC_ALL", "LC_MEASUREMENT", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let base = value.prefix { $0 != "." && $0 != "@" }
            let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" })
            guard parts.count >= 2 else { return .metric }
            return imperialRegions.contains(parts[1].uppercased()) ? .imperial : .metric
        }
        return .metric
    }
}
