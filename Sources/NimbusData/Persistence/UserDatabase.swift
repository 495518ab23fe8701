import Foundation
import GRDB
import NimbusDomain

/// The user's own data (likes, wishlist, recent queries) in one SQLite file, `nimbus.sqlite`,
/// under `$XDG_DATA_HOME/nimbus`.
///
/// The file is created with mode 0600 and every write is a transaction. A file that SQLite can't
/// read (not a database, corrupt, or with a schema this version can't migrate) is moved aside,
/// never emptied in place: a fresh database is created next to it and `recovery` says where the old
/// one went, so the app can tell the user.
public final class UserDatabase: @unchecked Sendable {
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
    public init(directory: URL, migrations: [Migration]) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true,
                               attributes: [.posixPermissions: 0o700])
        let url = directory.appendingPathComponent(Self.fileName)
        self.url = url
        unavailableReason = nil
        do {
            writer = try Self.open(url, migrations: migrations)
            recovery = nil
        } catch let error as DatabaseError where Self.isUnreadable(error) {
            let aside = Self.asideURL(for: url)
            try fm.moveItem(at: url, to: aside)
            for suffix in ["-journal", "-wal", "-shm"] {
                let extra = URL(fileURLWithPath: url.path + suffix)
                if fm.fileExists(atPath: extra.path) {
                    try? fm.moveItem(at: extra, to: URL(fileURLWithPath: aside.path + suffix))
                }
            }
            writer = try Self.open(url, migrations: migrations)
            recovery = Recovery(movedTo: aside, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// An in-memory database with the same schema, for tests, and for running when the data directory
    /// can't be used (`unavailable` says which and why, so the app can tell the user nothing is saved).
    public init(inMemory migrations: [Migration], unavailable: (directory: String, reason: String)? = nil) throws {
        writer = try DatabaseQueue()
        try Self.migrator(migrations).migrate(writer)
        recovery = nil
        url = nil
        unavailableReason = unavailable
    }

    /// `$XDG_DATA_HOME/nimbus`, else `~/.local/share/nimbus`.
    public static func defaultDirectory(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("nimbus")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/nimbus")
    }

    private static func open(_ url: URL, migrations: [Migration]) throws -> DatabaseQueue {
        let fm = FileManager.default
        if !fm.fileExists(atPath: url.path) {
            // Created by us first, so SQLite (and its journal, which copies the mode) never makes it world-readable.
            guard fm.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
        } else {
            try? fm.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(2)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        // Reading the schema is what first touches the file's pages: a non-database fails here.
        try queue.read { db in _ = try db.tableExists("grdb_migrations") }
        try migrator(migrations).migrate(queue)
        return queue
    }

    private static func migrator(_ migrations: [Migration]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for m in migrations {
            migrator.registerMigration(m.identifier) { db in try m.migrate(db) }
        }
        return migrator
    }

    private static func isUnreadable(_ error: DatabaseError) -> Bool {
        [.SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_FORMAT].contains(error.resultCode)
    }

    private static func asideURL(for url: URL) -> URL {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        var candidate = URL(fileURLWithPath: url.path + ".corrupt-\(stamp)")
        var n = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            n += 1
            candidate = URL(fileURLWithPath: url.path + ".corrupt-\(stamp)-\(n)")
        }
        return candidate
    }
}
