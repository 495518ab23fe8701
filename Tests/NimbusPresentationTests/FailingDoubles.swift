import Foundation
import XCTest
import NimbusDomain
import OpenCombineShim

// Collaborators a test expects never to be asked: each call fails the test where it happens, naming the
// method, and answers with an empty publisher so the code under test carries on (isowords' `.failing`).

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
