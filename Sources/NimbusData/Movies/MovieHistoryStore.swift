import Foundation
import GRDB
import NimbusDomain
@preconcurrency import OpenCombineShim

/// Recent queries and recently opened films, in the user database.
public final class MovieHistoryStore: MovieHistoryRepository, UserDatabase.Reloading, Sendable {
    public static let migration = UserDatabase.Migration("v1-movie-history") { db in
        try db.create(table: "movie_query") { t in
            t.primaryKey("query", .text)
            t.column("searched_at", .double).notNull()
        }
        try db.create(table: "movie_viewed") { t in
            t.column("source", .text).notNull()
            t.column("movie_id", .integer).notNull()
            t.column("title", .text).notNull()
            t.column("year", .integer)
            t.column("genres", .text).notNull()
            t.column("directors", .text).notNull()
            t.column("viewed_at", .double).notNull()
            t.primaryKey(["source", "movie_id"])
        }
    }

    /// How many of each are kept on disk.
    static let keep = 50

    private let database: UserDatabase
    private let now: @Sendable () -> Date
    /// What is saved: read when the store is made, then again inside every write's transaction and
    /// when another process changed it.
    private let savedQueries: CurrentValueSubject<[String], Never>
    private let savedViewed: CurrentValueSubject<[MovieSummary], Never>

    public init(database: UserDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
        savedQueries = CurrentValueSubject((try? database.writer.read { try Self.fetchQueries($0, limit: Self.keep) }) ?? [])
        savedViewed = CurrentValueSubject((try? database.writer.read { try Self.fetchViewed($0, limit: Self.keep) }) ?? [])
        database.watch(self)
    }

    /// Another process searched or opened films (see `UserDatabase.refreshIfChangedElsewhere`).
    public func reload(_ db: Database) throws -> (() -> Void)? {
        let queries = try Self.fetchQueries(db, limit: Self.keep), viewed = try Self.fetchViewed(db, limit: Self.keep)
        let newQueries = queries != savedQueries.value, newViewed = viewed != savedViewed.value
        guard newQueries || newViewed else { return nil }
        return { [savedQueries, savedViewed] in
            if newQueries { savedQueries.send(queries) }
            if newViewed { savedViewed.send(viewed) }
        }
    }

    public var queries: AnyPublisher<[String], Never> { savedQueries.eraseToAnyPublisher() }
    public var viewed: AnyPublisher<[MovieSummary], Never> { savedViewed.eraseToAnyPublisher() }

    private static func fetchQueries(_ db: Database, limit: Int) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT query FROM movie_query ORDER BY searched_at DESC, rowid DESC LIMIT ?",
                            arguments: [limit])
    }

    private static func fetchViewed(_ db: Database, limit: Int) throws -> [MovieSummary] {
        try Row.fetchAll(db, sql: "SELECT * FROM movie_viewed ORDER BY viewed_at DESC, rowid DESC LIMIT ?",
                         arguments: [limit]).compactMap(StoredSummary.decode)
    }

    public func recentQueries(limit: Int) -> [String] {
        (try? database.writer.read { try Self.fetchQueries($0, limit: limit) }) ?? []
    }

    public func saveQuery(_ query: String) throws {
        guard !query.isEmpty else { return }
        let time = now().timeIntervalSince1970
        let queries = try database.writer.write { db in
            // Case-insensitive de-duplication: the newest spelling wins.
            try db.execute(sql: "DELETE FROM movie_query WHERE lower(query) = lower(?)", arguments: [query])
            try db.execute(sql: "INSERT INTO movie_query (query, searched_at) VALUES (?, ?)", arguments: [query, time])
            try db.execute(sql: """
                DELETE FROM movie_query WHERE query NOT IN
                  (SELECT query FROM movie_query ORDER BY searched_at DESC, rowid DESC LIMIT ?)
                """, arguments: [Self.keep])
            return try Self.fetchQueries(db, limit: Self.keep)
        }
        savedQueries.send(queries)
    }

    public func recentlyViewed(limit: Int) -> [MovieSummary] {
        (try? database.writer.read { try Self.fetchViewed($0, limit: limit) }) ?? []
    }

    public func recordViewed(_ movie: MovieSummary) throws {
        let time = now().timeIntervalSince1970
        let viewed = try database.writer.write { db in
            try db.execute(sql: "DELETE FROM movie_viewed WHERE source = ? AND movie_id = ?",
                           arguments: [movie.id.source.rawValue, movie.id.value])
            try db.execute(sql: """
                INSERT INTO movie_viewed (source, movie_id, title, year, genres, directors, viewed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: StoredSummary.arguments(movie) + [time])
            try db.execute(sql: """
                DELETE FROM movie_viewed WHERE rowid NOT IN
                  (SELECT rowid FROM movie_viewed ORDER BY viewed_at DESC, rowid DESC LIMIT ?)
                """, arguments: [Self.keep])
            return try Self.fetchViewed(db, limit: Self.keep)
        }
        savedViewed.send(viewed)
    }
}

/// How a `MovieSummary` is kept in a row: lists joined by U+001F.
enum StoredSummary {
    static let separator = "\u{1F}"

    static func arguments(_ movie: MovieSummary) -> StatementArguments {
        [movie.id.source.rawValue, movie.id.value, movie.title, movie.year,
         movie.genres.joined(separator: separator), movie.directors.joined(separator: separator)]
    }

    static func decode(_ row: Row) -> MovieSummary? {
        guard let source = MovieSource(rawValue: row["source"]) else { return nil }
        func list(_ s: String) -> [String] { s.isEmpty ? [] : s.components(separatedBy: separator) }
        return MovieSummary(id: MovieID(source: source, value: row["movie_id"]), title: row["title"], year: row["year"],
                            genres: list(row["genres"]), directors: list(row["directors"]))
    }
}
