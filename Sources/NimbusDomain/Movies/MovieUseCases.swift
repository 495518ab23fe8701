import Foundation
@preconcurrency import OpenCombineShim

/// Searches films; a query that found something is remembered as a suggestion.
public struct SearchMoviesUseCase {
    private let movies: MovieRepository
    private let history: MovieHistoryRepository

    public init(movies: MovieRepository, history: MovieHistoryRepository) {
        self.movies = movies
        self.history = history
    }

    public var source: MovieSource { movies.source }

    /// A page of results for `query` (trimmed). The query is saved when its first page arrives with results;
    /// never for a failure or an empty result.
    public func execute(query: String, page: Int) -> AnyPublisher<MoviesPage, MovieError> {
        let trimmed = Self.normalise(query)
        let history = self.history
        var saved = false
        return movies.search(query: trimmed, page: page)
            .handleEvents(receiveOutput: { result in
                guard page == 1, !saved, !result.movies.isEmpty else { return }
                saved = true
                try? history.saveQuery(trimmed)
            })
            .eraseToAnyPublisher()
    }

    public func suggestions(limit: Int = 10) -> [String] { history.recentQueries(limit: limit) }

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

    public func recentlyViewed(limit: Int = 10) -> [MovieSummary] { history.recentlyViewed(limit: limit) }
}

/// Adds, removes and lists saved films.
public struct WishlistUseCase {
    public enum Toggle: Equatable, Sendable { case added, removed }

    private let repository: WishlistRepository
    public init(repository: WishlistRepository) { self.repository = repository }

    public func entries() throws -> [WishlistEntry] { try repository.entries() }
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
    public var changes: AnyPublisher<Void, Never> { repository.changes }
}
