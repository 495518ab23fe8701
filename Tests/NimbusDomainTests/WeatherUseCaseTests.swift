import XCTest
import OpenCombineShim
@testable import NimbusDomain

/// Answers batches with the place's latitude as its temperature and records every batch.
private final class EchoWeatherRepository: WeatherRepository, @unchecked Sendable {
    var batches: [[Coordinate]] = []

    func forecast(for coordinate: Coordinate) -> AnyPublisher<Fetched<Forecast>, WeatherError> {
        XCTFail("forecast was not expected")
        return Empty().eraseToAnyPublisher()
    }

    func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<[CurrentTemperature], WeatherError> {
        batches.append(coordinates)
        return Just(coordinates.map { CurrentTemperature(coordinate: $0, temperature: $0.latitude, condition: .clear) })
            .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
    }

    func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<[DayRange], WeatherError> {
        batches.append(coordinates)
        return Just(coordinates.map { DayRange(coordinate: $0, high: $0.latitude + 5, low: $0.latitude, condition: .rain) })
            .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
    }

    func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<[PlaceWeather]>, WeatherError> {
        batches.append(coordinates)
        let places = coordinates.map {
            PlaceWeather(coordinate: $0, temperature: $0.latitude, high: $0.latitude + 5, low: $0.latitude - 5, condition: .snow)
        }
        return Just(Fetched(value: places, fetchedAt: Date(timeIntervalSince1970: 0), isCached: false))
            .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
    }
}

final class WeatherUseCaseTests: XCTestCase {
    func testCurrentTemperaturesAskOnceForEachPlaceAndAtMostOneBatch() {
        let repository = EchoWeatherRepository()
        let places = (0..<80).map { Coordinate(latitude: Double($0 % 60), longitude: 0) }
        var result: [Coordinate: CurrentTemperature] = [:]
        _ = GetCurrentTemperaturesUseCase(repository: repository).execute(for: places)
            .sink(receiveCompletion: { _ in }, receiveValue: { result = $0 })
        XCTAssertEqual(repository.batches.count, 1)
        XCTAssertEqual(repository.batches.first?.count, GetCurrentTemperaturesUseCase.batchSize)
        XCTAssertEqual(result[Coordinate(latitude: 7, longitude: 0)]?.temperature, 7)
    }

    func testPlacesTodayAskOnceForAllPlacesAndKeyTheAnswersByPlace() {
        let repository = EchoWeatherRepository()
        let places = [Coordinate(latitude: 37, longitude: 127), Coordinate(latitude: 35, longitude: 139),
                      Coordinate(latitude: 37, longitude: 127)]
        var result: Fetched<[Coordinate: PlaceWeather]>?
        _ = GetPlacesTodayUseCase(repository: repository).execute(for: places)
            .sink(receiveCompletion: { _ in }, receiveValue: { result = $0 })
        XCTAssertEqual(repository.batches, [Array(places.prefix(2))])
        XCTAssertEqual(result?.value[places[1]]?.high, 40)
        XCTAssertEqual(result?.value.count, 2)
        // No places: no request, and an empty answer at once.
        _ = GetPlacesTodayUseCase(repository: repository).execute(for: [])
            .sink(receiveCompletion: { _ in }, receiveValue: { result = $0 })
        XCTAssertEqual(repository.batches.count, 1)
        XCTAssertEqual(result?.value, [:])
    }

    func testNoPlacesMeansNoRequest() {
        let repository = EchoWeatherRepository()
        var result: [Coordinate: DayRange]?
        _ = GetTodayRangesUseCase(repository: repository).execute(for: [])
            .sink(receiveCompletion: { _ in }, receiveValue: { result = $0 })
        XCTAssertEqual(result, [:])
        XCTAssertTrue(repository.batches.isEmpty)
    }

    func testWMOCodesMapToConditions() {
        XCTAssertEqual(WeatherCondition(wmoCode: 0), .clear)
        XCTAssertEqual(WeatherCondition(wmoCode: 63), .rain)
        XCTAssertEqual(WeatherCondition(wmoCode: 99), .thunderstormHail)
        XCTAssertEqual(WeatherCondition(wmoCode: -1), .unknown)
        XCTAssertEqual(WeatherCondition(wmoCode: 1000), .unknown)
    }

    func testCoordinatesValidateAndMeasure() {
        XCTAssertTrue(Coordinate(latitude: 37.5, longitude: 127).isValid)
        XCTAssertFalse(Coordinate(latitude: 91, longitude: 0).isValid)
        XCTAssertFalse(Coordinate(latitude: .nan, longitude: 0).isValid)
        // Seoul to Busan: 330 km as the crow flies.
        let d = Coordinate(latitude: 37.566, longitude: 126.9784).distance(to: Coordinate(latitude: 35.1028, longitude: 129.0403))
        XCTAssertEqual(d, 330.3, accuracy: 0.5)
    }
}
