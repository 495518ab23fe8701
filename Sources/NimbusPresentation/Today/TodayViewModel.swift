import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// The Today tab's three sections, in the order they are drawn.
public enum TodaySection: Int, CaseIterable, Sendable {
    case places, quakes, films
}

/// Where a section is: what it shows above or instead of its rows.
public enum TodaySectionStatus: Equatable, Sendable {
    /// Asked, no answer yet (rows from before, if any, stay).
    case loading
    /// Answered; the note says how fresh ("updated 2 min ago"), when that matters.
    case loaded(note: String?)
    /// Answered with nothing to show: the message says what to do.
    case empty(String)
    /// No answer and nothing kept: the message says why, and `r` on the section retries it.
    case failed(String)
    /// No fresh answer, so the saved one is shown: the note says how old and why.
    case stale(String)
}

/// The official warnings in force at one of the places, as its row marks them.
public struct TodayPlaceWarning: Equatable, Sendable {
    /// How severe the worst of them is: 1 (minor, or a severity the service did not give), 2
    /// (moderate), 3 (severe), 4 (extreme); the screen colours the mark by it.
    public let level: Int
    /// The most severe one in the service's own words, and how many more ("Winter Storm Warning +3 more").
    public let text: String

    public init(level: Int, text: String) {
        self.level = level
        self.text = text
    }

    /// The level of a severity.
    public static func level(_ severity: WeatherWarning.Severity) -> Int {
        switch severity {
        case .unknown, .minor: 1
        case .moderate: 2
        case .severe: 3
        case .extreme: 4
        }
    }
}

/// One of the user's places: the city nearest to them, then the liked cities.
public struct TodayPlaceRow: Equatable, Sendable {
    public let cityID: Int
    public let name: String
    /// The city the user is in (or nearest to).
    public let isHere: Bool
    /// "23°", nil until the weather came; the unavailable mark ("n/a") when it will not come.
    public let now: String?
    /// "28° / 17°".
    public let range: String?
    public let condition: String?
    /// Why this place has no weather ("bad response", "offline"): its own item of the answer was
    /// missing or not believable, or the request failed. Nil while it is asked for, and once it came.
    public var problem: String? = nil
    /// The official warnings in force there; nil when there are none, the place has no warnings
    /// source, or they could not be had (the weather beside it is the same either way).
    public var warning: TodayPlaceWarning? = nil
}

/// An earthquake near one of the places.
public struct TodayQuakeRow: Equatable, Sendable {
    public let id: String
    public let magnitude: String
    /// 0 (weak) … 4 (strong), for the colour.
    public let strength: Int
    /// "23 km SW of Pohang".
    public let place: String
    /// "120 km from Seoul".
    public let distance: String
    /// "3 h ago".
    public let time: String
}

/// A film from the wishlist or the recently viewed ones.
public struct TodayFilmRow: Equatable, Sendable {
    public let id: MovieID
    /// "Oldboy (2003)".
    public let title: String
}

/// Something on the Today screen that can be opened.
public enum TodayItem: Equatable, Hashable, Sendable {
    case place(Int)
    case quake(Int)
    case wishlist(Int)
    case viewed(Int)
}

/// What the selection can rest on: an item that opens, or a section without rows (its message,
/// where `r` retries it).
public enum TodayTarget: Equatable, Hashable, Sendable {
    case item(TodayItem)
    case section(TodaySection)

    public var section: TodaySection {
        switch self {
        case .section(let s): s
        case .item(.place): .places
        case .item(.quake): .quakes
        case .item(.wishlist), .item(.viewed): .films
        }
    }
}

/// How a key moves the selection.
public enum TodayMove: Equatable, Sendable {
    /// Down (positive) or up by this many stops (the viewed strip is one stop): ↑ ↓, a page.
    case by(Int)
    case first, last
    /// To the first stop of the next (1) or previous (-1) section, round the three.
    case section(Int)
    /// Along the viewed strip, when the selection is on it.
    case along(Int)
}

/// What the Today tab shows.
public struct TodayState: Equatable, Sendable {
    public struct Section<Row: Equatable & Sendable>: Equatable, Sendable {
        public let title: String
        public let status: TodaySectionStatus
        public let rows: [Row]
    }

    public let places: Section<TodayPlaceRow>
    /// How the nearest city was found ("Approximate: the largest city in the time zone Asia/Seoul"),
    /// and settings that were skipped.
    public let placesNotes: [String]
    public let quakes: Section<TodayQuakeRow>
    /// The wishlist's newest films (rows) and the recently viewed strip.
    public let films: Section<TodayFilmRow>
    public let viewed: [TodayFilmRow]
    /// What is selected: kept by identity, so an answer arriving in another section never moves it.
    public var selection: TodayTarget? = nil

    public func status(_ section: TodaySection) -> TodaySectionStatus {
        switch section {
        case .places: places.status
        case .quakes: quakes.status
        case .films: films.status
        }
    }

    /// A section is waiting for its answer (its spinner turns).
    public var isLoading: Bool {
        TodaySection.allCases.contains { status($0) == .loading }
    }
}

/// What opening an item of Today leads to.
public enum TodayRoute: Equatable, Sendable {
    case city(City)
    case quake(Quake, QuakePlace?)
    case film(MovieSummary)
}

/// Today: the user's places with their weather and official warnings, the earthquakes near them and
/// their films; the places and the quakes requested at once and each section applied the moment its
/// own answer arrives (RxSideDish).
///
/// Each section's source is work of its own in the effect runner (`Job.places`, `Job.quakes`,
/// `Job.warnings`): asking for a section again replaces its work in flight, so an answer of the
/// older request is never applied, and a slow or failing section never holds back another. The
/// films follow their stores.
public final class TodayViewModel {
    public struct Input {
        /// The tab is shown: the first time everything loads; after that, failed sections retry.
        public let appeared: AnyPublisher<Void, Never>
        /// `r` with the selection in a section: a failed section retries alone, else all reload.
        public let refreshRequested: AnyPublisher<TodaySection, Never>
        /// A key moved the selection.
        public let moved: AnyPublisher<TodayMove, Never>
        /// A click selected this.
        public let selected: AnyPublisher<TodayTarget, Never>
        public let opened: AnyPublisher<TodayItem, Never>
        /// The clock, every minute or so: ages ("updated 3 min ago") move on, and warnings that
        /// expired lose their mark.
        public let tick: AnyPublisher<Date, Never>

        public init(appeared: AnyPublisher<Void, Never>, refreshRequested: AnyPublisher<TodaySection, Never>,
                    moved: AnyPublisher<TodayMove, Never> = Empty().eraseToAnyPublisher(),
                    selected: AnyPublisher<TodayTarget, Never> = Empty().eraseToAnyPublisher(),
                    opened: AnyPublisher<TodayItem, Never>,
                    tick: AnyPublisher<Date, Never> = Empty().eraseToAnyPublisher()) {
            self.appeared = appeared
            self.refreshRequested = refreshRequested
            self.moved = moved
            self.selected = selected
            self.opened = opened
            self.tick = tick
        }
    }

    public struct Output {
        public let state: AnyPublisher<TodayState, Never>
        public let route: AnyPublisher<TodayRoute, Never>
    }

    /// Events within this distance of a place are near it.
    public static let radiusKilometres = 500.0
    /// The feed the quakes section reads: magnitude 2.5 and up, the past day.
    public static let feed = QuakeFeed(magnitude: .twoAndAHalf, period: .day)
    /// How many wishlist films and viewed films are shown.
    public static let wishlistLimit = 5
    public static let viewedLimit = 8
    /// How many places' warnings are asked for at once (each place is a request of its own).
    public static let warningsAtOnce = 2

    /// The sources of the three sections, as the domain offers them.
    public struct Sources {
        public let locate: LocateCurrentCityUseCase
        public let liked: GetLikedCitiesUseCase
        public let weather: GetPlacesTodayUseCase
        public let quakes: QuakesUseCase
        /// The official warnings of each place that has a source.
        public let warnings: GetWarningsUseCase
        /// The wishlist and the recently viewed films as the stores publish them.
        public let wishlist: AnyPublisher<[WishlistEntry], Never>
        public let viewed: AnyPublisher<[MovieSummary], Never>
        /// The Home setting changed (`locate` finds the user from the new one): the places load again.
        public let homeChanged: AnyPublisher<Void, Never>
        public init(locate: LocateCurrentCityUseCase, liked: GetLikedCitiesUseCase, weather: GetPlacesTodayUseCase,
                    quakes: QuakesUseCase, warnings: GetWarningsUseCase, wishlist: AnyPublisher<[WishlistEntry], Never>,
                    viewed: AnyPublisher<[MovieSummary], Never>, homeChanged: AnyPublisher<Void, Never> = Empty().eraseToAnyPublisher()) {
            self.locate = locate
            self.liked = liked
            self.weather = weather
            self.quakes = quakes
            self.warnings = warnings
            self.wishlist = wishlist
            self.viewed = viewed
            self.homeChanged = homeChanged
        }
    }

    private let sources: Sources
    private let format: QuakeFormatter
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let work: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - scheduler: the main scheduler: every answer is applied on it, in the order it arrived.
    ///   - work: where the nearest city is found (the spatial index is built on first use).
    public init(sources: Sources, format: QuakeFormatter, scheduler: AnySchedulerOf<DispatchQueue>,
                work: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date) {
        self.sources = sources
        self.format = format
        self.scheduler = scheduler
        self.work = work
        self.now = now
    }

    /// Why a section's source failed.
    public enum Failure: Error, Equatable, Sendable {
        case weather(WeatherError)
        case quakes(QuakeError)
    }

    /// An event near one of the places.
    struct Near: Equatable {
        let quake: Quake
        let kilometres: Double
        let place: City
    }

    /// Everything the tab's screen depends on.
    public struct State: Equatable {
        /// Where a network section is.
        struct Source: Equatable {
            var loading = false
            var error: Failure?
            /// Not loading, and failed: a new appearance or `r` asks for it alone.
            var needsRetry: Bool { !loading && error != nil }
        }

        /// The tab has been shown (before, nothing is asked and there is nothing to show).
        var started = false
        var placesSource = Source()
        var quakesSource = Source()
        /// The liked cities as the store has them now; nil until it first answered.
        var likes: [City]?
        /// A load of the places waits for the likes store's first answer.
        var placesWaiting = false
        /// Where the user is (or why not) and the liked cities the places were last made of.
        var located: Result<CurrentCity, LocateCityError>?
        var liked: [City] = []
        var weather: [Coordinate: PlaceWeather] = [:]
        /// Why the fresh answer had nothing usable for a place (its value, if one was kept, is dropped:
        /// the section says "updated", and that place was not).
        var weatherProblems: [Coordinate: WeatherError] = [:]
        var weatherFetched: Fetched<Bool>?
        var feed: QuakeFeedUpdate?
        /// Quakes near a place, nearest first, with the place they are near (made when the feed or the
        /// places change).
        var near: [Near] = []
        /// The stores' films; the wishlist nil until it first answered.
        var wishlist: [WishlistEntry]?
        var viewed: [MovieSummary] = []
        /// Each place's warnings as last answered, by city id (a failure keeps what was there).
        var warnings: [Int: CityWarnings] = [:]
        var selection: TodayTarget?
        /// The clock as of the last action that told it (ages are counted from it).
        var now: Date
        /// Counts the settings' changes of units: the same sections are formatted again.
        var formatting = 0

        init(now: Date) {
            self.now = now
        }

        /// The nearest city, then the liked ones, each once.
        var places: [City] {
            var seen = Set<Int>()
            var list: [City] = []
            if case .success(let here)? = located { list.append(here.city); seen.insert(here.city.id) }
            for city in liked where seen.insert(city.id).inserted { list.append(city) }
            return list
        }
    }

    public enum Action {
        case appeared(Date)
        case refresh(TodaySection, Date)
        case tick(Date)
        case moved(TodayMove)
        case selected(TodayTarget)
        case opened(TodayItem)
        /// The stores' contents, at once and after every change.
        case likes([City]), wishlist([WishlistEntry]), viewed([MovieSummary])
        case unitsChanged
        /// Home was changed in the settings: where the user is may have changed.
        case homeChanged
        /// The places, before their weather: where the user is (or why not) and the liked cities.
        case located(Result<CurrentCity, LocateCityError>, liked: [City], Date)
        case weather(Fetched<PlaceAnswers<PlaceWeather>>, Date)
        case quakes(QuakeFeedUpdate, Date)
        /// A section's source ended: by itself (nil) or with why it failed.
        case finished(TodaySection, Failure?, Date)
        /// A place's warnings (an uncovered place's say so at once).
        case warnings(cityID: Int, CityWarnings)
    }

    public enum Effect: Equatable {
        /// Find where the user is and ask for the weather of the places (the liked cities given).
        case loadPlaces(liked: [City])
        case loadQuakes
        /// Ask for the official warnings of these places, a few at a time.
        case loadWarnings([City])
        case openCity(City)
        case openQuake(Quake)
        case openFilm(MovieSummary)
    }

    public func transform(input: Input) -> Output {
        let now = self.now
        let actions: [AnyPublisher<Action, Never>] = [
            input.appeared.map { Action.appeared(now()) }.eraseToAnyPublisher(),
            input.refreshRequested.map { Action.refresh($0, now()) }.eraseToAnyPublisher(),
            input.tick.map(Action.tick).eraseToAnyPublisher(),
            input.moved.map(Action.moved).eraseToAnyPublisher(),
            input.selected.map(Action.selected).eraseToAnyPublisher(),
            input.opened.map(Action.opened).eraseToAnyPublisher(),
            sources.liked.contents.map(Action.likes).eraseToAnyPublisher(),
            sources.wishlist.map(Action.wishlist).eraseToAnyPublisher(),
            sources.viewed.map(Action.viewed).eraseToAnyPublisher(),
            // A change of units in the settings formats the same sections again.
            format.weather.display.changes.dropFirst().map { Action.unitsChanged }.eraseToAnyPublisher(),
            sources.homeChanged.map { Action.homeChanged }.eraseToAnyPublisher(),
        ]
        let loop = EffectRunner.run(
            initial: State(now: now()),
            actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
            scheduler: scheduler, reduce: Self.reduce, perform: perform)
        return Output(state: present(loop.state), route: loop.route)
    }

    // MARK: Reduce

    /// How the tab's state follows from each action: pure, no clock, no I/O.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        let effects = apply(&state, action)
        state.selection = keptSelection(state)
        return effects
    }

    private static func apply(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .appeared(let now):
            state.now = now
            guard state.started else {
                state.started = true
                return load(TodaySection.allCases, &state)
            }
            return load(TodaySection.allCases.filter { source(of: $0, state)?.needsRetry == true }, &state)
        case .refresh(let section, let now):
            state.now = now
            // A failed section alone; else everything.
            let retry = source(of: section, state)?.needsRetry == true
            return load(retry ? [section] : TodaySection.allCases, &state)
        case .tick(let now):
            state.now = now
            return []
        case .moved(let move):
            state.selection = moved(state.selection, move, stops: targets(state))
            return []
        case .selected(let target):
            if targets(state).contains(target) { state.selection = target }
            return []
        case .opened(let item):
            return open(item, state)
        case .likes(let likes):
            let changed = state.likes != nil && state.likes != likes
            state.likes = likes
            if state.placesWaiting {
                state.placesWaiting = false
                return [.loadPlaces(liked: likes)]
            }
            // A like or an unlike: the places again (the quakes near them follow from the feed here).
            return state.started && changed ? load([.places], &state) : []
        case .wishlist(let wishlist):
            state.wishlist = wishlist
            return []
        case .viewed(let viewed):
            state.viewed = viewed
            return []
        case .unitsChanged:
            state.formatting += 1
            return []
        case .homeChanged:
            // The places again, once shown (before, the first appearance finds them from the new Home).
            return state.started ? load([.places], &state) : []
        case .located(let located, let liked, let now):
            state.now = now
            state.located = located
            state.liked = liked
            findNear(&state)
            let covered = state.places
            return covered.isEmpty ? [] : [.loadWarnings(covered)]
        case .weather(let fetched, let now):
            state.now = now
            for (place, answer) in fetched.value {
                switch answer {
                case .success(let value):
                    state.weather[place] = value
                    state.weatherProblems[place] = nil
                case .failure(let error) where !fetched.isCached:
                    state.weather[place] = nil
                    state.weatherProblems[place] = error
                case .failure:
                    break
                }
            }
            state.weatherFetched = Fetched(value: true, fetchedAt: fetched.fetchedAt, isCached: fetched.isCached)
            if !fetched.isCached { state.placesSource = State.Source() }
            return []
        case .quakes(let update, let now):
            state.now = now
            state.feed = update
            findNear(&state)
            if update.origin != .cache { state.quakesSource = State.Source() }
            return []
        case .finished(let section, let failure, let now):
            state.now = now
            switch section {
            case .places:
                state.placesSource.loading = false
                if let failure { state.placesSource.error = failure }
            case .quakes:
                state.quakesSource.loading = false
                if let failure { state.quakesSource.error = failure }
            case .films:
                break
            }
            return []
        case .warnings(let cityID, let warnings):
            state.warnings[cityID] = warnings
            return []
        }
    }

    /// The source of a network section (the films follow their stores and never fail).
    private static func source(of section: TodaySection, _ state: State) -> State.Source? {
        switch section {
        case .places: state.placesSource
        case .quakes: state.quakesSource
        case .films: nil
        }
    }

    /// Marks `sections` as asked for and returns the requests (the films are their stores' already).
    private static func load(_ sections: [TodaySection], _ state: inout State) -> [Effect] {
        var effects: [Effect] = []
        for section in sections {
            switch section {
            case .places:
                state.placesSource = State.Source(loading: true, error: nil)
                if let likes = state.likes {
                    effects.append(.loadPlaces(liked: likes))
                } else {
                    state.placesWaiting = true
                }
            case .quakes:
                state.quakesSource = State.Source(loading: true, error: nil)
                effects.append(.loadQuakes)
            case .films:
                break
            }
        }
        return effects
    }

    private static func open(_ item: TodayItem, _ state: State) -> [Effect] {
        switch item {
        case .place(let i):
            let places = state.places
            return places.indices.contains(i) ? [.openCity(places[i])] : []
        case .quake(let i):
            return state.near.indices.contains(i) ? [.openQuake(state.near[i].quake)] : []
        case .wishlist(let i):
            let films = newest(state.wishlist ?? [])
            return films.indices.contains(i) ? [.openFilm(films[i].movie)] : []
        case .viewed(let i):
            let viewed = Array(state.viewed.prefix(viewedLimit))
            return viewed.indices.contains(i) ? [.openFilm(viewed[i])] : []
        }
    }

    /// The events of the past day within `radiusKilometres` of a place, nearest first.
    static func findNear(_ state: inout State) {
        let places = state.places
        guard let feed = state.feed, !places.isEmpty else { state.near = []; return }
        let dayAgo = feed.checkedAt.addingTimeInterval(-QuakeFeed.Period.day.duration)
        var found: [Near] = []
        for quake in feed.snapshot.quakes where quake.time >= dayAgo {
            let distances = places.map { (city: $0, kilometres: $0.coordinate.distance(to: quake.coordinate)) }
            guard let closest = distances.min(by: { $0.kilometres < $1.kilometres }),
                  closest.kilometres <= radiusKilometres else { continue }
            found.append(Near(quake: quake, kilometres: closest.kilometres, place: closest.city))
        }
        state.near = found.sorted { $0.kilometres < $1.kilometres }
    }

    /// The store keeps the wishlist newest first (films added in the same second in the order added).
    static func newest(_ wishlist: [WishlistEntry]) -> [WishlistEntry] {
        Array(wishlist.prefix(wishlistLimit))
    }

    // MARK: Selection

    /// Every stop of the selection, in order: each section's rows, or its message when it has none.
    static func targets(_ state: State) -> [TodayTarget] {
        targets(places: state.places.count, quakes: state.near.count,
                wishlist: newest(state.wishlist ?? []).count, viewed: min(state.viewed.count, viewedLimit))
    }

    /// The stops for sections of these many rows (the screen brings a section's first stop into view
    /// with its header).
    public static func targets(places: Int, quakes: Int, wishlist: Int, viewed: Int) -> [TodayTarget] {
        var targets: [TodayTarget] = (0..<places).map { .item(.place($0)) }
        if places == 0 { targets.append(.section(.places)) }
        targets += (0..<quakes).map { .item(.quake($0)) }
        if quakes == 0 { targets.append(.section(.quakes)) }
        targets += (0..<wishlist).map { .item(.wishlist($0)) }
        targets += (0..<viewed).map { .item(.viewed($0)) }
        if wishlist == 0 && viewed == 0 { targets.append(.section(.films)) }
        return targets
    }

    /// The selection after the rows changed: the same stop while it is there; else the same section's
    /// first stop (its rows came or went); else the first of all.
    static func keptSelection(_ state: State) -> TodayTarget? {
        let targets = targets(state)
        if let selection = state.selection, targets.contains(selection) { return selection }
        let section = state.selection?.section
        return targets.first { $0.section == section } ?? targets.first
    }

    /// Where `move` takes the selection among `targets`.
    static func moved(_ selection: TodayTarget?, _ move: TodayMove, stops targets: [TodayTarget]) -> TodayTarget? {
        // The viewed strip is one stop for ↑ ↓; ← → move along it.
        let stops = targets.filter { if case .item(.viewed(let i)) = $0 { return i == 0 } else { return true } }
        guard !stops.isEmpty else { return selection }
        let current: TodayTarget? = { if case .item(.viewed)? = selection { return .item(.viewed(0)) } else { return selection } }()
        let index = current.flatMap { stops.firstIndex(of: $0) } ?? 0
        func stop(_ i: Int) -> TodayTarget { stops[min(max(0, i), stops.count - 1)] }
        switch move {
        case .by(let n): return stop(index + n)
        case .first: return stop(0)
        case .last: return stop(stops.count - 1)
        case .section(let step):
            let section = current?.section ?? .places
            let count = TodaySection.allCases.count
            let next = TodaySection(rawValue: ((section.rawValue + step) % count + count) % count) ?? .places
            return stops.first { $0.section == next } ?? selection
        case .along(let step):
            guard case .item(.viewed(let i))? = selection else { return selection }
            let viewed = targets.filter { if case .item(.viewed) = $0 { return true } else { return false } }.count
            return .item(.viewed(min(max(0, i + step), viewed - 1)))
        }
    }

    // MARK: Effects

    private enum Job: Hashable { case places, quakes, warnings }

    private func perform(_ effect: Effect) -> Work<Action, TodayRoute> {
        let sources = self.sources
        let now = self.now
        switch effect {
        case .loadPlaces(let liked):
            let work = self.work
            // The nearest city is found on `work` (the spatial index is built on first use): the frame
            // before says "loading". One value and its completion together: a `receive(on:)` a
            // concurrent queue could deliver the completion first, and the places would end unanswered.
            let answers = Future<Result<CurrentCity, LocateCityError>, Never> { promise in
                work.schedule { promise(.success(sources.locate.execute())) }
            }
            .setFailureType(to: Failure.self)
            .flatMap { located -> AnyPublisher<Action, Failure> in
                var coordinates = liked.map(\.coordinate)
                if case .success(let here) = located { coordinates.insert(here.city.coordinate, at: 0) }
                let weather = sources.weather.execute(for: coordinates)
                    .map { Action.weather($0, now()) }
                    .mapError(Failure.weather)
                return Just(Action.located(located, liked: liked, now())).setFailureType(to: Failure.self)
                    .append(weather)
                    .eraseToAnyPublisher()
            }
            return .run(Self.finishing(answers, .places, now: now), id: Job.places)
        case .loadQuakes:
            let answers = sources.quakes.feed(Self.feed)
                .map { Action.quakes($0, now()) }
                .mapError(Failure.quakes)
            return .run(Self.finishing(answers, .quakes, now: now), id: Job.quakes)
        case .loadWarnings(let places):
            // Each place's answers as they come, a few places at a time. A failure ends that place's
            // answers and changes nothing: its mark stays as last known, its weather is another source.
            let warnings = sources.warnings
            let answers = Publishers.Sequence<[City], Never>(sequence: places)
                .flatMap(maxPublishers: .max(Self.warningsAtOnce)) { city in
                    warnings.execute(for: city)
                        .map { Action.warnings(cityID: city.id, $0) }
                        .catch { _ in Empty<Action, Never>() }
                }
                .eraseToAnyPublisher()
            return .run(answers, id: Job.warnings)
        case .openCity(let city):
            return .route(.city(city))
        case .openQuake(let quake):
            return .route(.quake(quake, sources.quakes.place(of: quake)))
        case .openFilm(let movie):
            return .route(.film(movie))
        }
    }

    /// A section's answers, then its end as an action: `.finished(section, nil)`, or with the failure.
    private static func finishing<P: Publisher>(_ answers: P, _ section: TodaySection,
                                                now: @escaping @Sendable () -> Date) -> AnyPublisher<Action, Never>
        where P.Output == Action, P.Failure == Failure {
        answers
            .append(Deferred { Just(Action.finished(section, nil, now())) }.setFailureType(to: Failure.self))
            .catch { Just(Action.finished(section, $0, now())) }
            .eraseToAnyPublisher()
    }

    // MARK: Presenting

    /// The state as last formatted, beside what it was made from.
    private struct Presented {
        /// The state without its selection: a move of the selection formats nothing again.
        let content: State
        let view: TodayState
        /// Each event's place in words, by id, for the formatting it was made with (the nearest
        /// city and its local name, looked up once per event).
        let places: [String: (updated: Date, text: String)]
    }

    private func present(_ states: AnyPublisher<State, Never>) -> AnyPublisher<TodayState, Never> {
        states
            .filter(\.started)
            .scan(nil as Presented?) { [self] previous, state in
                var content = state
                content.selection = nil
                var view: TodayState
                var places: [String: (updated: Date, text: String)]
                if let previous, previous.content == content {
                    view = previous.view
                    places = previous.places
                } else {
                    places = previous?.content.formatting == state.formatting ? previous?.places ?? [:] : [:]
                    if places.count > 20_000 { places = [:] }
                    view = self.view(state, places: &places)
                }
                view.selection = state.selection
                return Presented(content: content, view: view, places: places)
            }
            .compactMap { $0?.view }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    /// "23 km SW of Pohang": looked up once per event.
    private func describe(_ quake: Quake, places: inout [String: (updated: Date, text: String)]) -> String {
        if let known = places[quake.id], known.updated == quake.updated { return known.text }
        let text = format.place(quake, sources.quakes.place(of: quake))
        places[quake.id] = (quake.updated, text)
        return text
    }

    private func view(_ s: State, places described: inout [String: (updated: Date, text: String)]) -> TodayState {
        let l10n = format.l10n
        let weatherFormat = format.weather
        let now = s.now

        // Places.
        let places = s.places
        let hereID: Int? = { if case .success(let here)? = s.located { return here.city.id } else { return nil } }()
        // A place without weather says why: its own item was bad, or (once the load ended) the request failed.
        let sectionError: WeatherError? = {
            if !s.placesSource.loading, case .weather(let error)? = s.placesSource.error { return error }
            return nil
        }()
        let placeRows = places.map { city -> TodayPlaceRow in
            let w = s.weather[city.coordinate]
            var row = TodayPlaceRow(cityID: city.id, name: CityPlace.qualifiedName(city, language: l10n.language),
                                    isHere: city.id == hereID,
                                    now: w.map { weatherFormat.shortTemperature($0.temperature) },
                                    range: w.map { weatherFormat.shortTemperature($0.high) + " / " + weatherFormat.shortTemperature($0.low) },
                                    condition: w.map { weatherFormat.condition($0.condition) })
            if w == nil, let error = s.weatherProblems[city.coordinate] ?? sectionError {
                row = TodayPlaceRow(cityID: row.cityID, name: row.name, isHere: row.isHere,
                                    now: l10n[.weatherUnavailable], range: nil, condition: nil,
                                    problem: Self.problem(error, weatherFormat))
            }
            let active = s.warnings[city.id]?.active(at: now) ?? []
            if let worst = active.first {
                row.warning = TodayPlaceWarning(level: TodayPlaceWarning.level(worst.severity),
                                                text: weatherFormat.warningsLine(active, city: city, now: now))
            }
            return row
        }
        let placesStatus: TodaySectionStatus
        if s.located == nil, s.placesSource.error == nil {
            placesStatus = .loading
        } else if places.isEmpty {
            placesStatus = .empty(l10n[.todayPlacesEmpty])
        } else {
            // After a failure the section is stale only when a place has weather to show: an answer
            // whose every item failed keeps nothing.
            let kept = s.placesSource.error == nil || places.contains { s.weather[$0.coordinate] != nil }
            placesStatus = Self.status(s.placesSource, fetched: kept ? s.weatherFetched.map { ($0.fetchedAt, $0.isCached) } : nil,
                                       message: { if case .weather(let e) = $0 { weatherFormat.message(e) } else { "" } },
                                       offline: { $0 == .weather(.offline) || $0 == .weather(.timedOut) },
                                       l10n: l10n, format: weatherFormat, now: now)
        }
        var notes: [String] = []
        if let located = s.located {
            let summary = LocationSummary(located, format: weatherFormat)
            switch summary.status {
            case .located(_, let text, _) where !text.isEmpty: notes.append(text)
            case .failed(let message) where !s.liked.isEmpty: notes.append(message)
            default: break
            }
            notes += summary.warnings
        }

        // Quakes near the places.
        let quakeRows = s.near.map { near in
            TodayQuakeRow(id: near.quake.id, magnitude: QuakeFormatter.magnitude(near.quake.magnitude),
                          strength: QuakeFormatter.strength(near.quake.magnitude),
                          place: describe(near.quake, places: &described),
                          distance: l10n.format(.todayQuakeFrom, format.distance(kilometres: near.kilometres),
                                                CityNameChoice.name(near.place, language: l10n.language)),
                          time: weatherFormat.age(now.timeIntervalSince(near.quake.time)))
        }
        var quakesStatus = Self.status(s.quakesSource, fetched: s.feed.map { ($0.checkedAt, $0.origin == .cache) },
                                       message: { if case .quakes(let e) = $0 { format.message(e) } else { "" } },
                                       offline: { $0 == .quakes(.offline) || $0 == .quakes(.timedOut) },
                                       l10n: l10n, format: weatherFormat, now: now)
        if quakeRows.isEmpty, s.feed != nil, s.located != nil || s.placesSource.error != nil {
            switch quakesStatus {
            case .loaded:
                quakesStatus = .empty(places.isEmpty ? l10n[.todayQuakesNoPlaces]
                                      : l10n.format(.todayQuakesEmpty, format.distance(kilometres: Self.radiusKilometres)))
            default: break
            }
        } else if s.located == nil, s.placesSource.error == nil, s.quakesSource.error == nil {
            quakesStatus = .loading // the places it is near are not known yet
        }

        // Films.
        let title = { (movie: MovieSummary) in
            TodayFilmRow(id: movie.id, title: movie.year.map { "\(movie.title) (\($0))" } ?? movie.title)
        }
        let filmRows = Self.newest(s.wishlist ?? []).map { title($0.movie) }
        let viewed = s.viewed.prefix(Self.viewedLimit).map(title)
        let filmsStatus: TodaySectionStatus
        if s.wishlist == nil {
            filmsStatus = .loading
        } else if filmRows.isEmpty && viewed.isEmpty {
            filmsStatus = .empty(l10n[.todayFilmsEmpty])
        } else {
            filmsStatus = .loaded(note: nil)
        }

        return TodayState(
            places: .init(title: l10n[.todayPlaces], status: placesStatus, rows: placeRows),
            placesNotes: notes,
            quakes: .init(title: l10n[.todayQuakes], status: quakesStatus, rows: quakeRows),
            films: .init(title: l10n[.todayFilms], status: filmsStatus, rows: filmRows),
            viewed: Array(viewed))
    }

    /// Why a place has no weather, in the few words its row has room for. Offline, the row says that
    /// nothing was saved for it either (a kept copy would be shown), as the city's own screen does.
    static func problem(_ error: WeatherError, _ format: WeatherFormatter) -> String {
        error == .offline ? format.l10n[.todayPlaceOfflineNothingSaved] : format.shortMessage(error)
    }

    /// A network section's status from its source and what it has: loading until the first answer;
    /// then loaded (with the time of the check), or, after a failure, stale when something is kept and
    /// failed when nothing is.
    private static func status(_ source: State.Source, fetched: (at: Date, cached: Bool)?,
                               message: (Failure) -> String, offline: (Failure) -> Bool,
                               l10n: L10n, format: WeatherFormatter, now: Date) -> TodaySectionStatus {
        if let error = source.error {
            guard let fetched else { return .failed(message(error) + " " + l10n[.todayRetry]) }
            let age = format.age(now.timeIntervalSince(fetched.at))
            return .stale(offline(error) ? l10n.format(.todayOfflineCached, age)
                                         : l10n.format(.todayCached, age) + " · " + message(error))
        }
        guard let fetched else { return .loading }
        if source.loading { return .loading }
        let age = format.age(now.timeIntervalSince(fetched.at))
        return .loaded(note: fetched.cached ? l10n.format(.todayCached, age) : l10n.format(.todayUpdated, age))
    }
}
