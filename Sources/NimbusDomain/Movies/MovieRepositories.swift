import Foundation
import OpenCombineShim

/// Film search and details, from the bundled catalogue or from TMDB.
public protocol MovieRepository: AnyObject {
    var source: MovieSource { get }
    /// One page (1-based) of the films matching `query`, narrowed and ordered by `filter` (as far as
    /// `filterSupport` says; callers pass only that). `pageSize` is the rows a page holds where the
    /// source lets it be chosen (the catalogue; TMDB's pages are 20). A repository with a cache may send
    /// the cached page first and the fresh one after.
    func search(query: String, page: Int, pageSize: Int, filter: MovieFilter) -> AnyPublisher<MoviesPage, MovieError>
    /// Which filters the source applies.
    var filterSupport: MovieFilterSupport { get }
    /// The whole record of one film.
    func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError>
}

/// Recent queries and recently opened films.
public protocol MovieHistoryRepository: AnyObject {
    /// Up to `limit` queries, newest first, without duplicates.
    func recentQueries(limit: Int) -> [String]
    func saveQuery(_ query: String) throws
    /// Up to `limit` films, most recently opened first.
    func recentlyViewed(limit: Int) -> [MovieSummary]
    func recordViewed(_ movie: MovieSummary) throws
    /// Takes a query off the recent ones (an undoable change); throws `MovieHistoryNotSaved`.
    func forgetQuery(_ query: String) throws
    /// Takes a film off the recently opened ones (an undoable change; the wishlist keeps it); throws
    /// `MovieHistoryNotSaved`.
    func forgetViewed(_ id: MovieID) throws
    /// The recent queries, newest first: what is saved now when subscribed, then after every change.
    var queries: AnyPublisher<[String], Never> { get }
    /// The recently opened films, newest first: what is saved now when subscribed, then after every change.
    var viewed: AnyPublisher<[MovieSummary], Never> { get }
}

/// A change to the recent searches or the recently viewed films that was refused, in the
/// database's words ("database or disk is full").
public struct MovieHistoryNotSaved: Error, Equatable, Sendable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
}

/// The saved films.
public protocol WishlistRepository: AnyObject {
    /// Every saved film, newest first.
    func entries() throws -> [WishlistEntry]
    func contains(_ id: MovieID) -> Bool
    /// Saves a film; throws `WishlistError.duplicate` when it (or the same title and year) is saved already.
    func add(_ movie: MovieSummary) throws
    func remove(_ id: MovieID) throws
    func removeAll() throws
    /// Every saved film, newest first: what is saved now when subscribed, then after every change.
    /// Screens derive their rows from it, so what they show is what is saved.
    var contents: AnyPublisher<[WishlistEntry], Never> { get }
}

public extension MovieRepository {
    /// One page of the films matching `query`, with no filter.
    func search(query: String, page: Int) -> AnyPublisher<MoviesPage, MovieError> {
        search(query: query, page: page, pageSize: MoviesPage.defaultSize, filter: .none)
    }
}
