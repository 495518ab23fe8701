import Foundation
import NimbusDomain

/// Open-Meteo `/v1/forecast` responses, as requested with `timeformat=unixtime` and `timezone=auto`.
/// Several locations in one request come back as a JSON array of these; one location as a single object.
struct OpenMeteoForecastDTO: Codable {
    struct Current: Codable {
        let time: Int
        let temperature_2m: Double
        let relative_humidity_2m: Double?
        let apparent_temperature: Double?
        let is_day: Int?
        let precipitation: Double?
        let weather_code: Int?
        let pressure_msl: Double?
        let wind_speed_10m: Double?
        let wind_direction_10m: Double?
    }

    struct Hourly: Codable {
        let time: [Int]
        let temperature_2m: [Double?]
        let precipitation_probability: [Double?]?
        let weather_code: [Int?]?
        let is_day: [Int?]?
        let precipitation: [Double?]?
        let rain: [Double?]?
        let showers: [Double?]?
        let snowfall: [Double?]?
    }

    struct Daily: Codable {
        let time: [Int]
        let weather_code: [Int?]?
        let temperature_2m_max: [Double?]
        let temperature_2m_min: [Double?]
        let sunrise: [Int?]?
        let sunset: [Int?]?
    }

    let latitude: Double
    let longitude: Double
    let utc_offset_seconds: Int?
    let current: Current?
    let hourly: Hourly?
    let daily: Daily?
}

/// The physical bounds a value must lie in to be believed; anything outside (NaN, ±∞, 1e308, a rain
/// chance of 1e20 %) counts as missing, so no chart or formatter downstream ever sees it, and the
/// same check runs on a cached body read back from disk (written, perhaps, by an older version).
enum PhysicalRange {
    static let temperature = -100.0...70.0    // °C (metric is what Nimbus asks for)
    static let percent = 0.0...100.0          // relative humidity, precipitation probability
    static let pressure = 800.0...1100.0      // hPa at sea level
    static let windSpeed = 0.0...500.0        // km/h
    static let direction = 0.0...360.0        // degrees
    static let precipitation = 0.0...1000.0   // mm in an hour
    static let snowfall = 0.0...500.0         // cm of snow in an hour
    /// Unix seconds from 1970 to 2200.
    static let time = 0...7_258_118_400
    /// UTC offsets exist from −12 h to +14 h; a little more is allowed.
    static let utcOffset = -18 * 3600...18 * 3600

    /// `value` when it is in `range`, else nil.
    static func check(_ value: Double?, _ range: ClosedRange<Double>) -> Double? {
        guard let value, range.contains(value) else { return nil }
        return value
    }

    static func date(_ seconds: Int?) -> Date? {
        guard let seconds, time.contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

/// What a response lacked, for the log (the UI says "bad response").
enum OpenMeteoShapeError: Error, Equatable {
    case missing(String)
    case empty(String)
    case outOfRange(String)
}

extension OpenMeteoForecastDTO {
    /// The whole forecast: current conditions, at least one hour and one day.
    func toDomain() throws -> Forecast {
        guard let current else { throw OpenMeteoShapeError.missing("current") }
        guard let hourly else { throw OpenMeteoShapeError.missing("hourly") }
        guard let daily else { throw OpenMeteoShapeError.missing("daily") }
        let allHours = zip(hourly.time.indices, hourly.time).compactMap { i, time -> HourlyForecast? in
            guard i < hourly.temperature_2m.count, let date = PhysicalRange.date(time),
                  let t = PhysicalRange.check(hourly.temperature_2m[i], PhysicalRange.temperature) else { return nil }
            func at<T>(_ list: [T?]?) -> T? { list.flatMap { i < $0.count ? $0[i] : nil } }
            let p = at(hourly.precipitation_probability)
            let rain = PhysicalRange.check(at(hourly.rain), PhysicalRange.precipitation)
            let showers = PhysicalRange.check(at(hourly.showers), PhysicalRange.precipitation)
            return HourlyForecast(
                time: date, temperature: t,
                precipitationProbability: PhysicalRange.check(p, PhysicalRange.percent),
                condition: WeatherCondition(wmoCode: at(hourly.weather_code) ?? -1),
                isDay: at(hourly.is_day).flatMap { $0 == 0 ? false : $0 == 1 ? true : nil },
                precipitation: PhysicalRange.check(at(hourly.precipitation), PhysicalRange.precipitation),
                // Rain and showers fall the same way on a chart; either alone counts, neither is unknown,
                // and together they are held to what one hour can hold like any other amount.
                rain: rain == nil && showers == nil ? nil
                    : PhysicalRange.check((rain ?? 0) + (showers ?? 0), PhysicalRange.precipitation),
                snowfall: PhysicalRange.check(at(hourly.snowfall), PhysicalRange.snowfall))
        }
        let c = current
        guard let time = PhysicalRange.date(c.time) else { throw OpenMeteoShapeError.outOfRange("current.time") }
        let (yesterday, days) = Self.split(try dailyForecasts(daily), at: time, utcOffset: utcOffset)
        // Hours of the past days (`past_days`) are not the forecast's.
        let start = days.first.map { Date(timeIntervalSince1970: TimeInterval($0.day.daysSince1970 * 86400 - utcOffset)) }
            ?? .distantPast
        let hours = allHours.filter { $0.time >= start }
        guard !hours.isEmpty else { throw OpenMeteoShapeError.empty("hourly") }
        let temperature = PhysicalRange.check(c.temperature_2m, PhysicalRange.temperature)
        return Forecast(
            coordinate: try coordinate(),
            utcOffsetSeconds: utcOffset,
            current: CurrentConditions(
                time: time,
                temperature: temperature ?? .nan,
                apparentTemperature: PhysicalRange.check(c.apparent_temperature, PhysicalRange.temperature)
                    ?? temperature ?? .nan,
                humidity: PhysicalRange.check(c.relative_humidity_2m, PhysicalRange.percent) ?? .nan,
                pressure: PhysicalRange.check(c.pressure_msl, PhysicalRange.pressure) ?? .nan,
                precipitation: c.precipitation == nil ? 0
                    : PhysicalRange.check(c.precipitation, PhysicalRange.precipitation) ?? .nan,
                windSpeed: PhysicalRange.check(c.wind_speed_10m, PhysicalRange.windSpeed) ?? .nan,
                windDirection: PhysicalRange.check(c.wind_direction_10m, PhysicalRange.direction) ?? .nan,
                condition: WeatherCondition(wmoCode: c.weather_code ?? -1),
                isDay: (c.is_day ?? 1) != 0),
            hourly: hours,
            daily: days,
            yesterday: yesterday)
    }

    /// The days from the one `now` falls in (today) on, and the day just before it (yesterday's
    /// high and low, from `past_days`), when the answer has it. An answer whose days all lie after
    /// `now` (a clock far behind) keeps them all as the forecast.
    static func split(_ days: [DailyForecast], at now: Date, utcOffset: Int) -> (DayTemperatures?, [DailyForecast]) {
        let date = WallClock(secondsSince1970: Int64(now.timeIntervalSince1970.rounded(.down)) + Int64(utcOffset)).date
        guard let today = days.lastIndex(where: { $0.day <= date }) else { return (nil, days) }
        guard today > 0 else { return (nil, Array(days[today...])) }
        let before = days[today - 1]
        let yesterday = before.day == days[today].day.adding(days: -1)
            ? DayTemperatures(day: before.day, high: before.high, low: before.low) : nil
        return (yesterday, Array(days[today...]))
    }

    /// The place the answer is for; one off the globe makes the whole answer suspect.
    private func coordinate() throws -> Coordinate {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { throw OpenMeteoShapeError.outOfRange("latitude/longitude") }
        return coordinate
    }

    /// The UTC offset, or 0 when it is not one the Earth has.
    private var utcOffset: Int {
        utc_offset_seconds.flatMap { PhysicalRange.utcOffset.contains($0) ? $0 : nil } ?? 0
    }

    /// The current temperature of `place` alone (batched list requests; the server answers for a
    /// grid point near it, and the place asked about is kept).
    func toCurrentTemperature(at place: Coordinate) throws -> CurrentTemperature {
        guard let current else { throw OpenMeteoShapeError.missing("current") }
        return CurrentTemperature(coordinate: place,
                                  temperature: PhysicalRange.check(current.temperature_2m, PhysicalRange.temperature) ?? .nan,
                                  condition: WeatherCondition(wmoCode: current.weather_code ?? -1))
    }

    /// Now, today's range and condition of `place` (batched Today requests).
    func toPlaceWeather(at place: Coordinate) throws -> PlaceWeather {
        let now = try toCurrentTemperature(at: place)
        let range = try toDayRange(at: place)
        return PlaceWeather(coordinate: place, temperature: now.temperature, high: range.high, low: range.low,
                            condition: now.condition == .unknown ? range.condition : now.condition)
    }

    /// Today's range of `place` alone (batched liked-cities requests).
    func toDayRange(at place: Coordinate) throws -> DayRange {
        guard let daily else { throw OpenMeteoShapeError.missing("daily") }
        guard let today = try dailyForecasts(daily).first else { throw OpenMeteoShapeError.empty("daily") }
        return DayRange(coordinate: place, high: today.high, low: today.low, condition: today.condition)
    }

    /// The days in the answer's order, each dated by the place's calendar: Open-Meteo gives a day as
    /// its local midnight in Unix time made with one offset (`utc_offset_seconds`, the offset now)
    /// for every day, so the time plus that offset is the date's midnight on UTC's clock, whatever
    /// daylight-saving change lies between.
    private func dailyForecasts(_ daily: Daily) throws -> [DailyForecast] {
        let days = zip(daily.time.indices, daily.time).compactMap { i, time -> DailyForecast? in
            guard i < daily.temperature_2m_max.count, i < daily.temperature_2m_min.count,
                  let high = PhysicalRange.check(daily.temperature_2m_max[i], PhysicalRange.temperature),
                  let low = PhysicalRange.check(daily.temperature_2m_min[i], PhysicalRange.temperature),
                  let date = PhysicalRange.date(time) else { return nil }
            func at(_ list: [Int?]?) -> Date? {
                PhysicalRange.date(list.flatMap { i < $0.count ? $0[i] : nil })
            }
            let code = daily.weather_code.flatMap { i < $0.count ? $0[i] : nil } ?? -1
            let day = WallClock(secondsSince1970: Int64(date.timeIntervalSince1970) + Int64(utcOffset)).date
            return DailyForecast(day: day, high: high, low: low,
                                 condition: WeatherCondition(wmoCode: code), sunrise: at(daily.sunrise),
                                 sunset: at(daily.sunset))
        }
        guard !days.isEmpty else { throw OpenMeteoShapeError.empty("daily") }
        return days
    }

    /// One object or an array of them, whichever the server sent.
    static func decodeList(_ data: Data) throws -> [OpenMeteoForecastDTO] {
        let decoder = JSONDecoder()
        if let first = data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }), first == UInt8(ascii: "[") {
            return try decoder.decode([OpenMeteoForecastDTO].self, from: data)
        }
        return [try decoder.decode(OpenMeteoForecastDTO.self, from: data)]
    }
}
