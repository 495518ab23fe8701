import Foundation
import GRDB
import NimbusDomain
@preconcurrency import OpenCombineShim
import Synchronization

/// Every row of one table, in rowid order, every column (keys and rowid aliases included): what a
/// change found and left, so that undo can put back exactly the rows, and the order, it replaced.
struct TableSnapshot: Equatable, Sendable {
    let table: String
    let columns: [String]
    let rows: [[DatabaseValue]]

    init(_ db: Database, table: String) throws {
        self.table = table
        var columns: [String] = []
        var rows: [[DatabaseValue]] = []
        let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY rowid")
        while let row = try cursor.next() {
            if columns.isEmpty { columns = Array(row.columnNames) }
            rows.append(Array(row.databaseValues))
        }
        if columns.isEmpty { columns = try db.columns(in: table).map(\.name) }
        self.columns = columns
        self.rows = rows
    }

    /// Replaces the table's rows by these (inside the caller's transaction).
    func restore(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)")
        guard !rows.isEmpty else { return }
        let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let insert = try db.makeStatement(sql: "INSERT INTO \(table.quotedDatabaseIdentifier) (\(names)) VALUES (\(marks))")
        for row in rows { try insert.execute(arguments: StatementArguments(row)) }
    }
}

/// The undo history of the user database: each change with its table as it found it and as it
/// left it. Undo puts back `before` only where the table is still `after` (else another process
/// changed it since: nothing is done); redo puts back `after` only where it is still `before`.
struct UserDataHistory: Sendable {
    struct Entry: Sendable {
        let change: UserChange
        let before: TableSnapshot
        let after: TableSnapshot
    }

    /// How many changes are kept (the oldest go first).
    static let levels = 100

    var done: [Entry] = []
    var undone: [Entry] = []

    mutating func record(_ entry: Entry) {
        done.append(entry)
        if done.count > Self.levels { done.removeFirst(done.count - Self.levels) }
        undone.removeAll()
    }
}

extension UserDatabase: ChangeHistory {
    /// Runs `body` in one write transaction as a change of `table` the user can undo: `describe`
    /// names it from what `body` returned (nil: nothing worth undoing). A write that leaves the table
    /// as it was records nothing.
    func write<T>(recording table: String, as describe: (T) -> UserChange?,
                  _ body: (Database) throws -> T) throws -> T {
        let (result, entry) = try writer.write { db -> (T, UserDataHistory.Entry?) in
            let before = try TableSnapshot(db, table: table)
            let result = try body(db)
            let after = try TableSnapshot(db, table: table)
            guard before != after, let change = describe(result) else { return (result, nil) }
            return (result, UserDataHistory.Entry(change: change, before: before, after: after))
        }
        if let entry {
            history.withLock { $0.record(entry) }
            recordedChanges.send(entry.change)
        }
        return result
    }

    public var recorded: AnyPublisher<UserChange, Never> { recordedChanges.eraseToAnyPublisher() }

    public func undo() -> UndoOutcome {
        guard let entry = history.withLock({ $0.done.last }) else { return .nothingToUndo }
        switch apply(entry.before, where: entry.after) {
        case .applied:
            history.withLock { history in
                history.done.removeLast()
                history.undone.append(entry)
            }
            return .undone(entry.change)
        case .changedElsewhere:
            history.withLock { _ = $0.done.popLast() }
            return .changedElsewhere(entry.change)
        case .failed(let reason):
            return .failed(entry.change, reason: reason)
        }
    }

    public func redo() -> UndoOutcome {
        guard let entry = history.withLock({ $0.undone.last }) else { return .nothingToRedo }
        switch apply(entry.after, where: entry.before) {
        case .applied:
            history.withLock { history in
                history.undone.removeLast()
                history.done.append(entry)
            }
            return .redone(entry.change)
        case .changedElsewhere:
            history.withLock { _ = $0.undone.popLast() }
            return .changedElsewhere(entry.change)
        case .failed(let reason):
            return .failed(entry.change, reason: reason)
        }
    }

    private enum Applied { case applied, changedElsewhere, failed(String) }

    /// Puts `snapshot` back if the table is `expected` now, in one transaction, and has every watched
    /// store publish what it then reads.
    private func apply(_ snapshot: TableSnapshot, where expected: TableSnapshot) -> Applied {
        let stores = watchedStores()
        do {
            let publish = try writer.write { db -> [() -> Void]? in
                guard try TableSnapshot(db, table: expected.table) == expected else { return nil }
                try snapshot.restore(db)
                return try stores.compactMap { try $0.reload(db) }
            }
            guard let publish else { return .changedElsewhere }
            for step in publish { step() }
            return .applied
        } catch let error as DatabaseError {
            return .failed(error.message ?? "\(error.resultCode)")
        } catch {
            return .failed("\(error)")
        }
    }
}
