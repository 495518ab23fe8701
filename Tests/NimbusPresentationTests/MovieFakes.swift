import Foundation
import XCTest
import NimbusDomain
import OpenCombineShim

/// A movie repository whose every request is answered by the test, through `respond`.
final class ScriptedMovieRepository: MovieRepository {
    let source: MovieSource
    let filterSupport: MovieFilterSupport
    init(source: MovieSource = .catalogue) {
        self.source = source
        filterSupport = source == .catalogue ? .all : MovieFilterSupport(genre: false, yearRange: false, sort: false)
    }
    struct Request: Equatable { let query: String; let page: Int; var filter: MovieFilter = .none }
    private(set) var requests: [Request] = []
    private(set) var cancelled: [Request] = []
    private var pending: [(Request, PassthroughSubject<MoviesPage, MovieError>)] = []
    var movieDetails: [MovieID: Movie] = [:]

    func search(query: String, page: Int, pageSize: Int, filter: MovieFilter) -> AnyPublisher<MoviesPage, MovieError> {
        let request = Request(query: query, page: page, filter: filter)
        let subject = PassthroughSubject<MoviesPage, MovieError>()
        requests.append(request)
        pending.append((request, subject))
        return subject.handleEvents(receiveCancel: { [weak self] in self?.cancelled.append(request) }).eraseToAnyPublisher()
    }

    func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError> {
        guard let movie = movieDetails[id] else { return Fail(error: .notFound).eraseToAnyPublisher() }
        return Just(movie).setFailureType(to: MovieError.self).eraseToAnyPublisher()
    }

    /// Sends a page (or an error) to the newest request for `query`/`page`; `finish` completes it.
    func respond(_ query: String, page: Int, filter: MovieFilter = .none, with result: Result<MoviesPage, MovieError>,
                 finish: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        guard let (_, subject) = pending.last(where: { $0.0 == Request(query: query, page: page, filter: filter) }) else {
            XCTFail("no request for \(query) page \(page); requests: \(requests)", file: file, line: line)
            return
        }
        switch result {
        case .success(let value):
            subject.send(value)
            if finish { subject.send(completion: .finished) }
        case .failure(let error):
            subject.send(completion: .failure(error))
        }
    }
}

final class InMemoryMovieHistory: MovieHistoryRepository {
    private let savedQueries = CurrentValueSubject<[String], Never>([])
    private let savedViewed = CurrentValueSubject<[MovieSummary], Never>([])
    var queries: AnyPublisher<[String], Never> { savedQueries.eraseToAnyPublisher() }
    var viewed: AnyPublisher<[MovieSummary], Never> { savedViewed.eraseToAnyPublisher() }
    func recentQueries(limit: Int) -> [String] { Array(savedQueries.value.prefix(limit)) }
    func saveQuery(_ query: String) throws {
        savedQueries.send([query] + savedQueries.value.filter { $0.lowercased() != query.lowercased() })
    }
    func recentlyViewed(limit: Int) -> [MovieSummary] { Array(savedViewed.value.prefix(limit)) }
    func recordViewed(_ movie: MovieSummary) throws {
        savedViewed.send([movie] + savedViewed.value.filter { $0.id != movie.id })
    }
    func forgetQuery(_ query: String) throws { savedQueries.send(savedQueries.value.filter { $0 != query }) }
    func forgetViewed(_ id: MovieID) throws { savedViewed.send(savedViewed.value.filter { $0.id != id }) }
}

final class InMemoryWishlist: WishlistRepository {
    private let subject = CurrentValueSubject<[WishlistEntry], Never>([])
    var saved: [WishlistEntry] { subject.value }
    var now = Date(timeIntervalSince1970: 1_700_000_000)
    func entries() throws -> [WishlistEntry] { saved }
    func contains(_ id: MovieID) -> Bool { saved.contains { $0.id == id } }
    func add(_ movie: MovieSummary) throws {
        if saved.contains(where: { $0.id == movie.id || ($0.movie.title == movie.title && $0.movie.year == movie.year) }) {
            throw WishlistError.duplicate(title: movie.title)
        }
        now += 60
        subject.send([WishlistEntry(movie: movie, addedAt: now)] + saved)
    }
    func remove(_ id: MovieID) throws { subject.send(saved.filter { $0.id != id }) }
    func removeAll() throws { subject.send([]) }
    var contents: AnyPublisher<[WishlistEntry], Never> { subject.eraseToAnyPublisher() }
}

extension MovieSummary {
    static func film(_ n: Int, _ title: String? = nil, source: MovieSource = .catalogue) -> MovieSummary {
        MovieSummary(id: MovieID(source: source, value: n), title: title ?? "Film \(n)", year: 2000 + n % 20,
                     genres: ["Drama"], directors: ["Director \(n)"])
    }
}

extension MoviesPage {
    /// Page `page` of `total` results, 20 a page, films numbered from `first`.
    static func page(_ query: String, _ page: Int, of total: Int, first: Int? = nil) -> MoviesPage {
        let start = first ?? (page - 1) * 20
        let count = max(0, min(20, total - (page - 1) * 20))
        return MoviesPage(query: query, page: page, totalPages: max(1, (total + 19) / 20), totalResults: total,
                          movies: (start..<start + count).map { MovieSummary.film($0) })
    }
}
