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

    /// Gives both tables a rowid alias (`id`, never reused), which an undoable change needs to put a
    /// row back where it was (`UserDatabase.write(recording:as:_:)`); the rows keep their rowids, so
    /// their order is unchanged.
    public static let idMigration = UserDatabase.Migration("v2-movie-history-ids") { db in
        try db.create(table: "movie_query_new") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("query", .text).notNull().unique().collate(.nocase)
            t.column("searched_at", .double).notNull()
        }
        // Newest first, and a spelling already kept wins over an older one that differs only in case
        // (the old key was case-sensitive; a file from elsewhere may hold both): the migration never
        // fails on the new key, and keeps what `saveQuery` would have kept.
        try db.execute(sql: """
            INSERT OR IGNORE INTO movie_query_new (id, query, searched_at)
            SELECT rowid, query, searched_at FROM movie_query ORDER BY searched_at DESC, rowid DESC
            """)
        try db.drop(table: "movie_query")
        try db.rename(table: "movie_query_new", to: "movie_query")
        try db.create(table: "movie_viewed_new") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("source", .text).notNull()
            t.column("movie_id", .integer).notNull()
            t.column("title", .text).notNull()
            t.column("year", .integer)
            t.column("genres", .text).notNull()
            t.column("directors", .text).notNull()
            t.column("viewed_at", .double).notNull()
            t.uniqueKey(["source", "movie_id"])
        }
        try db.execute(sql: """
            INSERT INTO movie_viewed_new (id, source, movie_id, title, year, genres, directors, viewed_at)
            SELECT rowid, source, movie_id, title, year, genres, directors, viewed_at FROM movie_viewed
            """)
        try db.drop(table: "movie_viewed")
        try db.rename(table: "movie_viewed_new", to: "movie_viewed")
    }

    /// Both steps of the schema, in order.
    public static let migrations = [migration, idMigration]

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

    /// Takes `query` (as spelt) off the recent searches; `z` puts it back where it was.
    public func forgetQuery(_ query: String) throws {
        let queries = try refusal(database.write(recording: "movie_query", as: { $0.forgot ? UserChange.searchForgotten(query: query) : nil }) { db in
            try db.execute(sql: "DELETE FROM movie_query WHERE query = ?", arguments: [query])
            return (forgot: db.changesCount > 0, queries: try Self.fetchQueries(db, limit: Self.keep))
        }).queries
        savedQueries.send(queries)
    }

    /// Takes film `id` off the recently opened (the wishlist keeps it); `z` puts it back where it was.
    public func forgetViewed(_ id: MovieID) throws {
        let viewed = try refusal(database.write(recording: "movie_viewed", as: { $0.title.map(UserChange.viewedForgotten) }) { db in
            let title = try String.fetchOne(db, sql: "SELECT title FROM movie_viewed WHERE source = ? AND movie_id = ?",
                                            arguments: [id.source.rawValue, id.value])
            try db.execute(sql: "DELETE FROM movie_viewed WHERE source = ? AND movie_id = ?",
                           arguments: [id.source.rawValue, id.value])
            return (title: title, viewed: try Self.fetchViewed(db, limit: Self.keep))
        }).viewed
        savedViewed.send(viewed)
    }

    /// A write's result, or its refusal in SQLite's words.
    private func refusal<T>(_ write: @autoclosure () throws -> T) throws -> T {
        do {
            return try write()
        } catch let error as DatabaseError {
            throw MovieHistoryNotSaved(reason: error.message ?? "\(error.resultCode)")
        } catch {
            throw MovieHistoryNotSaved(reason: "\(error)")
        }
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
