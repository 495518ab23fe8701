import Foundation
import NimbusDomain
import OpenCombineShim
import Synchronization

/// The units and clock every formatter reads when it formats, owned by the app (one per app): a
/// change in the settings screen reaches every screen at its next frame, since no screen keeps a copy.
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
    /// view models that keep formatted text re-format on it.
    nonisolated(unsafe) private let subject = PassthroughSubject<Void, Never>()

    /// Once now, then after every change.
    public var changes: AnyPublisher<Void, Never> { subject.prepend(()).eraseToAnyPublisher() }
}

/// The precedence of every setting: command-line flag > environment variable > config file >
/// locale default. One place decides, for the app and for its tests.
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

    /// The environment variables that set a setting.
    public static let unitsVariable = "NIMBUS_UNITS"
    public static let themeVariable = "NIMBUS_THEME"
    public static let mapStyleVariable = "NIMBUS_MAP_STYLE"

    /// `flags` (the command line) over `environment` over `file` over the locale's defaults.
    public static func resolve(flags: UserSettings, environment: [String: String], file: UserSettings) -> ResolvedSettings {
        func env<E: RawRepresentable>(_ name: String, _ type: E.Type) -> E? where E.RawValue == String {
            environment[name].flatMap { E(rawValue: $0.trimmingCharacters(in: .whitespaces).lowercased()) }
        }
        // A units system given on the command line or in the environment decides the temperature
        // and wind units too; the file's own temperature and wind units apply under the file's units.
        let overriding = [flags.units, env(unitsVariable, UserSettings.Units.self)].compactMap { $0 }.first { $0 != .auto }
        let chosen = overriding ?? file.units
        let system: UnitSystem
        switch chosen {
        case .metric?: system = .metric
        case .imperial?: system = .imperial
        case .auto?, nil: system = UnitSystem.localeDefault(environment: environment)
        }
        let units = DisplayUnits.Value(
            system: system,
            temperature: overriding == nil ? (flags.temperatureUnit ?? file.temperatureUnit) : flags.temperatureUnit,
            wind: overriding == nil ? (flags.windUnit ?? file.windUnit) : flags.windUnit,
            clock: flags.clock ?? file.clock ?? .h24)
        let theme = flags.theme ?? env(themeVariable, UserSettings.Theme.self) ?? file.theme ?? .auto
        let style = flags.mapStyle ?? env(mapStyleVariable, UserSettings.MapStyle.self) ?? file.mapStyle ?? .auto
        return ResolvedSettings(units: units, theme: theme, mapStyle: mapStyle(style, environment: environment),
                                mouse: flags.mouse ?? file.mouse ?? true,
                                defaultTab: flags.defaultTab ?? file.defaultTab ?? 1, home: flags.home ?? file.home)
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
