import Foundation
import OpenCombineShim

/// Weather for places; the live one talks to Open-Meteo and keeps a disk cache.
public protocol WeatherRepository: Sendable {
    /// The forecast for `coordinate`: the cached one first when there is one (`isCached`), then a fresh
    /// one. Fails with a `WeatherError` after the cached value when the server can't be reached.
    /// Cancelling the subscription cancels the request.
    func forecast(for coordinate: Coordinate) -> AnyPublisher<Fetched<Forecast>, WeatherError>
    /// Current temperatures for several places in one request, in the order given.
    func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<[CurrentTemperature], WeatherError>
    /// Today's high and low for several places in one request, in the order given.
    func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<[DayRange], WeatherError>
    /// Now, today's range and condition of several places in one request, in the order given: the
    /// cached answers first when there are any (`isCached`, the oldest's time), then fresh ones. Fails
    /// with a `WeatherError` (after the cached value) when the server can't be reached.
    func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<[PlaceWeather]>, WeatherError>
}

/// The forecast of a city: cached first, then fresh.
public struct GetForecastUseCase: Sendable {
    private let repository: WeatherRepository
    public init(repository: WeatherRepository) { self.repository = repository }

    public func execute(for city: City) -> AnyPublisher<Fetched<Forecast>, WeatherError> {
        repository.forecast(for: city.coordinate)
    }
}

/// Current temperatures of many cities, in batches the server accepts in one request.
public struct GetCurrentTemperaturesUseCase: Sendable {
    /// Most places Nimbus asks about in one request.
    public static let batchSize = 50
    private let repository: WeatherRepository
    public init(repository: WeatherRepository) { self.repository = repository }

    /// One request for at most `batchSize` places; duplicates are asked for once.
    public func execute(for coordinates: [Coordinate]) -> AnyPublisher<[Coordinate: CurrentTemperature], WeatherError> {
        var seen = Set<Coordinate>()
        let unique = coordinates.filter { seen.insert($0).inserted }.prefix(Self.batchSize)
        guard !unique.isEmpty else { return Just([:]).setFailureType(to: WeatherError.self).eraseToAnyPublisher() }
        return repository.currentTemperatures(for: Array(unique))
            .map { temperatures in
                var byPlace: [Coordinate: CurrentTemperature] = [:]
                for (coordinate, t) in zip(unique, temperatures) { byPlace[coordinate] = t }
                return byPlace
            }
            .eraseToAnyPublisher()
    }
}

/// Today's high and low of many cities in one request.
public struct GetTodayRangesUseCase: Sendable {
    private let repository: WeatherRepository
    public init(repository: WeatherRepository) { self.repository = repository }

    public func execute(for coordinates: [Coordinate]) -> AnyPublisher<[Coordinate: DayRange], WeatherError> {
        var seen = Set<Coordinate>()
        let unique = coordinates.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return Just([:]).setFailureType(to: WeatherError.self).eraseToAnyPublisher() }
        return repository.todayRanges(for: unique)
            .map { ranges in
                var byPlace: [Coordinate: DayRange] = [:]
                for (coordinate, r) in zip(unique, ranges) { byPlace[coordinate] = r }
                return byPlace
            }
            .eraseToAnyPublisher()
    }
}

/// Now, high, low and condition of the user's places, for the Today tab: one request for all of them.
public struct GetPlacesTodayUseCase: Sendable {
    private let repository: WeatherRepository
    public init(repository: WeatherRepository) { self.repository = repository }

    /// Duplicates are asked for once; at most `GetCurrentTemperaturesUseCase.batchSize` places.
    public func execute(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<[Coordinate: PlaceWeather]>, WeatherError> {
        var seen = Set<Coordinate>()
        let unique = Array(coordinates.filter { seen.insert($0).inserted }.prefix(GetCurrentTemperaturesUseCase.batchSize))
        guard !unique.isEmpty else {
            return Just(Fetched(value: [:], fetchedAt: Date(), isCached: false))
                .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
        }
        return repository.placesToday(for: unique)
            .map { fetched in
                Fetched(value: Dictionary(fetched.value.map { ($0.coordinate, $0) }, uniquingKeysWith: { _, new in new }),
                        fetchedAt: fetched.fetchedAt, isCached: fetched.isCached)
            }
            .eraseToAnyPublisher()
    }
}
