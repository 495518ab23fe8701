import Foundation
import NimbusDomain

/// Open-Meteo `/v1/forecast` responses, as requested with `timeformat=unixtime` and `timezone=auto`.
/// Several locations in one request come back as a JSON array of these; one location as a single object.
struct OpenMeteoForecastDTO: Decodable {
    struct Current: Decodable {
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

    struct Hourly: Decodable {
        let time: [Int]
        let temperature_2m: [Double?]
        let precipitation_probability: [Double?]?
    }

    struct Daily: Decodable {
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

/// What a response lacked, for the log (the UI says "bad response").
enum OpenMeteoShapeError: Error, Equatable {
    case missing(String)
    case empty(String)
}

extension OpenMeteoForecastDTO {
    /// The whole forecast: current conditions, at least one hour and one day.
    func toDomain() throws -> Forecast {
        guard let current else { throw OpenMeteoShapeError.missing("current") }
        guard let hourly else { throw OpenMeteoShapeError.missing("hourly") }
        guard let daily else { throw OpenMeteoShapeError.missing("daily") }
        let hours = zip(hourly.time.indices, hourly.time).compactMap { i, time -> HourlyForecast? in
            guard i < hourly.temperature_2m.count, let t = hourly.temperature_2m[i], t.isFinite else { return nil }
            let p = hourly.precipitation_probability.flatMap { i < $0.count ? $0[i] : nil }
            return HourlyForecast(time: Date(timeIntervalSince1970: TimeInterval(time)), temperature: t,
                                  precipitationProbability: p)
        }
        guard !hours.isEmpty else { throw OpenMeteoShapeError.empty("hourly") }
        let days = try dailyForecasts(daily)
        let c = current
        return Forecast(
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            utcOffsetSeconds: utc_offset_seconds ?? 0,
            current: CurrentConditions(
                time: Date(timeIntervalSince1970: TimeInterval(c.time)),
                temperature: c.temperature_2m,
                apparentTemperature: c.apparent_temperature ?? c.temperature_2m,
                humidity: c.relative_humidity_2m ?? .nan,
                pressure: c.pressure_msl ?? .nan,
                precipitation: c.precipitation ?? 0,
                windSpeed: c.wind_speed_10m ?? .nan,
                windDirection: c.wind_direction_10m ?? .nan,
                condition: WeatherCondition(wmoCode: c.weather_code ?? -1),
                isDay: (c.is_day ?? 1) != 0),
            hourly: hours,
            daily: days)
    }

    /// The current temperature alone (batched list requests).
    func toCurrentTemperature() throws -> CurrentTemperature {
        guard let current else { throw OpenMeteoShapeError.missing("current") }
        return CurrentTemperature(coordinate: Coordinate(latitude: latitude, longitude: longitude),
                                  temperature: current.temperature_2m,
                                  condition: WeatherCondition(wmoCode: current.weather_code ?? -1))
    }

    /// Today's range alone (batched liked-cities requests).
    func toDayRange() throws -> DayRange {
        guard let daily else { throw OpenMeteoShapeError.missing("daily") }
        guard let today = try dailyForecasts(daily).first else { throw OpenMeteoShapeError.empty("daily") }
        return DayRange(coordinate: Coordinate(latitude: latitude, longitude: longitude),
                        high: today.high, low: today.low, condition: today.condition)
    }

    private func dailyForecasts(_ daily: Daily) throws -> [DailyForecast] {
        let days = zip(daily.time.indices, daily.time).compactMap { i, time -> DailyForecast? in
            guard i < daily.temperature_2m_max.count, i < daily.temperature_2m_min.count,
                  let high = daily.temperature_2m_max[i], let low = daily.temperature_2m_min[i],
                  high.isFinite, low.isFinite else { return nil }
            func at(_ list: [Int?]?) -> Date? {
                list.flatMap { i < $0.count ? $0[i] : nil }.map { Date(timeIntervalSince1970: TimeInterval($0)) }
            }
            let code = daily.weather_code.flatMap { i < $0.count ? $0[i] : nil } ?? -1
            return DailyForecast(date: Date(timeIntervalSince1970: TimeInterval(time)), high: high, low: low,
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
