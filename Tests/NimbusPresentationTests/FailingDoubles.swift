import Foundation
import XCTest
import NimbusDomain
import OpenCombineShim

// Collaborators a test expects never to be asked: each call fails the test where it happens, naming the
// method, and answers with an empty publisher so the code under test carries on (isowords' `.failing`).

/// A weather repository that must not be called.
final class FailingWeatherRepository: WeatherRepository {
    func forecast(for coordinate: Coordinate) -> AnyPublisher<Fetched<Forecast>, WeatherError> {
        XCTFail("unexpected call to WeatherRepository.forecast(for: \(coordinate))")
        return Empty().eraseToAnyPublisher()
    }

    func currentTemperatures(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<CurrentTemperature>, WeatherError> {
        XCTFail("unexpected call to WeatherRepository.currentTemperatures(for: \(coordinates))")
        return Empty().eraseToAnyPublisher()
    }

    func todayRanges(for coordinates: [Coordinate]) -> AnyPublisher<PlaceAnswers<DayRange>, WeatherError> {
        XCTFail("unexpected call to WeatherRepository.todayRanges(for: \(coordinates))")
        return Empty().eraseToAnyPublisher()
    }

    func placesToday(for coordinates: [Coordinate]) -> AnyPublisher<Fetched<PlaceAnswers<PlaceWeather>>, WeatherError> {
        XCTFail("unexpected call to WeatherRepository.placesToday(for: \(coordinates))")
        return Empty().eraseToAnyPublisher()
    }
}

/// A film repository that must not be called.
final class UnimplementedMovieRepository: MovieRepository {
    let source: MovieSource
    init(source: MovieSource = .catalogue) { self.source = source }

    let filterSupport = MovieFilterSupport.all
    func search(query: String, page: Int, pageSize: Int, filter: MovieFilter) -> AnyPublisher<MoviesPage, MovieError> {
        XCTFail("unexpected call to MovieRepository.search(query: \"\(query)\", page: \(page))")
        return Empty().eraseToAnyPublisher()
    }

    func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError> {
        XCTFail("unexpected call to MovieRepository.details(\(id))")
        return Empty().eraseToAnyPublisher()
    }
}
