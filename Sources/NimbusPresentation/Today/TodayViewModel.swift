import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// Today: the user's places with their weather and official warnings, the earthquakes near them and
/// their films; the places and the quakes requested at once and each section applied the moment its
/// own answer arrives (RxSideDish).
///
/// Each section's source is work of its own in the effect runner (`Job.places`, `Job.quakes`,
/// `Job.warnings`): asking for a section again replaces its work in flight, so an answer of the
/// older request is never applied, and a slow or failing section never holds back another. The
/// films follow their stores.
public final class TodayViewModel {
    /// What the user does on the tab, sent through one stream.
    public enum Event: Equatable, Sendable {
        /// The tab is shown: the first time everything loads; after that, failed sections retry.
        case appeared
        /// `r` with the selection in a section: a failed section retries alone, else all reload.
        case refreshRequested(TodaySection)
        /// A key moved the selection.
        case moved(TodayMove)
        /// A click selected this.
        case selected(TodayTarget)
        case opened(TodayItem)
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        /// The clock, every minute or so: ages ("updated 3 min ago") move on, and warnings that
        /// expired lose their mark.
        public let tick: AnyPublisher<Date, Never>

        public init(events: AnyPublisher<Event, Never>, tick: AnyPublisher<Date, Never> = Empty().eraseToAnyPublisher()) {
            self.events = events
            self.tick = tick
        }
    }

    public struct Output {
        public let state: AnyPublisher<TodayState, Never>
        public let route: AnyPublisher<TodayRoute, Never>
    }

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

    let sources: Sources
    /// The zones, and the first state's language and units: a state is formatted in its own.
    let formatter: QuakeFormatter
    /// The settings' units as they change (nil: the formatter's, fixed).
    let display: DisplayUnits?
    let scheduler: AnySchedulerOf<DispatchQueue>
    let work: AnySchedulerOf<DispatchQueue>
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - scheduler: the main scheduler: every answer is applied on it, in the order it arrived.
    ///   - work: where the nearest city is found (the spatial index is built on first use).
    public init(sources: Sources, format: QuakeFormatter, display: DisplayUnits? = nil, scheduler: AnySchedulerOf<DispatchQueue>,
                work: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date) {
        self.sources = sources
        self.formatter = format
        self.display = display
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
        /// The settings' units and clock: what the sections are formatted in.
        var display: DisplayUnits.Value
        /// The language it speaks (the one the view model was made in).
        var l10n: L10n
        /// The units shown: the quakes near the places are those within a round distance in them.
        var units: UnitSystem { display.system }

        init(now: Date, display: DisplayUnits.Value = DisplayUnits.Value(system: .metric), l10n: L10n = .bundled(.en)) {
            self.l10n = l10n
            self.now = now
            self.display = display
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
        case display(DisplayUnits.Value)
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
        var actions: [AnyPublisher<Action, Never>] = [
            input.events.map { Self.action($0, now: now()) }.eraseToAnyPublisher(),
            input.tick.map(Action.tick).eraseToAnyPublisher(),
            sources.liked.contents.map(Action.likes).eraseToAnyPublisher(),
            sources.wishlist.map(Action.wishlist).eraseToAnyPublisher(),
            sources.viewed.map(Action.viewed).eraseToAnyPublisher(),
            sources.homeChanged.map { Action.homeChanged }.eraseToAnyPublisher(),
        ]
        if let display {
            // A change of units in the settings formats the same sections again.
            actions.append(display.changes.dropFirst().map { Action.display(display.value) }.eraseToAnyPublisher())
        }
        let loop = EffectRunner.run(
            initial: State(now: now(), display: display?.value ?? formatter.weather.display, l10n: formatter.l10n),
            actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
            scheduler: scheduler, reduce: Self.reduce, perform: perform)
        return Output(state: present(loop.state), route: loop.route)
    }

    /// The action an event is, at the time it happened.
    static func action(_ event: Event, now: @autoclosure () -> Date) -> Action {
        switch event {
        case .appeared: .appeared(now())
        case .refreshRequested(let section): .refresh(section, now())
        case .moved(let move): .moved(move)
        case .selected(let target): .selected(target)
        case .opened(let item): .opened(item)
        }
    }

    // MARK: Reduce

    /// How the tab's state follows from each action: pure, no clock, no I/O.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        let effects = apply(&state, action)
        state.selection = keptSelection(state)
        return effects
    }

    static func apply(_ state: inout State, _ action: Action) -> [Effect] {
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
        case .display(let display):
            state.display = display
            findNear(&state)
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
    static func source(of section: TodaySection, _ state: State) -> State.Source? {
        switch section {
        case .places: state.placesSource
        case .quakes: state.quakesSource
        case .films: nil
        }
    }

    /// Marks `sections` as asked for and returns the requests (the films are their stores' already).
    static func load(_ sections: [TodaySection], _ state: inout State) -> [Effect] {
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

    static func open(_ item: TodayItem, _ state: State) -> [Effect] {
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

    /// The events of the past day within the near radius of a place (in the units shown), nearest first.
    static func findNear(_ state: inout State) {
        let places = state.places
        guard let feed = state.feed, !places.isEmpty else { state.near = []; return }
        let dayAgo = feed.checkedAt.addingTimeInterval(-QuakeFeed.Period.day.duration)
        var found: [Near] = []
        for quake in feed.snapshot.quakes where quake.time >= dayAgo {
            let distances = places.map { (city: $0, kilometres: $0.coordinate.distance(to: quake.coordinate)) }
            guard let closest = distances.min(by: { $0.kilometres < $1.kilometres }),
                  closest.kilometres <= QuakeFormatter.nearRadiusKilometres(state.units) else { continue }
            found.append(Near(quake: quake, kilometres: closest.kilometres, place: closest.city))
        }
        state.near = found.sorted { $0.kilometres < $1.kilometres }
    }

    /// The store keeps the wishlist newest first (films added in the same second in the order added).
    static func newest(_ wishlist: [WishlistEntry]) -> [WishlistEntry] {
        Array(wishlist.prefix(wishlistLimit))
    }

    // MARK: Effects

    enum Job: Hashable { case places, quakes, warnings }

    func perform(_ effect: Effect) -> Work<Action, TodayRoute> {
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
    static func finishing<P: Publisher>(_ answers: P, _ section: TodaySection,
                                                now: @escaping @Sendable () -> Date) -> AnyPublisher<Action, Never>
        where P.Output == Action, P.Failure == Failure {
        answers
            .append(Deferred { Just(Action.finished(section, nil, now())) }.setFailureType(to: Failure.self))
            .catch { Just(Action.finished(section, $0, now())) }
            .eraseToAnyPublisher()
    }
}
