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

    /// Runs `change` and reads the saved films in the same transaction, then publishes them. The
    /// change can be undone (`UserDatabase.undo`), named by what `change` returns.
    private func write(_ change: (Database) throws -> UserChange?) throws {
        let entries: [WishlistEntry]
        do {
            entries = try database.write(recording: "wishlist", as: { $0.change }) { db in
                let made = try change(db)
                return (change: made, entries: try Self.fetchEntries(db))
            }.entries
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
            return .wishlistAdded(title: movie.title)
        }
    }

    /// Why a write was refused, in SQLite's words ("database or disk is full").
    public struct NotSaved: Error, Equatable {
        public let reason: String
    }

    /// Adds `movies` in one transaction, in order, each unless it is saved already (the same film, or
    /// one of the same title and year, as `add` decides, earlier ones of `movies` included). Returns
    /// how many were added and how many were saved already: counts of what was committed, since
    /// nothing is when the write fails (which throws `NotSaved`).
    public func add(_ movies: [MovieSummary]) throws -> (added: Int, already: Int) {
        let time = now().timeIntervalSince1970
        func key(_ title: String, _ year: Int?) -> String { CatalogueTitles.key(title) + "\u{0}" + (year.map(String.init) ?? "") }
        let (counts, entries): ((added: Int, already: Int), [WishlistEntry])
        do {
            (counts, entries) = try database.write(recording: "wishlist", as: { .wishlistImported(count: $0.0.added) }) { db in
                var counts = (added: 0, already: 0)
                var ids = Set<String>()
                var titles = Set<String>()
                let rows = try Row.fetchCursor(db, sql: "SELECT source, movie_id, title, year FROM wishlist")
                while let row = try rows.next() {
                    ids.insert("\(row[0] as String):\(row[1] as Int64)")
                    titles.insert(key(row[2], row[3]))
                }
                let insert = try db.makeStatement(sql: """
                    INSERT INTO wishlist (source, movie_id, title, year, genres, directors, added_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
                for movie in movies {
                    let id = "\(movie.id.source.rawValue):\(movie.id.value)"
                    guard !ids.contains(id), !titles.contains(key(movie.title, movie.year)) else {
                        counts.already += 1
                        continue
                    }
                    try insert.execute(arguments: StoredSummary.arguments(movie) + [time])
                    ids.insert(id)
                    titles.insert(key(movie.title, movie.year))
                    counts.added += 1
                }
                return (counts, try Self.fetchEntries(db))
            }
        } catch let error as DatabaseError {
            throw NotSaved(reason: error.message ?? "\(error.resultCode)")
        } catch {
            throw NotSaved(reason: "\(error)")
        }
        saved.send(entries)
        return counts
    }

    public func remove(_ id: MovieID) throws {
        try write { db in
            let title = try String.fetchOne(db, sql: "SELECT title FROM wishlist WHERE source = ? AND movie_id = ?",
                                            arguments: [id.source.rawValue, id.value])
            try db.execute(sql: "DELETE FROM wishlist WHERE source = ? AND movie_id = ?",
                           arguments: [id.source.rawValue, id.value])
            return title.map { .wishlistRemoved(title: $0) }
        }
    }

    public func removeAll() throws {
        try write { db in
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM wishlist") ?? 0
            try db.execute(sql: "DELETE FROM wishlist")
            return .wishlistCleared(count: count)
        }
    }
}
