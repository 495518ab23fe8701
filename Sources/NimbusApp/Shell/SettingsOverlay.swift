import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// The settings (`,` or F2): one row per key of `config.toml`, changed with ←/→ or Enter, applied at
/// once through the container (which owns the preferences and the units every screen reads) and saved.
@MainActor
final class SettingsOverlay {
    enum Row: CaseIterable {
        case units, temperature, wind, clock, theme, mapStyle, mouse, defaultTab, home
    }

    private let container: AppDIContainer
    private let l10n: L10n
    private let tabTitles: () -> [String]
    private(set) var selected = 0
    /// The home row's city search while it is open.
    private var search: TextFieldState?
    private var results: [City] = []
    private var pick = 0
    /// The result of the last save: nil before any change.
    private var saved: Bool?

    init(container: AppDIContainer, tabTitles: @escaping () -> [String]) {
        self.container = container
        self.l10n = container.l10n
        self.tabTitles = tabTitles
    }

    /// Whether the home search takes printable keys as text.
    var capturesText: Bool { search != nil }

    /// Handles a key; false when the overlay should close.
    func handle(_ key: Key) -> Bool {
        if search != nil { handleSearch(key); return true }
        switch key {
        case .escape, .char("q"), .char(","), .function(2), .char("?"):
            return false
        case .up, .char("k"): selected = max(0, selected - 1)
        case .down, .char("j"): selected = min(Row.allCases.count - 1, selected + 1)
        case .home, .char("g"): selected = 0
        case .end, .char("G"): selected = Row.allCases.count - 1
        case .right, .char("l"), .enter, .char(" "): change(Row.allCases[selected], by: 1)
        case .left, .char("h"): change(Row.allCases[selected], by: -1)
        case .backspace, .delete:
            if Row.allCases[selected] == .home { apply { $0.home = nil } }
        default: break
        }
        return true
    }

    private func handleSearch(_ key: Key) {
        switch key {
        case .escape:
            search = nil
        case .enter:
            if results.indices.contains(pick) { let id = results[pick].id; apply { $0.home = .city(id) } }
            search = nil
        case .up: pick = max(0, pick - 1)
        case .down: pick = min(max(0, results.count - 1), pick + 1)
        default:
            guard var field = search else { return }
            _ = field.handle(key, maxLength: 64)
            search = field
            let matches = container.cityRepository.search(field.text, in: container.l10n.language.cityNames)
            results = field.text.isEmpty ? [] : (0..<min(5, matches.count)).map { container.cityRepository.city(matches[$0]) }
            pick = 0
        }
    }

    private func apply(_ change: (inout UserSettings) -> Void) {
        saved = container.changeSettings(change)
    }

    private static func step<T: Equatable>(_ all: [T], _ current: T, _ delta: Int) -> T {
        let i = all.firstIndex(of: current) ?? 0
        return all[((i + delta) % all.count + all.count) % all.count]
    }

    private func change(_ row: Row, by delta: Int) {
        let s = container.savedSettings
        let now = container.display.value
        switch row {
        case .units:
            let next = Self.step(UserSettings.Units.allCases.sorted { $0 == .auto && $1 != .auto }, s.units ?? .auto, delta)
            // The temperature and wind follow the units again.
            apply { $0.units = next; $0.temperatureUnit = nil; $0.windUnit = nil }
        case .temperature:
            let next = Self.step(UserSettings.Temperature.allCases, now.temperature, delta)
            apply { $0.temperatureUnit = next }
        case .wind:
            let next = Self.step(UserSettings.Wind.allCases, now.wind, delta)
            apply { $0.windUnit = next }
        case .clock:
            let next = Self.step([UserSettings.Clock.h24, .h12], now.clock, delta)
            apply { $0.clock = next }
        case .theme:
            let next = Self.step([UserSettings.Theme.auto, .dark, .light], container.preferences.themeSetting, delta)
            apply { $0.theme = next }
        case .mapStyle:
            let next = Self.step([UserSettings.MapStyle.auto, .braille, .blocks], s.mapStyle ?? .auto, delta)
            apply { $0.mapStyle = next }
        case .mouse:
            let next = !container.preferences.mouse
            apply { $0.mouse = next }
        case .defaultTab:
            let next = Self.step(Array(UserSettings.tabs), container.preferences.defaultTab, delta)
            apply { $0.defaultTab = next }
        case .home:
            search = TextFieldState()
            results = []
            pick = 0
        }
    }

    // MARK: Drawing

    private func label(_ row: Row) -> String {
        switch row {
        case .units: l10n[.settingsUnits]
        case .temperature: l10n[.settingsTemperature]
        case .wind: l10n[.settingsWind]
        case .clock: l10n[.settingsClock]
        case .theme: l10n[.settingsTheme]
        case .mapStyle: l10n[.settingsMapStyle]
        case .mouse: l10n[.settingsMouse]
        case .defaultTab: l10n[.settingsDefaultTab]
        case .home: l10n[.settingsHome]
        }
    }

    private func value(_ row: Row) -> String {
        let s = container.savedSettings
        let now = container.display.value
        switch row {
        case .units:
            switch s.units ?? .auto {
            case .auto: return l10n[.settingsValueAuto] + " (" + word(now.system) + ")"
            case .metric: return l10n[.settingsValueMetric]
            case .imperial: return l10n[.settingsValueImperial]
            }
        case .temperature: return now.temperature == .c ? "°C" : "°F"
        case .wind: return now.wind == .kmh ? "km/h" : now.wind == .mph ? "mph" : "m/s"
        case .clock: return l10n.format(.settingsValueHours, now.clock.rawValue)
        case .theme:
            switch container.preferences.themeSetting {
            case .auto: return l10n[.settingsValueAuto]
            case .dark: return l10n[.settingsValueDark]
            case .light: return l10n[.settingsValueLight]
            }
        case .mapStyle:
            let style = container.preferences.mapStyle == .braille ? l10n[.settingsValueBraille] : l10n[.settingsValueBlocks]
            return (s.mapStyle ?? .auto) == .auto ? l10n[.settingsValueAuto] + " (" + style + ")" : style
        case .mouse: return container.preferences.mouse ? l10n[.settingsValueOn] : l10n[.settingsValueOff]
        case .defaultTab:
            let n = container.preferences.defaultTab
            let titles = tabTitles()
            return titles.indices.contains(n - 1) ? "\(n) \(titles[n - 1])" : String(n)
        case .home:
            switch container.preferences.home {
            case nil: return l10n[.settingsValueNone]
            case .point(let p): return WeatherFormatter.coordinates(Coordinate(latitude: p.latitude, longitude: p.longitude))
            case .city(let id):
                return container.city(id: id).map { CityNameChoice.name($0, language: l10n.language) + ", " + $0.countryCode }
                    ?? String(id)
            }
        }
    }

    private func word(_ system: UnitSystem) -> String {
        system == .metric ? l10n[.settingsValueMetric] : l10n[.settingsValueImperial]
    }

    /// The line under the rows: where the settings go, or why they don't.
    private var footer: String {
        if let problem = container.configNotice { return l10n.format(.settingsNotSaved, problem) }
        if saved == false {
            let why = container.saveProblem.map { AppDIContainer.message($0, l10n: l10n) } ?? container.configFile.url.path
            return l10n.format(.settingsNotSaved, why)
        }
        let path = Self.shortPath(container.configFile.url.path, home: container.configuration.environment["HOME"])
        return l10n.format(saved == true ? .settingsSaved : .settingsFile, path)
    }

    static func shortPath(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    func draw(_ p: Painter, theme: Theme) {
        let rows = Row.allCases
        let labelWidth = rows.map { DisplayWidth.of(label($0)) }.max() ?? 0
        let inner = max(1, p.width - 4)
        var lines = rows.enumerated().map { i, row in
            (i == selected ? "▸ " : "  ") + DisplayWidth.pad(label(row), to: labelWidth) + "  ‹ " + value(row) + " ›"
        }
        if let search {
            lines += ["", l10n[.settingsHomeSearch], "> " + search.text + "▏"]
            lines += results.enumerated().map { i, city in
                (i == pick ? "▸ " : "  ") + CityNameChoice.name(city, language: l10n.language) + ", "
                    + container.countryNames.name(city.countryCode)
            }
        }
        lines += [""] + TextWrap.lines(footer, width: inner) + TextWrap.lines(l10n[.settingsHelp], width: inner)
        // On a short terminal the box scrolls so that the chosen row (or the search) stays in view.
        let visible = max(1, p.height - 2)
        let focus = search != nil ? min(lines.count - 1, rows.count + 3 + pick) : selected
        let scroll = max(0, focus - visible + 1)
        Overlay.draw(p, title: l10n[.settingsTitle], lines: lines, style: theme.overlay, borderStyle: theme.overlayBorder,
                     scroll: scroll)
    }
}
