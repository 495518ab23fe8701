import Foundation
import GRDB
import NimbusDomain



/// Every row of one table by rowid, every column (keys and rowid aliases included): what a change
/// found and what it left, read in its transaction to work out which rows it changed.
///
/// Restoring rows by their columns puts back their rowids only where the rowid has an alias (an
/// `INTEGER PRIMARY KEY`): both tables that record changes have one (`liked_city.city_id`,
/// `wishlist.seq`); a table without one is refused (`RowIDWithoutAlias`).
struct TableRows {
    let table: String
    let columns: [String]
    let rows: [Int64: [DatabaseValue]]

    /// A table whose rowid has no alias cannot be put back as it was.
    struct RowIDWithoutAlias: Error { let table: String }

    init(_ db: Database, table: String) throws {
        guard try db.primaryKey(table).rowIDColumn != nil else { throw RowIDWithoutAlias(table: table) }
        self.table = table
        columns = try db.columns(in: table).map(\.name)
        let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        var rows: [Int64: [DatabaseValue]] = [:]
        let cursor = try Row.fetchCursor(db, sql: "SELECT rowid, \(names) FROM \(table.quotedDatabaseIdentifier)")
        while let row = try cursor.next() {
            let values = Array(row.databaseValues)
            rows[Int64.fromDatabaseValue(values[0]) ?? 0] = Array(values.dropFirst())
        }
        self.rows = rows
    }
}

/// What one change did to one table: the rows it took away and the rows it left (a row it updated
/// is in both), by rowid. Only these are kept in the history, not the table: a mark on a wishlist
/// of 17,000 films keeps one row, not two copies of 17,000.
struct TableChange: Sendable {
    let table: String
    let columns: [String]
    let removed: [Int64: [DatabaseValue]]
    let added: [Int64: [DatabaseValue]]

    /// Nil when the change changed nothing.
    init?(from before: TableRows, to after: TableRows) {
        var removed: [Int64: [DatabaseValue]] = [:], added: [Int64: [DatabaseValue]] = [:]
        for (id, row) in before.rows where after.rows[id] != row { removed[id] = row }
        for (id, row) in after.rows where before.rows[id] != row { added[id] = row }
        guard !removed.isEmpty || !added.isEmpty else { return nil }
        table = after.table
        columns = after.columns
        self.removed = removed
        self.added = added
    }

    private init(table: String, columns: [String], removed: [Int64: [DatabaseValue]], added: [Int64: [DatabaseValue]]) {
        self.table = table
        self.columns = columns
        self.removed = removed
        self.added = added
    }

    /// The change the other way round (what undo does).
    var inverse: TableChange { TableChange(table: table, columns: columns, removed: added, added: removed) }

    /// Makes the change again, if the rows it touches are as it found them: its removed rows there
    /// as they were and none of its new rows there yet. False (nothing done) when another process
    /// changed one of them since. Inside the caller's transaction.
    func apply(_ db: Database) throws -> Bool {
        let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let read = try db.makeStatement(sql: "SELECT \(names) FROM \(table.quotedDatabaseIdentifier) WHERE rowid = ?")
        for id in Set(removed.keys).union(added.keys) {
            let now = try Row.fetchOne(read, arguments: [id]).map { Array($0.databaseValues) }
            guard now == removed[id] else { return false }
        }
        let delete = try db.makeStatement(sql: "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE rowid = ?")
        for id in removed.keys { try delete.execute(arguments: [id]) }
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let insert = try db.makeStatement(sql: "INSERT INTO \(table.quotedDatabaseIdentifier) (\(names)) VALUES (\(marks))")
        for row in added.sorted(by: { $0.key < $1.key }).map(\.value) { try insert.execute(arguments: StatementArguments(row)) }
        return true
    }
}

extension UserDatabase {
    /// Runs `body` in one write transaction as a change of `table` the user can undo: `describe`
    /// names it from what `body` returned (nil: nothing worth undoing). A write that leaves the table
    /// as it was records nothing. The rows it changed go to `changeLog`: undo puts them back only
    /// where they are still as the change left them (else another process changed them since: a
    /// change elsewhere in the table does not matter), redo the other way round, and every watched
    /// store publishes what was put back.
    func write<T>(recording table: String, as describe: (T) -> UserChange?,
                  _ body: (Database) throws -> T) throws -> T {
        let (result, made) = try writer.write { db -> (T, (UserChange, TableChange)?) in
            let before = try TableRows(db, table: table)
            let result = try body(db)
            let after = try TableRows(db, table: table)
            guard let change = TableChange(from: before, to: after), let named = describe(result) else { return (result, nil) }
            return (result, (named, change))
        }
        if let (named, change) = made {
            let undo = change.inverse
            changeLog.record(ChangeLog.Entry(
                change: named,
                undo: { [weak self] in self?.apply(undo) ?? .failed("the user database is closed") },
                redo: { [weak self] in self?.apply(change) ?? .failed("the user database is closed") }))
        }
        return result
    }

    /// Applies `change` if the rows it touches are as it expects, in one transaction, and has every
    /// watched store publish what it then reads.
    private func apply(_ change: TableChange) -> ChangeLog.Applied {
        let stores = watchedStores()
        do {
            let publish = try writer.write { db -> [() -> Void]? in
                guard try change.apply(db) else { return nil }
                return try stores.compactMap { try $0.reload(db) }
            }
            guard let publish else { return .changedElsewhere }
            for step in publish { step() }
            return .applied
        } catch let error as DatabaseError
                    where [.SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY].contains(error.extendedResultCode) {
            // A row put back would duplicate one another process saved since (the same film under a
            // new rowid): the transaction is rolled back, nothing is done.
            return .changedElsewhere
        } catch let error as DatabaseError {
            return .failed(error.message ?? "\(error.resultCode)")
        } catch {
            return .failed("\(error)")
        }
    }
}
