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

    /// A coordinate as the request writes it: four decimals (11 m), far finer than any model's grid.
    private static func text(_ coordinate: Coordinate) -> (latitude: String, longitude: String) {
        (String(format: "%.4f", coordinate.latitude), String(format: "%.4f", coordinate.longitude))
    }

    private func request(_ coordinates: [Coordinate], _ items: [URLQueryItem]) -> HTTPRequest? {
        let texts = coordinates.map(Self.text)
        return HTTPRequest(base: baseURL, path: "/v1/forecast", query: [
            URLQueryItem(name: "latitude", value: texts.map(\.latitude).joined(separator: ",")),
            URLQueryItem(name: "longitude", value: texts.map(\.longitude).joined(separator: ",")),
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

    public func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<CurrentTemperature>, WeatherError> {
        batch(coordinates, [URLQueryItem(name: "current", value: "temperature_2m,weather_code")]) { place, dto in
            try dto.toCurrentTemperature(at: place)
        }
        .map(\.answers)
        .eraseToAnyPublisher()
    }

    public func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<DayRange>, WeatherError> {
        batch(coordinates, [
            URLQueryItem(name: "daily", value: "weather_code,temperature_2m_max,temperature_2m_min"),
            URLQueryItem(name: "forecast_days", value: "1"),
        ]) { place, dto in try dto.toDayRange(at: place) }
        .map(\.answers)
        .eraseToAnyPublisher()
    }

    public func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> {
        let cache = placesCache
        let now = self.now
        let logger = self.logger
        let cached = Deferred { () -> AnyPublisher<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> in
            guard let cache else { return Empty().eraseToAnyPublisher() }
            var places: PlaceAnswers<PlaceWeather> = [:]
            var oldest: Date?
            for coordinate in coordinates {
                guard let entry = cache.read(coordinate),
                      let dto = try? JSONDecoder().decode(OpenMeteoForecastDTO.self, from: entry.body),
                      let place = try? dto.toPlaceWeather(at: coordinate) else { continue }
                places[coordinate] = .success(place)
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
        ]) { place, dto in (try dto.toPlaceWeather(at: place), dto) }
        .map { batch -> Fetched<PlaceAnswers<PlaceWeather>> in
            let fetchedAt = now()
            var answers: PlaceAnswers<PlaceWeather> = [:]
            for (place, answer) in batch.answers {
                switch answer {
                case .success(let (weather, dto)):
                    // Only what decoded and was believed is kept; the cache holds the item as it came.
                    if let cache, let body = try? JSONEncoder().encode(dto) {
                        cache.write(body, for: place, fetchedAt: fetchedAt)
                    }
                    answers[place] = .success(weather)
                case .failure(let error):
                    answers[place] = .failure(error)
                }
            }
            if let logger, batch.failed > 0 {
                logger.info("today's weather: \(batch.failed) of \(coordinates.count) places without a usable answer")
            }
            return Fetched(value: answers, fetchedAt: fetchedAt, isCached: false)
        }
        return cached.append(fresh).eraseToAnyPublisher()
    }

    /// Each place's answer, and how many places have none.
    private struct Batch<T> {
        var answers: [Coordinate: Result<T, WeatherError>] = [:]
        var failed: Int { answers.values.filter { if case .failure = $0 { true } else { false } }.count }
    }

    /// Asks for `coordinates` in as few requests as the server accepts (`OpenMeteoBatch.chunks`), at
    /// most two at a time, and gives every place its own answer, found by its coordinates. A request
    /// that fails (after the retries of the client) fails its own places; the publisher fails only
    /// when every request did, with the first one's error.
    private func batch<T>(_ coordinates: [Coordinate], _ items: [URLQueryItem],
                          _ map: @escaping (Coordinate, OpenMeteoForecastDTO) throws -> T) -> AnyPublisher<Batch<T>, WeatherError> {
        guard !coordinates.isEmpty else { return Just(Batch()).setFailureType(to: WeatherError.self).eraseToAnyPublisher() }
        guard coordinates.allSatisfy(\.isValid), let empty = request([], items) else {
            return Fail(error: .badConfiguration).eraseToAnyPublisher()
        }
        let chunks = OpenMeteoBatch.chunks(coordinates, fixedLength: empty.url.absoluteString.utf8.count, text: Self.text)
        let requests = chunks.enumerated().map { index, chunk -> AnyPublisher<(Int, [Coordinate], Result<[Coordinate: Result<T, WeatherError>], WeatherError>), Never> in
            guard let request = request(chunk, items) else {
                return Just((index, chunk, .failure(.badConfiguration))).eraseToAnyPublisher()
            }
            return client.publisher(for: request)
                .mapError(Self.map)
                .tryMap { response in try OpenMeteoBatch.answers(response.body, places: chunk, map) }
                .mapError { ($0 as? WeatherError) ?? .badResponse }
                .map { (index, chunk, .success($0)) }
                .catch { Just((index, chunk, .failure($0))) }
                .eraseToAnyPublisher()
        }
        return requests.publisher
            .flatMap(maxPublishers: .max(2)) { $0 }
            .collect()
            .tryMap { results -> Batch<T> in
                var batch = Batch<T>()
                var firstError: (index: Int, error: WeatherError)?
                for (index, chunk, result) in results {
                    switch result {
                    case .success(let answers):
                        batch.answers.merge(answers) { _, new in new }
                    case .failure(let error):
                        for place in chunk { batch.answers[place] = .failure(error) }
                        if firstError.map({ index < $0.index }) ?? true { firstError = (index, error) }
                    }
                }
                if results.allSatisfy({ if case .failure = $0.2 { true } else { false } }), let firstError {
                    throw firstError.error
                }
                return batch
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
        case .transport(.redirectRefused), .transport(.redirectLoop): return .redirected
        case .transport: return .offline
        case .server(status: 429): return .rateLimited
        case .server(let status): return .server(status: status)
        case .missingData, .decoding: return .badResponse
        }
    }
}
