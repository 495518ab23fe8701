import Foundation
import NimbusDomain
import OpenCombineShim

/// A forecast a one-shot command already had, answered again to the detail's view model so that it
/// formats it as the screen does, without asking the server twice.
struct AnsweredWeather: WeatherRepository {
    let values: ArraySlice<Fetched<Forecast>>
    let failure: WeatherError?

    func forecast(for coordinate: Coordinate) -> AnyPublisher<Fetched<Forecast>, WeatherError> {
        let answers = Publishers.Sequence<ArraySlice<Fetched<Forecast>>, WeatherError>(sequence: values)
        guard let failure else { return answers.eraseToAnyPublisher() }
        return answers.append(Fail(error: failure)).eraseToAnyPublisher()
    }

    func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<CurrentTemperature>, WeatherError> {
        Fail(error: .badConfiguration).eraseToAnyPublisher()
    }

    func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<DayRange>, WeatherError> {
        Fail(error: .badConfiguration).eraseToAnyPublisher()
    }

    func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> {
        Fail(error: .badConfiguration).eraseToAnyPublisher()
    }
}
