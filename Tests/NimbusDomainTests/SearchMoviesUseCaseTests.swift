import XCTest
import OpenCombineShim
@testable import NimbusDomain
import TestSupport

final class SearchMoviesUseCaseTests: XCTestCase {
    private final class Movies: MovieRepository {
        let source = MovieSource.catalogue
        var results: [Result<MoviesPage, MovieError>] = []
        private(set) var queries: [String] = []
        let filterSupport = MovieFilterSupport.all
        func search(query: String, page: Int, pageSize: Int, filter: MovieFilter) -> AnyPublisher<MoviesPage, MovieError> {
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
        func forgetQuery(_ query: String) throws { saved.removeAll { $0 == query } }
        func forgetViewed(_ id: MovieID) throws {}
        var queries: AnyPublisher<[String], Never> { Just(recentQueries(limit: 50)).eraseToAnyPublisher() }
        var viewed: AnyPublisher<[MovieSummary], Never> { Just([]).eraseToAnyPublisher() }
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

    private var useCase: SearchMoviesUseCase { SearchMoviesUseCase(movies: movies, history: history) }

    func testSearchingSavesNothingNotEvenAQueryThatFoundFilms() {
        // Every debounced prefix ("bat", "batm", "batman") is searched; none of them is a suggestion by itself.
        movies.results = [.success(page([heat])), .success(page([heat]))]  // cached, then fresh
        XCTAssertEqual(run("  heat \n ").count, 2)
        XCTAssertEqual(movies.queries, ["heat"], "the query is trimmed")
        XCTAssertEqual(history.saved, [])
    }

    func testARememberedQueryIsSavedTrimmedOnlyWhenItFoundFilms() {
        XCTAssertTrue(useCase.remember("  heat \n ", resultCount: 1))
        XCTAssertFalse(useCase.remember("nothing", resultCount: 0), "an empty result is not saved")
        XCTAssertFalse(useCase.remember("  ", resultCount: 3), "an empty query is not saved")
        XCTAssertEqual(history.saved, ["heat"])
    }

    func testAFailureOrAnEmptyResultIsNotSavedByARememberAfterIt() {
        // What the view model does on Enter: remember with the results it got, none after a failure.
        movies.results = [.failure(.offline)]
        let failed = run("heat")
        XCTAssertEqual(failed, [])
        useCase.remember("heat", resultCount: failed.first?.totalResults ?? 0)
        movies.results = [.success(page([]))]
        let empty = run("nothing")
        XCTAssertEqual(empty.map(\.movies.count), [0])
        useCase.remember("nothing", resultCount: empty.first?.totalResults ?? 0)
        XCTAssertEqual(history.saved, [])
    }

    func testWhiteSpaceIsCollapsed() {
        XCTAssertEqual(SearchMoviesUseCase.normalise("  batman \t  begins  "), "batman begins")
        XCTAssertEqual(SearchMoviesUseCase.normalise(" \n "), "")
    }
}

final class MovieDetailsUseCaseTests: XCTestCase {
    private final class Source: MovieRepository {
        let source: MovieSource
        init(_ source: MovieSource) { self.source = source }
        let filterSupport = MovieFilterSupport.all
        func search(query: String, page: Int, pageSize: Int, filter: MovieFilter) -> AnyPublisher<MoviesPage, MovieError> { Empty().eraseToAnyPublisher() }
        func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError> {
            Just(Movie(id: id, title: "\(source.rawValue) \(id.value)", year: nil, runtime: nil, genres: [], directors: [],
                       writers: [], cast: [], languages: [], countries: [], rated: nil, ratings: MovieRatings()))
                .setFailureType(to: MovieError.self).eraseToAnyPublisher()
        }
    }

    private func open(_ useCase: MovieDetailsUseCase, _ id: MovieID) -> Result<String, MovieError>? {
        var result: Result<String, MovieError>?
        _ = useCase.execute(id).sink(receiveCompletion: { if case .failure(let e) = $0 { result = .failure(e) } },
                                     receiveValue: { result = .success($0.title) })
        return result
    }

    func testAFilmOpensFromItsOwnSourceOrSaysItIsUnavailable() {
        let underTMDB = MovieDetailsUseCase(movies: Source(.tmdb), others: [Source(.catalogue)], history: NoMovieHistory())
        XCTAssertEqual(open(underTMDB, MovieID(source: .catalogue, value: 7)), .success("catalogue 7"))
        XCTAssertEqual(open(underTMDB, MovieID(source: .tmdb, value: 8)), .success("tmdb 8"))
        let offline = MovieDetailsUseCase(movies: Source(.catalogue), history: NoMovieHistory())
        XCTAssertEqual(open(offline, MovieID(source: .tmdb, value: 8)), .failure(.sourceUnavailable(.tmdb)))
    }
}
