import Foundation
import Logging
import FoundationNetworking
import NimbusDomain
import OpenCombineShim

/// Weather from the Open-Meteo forecast API (no key), with the last forecast of each place on disk.
public final class OpenMeteoWeatherRepository: WeatherRepository, Sendable {
    public static let defaultBaseURL = "https://api.open-meteo.com"

    private let client: HTTPClient
    private let baseURL: String
    private let cache: WeatherCache?
    /// The last answer for each of the Today tab's places.
    private let placesCache: WeatherCache?
    private let now: @Sendable () -> Date
    private let timeout: TimeInterval
    /// Says when a kept forecast is shown (nil: logging is off, and nothing is formatted).
    private let logger: Logger?

    /// - Parameters:
    ///   - baseURL: the server (`NIMBUS_WEATHER_URL`), without `/v1/forecast`.
    ///   - cache: where forecasts are kept; nil keeps none.
    ///   - placesCache: where the Today tab's places are kept; nil keeps none.
    public init(client: HTTPClient, baseURL: String = defaultBaseURL, cache: WeatherCache?, placesCache: WeatherCache? = nil,
                timeout: TimeInterval = 10, now: @escaping @Sendable () -> Date = Date.init, logger: Logger? = nil) {
        self.logger = logger
        self.client = client
        self.baseURL = baseURL
        self.cache = cache
        self.placesCache = placesCache
        self.timeout = timeout
        self.now = now
    }

    /// The base URL from the environment, else Open-Meteo's.
    public static func baseURL(environment: [String: String]) -> String {
        HTTPRequest.base(environment["NIMBUS_WEATHER_URL"], else: defaultBaseURL)
    }

    static let currentFields = "temperature_2m,relative_humidity_2m,apparent_temperature,is_day,precipitation,weather_code,pressure_msl,wind_speed_10m,wind_direction_10m"

    /// Hourly: what the charts, the sky row and the precipitation row draw.
    static let hourlyFields = "temperature_2m,precipitation_probability,weather_code,is_day,precipitation,rain,showers,snowfall"

    private func request(_ coordinates: [Coordinate], _ items: [URLQueryItem]) -> HTTPRequest? {
        func list(_ values: [Double]) -> String { values.map { String(format: "%.4f", $0) }.joined(separator: ",") }
        return HTTPRequest(base: baseURL, path: "/v1/forecast", query: [
            URLQueryItem(name: "latitude", value: list(coordinates.map(\.latitude))),
            URLQueryItem(name: "longitude", value: list(coordinates.map(\.longitude))),
        ] + items + [
            URLQueryItem(name: "timezone", value: "auto"),
            URLQueryItem(name: "timeformat", value: "unixtime"),
        ], timeout: timeout, maxBytes: 2 << 20)
    }

    public func forecast(for coordinate: Coordinate) -> AnyPublisher<Fetched<Forecast>, WeatherError> {
        guard coordinate.isValid, let request = request([coordinate], [
            URLQueryItem(name: "current", value: Self.currentFields),
            URLQueryItem(name: "hourly", value: Self.hourlyFields),
            URLQueryItem(name: "daily", value: "weather_code,temperature_2m_max,temperature_2m_min,sunrise,sunset"),
            URLQueryItem(name: "forecast_days", value: "7"),
            // Yesterday too, in the same request: "3° warmer than yesterday".
            URLQueryItem(name: "past_days", value: "1"),
        ]) else {
            return Fail(error: .badConfiguration).eraseToAnyPublisher()
        }
        return WeatherCache.keptThenFresh(cache, coordinate: coordinate, client: client, request: request, now: now,
                                          logger: logger, what: "forecast") { try Self.single($0).toDomain() }
    }

    public func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<[CurrentTemperature], WeatherError> {
        batch(coordinates, [URLQueryItem(name: "current", value: "temperature_2m,weather_code")]) {
            try $0.toCurrentTemperature()
        }
    }

    public func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<[DayRange], WeatherError> {
        batch(coordinates, [
            URLQueryItem(name: "daily", value: "weather_code,temperature_2m_max,temperature_2m_min"),
            URLQueryItem(name: "forecast_days", value: "1"),
        ]) { try $0.toDayRange() }
    }

    public func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<[PlaceWeather]>, WeatherError> {
        let cache = placesCache
        let now = self.now
        let logger = self.logger
        let cached = Deferred { () -> AnyPublisher<Fetched<[PlaceWeather]>, WeatherError> in
            guard let cache else { return Empty().eraseToAnyPublisher() }
            var places: [PlaceWeather] = []
            var oldest: Date?
            for coordinate in coordinates {
                guard let entry = cache.read(coordinate),
                      let dto = try? JSONDecoder().decode(OpenMeteoForecastDTO.self, from: entry.body),
                      let place = try? dto.toPlaceWeather(at: coordinate) else { continue }
                places.append(place)
                oldest = min(oldest ?? entry.fetchedAt, entry.fetchedAt)
            }
            guard let oldest else { return Empty().eraseToAnyPublisher() }
            logger?.info("today's weather of \(places.count) of \(coordinates.count) places from the kept copy, the oldest fetched \(Int(now().timeIntervalSince(oldest))) s ago")
            return Just(Fetched(value: places, fetchedAt: oldest, isCached: true))
                .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
        }
        let fresh = batch(coordinates, [
            URLQueryItem(name: "current", value: "temperature_2m,weather_code"),
            URLQueryItem(name: "daily", value: "weather_code,temperature_2m_max,temperature_2m_min"),
            URLQueryItem(name: "forecast_days", value: "1"),
        ]) { $0 }
        .tryMap { answers -> Fetched<[PlaceWeather]> in
            let fetchedAt = now()
            let places = try zip(coordinates, answers).map { coordinate, dto in
                let place = try dto.toPlaceWeather(at: coordinate)
                // Only what decoded and was believed is kept; the cache holds the answer as it came.
                if let cache, let body = try? JSONEncoder().encode(dto) {
                    cache.write(body, for: coordinate, fetchedAt: fetchedAt)
                }
                return place
            }
            return Fetched(value: places, fetchedAt: fetchedAt, isCached: false)
        }
        .mapError { ($0 as? WeatherError) ?? .badResponse }
        return cached.append(fresh).eraseToAnyPublisher()
    }

    private func batch<T>(_ coordinates: [Coordinate], _ items: [URLQueryItem],
                          _ map: @escaping (OpenMeteoForecastDTO) throws -> T) -> AnyPublisher<[T], WeatherError> {
        guard !coordinates.isEmpty else { return Just([]).setFailureType(to: WeatherError.self).eraseToAnyPublisher() }
        guard coordinates.allSatisfy(\.isValid), let request = request(coordinates, items) else {
            return Fail(error: .badConfiguration).eraseToAnyPublisher()
        }
        let count = coordinates.count
        return client.publisher(for: request)
            .mapError(Self.map)
            .tryMap { response -> [T] in
                let list = try OpenMeteoForecastDTO.decodeList(response.body)
                // One answer per place asked about, in the same order.
                guard list.count == count else { throw WeatherError.badResponse }
                return try list.map(map)
            }
            .mapError { ($0 as? WeatherError) ?? .badResponse }
            .eraseToAnyPublisher()
    }

    private static func single(_ body: Data) throws -> OpenMeteoForecastDTO {
        let list = try OpenMeteoForecastDTO.decodeList(body)
        guard list.count == 1, let first = list.first else { throw WeatherError.badResponse }
        return first
    }

    /// The network layer's error as the domain sees it.
    static func map(_ error: HTTPError) -> WeatherError {
        switch error {
        case .invalidURL: return .badConfiguration
        case .transport(.timedOut): return .timedOut
        case .transport(.tooLarge): return .tooLarge
        case .transport(.connectionLost), .transport(.other(code: NSURLErrorBadServerResponse)): return .connectionLost
        case .transport(.badReply): return .badReply
        case .transport(.redirectRefused): return .redirected
        case .transport: return .offline
        case .server(status: 429): return .rateLimited
        case .server(let status): return .server(status: status)
        case .missingData, .decoding: return .badResponse
        }
    }
}
