import Foundation
import OpenCombineShim

/// Searches films; a query the user settled on (submitted, or opened a film from) and that found
/// something is remembered as a suggestion.
public struct SearchMoviesUseCase {
    private let movies: MovieRepository
    private let history: MovieHistoryRepository

    public init(movies: MovieRepository, history: MovieHistoryRepository) {
        self.movies = movies
        self.history = history
    }

    public var source: MovieSource { movies.source }

    /// A page of results for `query` (trimmed). Searching saves nothing: the prefixes typed on the way
    /// to a query are not suggestions (see `remember`).
    public func execute(query: String, page: Int, pageSize: Int = MoviesPage.defaultSize,
                        filter: MovieFilter = .none) -> AnyPublisher<MoviesPage, MovieError> {
        movies.search(query: Self.normalise(query), page: page, pageSize: pageSize, filter: movies.filterSupport.applicable(filter))
    }

    /// Which filters the source applies (the catalogue: all; TMDB: one release year).
    public var filterSupport: MovieFilterSupport { movies.filterSupport }

    /// Saves `query` (trimmed) as a recent query when it found films (`resultCount` > 0); a query that
    /// found nothing, or an empty one, is not saved. Returns whether it was saved.
    @discardableResult
    public func remember(_ query: String, resultCount: Int) -> Bool {
        let trimmed = Self.normalise(query)
        guard resultCount > 0, !trimmed.isEmpty else { return false }
        do {
            try history.saveQuery(trimmed)
            return true
        } catch {
            return false
        }
    }

    /// Takes `query` off the recent ones (`z` puts it back); throws `MovieHistoryNotSaved`.
    public func forget(_ query: String) throws { try history.forgetQuery(query) }

    /// The recent queries, newest first, now and after every change.
    public var recentQueries: AnyPublisher<[String], Never> { history.queries }

    /// Collapses runs of white space and trims the ends.
    public static func normalise(_ query: String) -> String {
        query.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// Opens a film: its details, and a place in the recently viewed strip.
public struct MovieDetailsUseCase {
    private let repositories: [MovieRepository]
    private let history: MovieHistoryRepository

    /// `movies` is the source searches use; `others` can still open films saved from another source
    /// (the bundled catalogue while TMDB is in use).
    public init(movies: MovieRepository, others: [MovieRepository] = [], history: MovieHistoryRepository) {
        self.repositories = [movies] + others
        self.history = history
    }

    public func execute(_ id: MovieID) -> AnyPublisher<Movie, MovieError> {
        guard let repository = repositories.first(where: { $0.source == id.source }) else {
            return Fail(error: .sourceUnavailable(id.source)).eraseToAnyPublisher()
        }
        return repository.details(id)
    }

    public func recordViewed(_ movie: MovieSummary) { try? history.recordViewed(movie) }

    /// Takes a film off the recently viewed (not off the wishlist; `z` puts it back); throws
    /// `MovieHistoryNotSaved`.
    public func forgetViewed(_ id: MovieID) throws { try history.forgetViewed(id) }

    /// The recently opened films, newest first, now and after every change.
    public var viewed: AnyPublisher<[MovieSummary], Never> { history.viewed }
}

/// Adds, removes and lists saved films.
public struct WishlistUseCase {
    public enum Toggle: Equatable, Sendable { case added, removed }

    private let repository: WishlistRepository
    public init(repository: WishlistRepository) { self.repository = repository }

    public func contains(_ id: MovieID) -> Bool { repository.contains(id) }

    /// Removes a saved film, or saves an unsaved one (refused as a duplicate when the same title and
    /// year is saved from another source).
    public func toggle(_ movie: MovieSummary) throws -> Toggle {
        if repository.contains(movie.id) {
            try repository.remove(movie.id)
            return .removed
        }
        try repository.add(movie)
        return .added
    }

    public func remove(_ id: MovieID) throws { try repository.remove(id) }
    public func removeAll() throws { try repository.removeAll() }
    /// Every saved film, newest first, now and after every change.
    public var contents: AnyPublisher<[WishlistEntry], Never> { repository.contents }
}
