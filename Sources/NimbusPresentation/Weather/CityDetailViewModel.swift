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
    /// The next 24 hours' temperatures (display units) and chances of rain (percent).
    public let hourlyTemperatures: [Double]
    public let hourlyRain: [Double?]
    /// The local hour ("00"…"23", in the city's time zone) of each of those hours.
    public let hourLabels: [String]
    public let hoursMin: String
    public let hoursMax: String
    public let days: [Day]
}

/// What the detail screen shows.
public struct CityDetailState: Equatable, Sendable {
    public enum Weather: Equatable, Sendable {
        case loading
        case loaded(WeatherPanel)
        /// No weather to show; the message says why and how to retry.
        case unavailable(String)
    }

    public let header: CityHeader
    public let sun: SunLine
    public let weather: Weather
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
    private let likes: LikeCityUseCase?
    private let format: WeatherFormatter
    private let countries: CountryNames
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date

    public init(city: City, forecast: GetForecastUseCase, likes: LikeCityUseCase?, format: WeatherFormatter,
                countries: CountryNames, scheduler: AnySchedulerOf<DispatchQueue>,
                now: @escaping @Sendable () -> Date) {
        self.city = city
        self.forecast = forecast
        self.likes = likes
        self.format = format
        self.countries = countries
        self.scheduler = scheduler
        self.now = now
    }

    /// What the screen has to go on, before formatting.
    struct Model: Equatable {
        var fetched: Fetched<Forecast>?
        var loading = true
        var error: WeatherError?
        var liked = false
        var likeFailed = false
        /// Counts the settings' changes of units or clock: the same data is formatted again.
        var formatting = 0
    }

    enum Event {
        case loading
        case fetched(Fetched<Forecast>)
        case failed(WeatherError)
        case finished
        case liked(Result<Bool, LikesError>)
        case unitsChanged
    }

    public func transform(input: Input) -> Output {
        let city = self.city
        let forecast = self.forecast
        let likes = self.likes
        let leave = input.leaveRequested.share()

        let loads = merge(input.appeared, input.refreshRequested)
            .map { _ -> AnyPublisher<Event, Never> in
                forecast.execute(for: city)
                    .map(Event.fetched)
                    .append(Just(.finished).setFailureType(to: WeatherError.self))
                    .catch { Just(Event.failed($0)) }
                    .prepend(.loading)
                    .eraseToAnyPublisher()
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
                    m.loading = true
                    m.error = nil
                case .fetched(let f):
                    m.fetched = f
                    m.loading = f.isCached
                case .failed(let e):
                    m.loading = false
                    m.error = e
                case .finished:
                    m.loading = false
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

    private var timeZone: TimeZone { TimeZone(identifier: city.timeZone) ?? TimeZone(identifier: "UTC")! }

    func state(_ model: Model) -> CityDetailState {
        let now = self.now()
        let weather: CityDetailState.Weather
        var notice: String?
        if let fetched = model.fetched {
            weather = .loaded(panel(fetched.value, now: now))
            let age = format.age(now.timeIntervalSince(fetched.fetchedAt))
            if let error = model.error {
                notice = error == .offline || error == .timedOut
                    ? format.l10n.format(.weatherOfflineUpdated, age)
                    : format.message(error) + " " + format.l10n.format(.weatherUpdated, age)
            } else if model.loading {
                notice = format.l10n.format(.weatherUpdated, age) + " · " + format.l10n[.weatherRefreshing]
            } else if fetched.isCached {
                notice = format.l10n.format(.weatherUpdated, age)
            }
        } else if let error = model.error {
            let message = error == .offline ? format.l10n[.weatherOfflineNoCache] : format.message(error)
            weather = .unavailable(message + " " + format.l10n[.weatherRetry])
        } else {
            weather = .loading
        }
        if model.likeFailed { notice = format.l10n[.likesErrorSave] }
        return CityDetailState(header: header(now: now), sun: sun(now: now), weather: weather, notice: notice,
                               liked: model.liked)
    }

    private func header(now: Date) -> CityHeader {
        let l10n = format.l10n
        let f = DateFormatter()
        f.locale = l10n.locale
        f.timeZone = timeZone
        f.setLocalizedDateFormatFromTemplate(format.display.value.clock == .h24 ? "EEE d MMM HH:mm" : "EEE d MMM h:mm a")
        return CityHeader(
            name: city.name,
            localName: CityNameChoice.local(city.localNames, language: l10n.language),
            country: countries.name(city.countryCode),
            localTime: f.string(from: now).replacingOccurrences(of: "\u{202F}", with: " "),
            coordinates: WeatherFormatter.coordinates(city.coordinate),
            population: l10n.format(.weatherPopulation, l10n.number(city.population)))
    }

    private func sun(now: Date) -> SunLine {
        let l10n = format.l10n
        let sun = SolarCalculator.sunTimes(on: now, at: city.coordinate, timeZone: timeZone)
        let moon = MoonCalculator.state(at: now)
        let day = DateFormatter()
        day.locale = l10n.locale
        day.timeZone = timeZone
        day.setLocalizedDateFormatFromTemplate("MMMd")
        let moonText = l10n.format(.weatherMoon, Self.phaseName(moon.phase, l10n),
                                   "\(Int((moon.illumination * 100).rounded()))%",
                                   day.string(from: moon.nextFull), day.string(from: moon.nextNew))
        let symbol = moon.symbol(latitude: city.latitude)
        switch sun.kind {
        case .allDay: return SunLine(text: l10n[.weatherPolarDay], moon: moonText, moonSymbol: symbol)
        case .allNight: return SunLine(text: l10n[.weatherPolarNight], moon: moonText, moonSymbol: symbol)
        case .normal:
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = timeZone
            f.dateFormat = "HH:mm"
            // To the nearest minute, as almanacs and Open-Meteo give them.
            func minute(_ d: Date?) -> String { d.map { f.string(from: $0.addingTimeInterval(30)) } ?? "–" }
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

    private func panel(_ forecast: Forecast, now: Date) -> WeatherPanel {
        let l10n = format.l10n
        let c = forecast.current
        let hours = forecast.hours(from: now, count: 24)
        let temps = hours.map { format.degrees($0.temperature) }
        let hourFormatter = DateFormatter()
        hourFormatter.locale = Locale(identifier: "en_US_POSIX")
        hourFormatter.timeZone = timeZone
        hourFormatter.dateFormat = "HH"
        let weekday = DateFormatter()
        weekday.locale = l10n.locale
        weekday.timeZone = timeZone
        weekday.setLocalizedDateFormatFromTemplate("EEE")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: now)
        let days = forecast.daily
            .filter { $0.date.addingTimeInterval(12 * 3600) >= today }
            .prefix(7)
            .map { day in
                WeatherPanel.Day(weekday: weekday.string(from: day.date.addingTimeInterval(12 * 3600)),
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
            hourlyTemperatures: temps,
            hourlyRain: hours.map(\.precipitationProbability),
            hourLabels: hours.map { hourFormatter.string(from: $0.time) },
            hoursMin: temps.min().flatMap(WeatherFormatter.rounded).map { "\($0)°" } ?? "–",
            hoursMax: temps.max().flatMap(WeatherFormatter.rounded).map { "\($0)°" } ?? "–",
            days: Array(days))
    }
}
