import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// The header of a city's detail: what the catalogue and the clock know, with no network.
public struct CityHeader: Equatable, Sendable {
    public let name: String
    /// The city's name in the UI language's script, when the catalogue has one (서울 for Seoul in Korean).
    public let localName: String?
    public let country: String
    /// "Sun 21 Jun 09:00" in the city's time zone.
    public let localTime: String
    public let coordinates: String
    public let population: String
}

/// Sunrise, sunset and day length, and the Moon, computed locally.
public struct SunLine: Equatable, Sendable {
    public let text: String
    /// "Moon: waxing gibbous, 78% lit · full Nov 24 · new Dec 9" in the city's time zone.
    public let moon: String
    /// The Moon as it looks from the city ("🌔"; mirrored south of the equator).
    public let moonSymbol: String
}

/// The weather part of the detail, formatted.
public struct WeatherPanel: Equatable, Sendable {
    public struct Day: Equatable, Sendable {
        public let weekday: String
        public let high: String
        public let low: String
        public let condition: String
    }

    public let temperature: String
    public let feelsLike: String
    public let condition: String
    public let icon: [String]
    /// One symbol for the sky ("⛅"), for one-line output.
    public let symbol: String
    public let wind: String
    /// The wind without its label: "9 km/h ↘".
    public let windValue: String
    public let humidity: String
    public let pressure: String
    public let precipitation: String
    /// The next 24 hours, and the next 48 for a wide screen.
    public let next24: Hours
    public let next48: Hours
    public let days: [Day]
    /// Today's high against yesterday's: "3° warmer than yesterday"; nil when either is not known.
    public var againstYesterday: String?
    /// Beside today's high and low: "normal 28° / 19° · 2° above normal"; nil until the normal is known.
    public var normal: String?

    /// The hours ahead, one chart column each.
    public struct Hours: Equatable, Sendable {
        /// "Next 24 hours".
        public let title: String
        /// Temperatures in display units.
        public let temperatures: [Double]
        /// The sky of each hour, one column wide.
        public let sky: [HourSky]
        /// What falls ("Rain", "Snow", "Precipitation"), the row's label.
        public let falls: String
        /// Chances of it (percent), one per hour.
        public let chances: [Double?]
        /// How much falls in these hours and the highest chance: "0.9 mm · up to 35% chance".
        public let fallsSummary: String
        /// The axis label of every sixth hour of the city's clock ("06", "6 AM"); nil between them.
        public let marks: [String?]
        public let min: String
        public let max: String

        public var isEmpty: Bool { temperatures.isEmpty }
    }
}

/// One hour's sky as a single column: a symbol, and what kind of sky it is (its colour).
public struct HourSky: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case sun, moon, cloud, fog, rain, snow, storm, unknown }
    public let symbol: String
    public let kind: Kind
}

/// The air now and today's strongest sun, formatted.
public struct AirPanel: Equatable, Sendable {
    /// "US AQI 42" or "European AQI 18": the index of the city's region, named.
    public let index: String
    /// The index's band in words ("good"); nil without an index.
    public let band: String?
    /// 0 (good) … 5 (the worst band), for its colour.
    public let severity: Int?
    /// "PM2.5 8 · PM10 15 · O₃ 60 µg/m³".
    public let details: String
    /// "UV max 7, high"; nil when the source gave no UV index.
    public let uv: String?
    /// 0 (low) … 4 (extreme).
    public let uvSeverity: Int?
    /// "cached 3 h ago" while a kept answer is shown (refreshing, or the refresh failed).
    public let notice: String?
}

/// The official warnings line above the weather.
public struct WarningsLine: Equatable, Sendable {
    /// The most severe warning in force, as its service names it ("Winter Storm Warning", "大雨警報");
    /// nil when none is in force (then `note` says why nothing is shown).
    public let event: String?
    /// How bad it is, for its style.
    public let severity: WeatherWarning.Severity
    /// When it is in force, in the city's clock: "Jan 15 10:00 – Jan 16 04:00".
    public let times: String
    /// "+1 more" when others are in force too.
    public let more: String?
    /// Instead of a warning: "No warnings in force", "No official warnings source for South Korea
    /// yet", "Warnings unavailable: offline"; nil while the first answer is awaited.
    public let note: String?

    /// Whether a warning is shown (`a` opens its full text).
    public var isActive: Bool { event != nil }
}

/// What the detail screen shows.
public struct CityDetailState: Equatable, Sendable {
    public enum Weather: Equatable, Sendable {
        case loading
        case loaded(WeatherPanel)
        /// No weather to show; the message says why and how to retry.
        case unavailable(String)
    }

    /// The air section has its own state: it never holds back or hides the forecast.
    public enum Air: Equatable, Sendable {
        case loading
        case loaded(AirPanel)
        /// Why there is none ("Air quality unavailable: …").
        case unavailable(String)
    }

    public let header: CityHeader
    public let sun: SunLine
    public let weather: Weather
    /// The air section; nil when the detail has no air-quality source.
    public let air: Air?
    /// A line about the data's age or trouble: "Offline, updated 12 min ago", "Refreshing…",
    /// and after `r`, "Updated just now" until the next key.
    public let notice: String?
    public let liked: Bool
    /// The official warnings; nil when the detail has no warnings source (one-line output).
    public var warnings: WarningsLine? = nil
}

public enum CityDetailRoute: Equatable, Sendable {
    case back
    /// The full text of the warnings in force, over the detail.
    case showWarnings(WarningsText)
}

/// A city's detail: header and sun times at once, then the forecast (cached first, then fresh),
/// the air, the official warnings and the normal for the date, each on its own.
public final class CityDetailViewModel {
    public struct Input {
        /// The screen is shown: start loading.
        public let appeared: AnyPublisher<Void, Never>
        /// `r`.
        public let refreshRequested: AnyPublisher<Void, Never>
        /// `f`.
        public let likeToggled: AnyPublisher<Void, Never>
        /// `Esc`: go back, cancelling any request in flight.
        public let leaveRequested: AnyPublisher<Void, Never>
        /// `a`: the full text of the warnings in force.
        public let warningsOpened: AnyPublisher<Void, Never>
        /// The clock, each minute: the local time moves on, a warning that expired goes.
        public let tick: AnyPublisher<Date, Never>

        public init(appeared: AnyPublisher<Void, Never>, refreshRequested: AnyPublisher<Void, Never>,
                    likeToggled: AnyPublisher<Void, Never>, leaveRequested: AnyPublisher<Void, Never>,
                    warningsOpened: AnyPublisher<Void, Never> = Empty().eraseToAnyPublisher(),
                    tick: AnyPublisher<Date, Never> = Empty().eraseToAnyPublisher()) {
            self.appeared = appeared
            self.refreshRequested = refreshRequested
            self.likeToggled = likeToggled
            self.leaveRequested = leaveRequested
            self.warningsOpened = warningsOpened
            self.tick = tick
        }
    }

    public struct Output {
        public let state: AnyPublisher<CityDetailState, Never>
        public let route: AnyPublisher<CityDetailRoute, Never>
    }

    private let city: City
    private let forecast: GetForecastUseCase
    private let air: GetAirQualityUseCase?
    private let warnings: GetWarningsUseCase?
    private let normals: GetClimateNormalsUseCase?
    private let likes: LikeCityUseCase?
    private let format: WeatherFormatter
    private let countries: CountryNames
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// Where the air, the warnings and the normal are asked for and their kept copies read (nil: at
    /// once, where asked).
    private let work: AnySchedulerOf<DispatchQueue>?
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - warnings: the official warnings (nil: no warnings line, as in one-line output).
    ///   - normals: the 1991–2020 normal for the date, asked once the forecast says what today is.
    ///   - work: where the air, the warnings and the normal are asked for, off the first frame (the
    ///     app's work queue).
    public init(city: City, forecast: GetForecastUseCase, air: GetAirQualityUseCase? = nil, warnings: GetWarningsUseCase? = nil,
                normals: GetClimateNormalsUseCase? = nil, likes: LikeCityUseCase?, format: WeatherFormatter,
                countries: CountryNames, scheduler: AnySchedulerOf<DispatchQueue>, work: AnySchedulerOf<DispatchQueue>? = nil,
                now: @escaping @Sendable () -> Date) {
        self.city = city
        zone = format.zone(for: city)
        self.forecast = forecast
        self.air = air
        self.warnings = warnings
        self.normals = normals
        self.likes = likes
        self.format = format
        self.countries = countries
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
        /// Counts the settings' changes of units or clock: the same data is formatted again.
        var formatting = 0
        /// The clock as of the last action.
        var now: Date
        /// The screen has been shown (before, there is nothing to show).
        var started = false
        /// The user left: answers still on their way change nothing.
        var left = false
        /// `r` was pressed and no other key since: the forecast's notice says how it went.
        var refreshAsked = false

        init(cityID: Int, now: Date) {
            self.cityID = cityID
            self.now = now
        }
    }

    public enum Action {
        case appeared(Date), refresh(Date), tick(Date), leave
        case likeToggled, likes([Int]), likeFailed
        case unitsChanged
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
        case showWarnings([WeatherWarning], at: Date)
    }

    public func transform(input: Input) -> Output {
        let now = self.now
        let actions: [AnyPublisher<Action, Never>] = [
            input.appeared.map { Action.appeared(now()) }.eraseToAnyPublisher(),
            input.refreshRequested.map { Action.refresh(now()) }.eraseToAnyPublisher(),
            input.likeToggled.map { Action.likeToggled }.eraseToAnyPublisher(),
            input.leaveRequested.map { Action.leave }.eraseToAnyPublisher(),
            input.warningsOpened.map { Action.warningsOpened }.eraseToAnyPublisher(),
            input.tick.map(Action.tick).eraseToAnyPublisher(),
            // A change of units or clock in the settings formats the same state again.
            format.display.changes.dropFirst().map { Action.unitsChanged }.eraseToAnyPublisher(),
        ]
        let loop = EffectRunner.run(
            initial: State(cityID: city.id, now: now()),
            actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
            scheduler: scheduler, reduce: Self.reduce, perform: perform)
        return Output(state: present(loop.state), route: loop.route)
    }

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
        case .unitsChanged:
            state.formatting += 1
            return []
        case .warningsOpened:
            state.refreshAsked = false
            let active = state.warnings.fetched?.value.active(at: state.now) ?? []
            return active.isEmpty ? [] : [.showWarnings(active, at: state.now)]
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
    private static func load(_ state: inout State) -> [Effect] {
        state.forecast.apply(.started)
        state.air.apply(.started)
        state.warnings.apply(.started)
        return [.fetchForecast, .fetchAir, .fetchWarnings]
    }

    // MARK: Effects

    private enum Job: Hashable { case forecast, air, warnings, normal, likes }

    private func perform(_ effect: Effect) -> Work<Action, CityDetailRoute> {
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
        case .showWarnings(let active, let at):
            return .route(.showWarnings(WarningsText.make(active, city: city, format: format, now: at)))
        }
    }

    /// `answers` subscribed on the work queue, when there is one.
    private func offTheFirstFrame<T, E: Error>(_ answers: AnyPublisher<T, E>) -> AnyPublisher<T, E> {
        work.map { answers.subscribe(on: $0).eraseToAnyPublisher() } ?? answers
    }

    // MARK: Presenting

    /// The city's zone (looked up once: every state reads it several times).
    private let zone: Zone

    /// What the weather panel is made from: an answer of the air or the warnings formats no hour again.
    private struct PanelInputs: Equatable {
        let forecast: Fetched<Forecast>?
        let normal: DayNormal?
        let minute: Int
        let formatting: Int
    }

    /// What stays the same for every state of one minute and one formatting: the city's clock (its
    /// date formatters cost more to make than to use), the header and the sun line. The answers that
    /// come one after another while the detail opens (the likes, each source starting, the air, the
    /// warnings) then format no date again.
    private struct Minute {
        let minute: Int
        let formatting: Int
        let clock: ClockFormat
        let header: CityHeader
        let sun: SunLine
    }

    private func present(_ states: AnyPublisher<State, Never>) -> AnyPublisher<CityDetailState, Never> {
        states
            .filter(\.started)
            .scan(nil as (inputs: PanelInputs, panel: WeatherPanel?, minute: Minute, state: State)?) { [self] previous, state in
                let inputs = PanelInputs(forecast: state.forecast.fetched, normal: state.normal.fetched?.value,
                                         minute: Int(state.now.timeIntervalSince1970 / 60), formatting: state.formatting)
                let minute: Minute
                if let kept = previous?.minute, kept.minute == inputs.minute, kept.formatting == inputs.formatting {
                    minute = kept
                } else {
                    // The clock follows the settings' clock: made again only when the formatting changed.
                    let clock = previous.flatMap { $0.minute.formatting == inputs.formatting ? $0.minute.clock : nil }
                        ?? format.clock(in: zone)
                    minute = Minute(minute: inputs.minute, formatting: inputs.formatting, clock: clock,
                                    header: header(now: state.now, clock: clock), sun: sun(now: state.now, clock: clock))
                }
                if let previous, previous.inputs == inputs { return (inputs, previous.panel, minute, state) }
                return (inputs, state.forecast.fetched.map { panel($0.value, normal: inputs.normal, now: state.now, clock: minute.clock) },
                        minute, state)
            }
            .compactMap { [self] made in made.map { view($0.state, panel: $0.panel, minute: $0.minute) } }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    private func view(_ state: State, panel: WeatherPanel?, minute: Minute) -> CityDetailState {
        let now = state.now
        let clock = minute.clock
        let weather: CityDetailState.Weather
        var notice: String?
        if let fetched = state.forecast.fetched, let panel {
            weather = .loaded(panel)
            let age = format.age(now.timeIntervalSince(fetched.fetchedAt))
            if let error = state.forecast.error {
                notice = error == .offline || error == .timedOut
                    ? format.l10n.format(.weatherOfflineUpdated, age)
                    : format.message(error) + " " + format.l10n.format(.weatherUpdated, age)
            } else if state.forecast.loading {
                notice = format.l10n.format(.weatherUpdated, age) + " · " + format.l10n[.weatherRefreshing]
            } else if fetched.isCached || state.refreshAsked {
                // A kept copy says how old it is; after `r`, a fresh one says it is new.
                notice = format.l10n.format(.weatherUpdated, age)
            }
        } else if let error = state.forecast.error {
            let message = error == .offline ? format.l10n[.weatherOfflineNoCache] : format.message(error)
            weather = .unavailable(message + " " + format.l10n[.weatherRetry])
        } else {
            weather = .loading
        }
        if state.likeFailed { notice = format.l10n[.likesErrorSave] }
        var shown = CityDetailState(header: minute.header, sun: minute.sun, weather: weather,
                                    air: air == nil ? nil : airSection(state.air, now: now), notice: notice, liked: state.liked)
        if warnings != nil { shown.warnings = warningsLine(state.warnings, now: now, clock: clock) }
        return shown
    }

    private func header(now: Date, clock: ClockFormat) -> CityHeader {
        let l10n = format.l10n
        return CityHeader(
            name: city.name,
            localName: CityNameChoice.local(city.localNames, language: l10n.language),
            country: CityPlace.text(city, language: l10n.language, countries: countries, always: true),
            localTime: clock.dateTime(now, dateTemplate: "EEEdMMM"),
            coordinates: WeatherFormatter.coordinates(city.coordinate),
            population: l10n.format(.weatherPopulation, l10n.number(city.population)))
    }

    private func sun(now: Date, clock: ClockFormat) -> SunLine {
        let l10n = format.l10n
        let sun = SolarCalculator.sunTimes(on: now, at: city.coordinate, zone: zone)
        let moon = MoonCalculator.state(at: now)
        let moonText = l10n.format(.weatherMoon, Self.phaseName(moon.phase, l10n),
                                   "\(Int((moon.illumination * 100).rounded()))%",
                                   clock.date(moon.nextFull, template: "MMMd"), clock.date(moon.nextNew, template: "MMMd"))
        let symbol = moon.symbol(latitude: city.latitude)
        switch sun.kind {
        case .allDay: return SunLine(text: l10n[.weatherPolarDay], moon: moonText, moonSymbol: symbol)
        case .allNight: return SunLine(text: l10n[.weatherPolarNight], moon: moonText, moonSymbol: symbol)
        case .normal:
            // To the nearest minute, as almanacs and Open-Meteo give them; a sunset after midnight says so.
            let today = zone.localDate(at: now)
            func minute(_ d: Date?) -> String {
                guard let d = d?.addingTimeInterval(30) else { return "–" }
                let time = clock.time(d)
                return zone.localDate(at: d) > today ? l10n.format(.weatherNextDay, time) : time
            }
            return SunLine(text: [
                l10n.format(.weatherSunrise, minute(sun.sunrise)),
                l10n.format(.weatherSunset, minute(sun.sunset)),
                l10n.format(.weatherDayLength, format.duration(sun.dayLength)),
            ].joined(separator: " · "), moon: moonText, moonSymbol: symbol)
        }
    }

    static func phaseName(_ phase: MoonPhase, _ l10n: L10n) -> String {
        switch phase {
        case .new: l10n[.moonNew]
        case .waxingCrescent: l10n[.moonWaxingCrescent]
        case .firstQuarter: l10n[.moonFirstQuarter]
        case .waxingGibbous: l10n[.moonWaxingGibbous]
        case .full: l10n[.moonFull]
        case .waningGibbous: l10n[.moonWaningGibbous]
        case .lastQuarter: l10n[.moonLastQuarter]
        case .waningCrescent: l10n[.moonWaningCrescent]
        }
    }

    private func panel(_ forecast: Forecast, normal: DayNormal?, now: Date, clock: ClockFormat) -> WeatherPanel {
        let l10n = format.l10n
        let c = forecast.current
        // The next 48 hours; the 24-hour view is their first half.
        let ahead = forecast.hours(from: now, count: 48)
        let today = zone.localDate(at: now)
        let days = forecast.daily
            .filter { $0.day >= today }
            .prefix(7)
            .map { day in
                WeatherPanel.Day(weekday: clock.date(day.day, template: "EEE"),
                                 high: format.shortTemperature(day.high), low: format.shortTemperature(day.low),
                                 condition: format.condition(day.condition))
            }
        var panel = WeatherPanel(
            temperature: format.temperature(c.temperature),
            feelsLike: l10n.format(.weatherFeelsLike, format.temperature(c.apparentTemperature)),
            condition: format.condition(c.condition),
            icon: WeatherIcon.lines(c.condition, isDay: c.isDay),
            symbol: WeatherIcon.symbol(c.condition, isDay: c.isDay),
            wind: l10n.format(.weatherWind, format.wind(speed: c.windSpeed, from: c.windDirection)),
            windValue: format.wind(speed: c.windSpeed, from: c.windDirection),
            humidity: l10n.format(.weatherHumidity, format.humidity(c.humidity)),
            pressure: l10n.format(.weatherPressure, format.pressure(c.pressure)),
            precipitation: l10n.format(.weatherPrecipitation, format.precipitation(c.precipitation)),
            next24: hoursView(Array(ahead.prefix(24)), title: l10n[.weatherNext24], clock: clock),
            next48: hoursView(ahead, title: l10n[.weatherNext48], clock: clock),
            days: Array(days))
        // Yesterday and the normal are today's: a kept forecast whose first day has gone says neither.
        guard let first = forecast.today, first.day == today else { return panel }
        panel.againstYesterday = forecast.todayAgainstYesterday.map(format.againstYesterday)
        if let normal, normal.month == today.month, normal.day == today.day {
            let comparison = NormalComparison(normal: normal, todayHigh: first.high, todayLow: first.low)
            panel.normal = format.normal(normal) + (comparison.high.map { " · " + format.againstNormal($0) } ?? "")
        }
        return panel
    }

    /// What falls in some hours, by the amounts forecast, else by the hours' skies, else by the temperature.
    enum Falls: Equatable { case rain, snow, mixed }

    static func falls(_ hours: [HourlyForecast]) -> Falls {
        let rain = hours.compactMap(\.rain).reduce(0, +), snow = hours.compactMap(\.snowfall).reduce(0, +)
        if rain > 0 || snow > 0 { return rain > 0 && snow > 0 ? .mixed : snow > 0 ? .snow : .rain }
        let snowy = hours.contains { [.snow, .snowGrains, .snowShowers].contains($0.condition) }
        let rainy = hours.contains {
            [.drizzle, .freezingDrizzle, .rain, .freezingRain, .rainShowers, .thunderstorm, .thunderstormHail].contains($0.condition)
        }
        if snowy || rainy { return snowy && rainy ? .mixed : snowy ? .snow : .rain }
        // Nothing forecast to fall: what would, at these temperatures.
        let temperatures = hours.map(\.temperature)
        if temperatures.allSatisfy({ $0 > 2 }) { return .rain }
        if temperatures.allSatisfy({ $0 <= 0 }) { return .snow }
        return .mixed
    }

    func hoursView(_ hours: [HourlyForecast], title: String, clock: ClockFormat? = nil) -> WeatherPanel.Hours {
        let l10n = format.l10n
        let temps = hours.map { format.degrees($0.temperature) }
        let chances = hours.map(\.precipitationProbability)
        let falls = Self.falls(hours)
        // The amount of what the row is labelled by: rain in mm, snow in cm of snow, both as water.
        let amount: String?
        switch falls {
        case .rain:
            amount = Self.sum(hours.map(\.rain)).map(format.precipitation)
        case .snow:
            amount = Self.sum(hours.map(\.snowfall)).map(format.snow)
        case .mixed:
            amount = Self.sum(hours.map(\.precipitation)).map(format.precipitation)
        }
        let chance = chances.compactMap { $0 }.max().map(format.humidity) ?? "–"
        let zone = self.zone
        let clock = clock ?? format.clock(in: zone)
        return WeatherPanel.Hours(
            title: title,
            temperatures: temps,
            sky: hours.map { WeatherIcon.hour($0.condition, isDay: $0.isDay ?? true) },
            falls: l10n[falls == .rain ? .weatherFallsRain : falls == .snow ? .weatherFallsSnow : .weatherFallsAny],
            chances: chances,
            fallsSummary: l10n.format(.weatherFallsSummary, amount ?? "–", chance),
            marks: hours.map { zone.wallClock(at: $0.time).hour % 6 == 0 ? clock.hour($0.time) : nil },
            min: temps.min().flatMap(WeatherFormatter.rounded).map { "\($0)°" } ?? "–",
            max: temps.max().flatMap(WeatherFormatter.rounded).map { "\($0)°" } ?? "–")
    }

    /// The sum of the known values; nil when none is known.
    static func sum(_ values: [Double?]) -> Double? {
        let known = values.compactMap { $0 }
        return known.isEmpty ? nil : known.reduce(0, +)
    }

    private func airSection(_ source: Source<AirQuality, WeatherError>, now: Date) -> CityDetailState.Air {
        let l10n = format.l10n
        guard let fetched = source.fetched else {
            if let error = source.error { return .unavailable(l10n.format(.airUnavailable, Self.airReason(error, l10n))) }
            return .loading
        }
        let air = fetched.value
        let scale = AirQualityScale(city: city)
        let value = air.index(scale)
        let band = value.map { AirQualityBand(index: $0, scale: scale) }
        func whole(_ v: Double?) -> String { v.flatMap(WeatherFormatter.rounded).map { l10n.number($0) } ?? "–" }
        let uvBand = air.uvIndexMax.map(UVCategory.init(index:))
        // A kept answer says how old it is until a fresh one replaces it; one a refresh could not
        // replace says why, too.
        var notice: String?
        if fetched.isCached || source.error != nil {
            let cached = l10n.format(.airCached, format.age(now.timeIntervalSince(fetched.fetchedAt)))
            notice = source.error.map { Self.airReason($0, l10n) + " · " + cached } ?? cached
        }
        return .loaded(AirPanel(
            index: l10n.format(scale == .us ? .airIndexUS : .airIndexEuropean, whole(value)),
            band: band.map { Self.bandName($0, l10n) },
            severity: band?.severity,
            details: l10n.format(.airDetails, whole(air.pm2_5), whole(air.pm10), whole(air.ozone)),
            uv: uvBand.map { l10n.format(.weatherUVMax, whole(air.uvIndexMax), Self.uvName($0, l10n)) },
            uvSeverity: uvBand?.rawValue,
            notice: notice))
    }

    /// Why there is no air, in a few words (the line has the forecast's width, not a paragraph).
    static func airReason(_ error: WeatherError, _ l10n: L10n) -> String {
        switch error {
        case .offline: l10n[.airErrorOffline]
        case .connectionLost: l10n[.weatherShortConnectionLost]
        case .timedOut: l10n[.airErrorTimeout]
        case .rateLimited: l10n[.airErrorRateLimited]
        case .server(let status): l10n.format(.airErrorServer, String(status))
        case .badConfiguration: l10n[.airErrorConfiguration]
        // Named as `nimbus weather --json` names it.
        case .redirected: l10n[.weatherShortRedirected]
        case .badResponse, .tooLarge, .badReply: l10n[.airErrorBadAnswer]
        }
    }

    /// The warnings line: the most severe warning in force at `now` (a warning that expired is gone at
    /// the next minute's state, without asking the service), else the most severe one coming, else
    /// why none is shown.
    private func warningsLine(_ source: Source<CityWarnings, WarningsError>, now: Date, clock: ClockFormat) -> WarningsLine {
        let l10n = format.l10n
        func note(_ text: String?) -> WarningsLine { WarningsLine(event: nil, severity: .unknown, times: "", more: nil, note: text) }
        guard let fetched = source.fetched else {
            return note(source.error.map { l10n.format(.warningsUnavailable, Self.warningsReason($0, l10n)) })
        }
        guard case .covered = fetched.value.coverage else {
            return note(l10n.format(.warningsNoSource, countries.name(city.countryCode)))
        }
        let all = fetched.value.active(at: now)
        let active = all.filter { !WarningsText.isComing($0, at: now) } + all.filter { WarningsText.isComing($0, at: now) }
        guard let first = active.first else {
            return note(l10n[.warningsNone] + (source.error.map { " · " + Self.warningsReason($0, l10n) } ?? ""))
        }
        // A warning whose weather starts later says from when ("from Thu 06:00"), not its span.
        let times = WarningsText.isComing(first, at: now) ? WarningsText.fromWhen(first, clock: clock, l10n: l10n)
            : WarningsText.times(first, clock: clock, l10n: l10n)
        return WarningsLine(event: first.event, severity: first.severity, times: times,
                            more: active.count > 1 ? l10n.format(.warningsMore, l10n.number(active.count - 1)) : nil, note: nil)
    }

    /// Why there are no warnings, in a few words.
    static func warningsReason(_ error: WarningsError, _ l10n: L10n) -> String {
        switch error {
        case .offline: l10n[.airErrorOffline]
        case .connectionLost: l10n[.weatherShortConnectionLost]
        case .timedOut: l10n[.airErrorTimeout]
        case .rateLimited: l10n[.airErrorRateLimited]
        case .server(let status): l10n.format(.airErrorServer, String(status))
        // Named as `nimbus weather --json` names it.
        case .redirected: l10n[.weatherShortRedirected]
        case .badResponse, .tooLarge, .notModifiedWithoutCache: l10n[.airErrorBadAnswer]
        case .badConfiguration: l10n[.warningsErrorConfiguration]
        case .regionUnknown: l10n[.warningsErrorRegion]
        case .regionsUnavailable: l10n[.warningsErrorRegionsFile]
        }
    }

    static func bandName(_ band: AirQualityBand, _ l10n: L10n) -> String {
        let keys: [L10nKey] = band.scale == .us
            ? [.airUSGood, .airUSModerate, .airUSSensitive, .airUSUnhealthy, .airUSVeryUnhealthy, .airUSHazardous]
            : [.airEUGood, .airEUFair, .airEUModerate, .airEUPoor, .airEUVeryPoor, .airEUExtremelyPoor]
        return l10n[keys[min(max(0, band.severity), keys.count - 1)]]
    }

    static func uvName(_ category: UVCategory, _ l10n: L10n) -> String {
        switch category {
        case .low: l10n[.uvLow]
        case .moderate: l10n[.uvModerate]
        case .high: l10n[.uvHigh]
        case .veryHigh: l10n[.uvVeryHigh]
        case .extreme: l10n[.uvExtreme]
        }
    }
}
