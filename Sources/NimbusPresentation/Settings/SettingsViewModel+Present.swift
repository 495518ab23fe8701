import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension SettingsViewModel {
    // MARK: Presenting

    func present(_ state: State) -> SettingsState {
        let l10n = state.l10n
        let problems = state.settings.problems
        let layers = state.settings.layers
        let rows = Row.allCases.map { row in
            // A value the command line or the environment sets says so: "metric · from NIMBUS_UNITS".
            let from = { (value: String) in Self.override(row, layers).map { l10n.format(.settingsValueFrom, value, $0) } ?? value }
            return SettingsState.Row(label: l10n[row.key.label], value: from(value(row, state.settings.effective, state.resolved, l10n)),
                                     values: values(row, state).map(from),
                                     flagged: problems.contains { $0.key == row.key.rawValue })
        }
        let search = state.search.map { search in
            SettingsState.Search(prompt: l10n[.settingsHomeSearch], text: search.text,
                                 results: search.results.map { CityNameChoice.name($0, language: l10n.language) + ", "
                                     + CityPlace.text($0, language: l10n.language, countries: l10n.countryNames) },
                                 pick: search.pick)
        }
        let path = Self.shortPath(state.settings.path, home: environment["HOME"])
        let notSaved = problems.first.map { l10n.format(.settingsNotSaved, SettingsProblemText.message($0, l10n: l10n)) }
        var footer = l10n.format(.settingsFile, path)
        switch state.settings.save {
        case .unchanged, .saving: break
        case .saved: footer = l10n.format(.settingsSaved, path)
        case .notSaved(let why):
            footer = l10n.format(.settingsNotSaved, why.map { SettingsProblemText.message($0, l10n: l10n) } ?? path)
        }
        if let notSaved { footer = notSaved }
        if let refused = state.refused { footer = l10n.format(.settingsOverridden, refused) }
        let refusals = Row.allCases.compactMap { Self.override($0, layers) }.map { l10n.format(.settingsOverridden, $0) }
        let footers = [l10n.format(.settingsFile, path), l10n.format(.settingsSaved, path), footer] + refusals
        return SettingsState(title: l10n[.settingsTitle], rows: rows, selected: state.selected, search: search,
                             footer: footer, footers: footers, help: l10n[.settingsHelp],
                             searchPrompt: l10n[.settingsHomeSearch])
    }

    func value(_ row: Row, _ effective: UserSettings, _ resolved: ResolvedSettings, _ l10n: L10n) -> String {
        let units = resolved.units
        switch row {
        case .units:
            switch effective.units ?? .auto {
            case .auto: return l10n[.settingsValueAuto] + " (" + Self.system(units.system, l10n) + ")"
            case .metric: return l10n[.settingsValueMetric]
            case .imperial: return l10n[.settingsValueImperial]
            }
        case .temperature: return units.temperature == .c ? "°C" : "°F"
        case .wind: return units.wind == .kmh ? "km/h" : units.wind == .mph ? "mph" : "m/s"
        case .clock: return l10n.format(.settingsValueHours, units.clock.rawValue)
        case .theme:
            switch resolved.theme {
            case .auto: return l10n[.settingsValueAuto]
            case .dark: return l10n[.settingsValueDark]
            case .light: return l10n[.settingsValueLight]
            }
        case .mapStyle:
            let style = resolved.mapStyle == .braille ? l10n[.settingsValueBraille] : l10n[.settingsValueBlocks]
            return (effective.mapStyle ?? .auto) == .auto ? l10n[.settingsValueAuto] + " (" + style + ")" : style
        case .mouse: return resolved.mouse ? l10n[.settingsValueOn] : l10n[.settingsValueOff]
        case .defaultTab:
            let n = resolved.defaultTab
            return tabTitles.indices.contains(n - 1) ? "\(n) \(l10n[tabTitles[n - 1]])" : String(n)
        case .home:
            switch resolved.home {
            case nil: return l10n[.settingsValueNone]
            case .point(let p): return WeatherFormatter.coordinates(Coordinate(latitude: p.latitude, longitude: p.longitude))
            case .city(let id):
                return lookup(id).map { CityPlace.qualifiedName($0, language: l10n.language) + ", " + $0.countryCode } ?? String(id)
            }
        }
    }

    /// What the row can show: each value of the setting it steps through (`auto` as either system or
    /// style, whichever the locale or the terminal gives), and for the home, the one now or none.
    func values(_ row: Row, _ state: State) -> [String] {
        let l10n = state.l10n
        let auto = l10n[.settingsValueAuto]
        let all: [UserSettings]
        switch row {
        case .units:
            return [auto + " (" + Self.system(.metric, l10n) + ")", auto + " (" + Self.system(.imperial, l10n) + ")",
                    l10n[.settingsValueMetric], l10n[.settingsValueImperial]]
        case .mapStyle:
            let styles = [l10n[.settingsValueBraille], l10n[.settingsValueBlocks]]
            return styles.map { auto + " (" + $0 + ")" } + styles
        case .home: return [value(row, state.settings.effective, state.resolved, l10n), l10n[.settingsValueNone]]
        case .temperature: all = UserSettings.Temperature.allCases.map { UserSettings(temperatureUnit: $0) }
        case .wind: all = UserSettings.Wind.allCases.map { UserSettings(windUnit: $0) }
        case .clock: all = UserSettings.Clock.allCases.map { UserSettings(clock: $0) }
        case .theme: all = UserSettings.Theme.allCases.map { UserSettings(theme: $0) }
        case .mouse: all = [UserSettings(mouse: true), UserSettings(mouse: false)]
        case .defaultTab: all = UserSettings.tabs.map { UserSettings(defaultTab: $0) }
        }
        return all.map { value(row, $0, ResolvedSettings($0, environment: environment), l10n) }
    }

    static func system(_ system: UnitSystem, _ l10n: L10n) -> String {
        system == .metric ? l10n[.settingsValueMetric] : l10n[.settingsValueImperial]
    }

    /// `path` with the home folder written `~`.
    public static func shortPath(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }
}
