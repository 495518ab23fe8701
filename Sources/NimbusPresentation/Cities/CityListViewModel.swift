import Foundation
import Synchronization
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// One row of the city list, already formatted for display.
public struct CityRow: Equatable, Sendable {
    public let cityID: Int
    public let name: String
    /// The alternate name the query matched, when it is not the name shown (e.g. "서울" beside Seoul in English).
    public let matchedName: String?
    public let country: String
    /// `country` where it does not fit, when it gives the city's region (another city of its
    /// country has its name): the region and the country's code ("Illinois, US").
    public var countryShort: String? = nil
    /// The country's ISO code ("CD"), for a column too narrow for its name ("Congo - Kinshasa").
    public var countryCode: String = ""
    public let population: String
    public let coordinate: Coordinate
    /// The IANA time zone ("Asia/Seoul"), as the catalogue has it.
    public let timeZone: String

    /// "37.57°N 126.98°E": made when asked (only wide lists show it), not with every row of every keystroke.
    public var coordinates: String { WeatherFormatter.coordinates(coordinate) }
}

/// Rows of a result list, formatted on demand: a query can match tens of thousands of cities,
/// and only the visible rows are ever shown.
public struct CityRows: Equatable, Sendable {
    private let matches: CityMatches
    /// The strings the rows are formatted with: the same matches in another language are other rows.
    private let l10n: L10n
    private let cache: RowCache
    private let copyText: @Sendable (CityRef) -> String

    init(matches: CityMatches, l10n: L10n, format: @escaping @Sendable (CityRef) -> CityRow,
         copyText: @escaping @Sendable (CityRef) -> String = { _ in "" }) {
        self.matches = matches
        self.l10n = l10n
        self.cache = RowCache(format: format)
        self.copyText = copyText
    }

    /// What `y` copies for the row at `i`: "Seoul 37.57°N 126.98°E" (the whole city is read only now).
    public func copyText(at i: Int) -> String { copyText(matches[i]) }

    public var count: Int { matches.count }
    /// The row at `i`, formatted once and kept for redraws and scrolling back.
    public subscript(_ i: Int) -> CityRow { cache.row(matches[i]) }
    public func ref(at i: Int) -> CityRef { matches[i] }

    /// The row's coordinates as text ("37.57°N 126.98°E"), made once for the row (only wide lists show them).
    public func coordinates(at i: Int) -> String { cache.coordinates(matches[i]) }

    /// The first `n` rows, formatted (for tests and snapshots).
    public func prefix(_ n: Int) -> [CityRow] { (0..<min(n, count)).map { self[$0] } }

    public static func == (l: CityRows, r: CityRows) -> Bool { l.matches == r.matches && l.l10n == r.l10n }
}

/// Formatted rows of one result list; only rows that were shown are ever formatted.
private final class RowCache: Sendable {
    private let format: @Sendable (CityRef) -> CityRow
    private let rows = Mutex<[CityRef: CityRow]>([:])
    private let coordinates = Mutex<[CityRef: String]>([:])

    init(format: @escaping @Sendable (CityRef) -> CityRow) { self.format = format }

    func coordinates(_ ref: CityRef) -> String {
        if let hit = coordinates.withLock({ $0[ref] }) { return hit }
        let text = row(ref).coordinates
        coordinates.withLock { texts in
            if texts.count > 4096 { texts.removeAll(keepingCapacity: true) }
            texts[ref] = text
        }
        return text
    }

    func row(_ ref: CityRef) -> CityRow {
        if let hit = rows.withLock({ $0[ref] }) { return hit }
        let row = format(ref)
        rows.withLock { rows in
            if rows.count > 4096 { rows.removeAll(keepingCapacity: true) }
            rows[ref] = row
        }
        return row
    }
}

/// What the city list screen shows.
public struct CityListState: Equatable, Sendable {
    public let query: String
    public let rows: CityRows
    /// "34,006 cities", "3 of 34,006 cities".
    public let summary: String
    /// Shown instead of rows when nothing matched (and nothing is suggested).
    public let emptyMessage: String?
    /// Above the rows when they are the cities a query that matched nothing may have meant:
    /// "No city matches “pariss”. Did you mean:".
    public var suggesting: String? = nil
    /// Below the message or the suggestions: what the catalogue holds, and how to search a larger one.
    public var emptyHint: String?
    /// Under the message, once the field is left: `/` searches again (letters here are commands),
    /// until the user has done so from an empty list once.
    public var searchAgain: String?
    /// The selected row (0 when there are none).
    public var selection: Int = 0
    /// The search field has the focus: printable keys are text.
    public var searching = false
    /// There are cities to open and like.
    public var hasRows: Bool { rows.count > 0 }
    /// Rows on screen have no temperature: `r` asks again.
    public var offersRetry: Bool { temperatures.message != nil }
    /// Current temperatures of the cities seen on screen, and the rows whose temperature could not be had.
    public var temperatures = CityTemperatures()
    /// Liked city ids, and a message when a like could not be saved.
    public var likes = CityListLikes(ids: [], message: nil)
    /// The minute the rows' local times are for (nil without a clock: no local-time column).
    public var clock: CityClock?
}

public enum CityListRoute: Equatable, Sendable {
    case showDetail(City)
}

/// Search-as-you-type over the city catalogue, with the temperatures of the rows on screen, the
/// likes and the rows' local times.
public final class CityListViewModel {
    /// What happens on the tab: the user's doing, and the rows the screen's last frame showed; sent
    /// through one stream.
    public enum Event: Equatable, Sendable {
        /// The search field's text after an edit.
        case queryChanged(String)
        /// `/` or a click on the search line (true); ↓ or Esc in the field, or a click on the list (false).
        case searchFocused(Bool)
        /// Enter in the field: back to the list, or, when the query found exactly one city, its detail.
        case searchSubmitted
        /// The row the selection moved to (keys, a click, the wheel), and the row opened.
        case rowSelected(Int), rowOpened(Int)
        /// The rows on screen changed (scrolling, a new query, a resize): told after each frame that changed them.
        case visibleRowsChanged(Range<Int>)
        /// `f` on a row.
        case likeToggled(Int)
        /// `r`: ask again, at once, for the rows on screen whose temperature could not be had.
        case retryRequested
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        /// The clock: now, then at the start of every minute (the rows' local times).
        public let tick: AnyPublisher<Date, Never>
        public init(events: AnyPublisher<Event, Never>, tick: AnyPublisher<Date, Never> = Empty().eraseToAnyPublisher()) {
            self.events = events
            self.tick = tick
        }
    }

    public struct Output {
        public let state: AnyPublisher<CityListState, Never>
        public let route: AnyPublisher<CityListRoute, Never>
    }

    /// How long the visible rows must stay put before their temperatures are asked for.
    public static let temperatureDelay = DispatchQueue.SchedulerTimeType.Stride.milliseconds(300)
    /// Temperatures (and failures) kept at most; past it they are forgotten and asked for again when shown.
    static let temperatureLimit = 5000

    /// Everything the list depends on.
    public struct State: Equatable {
        /// The query as typed, last searched (nil before the first).
        var typed: String?
        /// The last search's matches (nil before the first: nothing is shown).
        var matches: CityMatches?
        var selection = 0
        var searching = false
        /// `/` was pressed on a list that found nothing: the hint that it searches has done its job.
        var searchHintDone = false
        /// The rows on screen, as the screen last said.
        var shown: [CityRef] = []
        /// Temperatures fetched, in °C, by city id (scrolling back costs no request).
        var celsius: [Int: Double] = [:]
        /// Rows whose temperature could not be had, by city id: the row, and why.
        var failures: [Int: TemperatureFailure] = [:]
        /// The likes store is followed (from the first query on).
        var followingLikes = false
        var liked: Set<Int> = []
        /// The last like could not be saved (until the store's next change).
        var likeFailed = false
        /// The clock's last tick.
        var now: Date?
        /// The units and clock of the settings (nil without a formatter).
        var display: DisplayUnits.Value?
        /// The language it speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
    }

    /// A row whose temperature could not be had.
    public struct TemperatureFailure: Equatable {
        let ref: CityRef
        let error: WeatherError
    }

    /// A row on screen, read from the catalogue once it stayed put: what its temperature is asked by.
    public struct TemperatureRow: Equatable {
        let ref: CityRef
        let cityID: Int
        let coordinate: Coordinate
    }

    /// One row's answer.
    public struct TemperatureAnswer: Equatable {
        let ref: CityRef
        let cityID: Int
        let celsius: Result<Double, WeatherError>
    }

    public enum Action {
        case typed(String)
        case searched(CityMatches)
        case focused(Bool), submitted
        case selected(Int), opened(Int), likeToggled(Int)
        case visible(Range<Int>)
        case retry
        /// The rows that stayed put (or that `r` asks for), read.
        case settled([TemperatureRow])
        case temperatures([TemperatureAnswer])
        case liked([Int]), likeFailed
        case tick(Date)
        case display(DisplayUnits.Value)
    }

    public enum Effect: Equatable {
        case search(String)
        /// Follow the likes store's contents from now on.
        case followLikes
        case toggleLike(CityRef)
        case open(CityRef)
        /// Read these rows once they have stayed put for `temperatureDelay` (at once without `wait`),
        /// replacing the wait or the request in flight; none: just stop what is in flight.
        case settle([CityRef], wait: Bool)
        /// Ask for these rows' temperatures, in one batch.
        case fetchTemperatures([TemperatureRow])
    }

    let search: SearchCitiesUseCase
    /// The language of the first state.
    private let firstLanguage: L10n
    let scheduler: AnySchedulerOf<DispatchQueue>
    let totalCount: Int
    let tier: CityCatalogueTier
    let temperatures: GetCurrentTemperaturesUseCase?
    /// The zones, and the first state's units: a state is formatted in its own units and language.
    let formatter: WeatherFormatter?
    /// The settings' units and clock as they change (nil: the formatter's, fixed).
    let display: DisplayUnits?
    let likes: LikeCityUseCase?

    /// With `format`, the rows' temperatures are formatted and their local times kept to the tick's minute
    /// (in `display`'s units and clock as the settings change them, else in the formatter's);
    /// `tier` says which catalogue is searched (what a query that matched nothing can be told).
    public init(search: SearchCitiesUseCase, totalCount: Int, l10n: L10n,
                scheduler: AnySchedulerOf<DispatchQueue>, tier: CityCatalogueTier = .other,
                temperatures: GetCurrentTemperaturesUseCase? = nil,
                format: WeatherFormatter? = nil, display: DisplayUnits? = nil, likes: LikeCityUseCase? = nil) {
        self.search = search
        self.totalCount = totalCount
        self.firstLanguage = l10n
        self.scheduler = scheduler
        self.tier = tier
        self.temperatures = temperatures
        self.formatter = format
        self.display = display
        self.likes = likes
    }

    /// The action an event is.
    static func action(_ event: Event) -> Action {
        switch event {
        case .queryChanged(let query): .typed(query)
        case .searchFocused(let focused): .focused(focused)
        case .searchSubmitted: .submitted
        case .rowSelected(let row): .selected(row)
        case .rowOpened(let row): .opened(row)
        case .visibleRowsChanged(let rows): .visible(rows)
        case .likeToggled(let row): .likeToggled(row)
        case .retryRequested: .retry
        }
    }

    public func transform(input: Input) -> Output {
        var actions: [AnyPublisher<Action, Never>] = [
            input.events.map(Self.action).eraseToAnyPublisher(),
            input.tick.map(Action.tick).eraseToAnyPublisher(),
        ]
        if formatter != nil, let display {
            // The settings' units and clock, now and after each change: temperatures and times are formatted again.
            actions.append(display.changes.map { Action.display(display.value) }.eraseToAnyPublisher())
        }
        let loop = EffectRunner.run(
            initial: State(display: formatter?.display, l10n: firstLanguage), actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
            scheduler: scheduler, reduce: Self.reduce, perform: perform)
        return Output(state: present(loop.state), route: loop.route)
    }

    // MARK: Reduce

    /// How the list's state follows from each action: pure, no clock, no I/O.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .typed(let query):
            guard query != state.typed else { return [] }
            state.typed = query
            var effects: [Effect] = []
            // From the first query on, the marks follow the store, whichever screen changed it.
            if !state.followingLikes {
                state.followingLikes = true
                effects.append(.followLikes)
            }
            return effects + [.search(query)]
        case .searched(let matches):
            if state.matches?.query != matches.query { state.selection = 0 }
            state.matches = matches
            state.selection = min(state.selection, max(0, matches.listed.count - 1))
            return []
        case .focused(let searching):
            if searching, let matches = state.matches, matches.listed.count == 0 { state.searchHintDone = true }
            state.searching = searching
            return []
        case .submitted:
            // fzf's Enter: a query that found one city opens it (suggestions for a query that found
            // none are not a result).
            state.searching = false
            guard let matches = state.matches, matches.count == 1, matches.listed.count == 1 else { return [] }
            state.selection = 0
            return [.open(matches.listed[0])]
        case .selected(let index):
            guard let matches = state.matches?.listed, matches.count > index, index >= 0 else { return [] }
            state.selection = index
            return []
        case .opened(let index):
            guard let matches = state.matches?.listed, matches.count > index, index >= 0 else { return [] }
            state.selection = index
            return [.open(matches[index])]
        case .likeToggled(let index):
            guard let matches = state.matches?.listed, matches.count > index, index >= 0 else { return [] }
            return [.toggleLike(matches[index])]
        case .visible(let range):
            let listed = state.matches?.listed
            let end = min(range.upperBound, listed?.count ?? 0)
            let start = min(max(0, range.lowerBound), end)
            let refs = listed.map { matches in (start..<end).map { matches[$0] } } ?? []
            guard refs != state.shown else { return [] }
            state.shown = refs
            // New rows stop the request for the old ones at once; theirs waits until they stay put.
            return [.settle(refs, wait: true)]
        case .retry:
            guard !state.shown.isEmpty else { return [] }
            return [.settle(state.shown, wait: false)]
        case .settled(let rows):
            let unknown = rows.filter { state.celsius[$0.cityID] == nil }
            return unknown.isEmpty ? [] : [.fetchTemperatures(unknown)]
        case .temperatures(let answers):
            if state.celsius.count > temperatureLimit { state.celsius = [:] }
            if state.failures.count > temperatureLimit { state.failures = [:] }
            for answer in answers {
                switch answer.celsius {
                case .success(let celsius):
                    state.celsius[answer.cityID] = celsius
                    state.failures[answer.cityID] = nil
                case .failure(let error):
                    state.failures[answer.cityID] = TemperatureFailure(ref: answer.ref, error: error)
                }
            }
            return []
        case .liked(let ids):
            state.liked = Set(ids)
            state.likeFailed = false
            return []
        case .likeFailed:
            state.likeFailed = true
            return []
        case .tick(let now):
            state.now = now
            return []
        case .display(let display):
            state.display = display
            return []
        }
    }

    // MARK: Effects

    enum Job: Hashable { case search, likes, temperatures }

    func perform(_ effect: Effect) -> Work<Action, CityListRoute> {
        let search = self.search
        switch effect {
        case .search(let query):
            // The bundled catalogue answers within the keystroke.
            return .answer(id: Job.search) { .searched(search.execute(query: query)) }
        case .followLikes:
            guard let likes else { return .none }
            return .run(likes.contents.map(Action.liked).eraseToAnyPublisher(), id: Job.likes, immediate: true)
        case .toggleLike(let ref):
            guard let likes else { return .none }
            return .answer {
                if case .failure = likes.toggle(search.city(ref).id) { return .likeFailed }
                return nil
            }
        case .open(let ref):
            return .route(.showDetail(search.city(ref)))
        case .settle(let refs, let wait):
            guard temperatures != nil, formatter != nil, !refs.isEmpty else { return .cancel(Job.temperatures) }
            let read = {
                Action.settled(refs.map { ref in
                    let city = search.city(ref)
                    return TemperatureRow(ref: ref, cityID: city.id, coordinate: city.coordinate)
                })
            }
            return wait ? .after(Self.temperatureDelay, id: Job.temperatures, read) : .answer(id: Job.temperatures, read)
        case .fetchTemperatures(let rows):
            guard let temperatures else { return .none }
            let answers = temperatures.execute(for: rows.map(\.coordinate))
                .map { answers in
                    Action.temperatures(rows.map { row in
                        TemperatureAnswer(ref: row.ref, cityID: row.cityID,
                                          celsius: answers[row.coordinate].map { $0.map(\.temperature) } ?? .failure(.badResponse))
                    })
                }
                .catch { error in
                    Just(Action.temperatures(rows.map { TemperatureAnswer(ref: $0.ref, cityID: $0.cityID, celsius: .failure(error)) }))
                }
                .eraseToAnyPublisher()
            return .run(answers, id: Job.temperatures)
        }
    }
}

/// Which city catalogue a list searches: what a query that matched nothing is told about.
public enum CityCatalogueTier: Equatable, Sendable {
    /// The bundled catalogue (GeoNames cities15000): places of `least` or more people; the large
    /// tier (`--tier large`) would hold places of `large` or more.
    case standard(least: Int, large: Int)
    /// The large tier (GeoNames cities1000): places of `least` or more.
    case large(least: Int)
    /// A catalogue given by path: nothing is said about what it holds.
    case other
}

/// Liked cities as the list shows them.
public struct CityListLikes: Equatable, Sendable {
    public let ids: Set<Int>
    /// Why the last like could not be saved, or the likes read.
    public let message: String?
    public init(ids: Set<Int>, message: String?) {
        self.ids = ids
        self.message = message
    }
}

/// The city list's temperatures as the screen shows them.
public struct CityTemperatures: Equatable, Sendable {
    /// "23°" by city id; the unavailable mark ("n/a") for the rows in `failed`.
    public var texts: [Int: String] = [:]
    /// The rows whose temperature could not be had; `r`, or showing them again, asks again.
    public var failed: Set<Int> = []
    /// Why, when rows on screen have no temperature ("Temperatures n/a: offline").
    public var message: String?
    public init(texts: [Int: String] = [:], failed: Set<Int> = [], message: String? = nil) {
        self.texts = texts
        self.failed = failed
        self.message = message
    }
}
