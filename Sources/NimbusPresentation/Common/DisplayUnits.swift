import Foundation
import NimbusDomain
import OpenCombineShim
import Synchronization

/// The settings' units and clock, owned by the app (one per app). Each view model that formats
/// follows `changes` into its `State` and formats with a `WeatherFormatter` made from the state's
/// `Value`: a change in the settings screen reaches every screen at its next frame.
public final class DisplayUnits: Sendable {
    public struct Value: Equatable, Sendable {
        /// Pressures, precipitation and distances.
        public var system: UnitSystem
        public var temperature: UserSettings.Temperature
        public var wind: UserSettings.Wind
        public var clock: UserSettings.Clock

        public init(system: UnitSystem, temperature: UserSettings.Temperature? = nil, wind: UserSettings.Wind? = nil,
                    clock: UserSettings.Clock = .h24) {
            self.system = system
            self.temperature = temperature ?? (system == .metric ? .c : .f)
            self.wind = wind ?? (system == .metric ? .kmh : .mph)
            self.clock = clock
        }
    }

    private let state: Mutex<Value>

    public init(_ value: Value) { state = Mutex(value) }

    /// Fixed units (tests, one-shot output): the temperature, wind and clock follow `system`.
    public convenience init(system: UnitSystem) { self.init(Value(system: system)) }

    public var value: Value {
        get { state.withLock { $0 } }
        set {
            let changed = state.withLock { old -> Bool in
                defer { old = newValue }
                return old != newValue
            }
            if changed { subject.send(()) }
        }
    }

    /// Sent (on the thread that changed the value: the main thread in the app) after each change;
    /// view models take the new value into their state on it.
    nonisolated(unsafe) private let subject = PassthroughSubject<Void, Never>()

    /// Once now, then after every change.
    public var changes: AnyPublisher<Void, Never> { subject.prepend(()).eraseToAnyPublisher() }
}

/// Every setting as it applies: the layers' choice (`SettingsLayers.effective`: flag > environment >
/// config file, with the session's choices above them) and, for what none of them sets, the locale's
/// default. One place decides, for the app and for its tests.
public struct ResolvedSettings: Equatable, Sendable {
    public var units: DisplayUnits.Value
    /// Dark, light or auto (auto is decided with the terminal, at start-up).
    public var theme: UserSettings.Theme
    /// Braille or blocks (auto decided here: blocks on the Linux console).
    public var mapStyle: MapStyle
    public var mouse: Bool
    /// 1...6.
    public var defaultTab: Int
    public var home: UserSettings.Home?

    /// `settings` (what the layers chose) with the locale's defaults, from `environment`, for the rest.
    public init(_ settings: UserSettings, environment: [String: String]) {
        let system: UnitSystem
        switch settings.units {
        case .metric?: system = .metric
        case .imperial?: system = .imperial
        case .auto?, nil: system = UnitSystem.localeDefault(environment: environment)
        }
        units = DisplayUnits.Value(system: system, temperature: settings.temperatureUnit, wind: settings.windUnit,
                                   clock: settings.clock ?? .h24)
        theme = settings.theme ?? .auto
        mapStyle = Self.mapStyle(settings.mapStyle ?? .auto, environment: environment)
        mouse = settings.mouse ?? true
        defaultTab = settings.defaultTab ?? 1
        home = settings.home
    }

    /// `flags` (the command line) over `environment` over `file` over the locale's defaults.
    public static func resolve(flags: UserSettings, environment: [String: String], file: UserSettings) -> ResolvedSettings {
        ResolvedSettings(SettingsLayers(flags: flags, environment: UserSettings(environment: environment), file: file).effective,
                         environment: environment)
    }

    /// Auto is blocks on the Linux console (`TERM=linux`, whose font has no braille), else braille.
    public static func mapStyle(_ style: UserSettings.MapStyle, environment: [String: String]) -> MapStyle {
        switch style {
        case .braille: return .braille
        case .blocks: return .blocks
        case .auto: return environment["TERM"] == "linux" ? .blocks : .braille
        }
    }
}
