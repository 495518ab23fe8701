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
    /// The home search's prompt, said even while the search is closed (the box is sized for it).
    public let searchPrompt: String
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

        /// The key of the file the row shows.
        public var key: UserSettings.Key {
            switch self {
            case .units: .units
            case .temperature: .temperatureUnit
            case .wind: .windUnit
            case .clock: .clock
            case .theme: .theme
            case .mapStyle: .mapStyle
            case .mouse: .mouse
            case .defaultTab: .defaultTab
            case .home: .home
            }
        }
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
        /// The language the box speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
        var settings = SettingsContents()
        var resolved = ResolvedSettings(UserSettings(), environment: [:])
        var loaded = false
        var selected = 0
        var search: Search?
        /// The command-line option or environment variable that refused the last step, said in the
        /// footer until the next key.
        var refused: String?
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
    let lookup: (Int) -> City?
    let environment: [String: String]
    /// The tabs' names, in order (`defaultTab`'s value names one in the state's language).
    let tabTitles: [L10nKey]
    /// The language of the first state.
    private let firstLanguage: L10n

    /// - Parameters:
    ///   - environment: for the locale's defaults (what `auto` means).
    ///   - lookup: the catalogue's city with a GeoNames id (the home's name).
    public init(settings: SettingsUseCase, cities: SearchCitiesUseCase, lookup: @escaping (Int) -> City?,
                environment: [String: String], tabTitles: [L10nKey], l10n: L10n) {
        self.settings = settings
        self.cities = cities
        self.lookup = lookup
        self.environment = environment
        self.tabTitles = tabTitles
        self.firstLanguage = l10n
    }

    public func transform(input: Input) -> Output {
        let actions = input.events.map(Self.action)
        // The store is followed from the start: the box shows the settings as soon as it opens.
        let loop = EffectRunner.run(initial: State(l10n: firstLanguage), actions: actions.prepend(.opened).eraseToAnyPublisher(),
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
        case .selected, .stepped, .cleared, .close: state.refused = nil
        default: break
        }
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
            // What the command line or the environment sets wins for this run: the box does not
            // write the file under it, where the change would not show.
            if let override = override(row, state.settings.layers) {
                state.refused = override
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
        let effective = state.settings.effective, resolved = state.resolved
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


    /// The command-line option or environment variable the row's value in effect comes from, when
    /// one does ("NIMBUS_UNITS", "--units"); nil when the file, this run's choice or the default does.
    static func override(_ row: Row, _ layers: SettingsLayers) -> String? {
        let key = row.key
        switch layers.source(of: key) {
        case .flags?:
            switch key {
            case .units, .temperatureUnit, .windUnit: return "--units"
            case .theme: return "--theme"
            case .mapStyle: return "--map-style"
            case .mouse: return "--no-mouse"
            case .clock, .defaultTab, .home: return nil
            }
        case .environment?:
            switch key {
            case .units, .temperatureUnit, .windUnit: return UserSettings.unitsVariable
            case .theme: return UserSettings.themeVariable
            case .mapStyle: return UserSettings.mapStyleVariable
            case .mouse: return UserSettings.mouseVariable
            case .clock, .defaultTab, .home: return nil
            }
        case .session?, .file?, nil:
            return nil
        }
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
}
