import Foundation
import GRDB
import NimbusDomain
@preconcurrency import OpenCombineShim

/// Liked cities in the user database: one row per city, newest first.
public final class LikesStore: LikesRepository, UserDatabase.Reloading, Sendable {
    /// The `liked_city` table; passed to `UserDatabase` with the other stores' migrations.
    public static let migration = UserDatabase.Migration("likes-v1") { db in
        try db.create(table: "liked_city") { t in
            t.primaryKey("city_id", .integer)
            t.column("liked_at", .double).notNull()
        }
    }

    private let database: UserDatabase
    /// What is saved: read when the store is made, then again inside every write's transaction and
    /// when another process changed it.
    private let saved: CurrentValueSubject<[Int], Never>
    private let now: @Sendable () -> Date

    public init(database: UserDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
        saved = CurrentValueSubject((try? database.writer.read(Self.fetchIDs)) ?? [])
        database.watch(self)
    }

    /// Another process changed the likes (see `UserDatabase.refreshIfChangedElsewhere`).
    public func reload(_ db: Database) throws -> (() -> Void)? {
        let ids = try Self.fetchIDs(db)
        guard ids != saved.value else { return nil }
        return { [saved] in saved.send(ids) }
    }

    private static func fetchIDs(_ db: Database) throws -> [Int] {
        try Int.fetchAll(db, sql: "SELECT city_id FROM liked_city ORDER BY liked_at DESC, rowid DESC")
    }

    public func likedCityIDs() throws -> [Int] {
        try database.writer.read(Self.fetchIDs)
    }

    public func isLiked(_ cityID: Int) throws -> Bool {
        try database.writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM liked_city WHERE city_id = ?)", arguments: [cityID]) ?? false
        }
    }

    /// One transaction per change; SQLite's journal makes it durable before this returns. The change
    /// can be undone (`UserDatabase.undo`).
    public func setLiked(_ cityID: Int, _ liked: Bool) throws {
        let time = now().timeIntervalSince1970
        let ids = try database.write(recording: "liked_city", as: { _ in liked ? .liked(cityID: cityID) : .unliked(cityID: cityID) }) { db in
            if liked {
                try db.execute(sql: "INSERT OR IGNORE INTO liked_city (city_id, liked_at) VALUES (?, ?)",
                               arguments: [cityID, time])
            } else {
                try db.execute(sql: "DELETE FROM liked_city WHERE city_id = ?", arguments: [cityID])
            }
            return try Self.fetchIDs(db)
        }
        saved.send(ids)
    }

    public var contents: AnyPublisher<[Int], Never> { saved.eraseToAnyPublisher() }
}
