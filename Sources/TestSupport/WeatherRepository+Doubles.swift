import Foundation
import Synchronization
import NimbusDomain
@preconcurrency import OpenCombineShim

// The weather repositories tests stand on: one driven by hand, one that must not be asked (isowords'
// `.failing`: each call fails the test where it happens, naming the method, and answers with an empty
// publisher so the code under test carries on), and one that answers every batch at once.

/// A weather repository the test drives by hand: each forecast request is a subject.
public final class ScriptedWeatherRepository: WeatherRepository, Sendable {
    /// What the tests set and read, and what the calls record.
    private struct State {
        var requests: [Coordinate] = []
        var cancellations: Int = 0
        var batches: [[Coordinate]] = []
        var subject: PassthroughSubject<Fetched<Forecast>, WeatherError> = PassthroughSubject()
        var batchSubject: PassthroughSubject<PlaceAnswers<CurrentTemperature>, WeatherError> = PassthroughSubject()
        var rangeSubject: PassthroughSubject<PlaceAnswers<DayRange>, WeatherError> = PassthroughSubject()
        var placesSubject: PassthroughSubject<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> = PassthroughSubject()
    }
    private let state = Mutex(State())
    public private(set) var requests: [Coordinate] {
        get { state.withLock { $0.requests } }
        set { state.withLock { $0.requests = newValue } }
    }
    public private(set) var cancellations: Int {
        get { state.withLock { $0.cancellations } }
        set { state.withLock { $0.cancellations = newValue } }
    }
    public private(set) var batches: [[Coordinate]] {
        get { state.withLock { $0.batches } }
        set { state.withLock { $0.batches = newValue } }
    }
    public var subject: PassthroughSubject<Fetched<Forecast>, WeatherError> {
        get { state.withLock { $0.subject } }
        set { state.withLock { $0.subject = newValue } }
    }
    public var batchSubject: PassthroughSubject<PlaceAnswers<CurrentTemperature>, WeatherError> {
        get { state.withLock { $0.batchSubject } }
        set { state.withLock { $0.batchSubject = newValue } }
    }
    public var rangeSubject: PassthroughSubject<PlaceAnswers<DayRange>, WeatherError> {
        get { state.withLock { $0.rangeSubject } }
        set { state.withLock { $0.rangeSubject = newValue } }
    }

    public init() {}

    public func forecast(for coordinate: Coordinate) -> AnyPublisher<Fetched<Forecast>, WeatherError> {
        requests.append(coordinate)
        subject = PassthroughSubject()
        return subject.handleEvents(receiveCancel: { [weak self] in self?.cancellations += 1 }).eraseToAnyPublisher()
    }

    public func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<CurrentTemperature>, WeatherError> {
        batches.append(coordinates)
        batchSubject = PassthroughSubject()
        return batchSubject.handleEvents(receiveCancel: { [weak self] in self?.cancellations += 1 }).eraseToAnyPublisher()
    }

    public func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<DayRange>, WeatherError> {
        batches.append(coordinates)
        rangeSubject = PassthroughSubject()
        return rangeSubject.eraseToAnyPublisher()
    }

    public var placesSubject: PassthroughSubject<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> {
        get { state.withLock { $0.placesSubject } }
        set { state.withLock { $0.placesSubject = newValue } }
    }

    public func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> {
        batches.append(coordinates)
        placesSubject = PassthroughSubject()
        return placesSubject.handleEvents(receiveCancel: { [weak self] in self?.cancellations += 1 }).eraseToAnyPublisher()
    }
}

/// Answers batches with the place's latitude as its temperature and records every batch.
public final class EchoWeatherRepository: WeatherRepository, Sendable {
    /// What the tests set and read, and what the calls record.
    private struct State {
        var batches: [[Coordinate]] = []
    }
    private let state = Mutex(State())
    public private(set) var batches: [[Coordinate]] {
        get { state.withLock { $0.batches } }
        set { state.withLock { $0.batches = newValue } }
    }

    public init() {}

    public func forecast(for coordinate: Coordinate) -> AnyPublisher<Fetched<Forecast>, WeatherError> {
        recordFailure("forecast was not expected")
        return Empty().eraseToAnyPublisher()
    }

    private func answers<T>(_ coordinates: [Coordinate], _ make: (Coordinate) -> T) -> PlaceAnswers<T> {
        Dictionary(uniqueKeysWithValues: coordinates.map { ($0, .success(make($0))) })
    }

    public func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<CurrentTemperature>, WeatherError> {
        batches.append(coordinates)
        return Just(answers(coordinates) { CurrentTemperature(coordinate: $0, temperature: $0.latitude, condition: .clear) })
            .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
    }

    public func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<DayRange>, WeatherError> {
        batches.append(coordinates)
        return Just(answers(coordinates) { DayRange(coordinate: $0, high: $0.latitude + 5, low: $0.latitude, condition: .rain) })
            .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
    }

    public func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> {
        batches.append(coordinates)
        let places = answers(coordinates) {
            PlaceWeather(coordinate: $0, temperature: $0.latitude, high: $0.latitude + 5, low: $0.latitude - 5, condition: .snow)
        }
        return Just(Fetched(value: places, fetchedAt: Date(timeIntervalSince1970: 0), isCached: false))
            .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
    }
}
