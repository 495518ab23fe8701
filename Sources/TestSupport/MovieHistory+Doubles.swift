import Foundation
import NimbusDomain
import OpenCombineShim

/// A film history that keeps nothing: no recent searches, no recently viewed films.
public final class NoMovieHistory: MovieHistoryRepository {
    public init() {}
    public func recentQueries(limit: Int) -> [String] { [] }
    public func saveQuery(_ query: String) throws {}
    public func recentlyViewed(limit: Int) -> [MovieSummary] { [] }
    public func recordViewed(_ movie: MovieSummary) throws {}
    public func forgetQuery(_ query: String) throws {}
    public func forgetViewed(_ id: MovieID) throws {}
    public var queries: AnyPublisher<[String], Never> { Just([]).eraseToAnyPublisher() }
    public var viewed: AnyPublisher<[MovieSummary], Never> { Just([]).eraseToAnyPublisher() }
}
