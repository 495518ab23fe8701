import Foundation
import GRDB
import NimbusDomain
@preconcurrency import OpenCombineShim

/// The saved films, in the user database; every change is one transaction.
public final class WishlistStore: WishlistRepository, UserDatabase.Reloading, Sendable {
    public static let migration = UserDatabase.Migration("v1-wishlist") { db in
        try db.create(table: "wishlist") { t in
            t.autoIncrementedPrimaryKey("seq")
            t.column("source", .text).notNull()
            t.column("movie_id", .integer).notNull()
            t.column("title", .text).notNull()
            t.column("year", .integer)
            t.column("genres", .text).notNull()
            t.column("directors", .text).notNull()
            t.column("added_at", .double).notNull()
            t.uniqueKey(["source", "movie_id"])
        }
    }

    private let database: UserDatabase
    private let now: @Sendable () -> Date
    /// What is saved: read when the store is made, then again inside every write's transaction and
    /// when another process changed it.
    private let saved: CurrentValueSubject<[WishlistEntry], Never>

    public init(database: UserDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
        saved = CurrentValueSubject((try? database.writer.read(Self.fetchEntries)) ?? [])
        database.watch(self)
    }

    /// Another process changed the wishlist (`nimbus wishlist import`; see `UserDatabase.refreshIfChangedElsewhere`).
    public func reload(_ db: Database) throws -> (() -> Void)? {
        let entries = try Self.fetchEntries(db)
        guard entries != saved.value else { return nil }
        return { [saved] in saved.send(entries) }
    }

    public var contents: AnyPublisher<[WishlistEntry], Never> { saved.eraseToAnyPublisher() }

    private static func fetchEntries(_ db: Database) throws -> [WishlistEntry] {
        try Row.fetchAll(db, sql: "SELECT * FROM wishlist ORDER BY added_at DESC, seq DESC").compactMap { row in
            StoredSummary.decode(row).map { WishlistEntry(movie: $0, addedAt: Date(timeIntervalSince1970: row["added_at"])) }
        }
    }

    public func entries() throws -> [WishlistEntry] {
        do {
            return try database.writer.read(Self.fetchEntries)
        } catch {
            throw WishlistError.storage
        }
    }

    /// Runs `change` and reads the saved films in the same transaction, then publishes them.
    private func write(_ change: (Database) throws -> Void) throws {
        let entries: [WishlistEntry]
        do {
            entries = try database.writer.write { db in
                try change(db)
                return try Self.fetchEntries(db)
            }
        } catch let error as WishlistError {
            throw error
        } catch {
            throw WishlistError.storage
        }
        saved.send(entries)
    }

    public func contains(_ id: MovieID) -> Bool {
        (try? database.writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM wishlist WHERE source = ? AND movie_id = ?)",
                              arguments: [id.source.rawValue, id.value])
        }) ?? false
    }

    public func add(_ movie: MovieSummary) throws {
        let time = now().timeIntervalSince1970
        try write { db in
            // The same film from the other source (same title and year) counts as a duplicate too.
            let duplicate = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM wishlist WHERE (source = ? AND movie_id = ?)
                               OR (lower(title) = lower(?) AND year IS ?))
                """, arguments: [movie.id.source.rawValue, movie.id.value, movie.title, movie.year]) ?? false
            if duplicate { throw WishlistError.duplicate(title: movie.title) }
            try db.execute(sql: """
                INSERT INTO wishlist (source, movie_id, title, year, genres, directors, added_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: StoredSummary.arguments(movie) + [time])
        }
    }

    public func remove(_ id: MovieID) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM wishlist WHERE source = ? AND movie_id = ?",
                           arguments: [id.source.rawValue, id.value])
        }
    }

    public func removeAll() throws {
        try write { db in try db.execute(sql: "DELETE FROM wishlist") }
    }
}
