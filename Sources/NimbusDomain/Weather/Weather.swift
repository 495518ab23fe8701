import Foundation

/// A point on the Earth, in degrees.
public struct Coordinate: Equatable, Hashable, Sendable {
    public let latitude: Double
    public let longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both parts are finite and in range (−90…90, −180…180).
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Great-circle distance in kilometres (haversine, mean Earth radius).
    public func distance(to other: Coordinate) -> Double {
        let r = 6371.0088
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let dφ = φ2 - φ1, dλ = (other.longitude - longitude) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }
}

extension City {
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// The sky, from a WMO weather interpretation code (the codes Open-Meteo uses).
public enum WeatherCondition: Equatable, Hashable, Sendable, CaseIterable {
    case clear, mainlyClear, partlyCloudy, overcast, fog
    case drizzle, freezingDrizzle, rain, freezingRain, snow, snowGrains
    case rainShowers, snowShowers, thunderstorm, thunderstormHail
    case unknown

    public init(wmoCode: Int) {
        switch wmoCode {
        case 0: self = .clear
        case 1: self = .mainlyClear
        case 2: self = .partlyCloudy
        case 3: self = .overcast
        case 45, 48: self = .fog
        case 51, 53, 55: self = .drizzle
        case 56, 57: self = .freezingDrizzle
        case 61, 63, 65: self = .rain
        case 66, 67: self = .freezingRain
        case 71, 73, 75: self = .snow
        case 77: self = .snowGrains
        case 80, 81, 82: self = .rainShowers
        case 85, 86: self = .snowShowers
        case 95: self = .thunderstorm
        case 96, 99: self = .thunderstormHail
        default: self = .unknown
        }
    }
}

/// Conditions now. Metric units throughout: °C, km/h, hPa, mm, %.
public struct CurrentConditions: Equatable, Sendable {
    public let time: Date
    public let temperature: Double
    public let apparentTemperature: Double
    public let humidity: Double
    public let pressure: Double
    public let precipitation: Double
    public let windSpeed: Double
    /// Where the wind comes from, degrees clockwise from north.
    public let windDirection: Double
    public let condition: WeatherCondition
    public let isDay: Bool

    public init(time: Date, temperature: Double, apparentTemperature: Double, humidity: Double, pressure: Double,
                precipitation: Double, windSpeed: Double, windDirection: Double, condition: WeatherCondition,
                isDay: Bool) {
        self.time = time
        self.temperature = temperature
        self.apparentTemperature = apparentTemperature
        self.humidity = humidity
        self.pressure = pressure
        self.precipitation = precipitation
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.condition = condition
        self.isDay = isDay
    }
}

/// One hour of the forecast.
public struct HourlyForecast: Equatable, Sendable {
    public let time: Date
    public let temperature: Double
    /// Percent; nil when the model gives none.
    public let precipitationProbability: Double?
    /// The sky in that hour (`.unknown` when the model gives no code).
    public let condition: WeatherCondition
    /// Whether the sun is up; nil when the model does not say.
    public let isDay: Bool?
    /// Everything that falls in the hour, as water (mm); nil when the model gives none.
    public let precipitation: Double?
    /// Rain and showers in the hour (mm); nil when the model gives neither.
    public let rain: Double?
    /// Fresh snow in the hour (cm of snow, not water); nil when the model gives none.
    public let snowfall: Double?

    public init(time: Date, temperature: Double, precipitationProbability: Double?,
                condition: WeatherCondition = .unknown, isDay: Bool? = nil, precipitation: Double? = nil,
                rain: Double? = nil, snowfall: Double? = nil) {
        self.time = time
        self.temperature = temperature
        self.precipitationProbability = precipitationProbability
        self.condition = condition
        self.isDay = isDay
        self.precipitation = precipitation
        self.rain = rain
        self.snowfall = snowfall
    }
}

/// One day of the forecast.
public struct DailyForecast: Equatable, Sendable {
    /// The place's own calendar date.
    public let day: LocalDate
    public let high: Double
    public let low: Double
    public let condition: WeatherCondition
    public let sunrise: Date?
    public let sunset: Date?
    public init(day: LocalDate, high: Double, low: Double, condition: WeatherCondition, sunrise: Date?, sunset: Date?) {
        self.day = day
        self.high = high
        self.low = low
        self.condition = condition
        self.sunrise = sunrise
        self.sunset = sunset
    }
}

/// The forecast for one place.
public struct Forecast: Equatable, Sendable {
    public let coordinate: Coordinate
    /// Offset of the place's local time from UTC when the forecast was made.
    public let utcOffsetSeconds: Int
    public let current: CurrentConditions
    public let hourly: [HourlyForecast]
    /// Today first.
    public let daily: [DailyForecast]
    /// Yesterday's high and low, asked for in the same request; nil when the answer had none.
    public let yesterday: DayTemperatures?
    public init(coordinate: Coordinate, utcOffsetSeconds: Int, current: CurrentConditions,
                hourly: [HourlyForecast], daily: [DailyForecast], yesterday: DayTemperatures? = nil) {
        self.coordinate = coordinate
        self.utcOffsetSeconds = utcOffsetSeconds
        self.current = current
        self.hourly = hourly
        self.daily = daily
        self.yesterday = yesterday
    }

    /// The hours from `time` on (the hour containing it first), at most `count`.
    public func hours(from time: Date, count: Int) -> [HourlyForecast] {
        let start = hourly.firstIndex { $0.time.addingTimeInterval(3600) > time } ?? hourly.endIndex
        return Array(hourly[start...].prefix(max(0, count)))
    }
}

/// The current temperature of one place, from a batched request.
public struct CurrentTemperature: Equatable, Sendable {
    public let coordinate: Coordinate
    public let temperature: Double
    public let condition: WeatherCondition
    public init(coordinate: Coordinate, temperature: Double, condition: WeatherCondition) {
        self.coordinate = coordinate
        self.temperature = temperature
        self.condition = condition
    }
}

/// Today's range of one place, from a batched request.
public struct DayRange: Equatable, Sendable {
    public let coordinate: Coordinate
    public let high: Double
    public let low: Double
    public let condition: WeatherCondition
    public init(coordinate: Coordinate, high: Double, low: Double, condition: WeatherCondition) {
        self.coordinate = coordinate
        self.high = high
        self.low = low
        self.condition = condition
    }
}

/// Now, today's high and low and the condition of one place, from a batched request (the Today tab).
public struct PlaceWeather: Equatable, Sendable {
    public let coordinate: Coordinate
    public let temperature: Double
    public let high: Double
    public let low: Double
    public let condition: WeatherCondition
    public init(coordinate: Coordinate, temperature: Double, high: Double, low: Double, condition: WeatherCondition) {
        self.coordinate = coordinate
        self.temperature = temperature
        self.high = high
        self.low = low
        self.condition = condition
    }
}

/// A value and when it was fetched from the server; `isCached` when it came from the disk cache.
public struct Fetched<Value: Equatable & Sendable>: Equatable, Sendable {
    public let value: Value
    public let fetchedAt: Date
    public let isCached: Bool
    public init(value: Value, fetchedAt: Date, isCached: Bool) {
        self.value = value
        self.fetchedAt = fetchedAt
        self.isCached = isCached
    }
}

/// Why weather could not be had.
public enum WeatherError: Error, Equatable, Sendable {
    /// No connection to the server (refused, unreachable, lost).
    case offline
    /// The server did not answer in time.
    case timedOut
    /// Too many requests (HTTP 429).
    case rateLimited
    /// Another HTTP status outside 2xx.
    case server(status: Int)
    /// The answer was not a forecast (bad JSON, wrong types, missing fields, empty arrays, too large).
    case badResponse
    /// The configured server address is not a URL (`NIMBUS_WEATHER_URL`).
    case badConfiguration
    /// The connection broke off in the middle of the answer (reset, closed early).
    case connectionLost
    /// The answer was larger than Nimbus accepts (counted after decompression).
    case tooLarge
    /// The answer was not readable HTTP (HTTP/0.9, a body that does not decompress).
    case badReply
    /// The server redirected elsewhere; Nimbus follows redirects only within the configured server.
    case redirected
}
