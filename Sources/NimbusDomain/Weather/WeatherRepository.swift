import Foundation
import OpenCombineShim

/// What a batched request learned about each place it asked about, keyed by the place as asked:
/// its value, or why there is none (its request failed, or the server's item for it was missing or
/// not believable). One place's trouble never takes another's answer away.
public typealias PlaceAnswers<Value: Sendable> = [Coordinate: Result<Value, WeatherError>]

/// Weather for places; the live one talks to Open-Meteo and keeps a disk cache.
public protocol WeatherRepository: Sendable {
    /// The forecast for `coordinate`: the cached one first when there is one (`isCached`), then a fresh
    /// one. Fails with a `WeatherError` after the cached value when the server can't be reached.
    /// Cancelling the subscription cancels the request.
    func forecast(for coordinate: Coordinate) -> AnyPublisher<Fetched<Forecast>, WeatherError>
    /// Current temperatures of any number of places, in as few requests as the server accepts: an
    /// answer for every place asked about. Fails only when no request was answered at all.
    func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<CurrentTemperature>, WeatherError>
    /// Today's high and low of any number of places, as `currentTemperatures` asks for them.
    func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<DayRange>, WeatherError>
    /// Now, today's range and condition of any number of places: the cached answers first when there
    /// are any (`isCached`, the oldest's time; only the places kept), then fresh ones for every place
    /// asked about. Fails with a `WeatherError` (after the cached value) when no request was answered.
    func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError>
}

/// The forecast of a city: cached first, then fresh.
public struct GetForecastUseCase: Sendable {
    private let repository: WeatherRepository
    public init(repository: WeatherRepository) { self.repository = repository }

    public func execute(for city: City) -> AnyPublisher<Fetched<Forecast>, WeatherError> {
        repository.forecast(for: city.coordinate)
    }
}

/// The places of `coordinates`, each once, in their first order.
private func unique(_ coordinates: [Coordinate]) -> [Coordinate] {
    var seen = Set<Coordinate>()
    return coordinates.filter { seen.insert($0).inserted }
}

/// Current temperatures of many cities (the repository splits them into as few requests as it must).
public struct GetCurrentTemperaturesUseCase: Sendable {
    private let repository: WeatherRepository
    public init(repository: WeatherRepository) { self.repository = repository }

    /// Each place is asked for once, however often it is given.
    public func execute(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<CurrentTemperature>, WeatherError> {
        let places = unique(coordinates)
        guard !places.isEmpty else { return Just([:]).setFailureType(to: WeatherError.self).eraseToAnyPublisher() }
        return repository.currentTemperatures(for: places)
    }
}

/// Today's high and low of many cities.
public struct GetTodayRangesUseCase: Sendable {
    private let repository: WeatherRepository
    public init(repository: WeatherRepository) { self.repository = repository }

    public func execute(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<DayRange>, WeatherError> {
        let places = unique(coordinates)
        guard !places.isEmpty else { return Just([:]).setFailureType(to: WeatherError.self).eraseToAnyPublisher() }
        return repository.todayRanges(for: places)
    }
}

/// Now, high, low and condition of the user's places, for the Today tab: all of them, each once.
public struct GetPlacesTodayUseCase: Sendable {
    private let repository: WeatherRepository
    public init(repository: WeatherRepository) { self.repository = repository }

    public func execute(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> {
        let places = unique(coordinates)
        guard !places.isEmpty else {
            return Just(Fetched(value: [:], fetchedAt: Date(), isCached: false))
                .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
        }
        return repository.placesToday(for: places)
    }
}
