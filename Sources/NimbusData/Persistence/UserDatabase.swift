import Foundation
import GRDB
import NimbusDomain
import Synchronization

/// The user's own data (likes, wishlist, recent queries) in one SQLite file, `nimbus.sqlite`,
/// under `$XDG_DATA_HOME/nimbus`.
///
/// The file is created with mode 0600 and every write is a transaction. A file that SQLite can't
/// read (not a database, corrupt, or with a schema this version can't migrate) is moved aside,
/// never emptied in place: a fresh database is created next to it and `recovery` says where the old
/// one went, so the app can tell the user.
public final class UserDatabase: Sendable {
    /// One schema step. Each store declares its own (`LikesStore.migration`, ...); the app passes
    /// them all, in a fixed order, to `init`.
    public struct Migration: Sendable {
        public let identifier: String
        public let migrate: @Sendable (Database) throws -> Void
        public init(_ identifier: String, migrate: @escaping @Sendable (Database) throws -> Void) {
            self.identifier = identifier
            self.migrate = migrate
        }
    }

    /// What happened to an unreadable database file.
    public struct Recovery: Equatable, Sendable {
        /// Where the unreadable file was moved.
        public let movedTo: URL
        /// SQLite's reason, for the log line (not shown as is in the UI).
        public let reason: String
    }

    public static let fileName = "nimbus.sqlite"

    /// A store that publishes what is saved, and reads it again when another connection changed the file.
    public protocol Reloading: AnyObject, Sendable {
        /// Reads the store's contents (inside a read of the database); returns what publishes them if
        /// they are not what the store last published, else nil. Publishing happens after the read, so
        /// what it wakes may use the database.
        func reload(_ db: Database) throws -> (() -> Void)?
    }

    /// What `refreshIfChangedElsewhere` compares and whom it tells.
    private struct Watch {
        /// SQLite's `PRAGMA data_version` when last read: it changes when another connection commits.
        var version: Int?
        var stores: [Weak] = []
    }
    private struct Weak { weak var store: (any Reloading)? }
    private let watch = Mutex(Watch())
    /// The changes made through this connection that `z` can undo (see `write(recording:as:_:)`);
    /// the app gives the settings' changes to the same log.
    public let changeLog = ChangeLog()

    /// The stores that publish what is saved, for a change they did not make themselves.
    func watchedStores() -> [any Reloading] {
        watch.withLock { watch in
            watch.stores.removeAll { $0.store == nil }
            return watch.stores.compactMap(\.store)
        }
    }

    /// The connection every store writes through.
    public let writer: DatabaseQueue
    /// Set when the file on disk could not be read and was moved aside.
    public let recovery: Recovery?
    /// The file, or nil for an in-memory database.
    public let url: URL?
    /// Why the data lives in memory only, when a data directory could not be used.
    public let unavailableReason: (directory: String, reason: String)?

    /// What the user should be told about their data.
    public var status: UserDataStatus {
        if let recovery { return .recovered(movedTo: recovery.movedTo.path) }
        if let unavailableReason { return .notSaved(directory: unavailableReason.directory, reason: unavailableReason.reason) }
        return .saved
    }

    /// Opens (creating when missing) the database in `directory`, running `migrations`.
    ///
    /// Nothing at the database's path is followed: a symbolic link, directory, fifo or other non-file
    /// there is moved aside (`nimbus.sqlite.unexpected-…`, reported like a corrupt file) and a fresh
    /// database is made; only a file this app creates gets its mode set.
    public init(directory: URL, migrations: [Migration]) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true,
                               attributes: [.posixPermissions: 0o700])
        let url = directory.appendingPathComponent(Self.fileName)
        self.url = url
        unavailableReason = nil
        var recovery: Recovery?
        let kind = SafeFile.kind(atPath: url.path)
        if kind != .missing, kind != .regular {
            let aside = SafeFile.asideURL(for: url, label: "unexpected")
            try Self.move(url, to: aside)
            recovery = Recovery(movedTo: aside, reason: "a \(kind.name) was at \(url.path)")
        }
        // Leftovers of SQLite's that are not plain files would be followed by SQLite: moved aside too.
        for suffix in Self.sidecarSuffixes {
            let extra = URL(fileURLWithPath: url.path + suffix)
            let kind = SafeFile.kind(atPath: extra.path)
            if kind != .missing, kind != .regular {
                try Self.move(extra, to: SafeFile.asideURL(for: extra, label: "unexpected"))
            }
        }
        do {
            writer = try Self.open(url, migrations: migrations)
        } catch let error as DatabaseError where Self.isUnreadable(error) {
            let aside = SafeFile.asideURL(for: url, label: "corrupt")
            try Self.move(url, to: aside)
            for suffix in Self.sidecarSuffixes where SafeFile.kind(atPath: url.path + suffix) != .missing {
                try? Self.move(URL(fileURLWithPath: url.path + suffix), to: URL(fileURLWithPath: aside.path + suffix))
            }
            writer = try Self.open(url, migrations: migrations)
            recovery = Recovery(movedTo: aside, reason: error.message ?? "\(error.resultCode)")
        }
        self.recovery = recovery
        watch.withLock { $0.version = try? writer.read(Self.dataVersion) }
    }

    private static func dataVersion(_ db: Database) throws -> Int? {
        try Int.fetchOne(db, sql: "PRAGMA data_version")
    }

    /// Adds a store that `refreshIfChangedElsewhere` reads again (held weakly: a store made for one
    /// command goes away with it).
    public func watch(_ store: any Reloading) {
        watch.withLock { watch in
            watch.stores.removeAll { $0.store == nil }
            watch.stores.append(Weak(store: store))
        }
    }

    /// When another connection (another process: `nimbus wishlist import`, a second window) committed
    /// to the file since the last look, every watched store reads its contents again and publishes
    /// them if they changed, so what is shown is what is saved. Its own writes do not count: each store
    /// publishes those itself. Cheap (one pragma read) when nothing changed; the app calls it when a tab
    /// is shown and on a timer. Returns whether anything was published.
    @discardableResult
    public func refreshIfChangedElsewhere() -> Bool {
        guard url != nil else { return false }  // in memory: no other connection can see it
        let stores = watchedStores()
        let publish: [() -> Void]
        do {
            publish = try writer.read { db -> [() -> Void] in
                let version = try Self.dataVersion(db)
                let changed = watch.withLock { watch in
                    defer { watch.version = version }
                    return watch.version != version
                }
                guard changed else { return [] }
                // Read in this one transaction: the contents are those of the version just noted.
                return try stores.compactMap { try $0.reload(db) }
            }
        } catch {
            // A read that failed (the file locked for longer than the busy timeout) is tried again next time.
            watch.withLock { $0.version = nil }
            return false
        }
        for step in publish { step() }
        return !publish.isEmpty
    }

    private static let sidecarSuffixes = ["-journal", "-wal", "-shm"]

    /// rename(2): moves the name itself, never what a link there points to.
    private static func move(_ from: URL, to: URL) throws {
        guard rename(from.path, to.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: from.path,
                                                           NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
        }
    }

    /// An in-memory database with the same schema, for tests, and for running when the data directory
    /// can't be used (`unavailable` says which and why, so the app can tell the user nothing is saved).
    public init(inMemory migrations: [Migration], unavailable: (directory: String, reason: String)? = nil) throws {
        writer = try DatabaseQueue()
        try Self.migrate(writer, migrations)
        recovery = nil
        url = nil
        unavailableReason = unavailable
    }

    /// `$XDG_DATA_HOME/nimbus`, else `~/.local/share/nimbus`.
    public static func defaultDirectory(environment: [String: String]) -> URL {
        NimbusDirectories(environment: environment).data
    }

    private static func open(_ url: URL, migrations: [Migration]) throws -> DatabaseQueue {
        // Created by us first, exclusively (a second instance starting at the same moment never
        // replaces the file the first one is writing, and a link placed there is not followed), so
        // SQLite (and its journal, which copies the mode) never makes it world-readable. A file that
        // was already there keeps its mode: the app sets modes only on what it creates.
        if let error = SafeFile.createNew(url), error != EEXIST {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path,
                                                                NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)])
        }
        guard SafeFile.kind(atPath: url.path) == .regular else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        var configuration = Configuration()
        // Another instance may hold the write lock (creating the schema): wait for it.
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        // Reading the schema is what first touches the file's pages: a non-database fails here.
        try queue.read { db in _ = try db.tableExists("grdb_migrations") }
        try migrate(queue, migrations)
        return queue
    }

    /// Runs the migrations not yet applied in one `BEGIN IMMEDIATE` transaction, so two instances
    /// starting together on a new file never both create the schema: the second waits for the
    /// write lock (busy timeout), then finds every migration recorded.
    ///
    /// GRDB's `DatabaseMigrator` reads which migrations are applied outside its per-migration
    /// transactions, so a concurrent first run can see none applied and then fail with "table already
    /// exists". Its table (`grdb_migrations`, one row per identifier) and the identifiers are kept, so
    /// databases it migrated before open unchanged.
    static func migrate(_ writer: DatabaseQueue, _ migrations: [Migration]) throws {
        try writer.inDatabase { db in
            try db.inTransaction(.immediate) {
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
                for m in migrations where !applied.contains(m.identifier) {
                    try m.migrate(db)
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [m.identifier])
                }
                return .commit
            }
        }
    }

    private static func isUnreadable(_ error: DatabaseError) -> Bool {
        [.SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_FORMAT].contains(error.resultCode)
    }
}
