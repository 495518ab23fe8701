import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers

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
    /// A line about the data's age or trouble: "Offline, updated 12 min ago", "Refreshing…".
    public let notice: String?
    public let liked: Bool
}

public enum CityDetailRoute: Equatable, Sendable {
    case back
}

/// A city's detail: header and sun times at once, then the forecast (cached first, then fresh).
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
        public init(appeared: AnyPublisher<Void, Never>, refreshRequested: AnyPublisher<Void, Never>,
                    likeToggled: AnyPublisher<Void, Never>, leaveRequested: AnyPublisher<Void, Never>) {
            self.appeared = appeared
            self.refreshRequested = refreshRequested
            self.likeToggled = likeToggled
            self.leaveRequested = leaveRequested
        }
    }

    public struct Output {
        public let state: AnyPublisher<CityDetailState, Never>
        public let route: AnyPublisher<CityDetailRoute, Never>
    }

    private let city: City
    private let forecast: GetForecastUseCase
    private let air: GetAirQualityUseCase?
    private let likes: LikeCityUseCase?
    private let format: WeatherFormatter
    private let countries: CountryNames
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// Where the air request starts and its kept copy is read (nil: at once, where asked).
    private let work: AnySchedulerOf<DispatchQueue>?
    private let now: @Sendable () -> Date

    /// - Parameter work: where the air is asked for, off the first frame (the app's work queue).
    public init(city: City, forecast: GetForecastUseCase, air: GetAirQualityUseCase? = nil, likes: LikeCityUseCase?, format: WeatherFormatter,
                countries: CountryNames, scheduler: AnySchedulerOf<DispatchQueue>, work: AnySchedulerOf<DispatchQueue>? = nil,
                now: @escaping @Sendable () -> Date) {
        self.city = city
        self.timeZone = TimeZone(identifier: city.timeZone) ?? TimeZone(identifier: "UTC")!
        self.forecast = forecast
        self.air = air
        self.likes = likes
        self.format = format
        self.countries = countries
        self.scheduler = scheduler
        self.work = work
        self.now = now
    }

    /// One source's part of the model: its last answer (kept or fresh), whether a fresher one is on
    /// its way, and why the last try failed.
    struct Source<Value: Equatable & Sendable>: Equatable {
        var fetched: Fetched<Value>?
        var loading = true
        var error: WeatherError?

        enum Event {
            case started
            case fetched(Fetched<Value>)
            case failed(WeatherError)
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
        static func events(_ answers: AnyPublisher<Fetched<Value>, WeatherError>) -> AnyPublisher<Event, Never> {
            answers
                .map(Event.fetched)
                .append(Just(.finished).setFailureType(to: WeatherError.self))
                .catch { Just(Event.failed($0)) }
                .eraseToAnyPublisher()
        }
    }

    /// What the screen has to go on, before formatting.
    struct Model: Equatable {
        var forecast = Source<Forecast>()
        var air = Source<AirQuality>()
        var liked = false
        var likeFailed = false
        /// Counts the settings' changes of units or clock: the same data is formatted again.
        var formatting = 0
    }

    enum Event {
        /// A load or refresh starts both sources.
        case loading
        case forecast(Source<Forecast>.Event)
        case air(Source<AirQuality>.Event)
        case liked(Result<Bool, LikesError>)
        case unitsChanged
    }

    public func transform(input: Input) -> Output {
        let city = self.city
        let forecast = self.forecast
        let air = self.air
        let work = self.work
        let likes = self.likes
        let leave = input.leaveRequested.share()

        let loads = merge(input.appeared, input.refreshRequested)
            .map { _ -> AnyPublisher<Event, Never> in
                let weather = Source<Forecast>.events(forecast.execute(for: city))
                    .map(Event.forecast)
                    .prepend(.loading)
                    .eraseToAnyPublisher()
                guard let air else { return weather }
                // The air is asked for beside the forecast, never before or after it: each answer is
                // applied as it comes, and either failing leaves the other alone.
                // (`.loading` starts both: one state, not two, before the first frame.) The kept copy
                // is read and the request made on the work queue, so the first frame never waits on them.
                let request = air.execute(for: city)
                let airEvents = Source<AirQuality>.events(work.map { request.subscribe(on: $0).eraseToAnyPublisher() } ?? request)
                    .map(Event.air)
                return merge(weather, airEvents.eraseToAnyPublisher()).eraseToAnyPublisher()
            }
            .switchToLatest()
            // Leaving cancels the request in flight.
            .prefix(untilOutputFrom: leave)

        let likeEvents: AnyPublisher<Event, Never>
        if let likes {
            // The mark follows the store from the first appearance on, whichever screen changed it;
            // a toggle that could not be saved says so.
            let saved = input.appeared.first()
                .map { _ in likes.contents }
                .switchToLatest()
                .map { ids in Event.liked(.success(ids.contains(city.id))) }
            let failures = input.likeToggled
                .compactMap { _ -> Event? in
                    if case .failure(let error) = likes.toggle(city.id) { return .liked(.failure(error)) }
                    return nil
                }
            likeEvents = merge(saved.eraseToAnyPublisher(), failures.eraseToAnyPublisher())
        } else {
            likeEvents = Empty().eraseToAnyPublisher()
        }

        // A change of units or clock in the settings formats the same model again, while the screen is up.
        let reformat = format.display.changes.dropFirst().map { Event.unitsChanged }.prefix(untilOutputFrom: leave)
        let state = merge(merge(loads.eraseToAnyPublisher(), likeEvents), reformat.eraseToAnyPublisher())
            .scan(Model()) { model, event in
                var m = model
                switch event {
                case .loading:
                    m.forecast.apply(.started)
                    m.air.apply(.started)
                case .forecast(let e):
                    m.forecast.apply(e)
                case .air(let e):
                    m.air.apply(e)
                case .liked(.success(let liked)):
                    m.liked = liked
                    m.likeFailed = false
                case .liked(.failure):
                    m.likeFailed = true
                case .unitsChanged:
                    m.formatting += 1
                }
                return m
            }
            .removeDuplicates()
            .map { model in self.state(model) }
            .receive(on: scheduler)
            .eraseToAnyPublisher()

        let route = leave.map { CityDetailRoute.back }.eraseToAnyPublisher()
        return Output(state: state, route: route)
    }

    // MARK: Formatting

    /// The city's clock (made once: every state reads it several times).
    private let timeZone: TimeZone

    func state(_ model: Model) -> CityDetailState {
        let now = self.now()
        // One set of date formatters for the whole state (they cost more to make than to use).
        let clock = format.clock(in: timeZone)
        let weather: CityDetailState.Weather
        var notice: String?
        if let fetched = model.forecast.fetched {
            weather = .loaded(panel(fetched.value, now: now, clock: clock))
            let age = format.age(now.timeIntervalSince(fetched.fetchedAt))
            if let error = model.forecast.error {
                notice = error == .offline || error == .timedOut
                    ? format.l10n.format(.weatherOfflineUpdated, age)
                    : format.message(error) + " " + format.l10n.format(.weatherUpdated, age)
            } else if model.forecast.loading {
                notice = format.l10n.format(.weatherUpdated, age) + " · " + format.l10n[.weatherRefreshing]
            } else if fetched.isCached {
                notice = format.l10n.format(.weatherUpdated, age)
            }
        } else if let error = model.forecast.error {
            let message = error == .offline ? format.l10n[.weatherOfflineNoCache] : format.message(error)
            weather = .unavailable(message + " " + format.l10n[.weatherRetry])
        } else {
            weather = .loading
        }
        if model.likeFailed { notice = format.l10n[.likesErrorSave] }
        return CityDetailState(header: header(now: now, clock: clock), sun: sun(now: now, clock: clock), weather: weather,
                               air: air == nil ? nil : airSection(model, now: now), notice: notice, liked: model.liked)
    }

    private func header(now: Date, clock: ClockFormat) -> CityHeader {
        let l10n = format.l10n
        return CityHeader(
            name: city.name,
            localName: CityNameChoice.local(city.localNames, language: l10n.language),
            country: countries.name(city.countryCode),
            localTime: clock.dateTime(now, dateTemplate: "EEEdMMM"),
            coordinates: WeatherFormatter.coordinates(city.coordinate),
            population: l10n.format(.weatherPopulation, l10n.number(city.population)))
    }

    private func sun(now: Date, clock: ClockFormat) -> SunLine {
        let l10n = format.l10n
        let sun = SolarCalculator.sunTimes(on: now, at: city.coordinate, timeZone: timeZone)
        let moon = MoonCalculator.state(at: now)
        let moonText = l10n.format(.weatherMoon, Self.phaseName(moon.phase, l10n),
                                   "\(Int((moon.illumination * 100).rounded()))%",
                                   clock.date(moon.nextFull, template: "MMMd"), clock.date(moon.nextNew, template: "MMMd"))
        let symbol = moon.symbol(latitude: city.latitude)
        switch sun.kind {
        case .allDay: return SunLine(text: l10n[.weatherPolarDay], moon: moonText, moonSymbol: symbol)
        case .allNight: return SunLine(text: l10n[.weatherPolarNight], moon: moonText, moonSymbol: symbol)
        case .normal:
            // To the nearest minute, as almanacs and Open-Meteo give them.
            func minute(_ d: Date?) -> String { d.map { clock.time($0.addingTimeInterval(30)) } ?? "–" }
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

    private func panel(_ forecast: Forecast, now: Date, clock: ClockFormat) -> WeatherPanel {
        let l10n = format.l10n
        let c = forecast.current
        // The next 48 hours; the 24-hour view is their first half.
        let ahead = forecast.hours(from: now, count: 48)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: now)
        let days = forecast.daily
            .filter { $0.date.addingTimeInterval(12 * 3600) >= today }
            .prefix(7)
            .map { day in
                WeatherPanel.Day(weekday: clock.date(day.date.addingTimeInterval(12 * 3600), template: "EEE"),
                                 high: format.shortTemperature(day.high), low: format.shortTemperature(day.low),
                                 condition: format.condition(day.condition))
            }
        return WeatherPanel(
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
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let clock = clock ?? format.clock(in: timeZone)
        return WeatherPanel.Hours(
            title: title,
            temperatures: temps,
            sky: hours.map { WeatherIcon.hour($0.condition, isDay: $0.isDay ?? true) },
            falls: l10n[falls == .rain ? .weatherFallsRain : falls == .snow ? .weatherFallsSnow : .weatherFallsAny],
            chances: chances,
            fallsSummary: l10n.format(.weatherFallsSummary, amount ?? "–", chance),
            marks: hours.map { calendar.component(.hour, from: $0.time) % 6 == 0 ? clock.hour($0.time) : nil },
            min: temps.min().flatMap(WeatherFormatter.rounded).map { "\($0)°" } ?? "–",
            max: temps.max().flatMap(WeatherFormatter.rounded).map { "\($0)°" } ?? "–")
    }

    /// The sum of the known values; nil when none is known.
    static func sum(_ values: [Double?]) -> Double? {
        let known = values.compactMap { $0 }
        return known.isEmpty ? nil : known.reduce(0, +)
    }

    private func airSection(_ model: Model, now: Date) -> CityDetailState.Air {
        let l10n = format.l10n
        guard let fetched = model.air.fetched else {
            if let error = model.air.error { return .unavailable(l10n.format(.airUnavailable, Self.airReason(error, l10n))) }
            return .loading
        }
        let air = fetched.value
        let scale = AirQualityScale(countryCode: city.countryCode)
        let value = air.index(scale)
        let band = value.map { AirQualityBand(index: $0, scale: scale) }
        func whole(_ v: Double?) -> String { v.flatMap(WeatherFormatter.rounded).map { l10n.number($0) } ?? "–" }
        let uvBand = air.uvIndexMax.map(UVCategory.init(index:))
        // A kept answer says how old it is until a fresh one replaces it; one a refresh could not
        // replace says why, too.
        var notice: String?
        if fetched.isCached || model.air.error != nil {
            let cached = l10n.format(.airCached, format.age(now.timeIntervalSince(fetched.fetchedAt)))
            notice = model.air.error.map { Self.airReason($0, l10n) + " · " + cached } ?? cached
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
        case .offline, .connectionLost: l10n[.airErrorOffline]
        case .timedOut: l10n[.airErrorTimeout]
        case .rateLimited: l10n[.airErrorRateLimited]
        case .server(let status): l10n.format(.airErrorServer, String(status))
        case .badConfiguration: l10n[.airErrorConfiguration]
        case .badResponse, .tooLarge, .badReply, .redirected: l10n[.airErrorBadAnswer]
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
