import XCTest
@preconcurrency import OpenCombineShim
@testable import NimbusDomain

final class SearchMoviesUseCaseTests: XCTestCase {
    private final class Movies: MovieRepository {
        let source = MovieSource.catalogue
        var results: [Result<MoviesPage, MovieError>] = []
        private(set) var queries: [String] = []
        func search(query: String, page: Int) -> AnyPublisher<MoviesPage, MovieError> {
            queries.append(query)
            let results = self.results
            return Deferred {
                results.publisher.setFailureType(to: MovieError.self).flatMap { result -> AnyPublisher<MoviesPage, MovieError> in
                    switch result {
                    case .success(let page): return Just(page).setFailureType(to: MovieError.self).eraseToAnyPublisher()
                    case .failure(let error): return Fail(error: error).eraseToAnyPublisher()
                    }
                }
            }.eraseToAnyPublisher()
        }
        func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError> { Fail(error: .notFound).eraseToAnyPublisher() }
    }

    private final class History: MovieHistoryRepository {
        private(set) var saved: [String] = []
        func recentQueries(limit: Int) -> [String] { Array(saved.reversed().prefix(limit)) }
        func saveQuery(_ query: String) throws { saved.append(query) }
        func recentlyViewed(limit: Int) -> [MovieSummary] { [] }
        func recordViewed(_ movie: MovieSummary) throws {}
    }

    private let movies = Movies()
    private let history = History()
    private let heat = MovieSummary(id: MovieID(source: .catalogue, value: 1), title: "Heat", year: 1995, genres: [], directors: [])

    private func run(_ query: String, page: Int = 1) -> [MoviesPage] {
        var values: [MoviesPage] = []
        _ = SearchMoviesUseCase(movies: movies, history: history).execute(query: query, page: page)
            .sink(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
        return values
    }

    private func page(_ movies: [MovieSummary], page: Int = 1) -> MoviesPage {
        MoviesPage(query: "heat", page: page, totalPages: 2, totalResults: movies.count, movies: movies)
    }

    func testAQueryThatFoundFilmsIsSavedTrimmedOnce() {
        movies.results = [.success(page([heat])), .success(page([heat]))]  // cached, then fresh
        XCTAssertEqual(run("  heat \n ").count, 2)
        XCTAssertEqual(movies.queries, ["heat"])
        XCTAssertEqual(history.saved, ["heat"])
    }

    func testAFailureOrAnEmptyResultIsNotSaved() {
        movies.results = [.failure(.offline)]
        XCTAssertEqual(run("heat"), [])
        movies.results = [.success(page([]))]
        XCTAssertEqual(run("nothing").map(\.movies.count), [0])
        XCTAssertEqual(history.saved, [])
    }

    func testOnlyTheFirstPageSavesTheQuery() {
        movies.results = [.success(page([heat], page: 2))]
        _ = run("heat", page: 2)
        XCTAssertEqual(history.saved, [])
    }

    func testWhiteSpaceIsCollapsed() {
        XCTAssertEqual(SearchMoviesUseCase.normalise("  batman \t  begins  "), "batman begins")
        XCTAssertEqual(SearchMoviesUseCase.normalise(" \n "), "")
    }
}
