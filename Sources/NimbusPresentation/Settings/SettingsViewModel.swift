import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// What the settings overlay shows.
public struct SettingsState: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public let label: String
        public let value: String
        /// Every value the row can show while the overlay is open (the box is made wide enough for each).
        public let values: [String]
        /// The settings file has a problem with this key (named in the footer).
        public let flagged: Bool
    }

    /// The home row's city search, while it is open.
    public struct Search: Equatable, Sendable {
        public let prompt: String
        public let text: String
        public let results: [String]
        public let pick: Int
    }

    public let title: String
    public let rows: [Row]
    public let selected: Int
    public let search: Search?
    /// Where the settings go, or why they don't (the file's problem stays here while the box is open).
    public let footer: String
    /// Every footer the box can show while it is open.
    public let footers: [String]
    public let help: String
    /// The home search is open (its keys are in force, the rows' are not).
    public var searching: Bool { search != nil }

    /// The most results the home search lists.
    public static let maxResults = 5
}

public enum SettingsRoute: Equatable, Sendable { case close }

/// The settings (`,` or F2): one row per key of `config.toml`, changed with ←/→ or Enter, applied at
/// once and saved through the settings store, which every screen follows.
public final class SettingsViewModel {
    /// What the user does in the settings, sent through one stream.
    public enum Event: Equatable, Sendable {
        /// The row the selection moved to.
        case rowSelected(Int)
        /// The selected row's value stepped forward (+1) or back (-1); on the home row, the search opens.
        case valueStepped(Int)
        /// Backspace or Delete: the selected row's value unset (the home).
        case valueCleared
        /// The home search's text, as typed.
        case searchChanged(String)
        /// The result the pick moved to.
        case resultSelected(Int)
        /// Enter in the search: the picked city becomes the home.
        case resultPicked
        /// Esc in the search.
        case searchCancelled
        case closeRequested
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) { self.events = events }
    }

    public struct Output {
        public let state: AnyPublisher<SettingsState, Never>
        public let route: AnyPublisher<SettingsRoute, Never>
    }

    public enum Row: Int, CaseIterable, Sendable {
        case units, temperature, wind, clock, theme, mapStyle, mouse, defaultTab, home
    }

    /// One change of one setting, as a value (what `reduce` decides and `perform` saves).
    public enum Edit: Equatable, Sendable {
        /// The temperature and wind follow the units again.
        case units(UserSettings.Units)
        case temperature(UserSettings.Temperature)
        case wind(UserSettings.Wind)
        case clock(UserSettings.Clock)
        case theme(UserSettings.Theme)
        case mapStyle(UserSettings.MapStyle)
        case mouse(Bool)
        case defaultTab(Int)
        case home(UserSettings.Home?)

        public func apply(to settings: inout UserSettings) {
            switch self {
            case .units(let units):
                settings.units = units
                settings.temperatureUnit = nil
                settings.windUnit = nil
            case .temperature(let t): settings.temperatureUnit = t
            case .wind(let w): settings.windUnit = w
            case .clock(let c): settings.clock = c
            case .theme(let t): settings.theme = t
            case .mapStyle(let s): settings.mapStyle = s
            case .mouse(let on): settings.mouse = on
            case .defaultTab(let n): settings.defaultTab = n
            case .home(let home): settings.home = home
            }
        }
    }

    public struct State: Equatable {
        var settings = SettingsContents()
        var resolved = ResolvedSettings(UserSettings(), environment: [:])
        var loaded = false
        var selected = 0
        var search: Search?
    }

    public struct Search: Equatable {
        var text = ""
        var results: [City] = []
        var pick = 0
    }

    public enum Action: Equatable {
        /// The overlay opened (the first action).
        case opened
        case contents(SettingsContents, ResolvedSettings)
        case selected(Int), stepped(Int), cleared
        case searchChanged(String), found([City]), resultSelected(Int), picked, searchCancelled, close
    }

    public enum Effect: Equatable {
        /// Follow the store from now on.
        case observe
        case save(Edit)
        case search(String)
        case close
    }

    private let settings: SettingsUseCase
    private let cities: SearchCitiesUseCase
    private let lookup: (Int) -> City?
    private let environment: [String: String]
    private let tabTitles: [String]
    private let countries: CountryNames
    private let l10n: L10n

    /// - Parameters:
    ///   - environment: for the locale's defaults (what `auto` means).
    ///   - lookup: the catalogue's city with a GeoNames id (the home's name).
    public init(settings: SettingsUseCase, cities: SearchCitiesUseCase, lookup: @escaping (Int) -> City?,
                environment: [String: String], tabTitles: [String], countries: CountryNames, l10n: L10n) {
        self.settings = settings
        self.cities = cities
        self.lookup = lookup
        self.environment = environment
        self.tabTitles = tabTitles
        self.countries = countries
        self.l10n = l10n
    }

    public func transform(input: Input) -> Output {
        let actions = input.events.map(Self.action)
        // The store is followed from the start: the box shows the settings as soon as it opens.
        let loop = EffectRunner.run(initial: State(), actions: actions.prepend(.opened).eraseToAnyPublisher(),
                                    scheduler: .immediate, reduce: Self.reduce, perform: perform)
        let state = loop.state.filter(\.loaded).map { [self] in present($0) }.removeDuplicates().eraseToAnyPublisher()
        return Output(state: state, route: loop.route)
    }

    /// The action an event is.
    static func action(_ event: Event) -> Action {
        switch event {
        case .rowSelected(let row): .selected(row)
        case .valueStepped(let step): .stepped(step)
        case .valueCleared: .cleared
        case .searchChanged(let text): .searchChanged(text)
        case .resultSelected(let pick): .resultSelected(pick)
        case .resultPicked: .picked
        case .searchCancelled: .searchCancelled
        case .closeRequested: .close
        }
    }

    // MARK: Reduce

    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .contents(let contents, let resolved):
            state.settings = contents
            state.resolved = resolved
            state.loaded = true
            return []
        case .opened:
            return [.observe]
        case .selected(let row):
            state.selected = min(max(0, row), Row.allCases.count - 1)
            return []
        case .stepped(let delta):
            guard state.loaded, let row = Row(rawValue: state.selected) else { return [] }
            if row == .home {
                state.search = Search()
                return []
            }
            return step(row, by: delta, in: state).map { [.save($0)] } ?? []
        case .cleared:
            guard Row(rawValue: state.selected) == .home, state.resolved.home != nil else { return [] }
            return [.save(.home(nil))]
        case .searchChanged(let text):
            guard state.search != nil else { return [] }
            state.search?.text = text
            return [.search(text)]
        case .found(let cities):
            guard state.search != nil else { return [] }
            state.search?.results = Array(cities.prefix(SettingsState.maxResults))
            state.search?.pick = 0
            return []
        case .resultSelected(let index):
            guard let search = state.search else { return [] }
            state.search?.pick = min(max(0, index), max(0, search.results.count - 1))
            return []
        case .picked:
            guard let search = state.search else { return [] }
            state.search = nil
            guard search.results.indices.contains(search.pick) else { return [] }
            return [.save(.home(.city(search.results[search.pick].id)))]
        case .searchCancelled:
            state.search = nil
            return []
        case .close:
            return [.close]
        }
    }

    /// The row's next value `delta` steps on, from the value in force now.
    static func step(_ row: Row, by delta: Int, in state: State) -> Edit? {
        func next<T: Equatable>(_ all: [T], _ current: T) -> T {
            let i = all.firstIndex(of: current) ?? 0
            return all[((i + delta) % all.count + all.count) % all.count]
        }
        let effective = chosen(state.settings), resolved = state.resolved
        switch row {
        case .units: return .units(next([.auto, .metric, .imperial], effective.units ?? .auto))
        case .temperature: return .temperature(next(UserSettings.Temperature.allCases, resolved.units.temperature))
        case .wind: return .wind(next(UserSettings.Wind.allCases, resolved.units.wind))
        case .clock: return .clock(next([.h24, .h12], resolved.units.clock))
        case .theme: return .theme(next([.auto, .dark, .light], resolved.theme))
        case .mapStyle: return .mapStyle(next([.auto, .braille, .blocks], effective.mapStyle ?? .auto))
        case .mouse: return .mouse(!resolved.mouse)
        case .defaultTab: return .defaultTab(next(Array(UserSettings.tabs), resolved.defaultTab))
        case .home: return nil
        }
    }

    /// The units and map style as chosen in the settings (this run's choices over the file's): the
    /// rows step through them, and `auto` stays `auto` under `NIMBUS_UNITS` or `--units`.
    static func chosen(_ contents: SettingsContents) -> UserSettings {
        SettingsLayers(session: contents.layers.session, file: contents.layers.file).effective
    }

    // MARK: Effects

    private func perform(_ effect: Effect) -> Work<Action, SettingsRoute> {
        switch effect {
        case .observe:
            let environment = self.environment
            return .run(settings.contents.map { Action.contents($0, ResolvedSettings($0.effective, environment: environment)) }
                .eraseToAnyPublisher(), id: "store", immediate: true)
        case .save(let edit):
            let settings = self.settings
            // Saved when the work runs; the store publishes the change, which comes back as contents.
            return .answer {
                settings.change { edit.apply(to: &$0) }
                return nil
            }
        case .search(let text):
            let cities = self.cities
            return .answer(id: "search") {
                guard !text.isEmpty else { return .found([]) }
                let matches = cities.execute(query: text)
                return .found((0..<min(SettingsState.maxResults, matches.count)).map { cities.city(matches[$0]) })
            }
        case .close:
            return .route(.close)
        }
    }

    // MARK: Presenting

    private func present(_ state: State) -> SettingsState {
        let problems = state.settings.problems
        let rows = Row.allCases.map { row in
            SettingsState.Row(label: label(row), value: value(row, Self.chosen(state.settings), state.resolved),
                              values: values(row, state), flagged: problems.contains { $0.key.map(Self.row) == row })
        }
        let search = state.search.map { search in
            SettingsState.Search(prompt: l10n[.settingsHomeSearch], text: search.text,
                                 results: search.results.map { CityNameChoice.name($0, language: l10n.language) + ", "
                                     + CityPlace.text($0, language: l10n.language, countries: countries) },
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
        let footers = [l10n.format(.settingsFile, path), l10n.format(.settingsSaved, path), footer]
        return SettingsState(title: l10n[.settingsTitle], rows: rows, selected: state.selected, search: search,
                             footer: footer, footers: footers, help: l10n[.settingsHelp])
    }

    /// The row a key of the file is shown on.
    static func row(_ key: String) -> Row? {
        switch UserSettings.Key(rawValue: key) {
        case .units?: .units
        case .temperatureUnit?: .temperature
        case .windUnit?: .wind
        case .clock?: .clock
        case .theme?: .theme
        case .mapStyle?: .mapStyle
        case .mouse?: .mouse
        case .defaultTab?: .defaultTab
        case .home?: .home
        case nil: nil
        }
    }

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

    private func value(_ row: Row, _ effective: UserSettings, _ resolved: ResolvedSettings) -> String {
        let units = resolved.units
        switch row {
        case .units:
            switch effective.units ?? .auto {
            case .auto: return l10n[.settingsValueAuto] + " (" + system(units.system) + ")"
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
            return tabTitles.indices.contains(n - 1) ? "\(n) \(tabTitles[n - 1])" : String(n)
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
    private func values(_ row: Row, _ state: State) -> [String] {
        let auto = l10n[.settingsValueAuto]
        let all: [UserSettings]
        switch row {
        case .units:
            return [auto + " (" + system(.metric) + ")", auto + " (" + system(.imperial) + ")",
                    l10n[.settingsValueMetric], l10n[.settingsValueImperial]]
        case .mapStyle:
            let styles = [l10n[.settingsValueBraille], l10n[.settingsValueBlocks]]
            return styles.map { auto + " (" + $0 + ")" } + styles
        case .home: return [value(row, Self.chosen(state.settings), state.resolved), l10n[.settingsValueNone]]
        case .temperature: all = UserSettings.Temperature.allCases.map { UserSettings(temperatureUnit: $0) }
        case .wind: all = UserSettings.Wind.allCases.map { UserSettings(windUnit: $0) }
        case .clock: all = UserSettings.Clock.allCases.map { UserSettings(clock: $0) }
        case .theme: all = UserSettings.Theme.allCases.map { UserSettings(theme: $0) }
        case .mouse: all = [UserSettings(mouse: true), UserSettings(mouse: false)]
        case .defaultTab: all = UserSettings.tabs.map { UserSettings(defaultTab: $0) }
        }
        return all.map { value(row, $0, ResolvedSettings($0, environment: environment)) }
    }

    private func system(_ system: UnitSystem) -> String {
        system == .metric ? l10n[.settingsValueMetric] : l10n[.settingsValueImperial]
    }

    /// `path` with the home folder written `~`.
    public static func shortPath(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }
}
