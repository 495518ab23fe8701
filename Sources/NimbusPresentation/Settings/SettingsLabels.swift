import NimbusDomain

extension UserSettings.Key {
    /// The setting's name as the settings box and the status line's change messages show it.
    var label: L10nKey {
        switch self {
        case .units: .settingsUnits
        case .temperatureUnit: .settingsTemperature
        case .windUnit: .settingsWind
        case .clock: .settingsClock
        case .theme: .settingsTheme
        case .mapStyle: .settingsMapStyle
        case .mouse: .settingsMouse
        case .defaultTab: .settingsDefaultTab
        case .home: .settingsHome
        }
    }
}
