import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// One event, formatted.
public struct QuakeRow: Equatable, Sendable, Identifiable {
    public let id: String
    public let magnitude: String
    /// 0 (below 3) … 4 (6 and above).
    public let strength: Int
    public let time: String
    /// "23 km SW of Pohang".
    public let place: String
    public let depth: String
    /// A tsunami flag or a PAGER alert: shown as a mark.
    public let flagged: Bool
    /// How far the nearest of my places is ("120 km"), when the list is sorted by it; else empty.
    public var distance: String = ""
}

/// What the Quakes tab shows.
public struct QuakeListState: Equatable, Sendable {
    /// "M2.5+", "past day", "within 500 km of my places", "nearest first": the filter, most telling
    /// first (a narrow header keeps the first parts).
    public let filterParts: [String]
    public let rows: [QuakeRow]
    /// The selected row (0 when there are none).
    public var selection: Int = 0
    /// Shown instead of rows: loading, empty, or what went wrong and how to retry.
    public let message: String?
    /// "12 events", "3 unreadable events left out": what the list holds, beside the filter, most
    /// telling first.
    public let summaryParts: [String]
    /// Why the last `f` could not be saved, until the next key (a like that is saved is said on the
    /// status line by the app).
    public let likeError: String?
    /// "updated 2 min ago · not modified", "offline · cached 3 h ago", "refreshing…": how fresh the
    /// feed is, for the status bar; empty before anything is loaded.
    public let status: String
    /// The last request failed or was stopped (r retries).
    public let failed: Bool
    /// A request is in flight (Esc stops it).
    public let loading: Bool
    /// The rows carry the distance to my places (sorted nearest first).
    public var showsDistance: Bool { rows.first.map { !$0.distance.isEmpty } ?? false }
    /// There are events to select, open and like.
    public var hasRows: Bool { !rows.isEmpty }

    public var filter: String { filterParts.joined(separator: " · ") }
    public var summary: String { summaryParts.joined(separator: " · ") }
}

public enum QuakeListRoute: Equatable, Sendable {
    case showDetail(Quake, QuakePlace?)
}

/// An event feed: the kept copy at once, then the server's answer (asked conditionally), on each
/// minute tick while the tab is shown and on `r`; filters choose the feed, "near my places" and the
/// order work on what is loaded.
public final class QuakeListViewModel {
    /// What the user does on the tab: data, sent by the screen through one stream.
    public enum Event: Equatable, Sendable {
        /// The tab is shown (first and every time after); `disappeared`, it is not any more.
        case appeared, disappeared
        /// `r`.
        case refreshRequested
        /// `Esc` while loading: the request in flight is stopped; what is shown stays.
        case cancelRequested
        /// `m`: the next minimum magnitude; `p`: the next period.
        case magnitudeCycled, periodCycled
        /// `n`: only events near my places, or all; `s`: newest first, or nearest first.
        case nearToggled, sortToggled
        /// The row the selection moved to (keys, a click, the wheel), and the row opened.
        case rowSelected(Int), rowOpened(Int)
        /// `f`: like (or unlike) the selected event's nearest city.
        case likeToggled
    }

    public struct Input {
        /// The user's events.
        public let events: AnyPublisher<Event, Never>
        /// The clock, every few seconds: the feed is asked again once `refreshInterval` has passed
        /// while the tab is shown, and the rows' ages move on.
        public let tick: AnyPublisher<Date, Never>

        public init(events: AnyPublisher<Event, Never>, tick: AnyPublisher<Date, Never> = Empty().eraseToAnyPublisher()) {
            self.events = events
            self.tick = tick
        }
    }

    public struct Output {
        public let state: AnyPublisher<QuakeListState, Never>
        public let route: AnyPublisher<QuakeListRoute, Never>
    }

    /// How often the feed is asked again while the tab is shown (the feeds change once a minute).
    public static let refreshInterval = QuakeFeed.updateInterval

    /// Everything the tab's screen depends on.
    public struct State: Equatable {
        var feed: QuakeFeed
        var near = false
        var byDistance = false
        var update: QuakeFeedUpdate?
        var error: QuakeError?
        var loading = false
        /// The user stopped the last request (Esc); the minute's refresh waits for `r` or a new appearance.
        var stopped = false
        /// The tab is on screen (ticks refresh only then).
        var shown = false
        /// The tab has been shown: before, there is nothing to show (my places may already be known).
        var started = false
        /// When the feed was last asked for.
        var requestedAt: Date?
        var places: [Coordinate] = []
        /// The selected event.
        var selected: String?
        /// The clock as of the last action (ages are counted from it).
        var now: Date
        /// The settings' units and clock: what the list is formatted in.
        var display = DisplayUnits.Value(system: .metric)
        /// The language it speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
        /// The units shown: "near my places" is a round distance in them.
        var units: UnitSystem { display.system }
        /// The last `f` could not be saved (until the next key).
        var likeFailed = false
    }

    public enum Action {
        case appeared(Date), disappeared, tick(Date)
        case refresh(Date), stop
        case magnitudeCycled(Date), periodCycled(Date), nearToggled, sortToggled
        case selected(Int), opened(Int)
        case places([Coordinate]), display(DisplayUnits.Value)
        case likeToggled, likeFailed
        /// The feed's answers: a kept copy or a fresh one, then the end (`nil`) or why it failed.
        case answered(QuakeFeed, QuakeFeedUpdate), finished(QuakeFeed, QuakeError?)
    }

    public enum Effect: Equatable {
        /// Ask for the feed (the kept copy first), replacing a request in flight.
        case fetch(QuakeFeed)
        /// Stop the request in flight.
        case stopFetching
        case open(Quake)
        case toggleLike(Quake)
    }

    let quakes: QuakesUseCase
    private let likes: LikeCityUseCase?
    private let places: AnyPublisher<[Coordinate], Never>
    /// The zones, and the first state's language and units: a state is formatted in its own.
    let formatter: QuakeFormatter
    /// The settings' units as they change (nil: the formatter's, fixed).
    private let display: DisplayUnits?
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date
    private let feed: QuakeFeed

    /// `places` are the user's places (liked cities and the current location), as they change;
    /// `likes`, where `f` saves (nil: `f` is not offered).
    public init(quakes: QuakesUseCase, likes: LikeCityUseCase? = nil, places: AnyPublisher<[Coordinate], Never>, format: QuakeFormatter,
                display: DisplayUnits? = nil, scheduler: AnySchedulerOf<DispatchQueue>, feed: QuakeFeed = QuakeFeed(magnitude: .twoAndAHalf, period: .day),
                now: @escaping @Sendable () -> Date) {
        self.quakes = quakes
        self.likes = likes
        self.places = places
        self.formatter = format
        self.display = display
        self.scheduler = scheduler
        self.feed = feed
        self.now = now
    }

    public func transform(input: Input) -> Output {
        let now = self.now
        var actions: [AnyPublisher<Action, Never>] = [
            input.events.map { Self.action($0, now: now()) }.eraseToAnyPublisher(),
            input.tick.map(Action.tick).eraseToAnyPublisher(),
            places.map(Action.places).eraseToAnyPublisher(),
        ]
        if let display {
            // A change of units in the settings formats the same list again (depths, distances).
            actions.append(display.changes.dropFirst().map { Action.display(display.value) }.eraseToAnyPublisher())
        }
        let loop = EffectRunner.run(
            initial: State(feed: feed, now: now(), display: display?.value ?? formatter.weather.display, l10n: formatter.l10n),
            actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
            scheduler: scheduler, reduce: Self.reduce, perform: perform)
        return Output(state: present(loop.state), route: loop.route)
    }

    /// The action an event is, at the time it happened.
    static func action(_ event: Event, now: @autoclosure () -> Date) -> Action {
        switch event {
        case .appeared: .appeared(now())
        case .disappeared: .disappeared
        case .refreshRequested: .refresh(now())
        case .cancelRequested: .stop
        case .magnitudeCycled: .magnitudeCycled(now())
        case .periodCycled: .periodCycled(now())
        case .nearToggled: .nearToggled
        case .sortToggled: .sortToggled
        case .rowSelected(let row): .selected(row)
        case .rowOpened(let row): .opened(row)
        case .likeToggled: .likeToggled
        }
    }

    // MARK: Reduce

    /// How the tab's state follows from each action: pure, no clock, no I/O.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .likeToggled, .refresh, .stop, .magnitudeCycled, .periodCycled, .nearToggled, .sortToggled, .selected, .opened:
            // A failed like is told until the user's next key.
            state.likeFailed = false
        default: break
        }
        switch action {
        case .appeared(let now):
            state.now = now
            state.shown = true
            state.started = true
            state.stopped = false
            // Shown again within the minute the feed was checked: nothing new can be there yet.
            if state.loading { return [] }
            if let update = state.update, state.error == nil, now.timeIntervalSince(update.checkedAt) < refreshInterval {
                return []
            }
            return fetch(&state, at: now)
        case .disappeared:
            state.shown = false
            return []
        case .tick(let now):
            state.now = now
            guard state.shown, !state.loading, !state.stopped,
                  now.timeIntervalSince(state.requestedAt ?? .distantPast) >= refreshInterval else { return [] }
            return fetch(&state, at: now)
        case .refresh(let now):
            state.now = now
            return fetch(&state, at: now)
        case .stop:
            guard state.loading else { return [] }
            state.loading = false
            state.stopped = true
            return [.stopFetching]
        case .magnitudeCycled(let now):
            state.feed = QuakeFeed(magnitude: next(state.feed.magnitude), period: state.feed.period)
            return switchFeed(&state, at: now)
        case .periodCycled(let now):
            state.feed = QuakeFeed(magnitude: state.feed.magnitude, period: next(state.feed.period))
            return switchFeed(&state, at: now)
        case .nearToggled:
            state.near.toggle()
            return []
        case .sortToggled:
            state.byDistance.toggle()
            return []
        case .selected(let index):
            let shown = shownQuakes(state)
            if shown.indices.contains(index) { state.selected = shown[index].id }
            return []
        case .opened(let index):
            let shown = shownQuakes(state)
            guard shown.indices.contains(index) else { return [] }
            state.selected = shown[index].id
            return [.open(shown[index])]
        case .places(let places):
            state.places = places
            return []
        case .display(let display):
            state.display = display
            return []
        case .answered(let feed, let update):
            guard feed == state.feed else { return [] }
            state.update = update
            if update.origin != .cache {
                state.error = nil
                state.loading = false
            }
            return []
        case .finished(let feed, let error):
            guard feed == state.feed else { return [] }
            state.loading = false
            if let error { state.error = error }
            return []
        case .likeToggled:
            let shown = shownQuakes(state)
            guard let quake = shown.first(where: { $0.id == state.selected }) ?? shown.first else { return [] }
            return [.toggleLike(quake)]
        case .likeFailed:
            state.likeFailed = true
            return []
        }
    }

    private static func fetch(_ state: inout State, at now: Date) -> [Effect] {
        state.started = true
        state.stopped = false
        state.loading = true
        state.requestedAt = now
        return [.fetch(state.feed)]
    }

    private static func switchFeed(_ state: inout State, at now: Date) -> [Effect] {
        state.update = nil
        state.error = nil
        return fetch(&state, at: now)
    }

    static func next<T: CaseIterable & Equatable>(_ value: T) -> T {
        let all = Array(T.allCases)
        let i = all.firstIndex(of: value) ?? all.startIndex
        return all[(i + 1) % all.count]
    }

    /// The events in the list's order: near my places only, when asked; nearest first, when asked.
    static func shownQuakes(_ state: State) -> [Quake] {
        var list = state.update?.snapshot.quakes ?? []
        guard state.near || (state.byDistance && !state.places.isEmpty) else { return list }
        func nearest(_ quake: Quake) -> Double { state.places.map { $0.distance(to: quake.coordinate) }.min() ?? .infinity }
        if state.near { list = list.filter { nearest($0) <= QuakeFormatter.nearRadiusKilometres(state.units) } }
        if state.byDistance, !state.places.isEmpty {
            list = list.map { ($0, nearest($0)) }.sorted { $0.1 < $1.1 }.map(\.0)
        }
        return list
    }

    // MARK: Effects

    private func perform(_ effect: Effect) -> Work<Action, QuakeListRoute> {
        switch effect {
        case .fetch(let feed):
            let answers = quakes.feed(feed)
                .map { Action.answered(feed, $0) }
                .append(Just(.finished(feed, nil)).setFailureType(to: QuakeError.self))
                .catch { Just(Action.finished(feed, $0)) }
                .eraseToAnyPublisher()
            return .run(answers, id: Job.fetch)
        case .stopFetching:
            return .cancel(Job.fetch)
        case .toggleLike(let quake):
            guard let likes, let place = quakes.place(of: quake) else { return .none }
            return .answer {
                switch likes.toggle(place.city.id) {
                case .success: return nil
                case .failure: return .likeFailed
                }
            }
        case .open(let quake):
            return .route(.showDetail(quake, quakes.place(of: quake)))
        }
    }

    private enum Job: Hashable { case fetch }

    /// Whether `f` does anything here.
    public var likesCities: Bool { likes != nil }
}
