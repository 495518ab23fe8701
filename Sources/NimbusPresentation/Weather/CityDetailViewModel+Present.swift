import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension CityDetailViewModel {
    // MARK: Presenting

    /// What the weather panel is made from: an answer of the air or the warnings formats no hour again.
    struct PanelInputs: Equatable {
        let forecast: Fetched<Forecast>?
        let normal: DayNormal?
        let minute: Int
        let display: DisplayUnits.Value
        let l10n: L10n
    }

    /// What the city's clock is made from (its date formatters cost more to make than to use).
    struct Speech: Equatable {
        let display: DisplayUnits.Value
        let l10n: L10n
    }

    /// What the header and the sun line are made from: one minute, in one display and language. The
    /// answers that come one after another while the detail opens (the likes, each source starting,
    /// the air, the warnings) then format no date again.
    struct MinuteKey: Equatable {
        let minute: Int
        let speech: Speech
    }

    struct Minute {
        let header: CityHeader
        let sun: SunLine
    }

    /// The clock, the minute's lines and the panel as last made, each with what it was made from.
    struct Presented {
        let clock: Memo<Speech, ClockFormat>
        let minute: Memo<MinuteKey, Minute>
        let panel: Memo<PanelInputs, WeatherPanel?>
        let state: State
    }

    func present(_ states: AnyPublisher<State, Never>) -> AnyPublisher<CityDetailState, Never> {
        states
            .filter(\.started)
            .scan(nil as Presented?) { [self] previous, state in
                let speech = Speech(display: state.display, l10n: state.l10n)
                let format = formatter.with(state.display, state.l10n)
                // The clock follows the settings' clock and the language: made again only when they change.
                let clock = Memo(speech, after: previous?.clock) { format.clock(in: zone) }
                let now = Int(state.now.timeIntervalSince1970 / 60)
                let minute = Memo(MinuteKey(minute: now, speech: speech), after: previous?.minute) {
                    Minute(header: header(now: state.now, clock: clock.value, format: format),
                           sun: sun(now: state.now, clock: clock.value, format: format))
                }
                let inputs = PanelInputs(forecast: state.forecast.fetched, normal: state.normal.fetched?.value,
                                         minute: now, display: state.display, l10n: state.l10n)
                let weather = Memo(inputs, after: previous?.panel) {
                    state.forecast.fetched.map { panel($0.value, normal: inputs.normal, now: state.now, clock: clock.value, format: format) }
                }
                return Presented(clock: clock, minute: minute, panel: weather, state: state)
            }
            .compactMap { [self] made in made.map { view($0.state, panel: $0.panel.value, minute: $0.minute.value, clock: $0.clock.value) } }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    func view(_ state: State, panel: WeatherPanel?, minute: Minute, clock: ClockFormat) -> CityDetailState {
        let format = formatter.with(state.display, state.l10n)
        let now = state.now
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
                                    air: air == nil ? nil : airSection(state.air, now: now, format: format), notice: notice, liked: state.liked)
        if warnings != nil { shown.warnings = warningsLine(state.warnings, now: now, clock: clock, format: format) }
        return shown
    }

    func header(now: Date, clock: ClockFormat, format: WeatherFormatter) -> CityHeader {
        let l10n = format.l10n
        return CityHeader(
            name: city.name,
            localName: CityNameChoice.local(city.localNames, language: l10n.language),
            country: CityPlace.text(city, language: l10n.language, countries: l10n.countryNames, always: true),
            localTime: clock.dateTime(now, dateTemplate: "EEEdMMM"),
            coordinates: WeatherFormatter.coordinates(city.coordinate),
            population: l10n.format(.weatherPopulation, l10n.number(city.population)))
    }

    func sun(now: Date, clock: ClockFormat, format: WeatherFormatter) -> SunLine {
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

    /// The weather as `format` writes it (in the state's units).
    func panel(_ forecast: Forecast, normal: DayNormal?, now: Date, clock: ClockFormat, format: WeatherFormatter) -> WeatherPanel {
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
            next24: hoursView(Array(ahead.prefix(24)), title: l10n[.weatherNext24], clock: clock, format: format),
            next48: hoursView(ahead, title: l10n[.weatherNext48], clock: clock, format: format),
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

    func hoursView(_ hours: [HourlyForecast], title: String, clock: ClockFormat? = nil, format: WeatherFormatter) -> WeatherPanel.Hours {
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

    func airSection(_ source: Source<AirQuality, WeatherError>, now: Date, format: WeatherFormatter) -> CityDetailState.Air {
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
    func warningsLine(_ source: Source<CityWarnings, WarningsError>, now: Date, clock: ClockFormat, format: WeatherFormatter) -> WarningsLine {
        let l10n = format.l10n
        func note(_ text: String?) -> WarningsLine { WarningsLine(event: nil, severity: .unknown, times: "", more: nil, note: text) }
        guard let fetched = source.fetched else {
            return note(source.error.map { l10n.format(.warningsUnavailable, Self.warningsReason($0, l10n)) })
        }
        guard case .covered = fetched.value.coverage else {
            return note(l10n.format(.warningsNoSource, l10n.countryNames.name(city.countryCode)))
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
