import Foundation
import Synchronization
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers

/// One row of the city list, already formatted for display.
public struct CityRow: Equatable, Sendable {
    public let cityID: Int
    public let name: String
    /// The alternate name the query matched, when it is not the name shown (e.g. "서울" beside Seoul in English).
    public let matchedName: String?
    public let country: String
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
    private let cache: RowCache
    private let copyText: @Sendable (CityRef) -> String

    init(matches: CityMatches, format: @escaping @Sendable (CityRef) -> CityRow,
         copyText: @escaping @Sendable (CityRef) -> String = { _ in "" }) {
        self.matches = matches
        self.cache = RowCache(format: format)
        self.copyText = copyText
    }

    /// What `y` copies for the row at `i`: "Seoul 37.57°N 126.98°E" (the whole city is read only now).
    public func copyText(at i: Int) -> String { copyText(matches[i]) }

    public var count: Int { matches.count }
    /// The row at `i`, formatted once and kept for redraws and scrolling back.
    public subscript(_ i: Int) -> CityRow { cache.row(matches[i]) }
    public func ref(at i: Int) -> CityRef { matches[i] }

    /// The first `n` rows, formatted (for tests and snapshots).
    public func prefix(_ n: Int) -> [CityRow] { (0..<min(n, count)).map { self[$0] } }

    public static func == (l: CityRows, r: CityRows) -> Bool { l.matches == r.matches }
}

/// Formatted rows of one result list; only rows that were shown are ever formatted.
private final class RowCache: Sendable {
    private let format: @Sendable (CityRef) -> CityRow
    private let rows = Mutex<[CityRef: CityRow]>([:])

    init(format: @escaping @Sendable (CityRef) -> CityRow) { self.format = format }

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
    /// Shown instead of rows when nothing matched.
    public let emptyMessage: String?
}

public enum CityListRoute: Equatable, Sendable {
    case showDetail(City)
}

/// Search-as-you-type over the city catalogue.
public final class CityListViewModel {
    public struct Input {
        public let queryChanged: AnyPublisher<String, Never>
        public let rowOpened: AnyPublisher<Int, Never>
        /// The rows on screen changed (scrolling, a new query, a resize).
        public let visibleRowsChanged: AnyPublisher<Range<Int>, Never>
        /// `f` on a row.
        public let likeToggled: AnyPublisher<Int, Never>
        /// `r`: ask again, at once, for the rows on screen whose temperature could not be had.
        public let retryRequested: AnyPublisher<Void, Never>
        public init(queryChanged: AnyPublisher<String, Never>, rowOpened: AnyPublisher<Int, Never>,
                    visibleRowsChanged: AnyPublisher<Range<Int>, Never> = Empty().eraseToAnyPublisher(),
                    likeToggled: AnyPublisher<Int, Never> = Empty().eraseToAnyPublisher(),
                    retryRequested: AnyPublisher<Void, Never> = Empty().eraseToAnyPublisher()) {
            self.queryChanged = queryChanged
            self.rowOpened = rowOpened
            self.visibleRowsChanged = visibleRowsChanged
            self.likeToggled = likeToggled
            self.retryRequested = retryRequested
        }
    }

    public struct Output {
        public let state: AnyPublisher<CityListState, Never>
        public let route: AnyPublisher<CityListRoute, Never>
        /// Current temperatures of the cities on screen ("23°"), growing as rows are seen, and the
        /// rows whose temperature could not be had.
        public let temperatures: AnyPublisher<CityTemperatures, Never>
        /// Liked city ids, and a message when a like could not be saved.
        public let likes: AnyPublisher<CityListLikes, Never>
        /// The minute the rows' local times are for: now, then at each new minute and each change of
        /// the clock setting (nothing when the view model was made without a clock).
        public let clock: AnyPublisher<CityClock, Never>
    }

    /// How long the visible rows must stay put before their temperatures are asked for.
    public static let temperatureDelay = DispatchQueue.SchedulerTimeType.Stride.milliseconds(300)

    private let search: SearchCitiesUseCase
    private let l10n: L10n
    private let countries: CountryNames
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let totalCount: Int
    private let temperatures: GetCurrentTemperaturesUseCase?
    private let format: WeatherFormatter?
    private let likes: LikeCityUseCase?
    private let now: (@Sendable () -> Date)?

    /// With `format` and `now`, the rows' local times are kept to the minute.
    public init(search: SearchCitiesUseCase, totalCount: Int, l10n: L10n, countries: CountryNames,
                scheduler: AnySchedulerOf<DispatchQueue>, temperatures: GetCurrentTemperaturesUseCase? = nil,
                format: WeatherFormatter? = nil, likes: LikeCityUseCase? = nil, now: (@Sendable () -> Date)? = nil) {
        self.search = search
        self.totalCount = totalCount
        self.l10n = l10n
        self.countries = countries
        self.scheduler = scheduler
        self.temperatures = temperatures
        self.format = format
        self.likes = likes
        self.now = now
    }

    public func transform(input: Input) -> Output {
        let search = self.search
        let l10n = self.l10n
        let countries = self.countries
        let total = totalCount

        let state = input.queryChanged
            .removeDuplicates()
            .map { query -> CityListState in
                let matches = search.execute(query: query)
                let rows = CityRows(matches: matches) { ref in
                    let hit = search.hit(ref, query: matches.query)
                    let name = CityNameChoice.name(hit.city, language: l10n.language)
                    return CityRow(
                        cityID: hit.city.id,
                        name: name,
                        // The name typed, when the row shows another: 「とうきょう」 beside 東京, not 「東京」 again.
                        matchedName: hit.matchedName == name ? nil : hit.matchedName,
                        country: countries.name(hit.city.countryCode),
                        population: l10n.number(hit.city.population),
                        coordinate: hit.city.coordinate,
                        timeZone: hit.city.timeZone
                    )
                } copyText: { ref in
                    let city = search.city(ref)
                    return city.name + " " + WeatherFormatter.coordinates(city.coordinate)
                }
                let summary = matches.query.isEmpty
                    ? l10n.format(.citiesSummaryAll, l10n.number(total))
                    : l10n.format(.citiesSummaryMatches, l10n.number(matches.count), l10n.number(total))
                let empty = matches.count == 0 ? l10n.format(.citiesEmpty, matches.query) : nil
                return CityListState(query: matches.query, rows: rows, summary: summary, emptyMessage: empty)
            }
            .receive(on: scheduler)
            .share()

        let route = input.rowOpened
            .withLatest(from: state)
            .compactMap { index, state -> CityListRoute? in
                guard state.rows.count > index, index >= 0 else { return nil }
                return .showDetail(search.city(state.rows.ref(at: index)))
            }
            .eraseToAnyPublisher()

        return Output(state: state.eraseToAnyPublisher(), route: route,
                      temperatures: temperatureUpdates(input.visibleRowsChanged, retry: input.retryRequested,
                                                       state: state.eraseToAnyPublisher()),
                      likes: likeUpdates(input, state: state.eraseToAnyPublisher()), clock: clockUpdates())
    }

    /// Now's minute, then each next minute on the scheduler (a one-shot timer to the minute's end,
    /// then one a minute), and again after each change of the settings.
    private func clockUpdates() -> AnyPublisher<CityClock, Never> {
        guard let now, let format else { return Empty().eraseToAnyPublisher() }
        let scheduler = self.scheduler
        let times = LocalTimes(language: l10n.language)
        let untilNextMinute = 60 - now().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        let minutes = scheduler.timerPublisher(every: .milliseconds(max(1, Int((untilNextMinute * 1000).rounded(.up)))))
            .autoconnect()
            .first()
            .flatMap { _ in
                scheduler.timerPublisher(every: .seconds(60)).autoconnect().map { _ in () }.prepend(())
            }
        return merge(format.display.changes, minutes.eraseToAnyPublisher())
            // (A hair past the minute: a timer that fires on the boundary reads a time just before it.)
            .map { _ in CityClock(now: now().addingTimeInterval(0.001), clock: format.display.value.clock, times: times) }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    /// Temperatures for the rows on screen: off the keystroke path (after the rows have stayed put),
    /// one batched request at a time for the rows not known yet (so fewer than 10 a second), the old
    /// one cancelled as soon as the rows change. Each row gets its own answer; a row whose answer
    /// could not be had (its request failed after the client's retries, or its item was bad) gets
    /// the unavailable mark, and is asked for again when it is shown again or on `r`.
    private func temperatureUpdates(_ visible: AnyPublisher<Range<Int>, Never>, retry: AnyPublisher<Void, Never>,
                                    state: AnyPublisher<CityListState, Never>) -> AnyPublisher<CityTemperatures, Never> {
        guard let temperatures, let format else { return Empty().eraseToAnyPublisher() }
        let search = self.search
        let scheduler = self.scheduler
        let l10n = self.l10n
        let known = KnownTemperatures()
        let shown = visible
            .withLatest(from: state)
            .map { range, state -> [CityRef] in
                let end = min(range.upperBound, state.rows.count)
                let start = min(max(0, range.lowerBound), end)
                return (start..<end).map { state.rows.ref(at: $0) }
            }
            .removeDuplicates()
            .share()
        // Rows shown wait until they have stayed put for `temperatureDelay`; `r` asks at once.
        let asks = merge(shown.map { (refs: $0, wait: true) }.eraseToAnyPublisher(),
                         retry.withLatest(from: shown).map { (refs: $0.1, wait: false) }.eraseToAnyPublisher())
        let fetched: AnyPublisher<TemperatureEvent, Never> = asks
            // New rows cancel the request for the old ones at once; the new request waits until the
            // rows have stayed put for `temperatureDelay`, so there is at most one per 300 ms.
            .map { ask -> AnyPublisher<TemperatureEvent, Never> in
                // A one-shot timer, not `Just(refs).delay(…)`: OpenCombine's Delay ignores a cancel
                // that comes after its upstream finished, so every row set that only flashed by
                // was still decoded 300 ms later.
                let start: AnyPublisher<Void, Never> = ask.wait
                    ? scheduler.timerPublisher(every: Self.temperatureDelay).autoconnect().first().map { _ in () }.eraseToAnyPublisher()
                    : Just(()).eraseToAnyPublisher()
                return start
                    .map { _ in ask.refs.map { (ref: $0, city: search.city($0)) }.filter { !known.contains($0.city.id) } }
                    .filter { !$0.isEmpty }
                    .flatMap { rows -> AnyPublisher<TemperatureEvent, Never> in
                        temperatures.execute(for: rows.map(\.city.coordinate))
                            .map { answers -> TemperatureEvent in
                                .answered(rows.map { row in
                                    (row.ref, row.city.id,
                                     answers[row.city.coordinate].map { $0.map(\.temperature) } ?? .failure(.badResponse))
                                })
                            }
                            .catch { error in Just(.answered(rows.map { ($0.ref, $0.city.id, .failure(error)) })) }
                            .eraseToAnyPublisher()
                    }
                    .eraseToAnyPublisher()
            }
            .switchToLatest()
            .eraseToAnyPublisher()
        // Which rows are on screen decides whether a failure is worth a word.
        let onScreen = shown.map { refs in TemperatureEvent.shown(Set(refs)) }
        // Kept in °C and formatted as they go out, again after each change of units in the settings.
        let reformat = format.display.changes.dropFirst().map { _ in TemperatureEvent.unitsChanged }
        return merge(merge(fetched, onScreen.eraseToAnyPublisher()).eraseToAnyPublisher(), reformat.eraseToAnyPublisher())
            .map { event -> CityTemperatures in
                known.apply(event)
                return known.output(format: format, l10n: l10n)
            }
            // Nothing goes out until there is something to show.
            .prepend(CityTemperatures())
            .removeDuplicates()
            .dropFirst()
            .receive(on: scheduler)
            .eraseToAnyPublisher()
    }

    private func likeUpdates(_ input: Input, state: AnyPublisher<CityListState, Never>) -> AnyPublisher<CityListLikes, Never> {
        guard let likes else { return Empty().eraseToAnyPublisher() }
        let l10n = self.l10n
        // From the first query on, the marks follow the store, whichever screen changed it.
        let saved = input.queryChanged.first()
            .map { _ in likes.contents }
            .switchToLatest()
            .map { ids in CityListLikes(ids: Set(ids), message: nil) }
        let toggles = input.likeToggled
            .withLatest(from: state)
            .compactMap { index, state -> Int? in
                guard index >= 0, index < state.rows.count else { return nil }
                return state.rows[index].cityID
            }
            .compactMap { id -> String? in
                if case .failure = likes.toggle(id) { return l10n[.likesErrorSave] }
                return nil
            }
        enum Change { case saved(CityListLikes), failed(String) }
        return merge(saved.map(Change.saved).eraseToAnyPublisher(), toggles.map(Change.failed).eraseToAnyPublisher())
            .scan(CityListLikes(ids: [], message: nil)) { likes, change in
                switch change {
                case .saved(let new): return new
                case .failed(let message): return CityListLikes(ids: likes.ids, message: message)
                }
            }
            .removeDuplicates()
            .receive(on: scheduler)
            .eraseToAnyPublisher()
    }
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

/// What changes the list's temperatures.
private enum TemperatureEvent {
    /// The answers for the rows asked about, with their city ids.
    case answered([(CityRef, Int, Result<Double, WeatherError>)])
    /// The rows now on screen.
    case shown(Set<CityRef>)
    case unitsChanged
}

/// Temperatures already fetched (so scrolling back costs no request), the rows that failed and why,
/// and the rows on screen.
private final class KnownTemperatures: Sendable {
    private struct State {
        var values: [Int: Double] = [:]
        /// By city id: the row it was for, and why.
        var failures: [Int: (ref: CityRef, error: WeatherError)] = [:]
        var onScreen: Set<CityRef> = []
    }
    private let state = Mutex(State())

    func contains(_ id: Int) -> Bool {
        state.withLock { $0.values[id] != nil }
    }

    func apply(_ event: TemperatureEvent) {
        state.withLock { state in
            switch event {
            case .answered(let answers):
                if state.values.count > 5000 { state.values.removeAll() }
                if state.failures.count > 5000 { state.failures.removeAll() }
                for (ref, id, answer) in answers {
                    switch answer {
                    case .success(let celsius):
                        state.values[id] = celsius
                        state.failures[id] = nil
                    case .failure(let error):
                        state.failures[id] = (ref, error)
                    }
                }
            case .shown(let ids):
                state.onScreen = ids
            case .unitsChanged:
                break
            }
        }
    }

    func output(format: WeatherFormatter, l10n: L10n) -> CityTemperatures {
        state.withLock { state in
            var texts = state.values.mapValues { format.shortTemperature($0) }
            let mark = l10n[.weatherUnavailable]
            for id in state.failures.keys { texts[id] = mark }
            // The reason of the first failed row on screen (by id, so the words do not flicker).
            let reason = state.failures.filter { state.onScreen.contains($0.value.ref) }.min { $0.key < $1.key }?.value.error
            return CityTemperatures(texts: texts, failed: Set(state.failures.keys),
                                    message: reason.map { l10n.format(.citiesTemperaturesFailed, format.shortMessage($0)) })
        }
    }
}
