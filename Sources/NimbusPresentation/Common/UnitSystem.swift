import Foundation

/// Units for distances (and, later, temperatures): from the UI region, `NIMBUS_UNITS` overrides.
public enum UnitSystem: String, Sendable, CaseIterable {
    case metric, imperial

    /// `NIMBUS_UNITS=metric|imperial` when set and valid, otherwise the language's region
    /// (English is shown with the United States' conventions, so imperial; Korean and Japanese metric).
    public static func resolve(environment: [String: String], language: Language) -> UnitSystem {
        if let value = environment["NIMBUS_UNITS"]?.lowercased(), let units = UnitSystem(rawValue: value) {
            return units
        }
        switch language {
        case .en: return .imperial
        case .ko, .ja: return .metric
        }
    }
}
