import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// A city's detail: header and sun times at once, then the forecast (cached first, then fresh),
/// the air, the official warnings and the normal for the date, each on its own.
public final class CityDetailViewModel {
    /// What the user does on the screen, sent through one stream.
    public enum Event: Equatable, Sendable {
        /// The screen is shown: start loading.
        case appeared
        /// `r`.
        case refreshRequested
        /// `f`.
        case likeToggled
        /// `Esc`: go back, cancelling any request in flight.
        case leaveRequested
        /// `a`: the full text of the warnings in force.
        case warningsOpened
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        /// The clock, each minute: the local time moves on, a warning that expired goes.
        public let tick: AnyPublisher<Date, Never>

        public init(events: AnyPublisher<Event, Never>, tick: AnyPublisher<Date, Never> = Empty().eraseToAnyPublisher()) {
            self.events = events
            self.tick = tick
        }
    }

    public struct Output {
        public let state: AnyPublisher<CityDetailState, Never>
        public let route: AnyPublisher<CityDetailRoute, Never>
    }

    let city: City
    let forecast: GetForecastUseCase
    let air: GetAirQualityUseCase?
    let warnings: GetWarningsUseCase?
    let normals: GetClimateNormalsUseCase?
    let likes: LikeCityUseCase?
    /// The zones, and the first state's language and units: a state is formatted in its own
    /// (`formatter.with(state.display, state.l10n)`).
    let formatter: WeatherFormatter
    /// The settings' units and clock as they change (nil: the formatter's, fixed).
    let display: DisplayUnits?
    let scheduler: AnySchedulerOf<DispatchQueue>
    /// Where the air, the warnings and the normal are asked for and their kept copies read (nil: at
    /// once, where asked).
    let work: AnySchedulerOf<DispatchQueue>?
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - warnings: the official warnings (nil: no warnings line, as in one-line output).
    ///   - normals: the 1991–2020 normal for the date, asked once the forecast says what today is.
    ///   - work: where the air, the warnings and the normal are asked for, off the first frame (the
    ///     app's work queue).
    public init(city: City, forecast: GetForecastUseCase, air: GetAirQualityUseCase? = nil, warnings: GetWarningsUseCase? = nil,
                normals: GetClimateNormalsUseCase? = nil, likes: LikeCityUseCase?, format: WeatherFormatter,
                display: DisplayUnits? = nil, scheduler: AnySchedulerOf<DispatchQueue>, work: AnySchedulerOf<DispatchQueue>? = nil,
                now: @escaping @Sendable () -> Date) {
        self.city = city
        zone = format.zone(for: city)
        self.forecast = forecast
        self.air = air
        self.warnings = warnings
        self.normals = normals
        self.likes = likes
        self.formatter = format
        self.display = display
        self.scheduler = scheduler
        self.work = work
        self.now = now
    }

    /// One source's part of the state: its last answer (kept or fresh), whether a fresher one is on
    /// its way, and why the last try failed.
    public struct Source<Value: Equatable & Sendable, Failure: Error & Equatable>: Equatable {
        var fetched: Fetched<Value>?
        var loading = true
        var error: Failure?

        public enum Event {
            case started
            case fetched(Fetched<Value>)
            case failed(Failure)
            case finished
        }

        /// A kept copy leaves the source loading until the fresh answer, or the failure, comes.
        mutating func apply(_ event: Event) {
            switch event {
            case .started:
                loading = true
                error = nil
            case .fetched(let f):
                fetched = f
                loading = f.isCached
            case .failed(let e):
                loading = false
                error = e
            case .finished:
                loading = false
            }
        }

        /// A request's answers as events that never fail: the answers, then finished or failed.
        static func events(_ answers: AnyPublisher<Fetched<Value>, Failure>) -> AnyPublisher<Event, Never> {
            answers
                .map(Event.fetched)
                .append(Just(.finished).setFailureType(to: Failure.self))
                .catch { Just(Event.failed($0)) }
                .eraseToAnyPublisher()
        }
    }

    /// Everything the detail depends on, before formatting.
    public struct State: Equatable {
        let cityID: Int
        var forecast = Source<Forecast, WeatherError>()
        var air = Source<AirQuality, WeatherError>()
        var warnings = Source<CityWarnings, WarningsError>()
        var normal = Source<DayNormal, ClimateError>()
        /// The city's date the normal was asked for.
        var normalAsked: LocalDate?
        /// `r` was pressed: the normal is asked for again, past the kept copy, with the next forecast.
        var normalRefresh = false
        var liked = false
        var likeFailed = false
        /// The settings' units and clock: what the data is formatted in.
        var display: DisplayUnits.Value
        /// The language it speaks (the one the view model was made in).
        var l10n: L10n
        /// The clock as of the last action.
        var now: Date
        /// The screen has been shown (before, there is nothing to show).
        var started = false
        /// The user left: answers still on their way change nothing.
        var left = false
        /// `r` was pressed and no other key since: the forecast's notice says how it went.
        var refreshAsked = false

        init(cityID: Int, now: Date, display: DisplayUnits.Value = DisplayUnits.Value(system: .metric), l10n: L10n = .bundled(.en)) {
            self.l10n = l10n
            self.cityID = cityID
            self.now = now
            self.display = display
        }
    }

    public enum Action {
        case appeared(Date), refresh(Date), tick(Date), leave
        case likeToggled, likes([Int]), likeFailed
        case display(DisplayUnits.Value)
        case warningsOpened
        /// The sources' answers, with the time each came.
        case forecast(Source<Forecast, WeatherError>.Event, Date)
        case air(Source<AirQuality, WeatherError>.Event, Date)
        case warnings(Source<CityWarnings, WarningsError>.Event, Date)
        case normal(Source<DayNormal, ClimateError>.Event, Date)
    }

    public enum Effect: Equatable {
        case fetchForecast, fetchAir, fetchWarnings
        /// The normal of the city's calendar date (`refresh`: past the kept copy).
        case fetchNormal(LocalDate, refresh: Bool = false)
        /// Drop the kept normals: they could not be true beside the forecast.
        case forgetNormal
        /// Follow the likes store from now on.
        case observeLikes
        case toggleLike(Int)
        /// Stop every request in flight.
        case stop
        case back
        case showWarnings([WeatherWarning], at: Date, display: DisplayUnits.Value, l10n: L10n)
    }

    public func transform(input: Input) -> Output {
        let now = self.now
        var actions: [AnyPublisher<Action, Never>] = [
            input.events.map { Self.action($0, now: now()) }.eraseToAnyPublisher(),
            input.tick.map(Action.tick).eraseToAnyPublisher(),
        ]
        if let display {
            // A change of units or clock in the settings formats the same data again.
            actions.append(display.changes.dropFirst().map { Action.display(display.value) }.eraseToAnyPublisher())
        }
        let loop = EffectRunner.run(
            initial: State(cityID: city.id, now: now(), display: display?.value ?? formatter.display, l10n: formatter.l10n),
            actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
            scheduler: scheduler, reduce: Self.reduce, perform: perform)
        return Output(state: present(loop.state), route: loop.route)
    }

    /// The action an event is, at the time it happened.
    static func action(_ event: Event, now: @autoclosure () -> Date) -> Action {
        switch event {
        case .appeared: .appeared(now())
        case .refreshRequested: .refresh(now())
        case .likeToggled: .likeToggled
        case .leaveRequested: .leave
        case .warningsOpened: .warningsOpened
        }
    }

    /// The city's zone (looked up once: every state reads it several times).
    let zone: Zone

    // MARK: Reduce

    /// How the detail follows from each action: pure, no clock, no I/O.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .appeared(let now):
            state.now = now
            guard !state.left else { return [] }
            let first = !state.started
            state.started = true
            return (first ? [.observeLikes] : []) + load(&state)
        case .refresh(let now):
            state.now = now
            guard !state.left else { return [] }
            state.likeFailed = false
            state.refreshAsked = true
            state.normalRefresh = true
            return load(&state)
        case .tick(let now):
            state.now = now
            return []
        case .leave:
            guard !state.left else { return [] }
            state.left = true
            return [.stop, .back]
        case .likeToggled:
            state.refreshAsked = false
            return [.toggleLike(state.cityID)]
        case .likes(let ids):
            state.liked = ids.contains(state.cityID)
            state.likeFailed = false
            return []
        case .likeFailed:
            state.likeFailed = true
            return []
        case .display(let display):
            state.display = display
            return []
        case .warningsOpened:
            state.refreshAsked = false
            let active = state.warnings.fetched?.value.active(at: state.now) ?? []
            return active.isEmpty ? [] : [.showWarnings(active, at: state.now, display: state.display, l10n: state.l10n)]
        case .forecast(let event, let now):
            state.now = now
            guard !state.left else { return [] }
            state.forecast.apply(event)
            // The normal of today's date, once the forecast says which day today is at the city
            // (off the forecast's path: asked after it, answered on its own).
            guard let today = state.forecast.fetched?.value.today?.day,
                  state.normalAsked != today || state.normalRefresh else { return [] }
            let refresh = state.normalRefresh && state.normalAsked == today
            state.normalAsked = today
            state.normalRefresh = false
            state.normal.apply(.started)
            return [.fetchNormal(today, refresh: refresh)]
        case .air(let event, let now):
            state.now = now
            guard !state.left else { return [] }
            state.air.apply(event)
            return []
        case .warnings(let event, let now):
            state.now = now
            guard !state.left else { return [] }
            state.warnings.apply(event)
            return []
        case .normal(let event, let now):
            state.now = now
            guard !state.left else { return [] }
            // A normal today's forecast is further from than any day has been is not believed
            // (`ClimatePlausibility`), and its kept copy goes.
            if case .fetched(let normal) = event, let today = state.forecast.fetched?.value.today,
               !normal.value.isPlausible(againstHigh: today.high, low: today.low) {
                state.normal = Source()
                state.normal.apply(.failed(.badResponse))
                return [.forgetNormal]
            }
            state.normal.apply(event)
            return []
        }
    }

    /// A load or refresh starts every source at once: one state, not several, before the first frame.
    static func load(_ state: inout State) -> [Effect] {
        state.forecast.apply(.started)
        state.air.apply(.started)
        state.warnings.apply(.started)
        return [.fetchForecast, .fetchAir, .fetchWarnings]
    }

    // MARK: Effects

    enum Job: Hashable { case forecast, air, warnings, normal, likes }

    func perform(_ effect: Effect) -> Work<Action, CityDetailRoute> {
        let city = self.city
        let now = self.now
        switch effect {
        case .fetchForecast:
            // A refresh replaces the request in flight.
            return .run(Source.events(forecast.execute(for: city)).map { Action.forecast($0, now()) }.eraseToAnyPublisher(),
                        id: Job.forecast)
        case .fetchAir:
            // The air is asked for beside the forecast, never before or after it: each answer is
            // applied as it comes, and either failing leaves the other alone. The kept copy is read
            // and the request made on the work queue, so the first frame never waits on them.
            guard let air else { return .none }
            return .run(Source.events(offTheFirstFrame(air.execute(for: city))).map { Action.air($0, now()) }.eraseToAnyPublisher(),
                        id: Job.air)
        case .fetchWarnings:
            guard let warnings else { return .none }
            let answers = warnings.execute(for: city)
                .map { Fetched(value: $0, fetchedAt: $0.report?.checkedAt ?? now(), isCached: $0.report?.isCached ?? false) }
                .eraseToAnyPublisher()
            return .run(Source.events(offTheFirstFrame(answers)).map { Action.warnings($0, now()) }.eraseToAnyPublisher(),
                        id: Job.warnings)
        case .fetchNormal(let day, let refresh):
            guard let normals else { return .none }
            let answers = normals.execute(for: city, on: day, refresh: refresh)
                .map { Fetched(value: $0, fetchedAt: now(), isCached: false) }
                .eraseToAnyPublisher()
            return .run(Source.events(offTheFirstFrame(answers)).map { Action.normal($0, now()) }.eraseToAnyPublisher(),
                        id: Job.normal)
        case .forgetNormal:
            guard let normals else { return .none }
            return .answer {
                normals.forget(city)
                return nil
            }
        case .observeLikes:
            guard let likes else { return .none }
            // The mark follows the store, whichever screen changed it.
            return .run(likes.contents.map(Action.likes).eraseToAnyPublisher(), id: Job.likes, immediate: true)
        case .toggleLike(let id):
            guard let likes else { return .none }
            // The store's own change says what is liked now; a toggle that could not be saved says so.
            return .answer {
                if case .failure = likes.toggle(id) { return .likeFailed }
                return nil
            }
        case .stop:
            return .all([.cancel(Job.forecast), .cancel(Job.air), .cancel(Job.warnings), .cancel(Job.normal)])
        case .back:
            return .route(.back)
        case .showWarnings(let active, let at, let display, let l10n):
            let shown = WarningsShown(warnings: active, city: city, now: at, clock: display.clock, zone: zone)
            return .route(.showWarnings(shown, in: l10n))
        }
    }

    /// `answers` subscribed on the work queue, when there is one.
    func offTheFirstFrame<T, E: Error>(_ answers: AnyPublisher<T, E>) -> AnyPublisher<T, E> {
        work.map { answers.subscribe(on: $0).eraseToAnyPublisher() } ?? answers
    }
}
