import Foundation

/// Where settings come from, highest first: choices made while the app runs (the settings screen,
/// `c` on a map), the command line, the environment, then the config file. `effective` is the one
/// place that decides between them; what none of them sets is the locale's default (decided where
/// the units are, in the presentation layer).
public struct SettingsLayers: Equatable, Sendable {
    /// Chosen while the app runs: over everything else until it quits.
    public var session: UserSettings
    /// `--units`, `--theme`, `--map-style`, `--no-mouse`.
    public var flags: UserSettings
    /// `NIMBUS_UNITS`, `NIMBUS_THEME`, `NIMBUS_MAP_STYLE`, `NIMBUS_MOUSE`.
    public var environment: UserSettings
    /// What `config.toml` holds (the good values; a bad one is left unset).
    public var file: UserSettings

    public init(session: UserSettings = UserSettings(), flags: UserSettings = UserSettings(),
                environment: UserSettings = UserSettings(), file: UserSettings = UserSettings()) {
        self.session = session
        self.flags = flags
        self.environment = environment
        self.file = file
    }

    /// Each setting from the highest layer that sets it.
    ///
    /// Two rules besides: `auto` units on the command line or in the environment is no choice (the
    /// file's units still apply); and a units system decides the temperature and wind units too, so
    /// a layer's own temperature and wind units apply only at or above the layer that chose the units
    /// (the file's °F stays under the file's units, not under `NIMBUS_UNITS=metric`).
    public var effective: UserSettings {
        let layers = self.layers, decider = self.decider
        let underUnits = layers.prefix(through: decider ?? layers.count - 1)
        func first<T>(_ value: (UserSettings) -> T?, in chosen: some Collection<UserSettings> = layers) -> T? {
            for layer in chosen { if let v = value(layer) { return v } }
            return nil
        }
        return UserSettings(
            units: decider.flatMap { layers[$0].units }, temperatureUnit: first(\.temperatureUnit, in: underUnits),
            windUnit: first(\.windUnit, in: underUnits), clock: first(\.clock), theme: first(\.theme),
            mapStyle: first(\.mapStyle), mouse: first(\.mouse), defaultTab: first(\.defaultTab), home: first(\.home))
    }

    /// A layer, as where a setting in effect comes from.
    public enum Layer: Int, CaseIterable, Sendable { case session, flags, environment, file }

    /// The layer the effective value of `key` comes from (nil: none sets it, the default applies),
    /// by the rules of `effective`: a temperature or wind unit no layer sets comes with the units.
    public func source(of key: UserSettings.Key) -> Layer? {
        let layers = self.layers, decider = self.decider
        let underUnits = layers.indices.prefix(through: decider ?? layers.count - 1)
        func first(_ isSet: (UserSettings) -> Bool, in chosen: some Collection<Int> = layers.indices) -> Int? {
            chosen.first { isSet(layers[$0]) }
        }
        let index: Int?
        switch key {
        case .units: index = decider
        case .temperatureUnit: index = first({ $0.temperatureUnit != nil }, in: underUnits) ?? decider
        case .windUnit: index = first({ $0.windUnit != nil }, in: underUnits) ?? decider
        case .clock: index = first { $0.clock != nil }
        case .theme: index = first { $0.theme != nil }
        case .mapStyle: index = first { $0.mapStyle != nil }
        case .mouse: index = first { $0.mouse != nil }
        case .defaultTab: index = first { $0.defaultTab != nil }
        case .home: index = first { $0.home != nil }
        }
        return index.flatMap { Layer(rawValue: $0) }
    }

    /// Highest first, in the order of `Layer`.
    private var layers: [UserSettings] { [session, flags, environment, file] }

    /// The layer whose units apply: the highest that sets them, where `auto` on the command line or
    /// in the environment is no choice.
    private var decider: Int? {
        let layers = self.layers
        let overridable = [false, true, true, false]
        return layers.indices.first { i in
            guard let units = layers[i].units else { return false }
            return !(overridable[i] && units == .auto)
        }
    }
}

extension UserSettings {
    /// The environment variables that set a setting.
    public static let unitsVariable = "NIMBUS_UNITS"
    public static let themeVariable = "NIMBUS_THEME"
    public static let mapStyleVariable = "NIMBUS_MAP_STYLE"
    public static let mouseVariable = "NIMBUS_MOUSE"

    /// What the environment sets: a value that is not one of the allowed words is ignored.
    /// `NIMBUS_MOUSE` is off with 0, off, no or false, and on with 1, on, yes or true.
    public init(environment: [String: String]) {
        func word<E: RawRepresentable>(_ name: String, _ type: E.Type) -> E? where E.RawValue == String {
            environment[name].flatMap { E(rawValue: $0.trimmingCharacters(in: .whitespaces).lowercased()) }
        }
        self.init(units: word(Self.unitsVariable, Units.self), theme: word(Self.themeVariable, Theme.self),
                  mapStyle: word(Self.mapStyleVariable, MapStyle.self))
        switch (environment[Self.mouseVariable] ?? "").trimmingCharacters(in: .whitespaces).lowercased() {
        case "0", "off", "no", "false": mouse = false
        case "1", "on", "yes", "true": mouse = true
        default: mouse = nil
        }
    }
}
