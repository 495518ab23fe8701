import XCTest
import OpenCombineShim
@testable import NimbusDomain
import TestSupport

final class WeatherUseCaseTests: XCTestCase {
    func testCurrentTemperaturesAskOnceForEachPlaceAndForEveryPlace() {
        let repository = EchoWeatherRepository()
        let places = (0..<180).map { Coordinate(latitude: Double($0 % 90), longitude: 0) }
        var result: PlaceAnswers<CurrentTemperature> = [:]
        _ = GetCurrentTemperaturesUseCase(repository: repository).execute(for: places)
            .sink(receiveCompletion: { _ in }, receiveValue: { result = $0 })
        XCTAssertEqual(repository.batches.count, 1, "how many requests that takes is the repository's to decide")
        XCTAssertEqual(repository.batches.first, Array(places.prefix(90)), "each place once, none left out")
        XCTAssertEqual(try result[Coordinate(latitude: 77, longitude: 0)]?.get().temperature, 77)
    }

    func testPlacesTodayAskOnceForAllPlacesAndKeyTheAnswersByPlace() {
        let repository = EchoWeatherRepository()
        let places = [Coordinate(latitude: 37, longitude: 127), Coordinate(latitude: 35, longitude: 139),
                      Coordinate(latitude: 37, longitude: 127)]
        var result: Fetched<PlaceAnswers<PlaceWeather>>?
        _ = GetPlacesTodayUseCase(repository: repository).execute(for: places)
            .sink(receiveCompletion: { _ in }, receiveValue: { result = $0 })
        XCTAssertEqual(repository.batches, [Array(places.prefix(2))])
        XCTAssertEqual(try result?.value[places[1]]?.get().high, 40)
        XCTAssertEqual(result?.value.count, 2)
        // No places: no request, and an empty answer at once.
        _ = GetPlacesTodayUseCase(repository: repository).execute(for: [])
            .sink(receiveCompletion: { _ in }, receiveValue: { result = $0 })
        XCTAssertEqual(repository.batches.count, 1)
        XCTAssertEqual(result?.value.isEmpty, true)
    }

    func testNoPlacesMeansNoRequest() {
        let repository = EchoWeatherRepository()
        var result: PlaceAnswers<DayRange>?
        _ = GetTodayRangesUseCase(repository: repository).execute(for: [])
            .sink(receiveCompletion: { _ in }, receiveValue: { result = $0 })
        XCTAssertEqual(result?.isEmpty, true)
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
