import Foundation

/// The settings a user can save (`config.toml`, the settings screen). Each is optional: nil means
/// "not set here", so the next source down (the locale default) decides.
public struct UserSettings: Equatable, Sendable {
    public enum Units: String, CaseIterable, Sendable { case metric, imperial, auto }
    public enum Temperature: String, CaseIterable, Sendable { case c, f }
    public enum Wind: String, CaseIterable, Sendable { case kmh, mph, ms }
    public enum Clock: String, CaseIterable, Sendable { case h12 = "12", h24 = "24" }
    public enum Theme: String, CaseIterable, Sendable { case dark, light, auto }
    public enum MapStyle: String, CaseIterable, Sendable { case braille, blocks, auto }
    /// Where "home" is: a city of the catalogue (its GeoNames id) or a position.
    public enum Home: Equatable, Sendable {
        case city(Int)
        case point(GeoPoint)

        /// "1835848" or "37.57,126.98", as the file writes it.
        public var text: String {
            switch self {
            case .city(let id): return String(id)
            case .point(let p): return "\(p.latitude),\(p.longitude)"
            }
        }

        /// A GeoNames id (digits only) or "lat,lon"; nil for anything else.
        public init?(text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber), let id = Int(trimmed), id > 0 {
                self = .city(id)
            } else if let point = try? GeoPoint.parse(trimmed) {
                self = .point(point)
            } else {
                return nil
            }
        }
    }

    public var units: Units?
    public var temperatureUnit: Temperature?
    public var windUnit: Wind?
    public var clock: Clock?
    public var theme: Theme?
    public var mapStyle: MapStyle?
    public var mouse: Bool?
    /// 1 to 6.
    public var defaultTab: Int?
    public var home: Home?

    public init(units: Units? = nil, temperatureUnit: Temperature? = nil, windUnit: Wind? = nil, clock: Clock? = nil,
                theme: Theme? = nil, mapStyle: MapStyle? = nil, mouse: Bool? = nil, defaultTab: Int? = nil,
                home: Home? = nil) {
        self.units = units
        self.temperatureUnit = temperatureUnit
        self.windUnit = windUnit
        self.clock = clock
        self.theme = theme
        self.mapStyle = mapStyle
        self.mouse = mouse
        self.defaultTab = defaultTab
        self.home = home
    }

    /// The tabs a default tab can name.
    public static let tabs = 1...6

    /// The keys of the file, in the order they are written and shown.
    public enum Key: String, CaseIterable, Sendable {
        case units, temperatureUnit = "temperature_unit", windUnit = "wind_unit", clock, theme
        case mapStyle = "map_style", mouse, defaultTab = "default_tab", home
    }
}
