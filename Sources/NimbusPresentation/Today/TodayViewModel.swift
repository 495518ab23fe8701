import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers

/// The Today tab's three sections, in the order they are drawn (and the index each answer carries).
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

    public func status(_ section: TodaySection) -> TodaySectionStatus {
        switch section {
        case .places: places.status
        case .quakes: quakes.status
        case .films: films.status
        }
    }
}

/// What opening an item of Today leads to.
public enum TodayRoute: Equatable, Sendable {
    case city(City)
    case quake(Quake, QuakePlace?)
    case film(MovieSummary)
}

/// Something on the Today screen that can be opened.
public enum TodayItem: Equatable, Hashable, Sendable {
    case place(Int)
    case quake(Int)
    case wishlist(Int)
    case viewed(Int)
}

/// Today: the user's places with their weather, the earthquakes near them and their films, the three
/// requested at once and each section applied the moment its own answer arrives (RxSideDish).
///
/// Every load asks for some sections; their publishers go through `indexedMerge`, so each answer
/// carries its section's index, and all answers reach the model through one serial path (a `scan`
/// on the main scheduler). A section asked for again makes its older answers stale: each load tags
/// its answers with the section's generation, and the model ignores answers of an older one.
public final class TodayViewModel {
    public struct Input {
        /// The tab is shown: the first time everything loads; after that, failed and stale sections retry.
        public let appeared: AnyPublisher<Void, Never>
        /// `r` with the selection in a section: a failed or stale section retries alone, else all reload.
        public let refreshRequested: AnyPublisher<TodaySection, Never>
        public let opened: AnyPublisher<TodayItem, Never>
        public init(appeared: AnyPublisher<Void, Never>, refreshRequested: AnyPublisher<TodaySection, Never>,
                    opened: AnyPublisher<TodayItem, Never>) {
            self.appeared = appeared
            self.refreshRequested = refreshRequested
            self.opened = opened
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

    /// The sources of the three sections, as the domain offers them.
    public struct Sources {
        public let locate: LocateCurrentCityUseCase
        public let liked: GetLikedCitiesUseCase
        public let weather: GetPlacesTodayUseCase
        public let quakes: QuakesUseCase
        /// The wishlist and the recently viewed films as the stores publish them.
        public let wishlist: AnyPublisher<[WishlistEntry], Never>
        public let viewed: AnyPublisher<[MovieSummary], Never>
        public init(locate: LocateCurrentCityUseCase, liked: GetLikedCitiesUseCase, weather: GetPlacesTodayUseCase,
                    quakes: QuakesUseCase, wishlist: AnyPublisher<[WishlistEntry], Never>,
                    viewed: AnyPublisher<[MovieSummary], Never>) {
            self.locate = locate
            self.liked = liked
            self.weather = weather
            self.quakes = quakes
            self.wishlist = wishlist
            self.viewed = viewed
        }
    }

    private let sources: Sources
    private let format: QuakeFormatter
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let work: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - scheduler: the main scheduler: the one serial path every answer is applied on.
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
    enum Failure: Error, Equatable {
        case weather(WeatherError)
        case quakes(QuakeError)
    }

    /// One answer of a section's source.
    enum Answer {
        /// The places: where the user is (or why not) and the liked cities, before their weather.
        case places(Result<CurrentCity, LocateCityError>, [City])
        case weather(Fetched<PlaceAnswers<PlaceWeather>>)
        case quakes(QuakeFeedUpdate)
        case films([WishlistEntry], [MovieSummary])
    }

    enum Event {
        /// A load of `sections` began; their answers carry `generation`.
        case started(Set<TodaySection>, generation: Int)
        case answer(Indexed<Answer, Failure>, generation: Int)
    }

    /// What the sections know; one value, changed only by `apply`.
    struct Model {
        struct Source {
            var loading = false
            var error: Failure?
            /// The generation of the load whose answers count.
            var generation = 0
        }

        var sources = Array(repeating: Source(), count: TodaySection.allCases.count)
        var located: Result<CurrentCity, LocateCityError>?
        var liked: [City] = []
        var weather: [Coordinate: PlaceWeather] = [:]
        /// Why the fresh answer had nothing usable for a place (its value, if one was kept, is dropped:
        /// the section says "updated", and that place was not).
        var weatherProblems: [Coordinate: WeatherError] = [:]
        var weatherFetched: Fetched<Bool>?
        var feed: QuakeFeedUpdate?
        var wishlist: [WishlistEntry]?
        var viewed: [MovieSummary] = []
        /// Quakes near a place, nearest first, with the place they are near (made when the feed or the
        /// places change, not on every state).
        var near: [(quake: Quake, kilometres: Double, place: City, text: String)] = []

        var places: [City] {
            var seen = Set<Int>()
            var list: [City] = []
            if case .success(let here)? = located { list.append(here.city); seen.insert(here.city.id) }
            for city in liked where seen.insert(city.id).inserted { list.append(city) }
            return list
        }

        /// - Parameter describe: the words for where an event is ("23 km SW of Pohang").
        mutating func apply(_ event: Event, describe: (Quake) -> String) {
            switch event {
            case .started(let sections, let generation):
                for section in sections {
                    sources[section.rawValue] = Source(loading: true, error: nil, generation: generation)
                }
            case .answer(let answer, let generation):
                guard sources.indices.contains(answer.index), sources[answer.index].generation == generation else { return }
                switch answer.result {
                case .failure(let error):
                    sources[answer.index].loading = false
                    sources[answer.index].error = error
                case .success(.places(let located, let liked)):
                    self.located = located
                    self.liked = liked
                    findNear(describe)
                case .success(.weather(let fetched)):
                    for (place, answer) in fetched.value {
                        switch answer {
                        case .success(let value):
                            weather[place] = value
                            weatherProblems[place] = nil
                        case .failure(let error) where !fetched.isCached:
                            weather[place] = nil
                            weatherProblems[place] = error
                        case .failure:
                            break
                        }
                    }
                    weatherFetched = Fetched(value: true, fetchedAt: fetched.fetchedAt, isCached: fetched.isCached)
                    if !fetched.isCached { done(.places) }
                case .success(.quakes(let update)):
                    feed = update
                    findNear(describe)
                    if update.origin != .cache { done(.quakes) }
                case .success(.films(let wishlist, let viewed)):
                    self.wishlist = wishlist
                    self.viewed = viewed
                    done(.films)
                }
            }
        }

        private mutating func done(_ section: TodaySection) {
            sources[section.rawValue].loading = false
            sources[section.rawValue].error = nil
        }

        mutating func findNear(_ describe: (Quake) -> String) {
            let places = self.places
            guard let feed, !places.isEmpty else { near = []; return }
            let dayAgo = feed.checkedAt.addingTimeInterval(-QuakeFeed.Period.day.duration)
            var found: [(quake: Quake, kilometres: Double, place: City)] = []
            for quake in feed.snapshot.quakes where quake.time >= dayAgo {
                let distances = places.map { (city: $0, kilometres: $0.coordinate.distance(to: quake.coordinate)) }
                guard let closest = distances.min(by: { $0.kilometres < $1.kilometres }),
                      closest.kilometres <= TodayViewModel.radiusKilometres else { continue }
                found.append((quake, closest.kilometres, closest.city))
            }
            near = found.sorted { $0.kilometres < $1.kilometres }
                .map { (quake: $0.quake, kilometres: $0.kilometres, place: $0.place, text: describe($0.quake)) }
        }
    }

    public func transform(input: Input) -> Output {
        let scheduler = self.scheduler
        let model = CurrentValueSubject<Model, Never>(Model())

        // What to load: everything on the first appearance; after that, what failed or is stale; `r`
        // a failed section alone, else everything; a change of likes the places (and so the quakes
        // near them, from the feed already here); a change of films the films.
        let firstAppearance = input.appeared.first().map { _ in Set(TodaySection.allCases) }
        let laterAppearances = input.appeared.dropFirst()
            .map { _ in Set(TodaySection.allCases.filter { Self.needsRetry(model.value, $0) }) }
        let refreshes = input.refreshRequested
            .map { section in Self.needsRetry(model.value, section) ? [section] : Set(TodaySection.allCases) }
        let started = firstAppearance.map { _ in true }.prepend(false)
        let likesChanged = sources.liked.contents.dropFirst()
            .map { _ in Set([TodaySection.places]) }
        let filmsChanged = merge(sources.wishlist.dropFirst().map { _ in () }.eraseToAnyPublisher(),
                                 sources.viewed.dropFirst().map { _ in () }.eraseToAnyPublisher())
            .map { _ in Set([TodaySection.films]) }
        // Changes before the first appearance are picked up by it.
        let changes = merge(likesChanged.eraseToAnyPublisher(), filmsChanged.eraseToAnyPublisher())
            .withLatest(from: started)
            .map { sections, started in started ? sections : [] }

        var generation = 0
        let events = merge(firstAppearance.eraseToAnyPublisher(), laterAppearances.eraseToAnyPublisher(),
                           refreshes.eraseToAnyPublisher(), changes.eraseToAnyPublisher())
            .filter { !$0.isEmpty }
            .map { [sources, work] sections -> AnyPublisher<Event, Never> in
                generation += 1
                let tag = generation
                let publishers = TodaySection.allCases.map { section in
                    sections.contains(section) ? Self.load(section, sources: sources, work: work)
                                               : Empty().eraseToAnyPublisher()
                }
                return Just(Event.started(sections, generation: tag))
                    .append(indexedMerge(publishers).map { Event.answer($0, generation: tag) })
                    .eraseToAnyPublisher()
            }
            .flatMap { $0 }
            // The one serial path: every answer, from whatever thread it came on, is applied on the main
            // scheduler, in the order it arrived.
            .receive(on: scheduler)

        let format = self.format
        let now = self.now
        let quakes = sources.quakes
        let describe = { (quake: Quake) in format.place(quake, quakes.place(of: quake)) }
        let applied = events
            .map { event -> Model in
                var m = model.value
                m.apply(event, describe: describe)
                model.send(m)
                return m
            }
            .eraseToAnyPublisher()
        // A change of units in the settings formats the same sections again.
        let reformatted = format.weather.display.changes.dropFirst()
            .map { _ in model.value }
            .receive(on: scheduler)
            .eraseToAnyPublisher()
        let state = merge(applied, reformatted)
            .map { Self.state($0, format: format, now: now()) }
            .removeDuplicates()
            .eraseToAnyPublisher()

        let route = input.opened
            .compactMap { item in Self.route(item, model.value, quakes: self.sources.quakes) }
            .eraseToAnyPublisher()
        return Output(state: state, route: route)
    }

    static func needsRetry(_ model: Model, _ section: TodaySection) -> Bool {
        let source = model.sources[section.rawValue]
        return !source.loading && source.error != nil
    }

    /// The publisher of one section's answers.
    static func load(_ section: TodaySection, sources: Sources,
                     work: AnySchedulerOf<DispatchQueue>) -> AnyPublisher<Answer, Failure> {
        switch section {
        case .places:
            // The liked cities as the store has them now; then the nearest city, found on `work` (the
            // spatial index is built on first use): the frame before says "loading".
            return sources.liked.contents.first()
                .flatMap { liked in
                    // One value and its completion together (a `receive(on:)` a concurrent queue
                    // could deliver the completion first, and the places would end unanswered).
                    Future<(Result<CurrentCity, LocateCityError>, [City]), Never> { promise in
                        work.schedule { promise(.success((sources.locate.execute(), liked))) }
                    }
                }
                .setFailureType(to: Failure.self)
                .flatMap { located, liked -> AnyPublisher<Answer, Failure> in
                    var coordinates = liked.map(\.coordinate)
                    if case .success(let here) = located { coordinates.insert(here.city.coordinate, at: 0) }
                    let weather = sources.weather.execute(for: coordinates)
                        .map(Answer.weather)
                        .mapError(Failure.weather)
                    return Just(Answer.places(located, liked)).setFailureType(to: Failure.self)
                        .append(weather)
                        .eraseToAnyPublisher()
                }
                .eraseToAnyPublisher()
        case .quakes:
            return sources.quakes.feed(feed)
                .map(Answer.quakes)
                .mapError(Failure.quakes)
                .eraseToAnyPublisher()
        case .films:
            return sources.wishlist.first()
                .flatMap { wishlist in sources.viewed.first().map { Answer.films(wishlist, $0) } }
                .setFailureType(to: Failure.self)
                .eraseToAnyPublisher()
        }
    }

    static func route(_ item: TodayItem, _ model: Model, quakes: QuakesUseCase) -> TodayRoute? {
        switch item {
        case .place(let i):
            let places = model.places
            return places.indices.contains(i) ? .city(places[i]) : nil
        case .quake(let i):
            guard model.near.indices.contains(i) else { return nil }
            let quake = model.near[i].quake
            return .quake(quake, quakes.place(of: quake))
        case .wishlist(let i):
            let films = newest(model.wishlist ?? [])
            return films.indices.contains(i) ? .film(films[i].movie) : nil
        case .viewed(let i):
            let viewed = Array(model.viewed.prefix(viewedLimit))
            return viewed.indices.contains(i) ? .film(viewed[i]) : nil
        }
    }

    /// The store keeps the wishlist newest first (films added in the same second in the order added).
    static func newest(_ wishlist: [WishlistEntry]) -> [WishlistEntry] {
        Array(wishlist.prefix(wishlistLimit))
    }

    // MARK: State

    static func state(_ m: Model, format: QuakeFormatter, now: Date) -> TodayState {
        let l10n = format.l10n
        let weatherFormat = format.weather

        // Places.
        let places = m.places
        let hereID: Int? = { if case .success(let here)? = m.located { return here.city.id } else { return nil } }()
        let placesSource = m.sources[TodaySection.places.rawValue]
        // A place without weather says why: its own item was bad, or (once the load ended) the request failed.
        let sectionError: WeatherError? = {
            if !placesSource.loading, case .weather(let error)? = placesSource.error { return error }
            return nil
        }()
        let placeRows = places.map { city -> TodayPlaceRow in
            let w = m.weather[city.coordinate]
            var row = TodayPlaceRow(cityID: city.id, name: CityNameChoice.name(city, language: l10n.language),
                                    isHere: city.id == hereID,
                                    now: w.map { weatherFormat.shortTemperature($0.temperature) },
                                    range: w.map { weatherFormat.shortTemperature($0.high) + " / " + weatherFormat.shortTemperature($0.low) },
                                    condition: w.map { weatherFormat.condition($0.condition) })
            if w == nil, let error = m.weatherProblems[city.coordinate] ?? sectionError {
                row = TodayPlaceRow(cityID: row.cityID, name: row.name, isHere: row.isHere,
                                    now: l10n[.weatherUnavailable], range: nil, condition: nil,
                                    problem: weatherFormat.shortMessage(error))
            }
            return row
        }
        let placesStatus: TodaySectionStatus
        if m.located == nil, placesSource.error == nil {
            placesStatus = .loading
        } else if places.isEmpty {
            placesStatus = .empty(l10n[.todayPlacesEmpty])
        } else {
            placesStatus = status(placesSource, fetched: m.weatherFetched.map { ($0.fetchedAt, $0.isCached) },
                                  message: { if case .weather(let e) = $0 { weatherFormat.message(e) } else { "" } },
                                  offline: { $0 == .weather(.offline) || $0 == .weather(.timedOut) },
                                  l10n: l10n, format: weatherFormat, now: now)
        }
        var notes: [String] = []
        if let located = m.located {
            let summary = LocationSummary(located, format: weatherFormat)
            switch summary.status {
            case .located(_, let text, _) where !text.isEmpty: notes.append(text)
            case .failed(let message) where !m.liked.isEmpty: notes.append(message)
            default: break
            }
            notes += summary.warnings
        }

        // Quakes near the places.
        let quakeRows = m.near.map { near in
            TodayQuakeRow(id: near.quake.id, magnitude: QuakeFormatter.magnitude(near.quake.magnitude),
                          strength: QuakeFormatter.strength(near.quake.magnitude),
                          place: near.text,
                          distance: l10n.format(.todayQuakeFrom, format.distance(kilometres: near.kilometres),
                                                CityNameChoice.name(near.place, language: l10n.language)),
                          time: weatherFormat.age(now.timeIntervalSince(near.quake.time)))
        }
        let quakesSource = m.sources[TodaySection.quakes.rawValue]
        var quakesStatus = status(quakesSource, fetched: m.feed.map { ($0.checkedAt, $0.origin == .cache) },
                                  message: { if case .quakes(let e) = $0 { format.message(e) } else { "" } },
                                  offline: { $0 == .quakes(.offline) || $0 == .quakes(.timedOut) },
                                  l10n: l10n, format: weatherFormat, now: now)
        if quakeRows.isEmpty, m.feed != nil, m.located != nil || placesSource.error != nil {
            switch quakesStatus {
            case .loaded:
                quakesStatus = .empty(places.isEmpty ? l10n[.todayQuakesNoPlaces]
                                      : l10n.format(.todayQuakesEmpty, format.distance(kilometres: radiusKilometres)))
            default: break
            }
        } else if m.located == nil, placesSource.error == nil, quakesSource.error == nil {
            quakesStatus = .loading // the places it is near are not known yet
        }

        // Films.
        let title = { (movie: MovieSummary) in
            TodayFilmRow(id: movie.id, title: movie.year.map { "\(movie.title) (\($0))" } ?? movie.title)
        }
        let filmRows = newest(m.wishlist ?? []).map { title($0.movie) }
        let viewed = m.viewed.prefix(viewedLimit).map(title)
        let filmsStatus: TodaySectionStatus
        if m.wishlist == nil {
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

    /// A network section's status from its source and what it has: loading until the first answer;
    /// then loaded (with the time of the check), or, after a failure, stale when something is kept and
    /// failed when nothing is.
    private static func status(_ source: Model.Source, fetched: (at: Date, cached: Bool)?,
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
