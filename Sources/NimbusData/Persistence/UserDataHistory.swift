import Foundation
import GRDB
import NimbusDomain



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

extension UserDatabase {
    /// Runs `body` in one write transaction as a change of `table` the user can undo: `describe`
    /// names it from what `body` returned (nil: nothing worth undoing). A write that leaves the table
    /// as it was records nothing. The change goes to `changeLog`: undo puts the table back as it was
    /// found only where it is still as it was left (else another process changed it since), redo the
    /// other way round, and every watched store publishes what was put back.
    func write<T>(recording table: String, as describe: (T) -> UserChange?,
                  _ body: (Database) throws -> T) throws -> T {
        let (result, made) = try writer.write { db -> (T, (UserChange, TableSnapshot, TableSnapshot)?) in
            let before = try TableSnapshot(db, table: table)
            let result = try body(db)
            let after = try TableSnapshot(db, table: table)
            guard before != after, let change = describe(result) else { return (result, nil) }
            return (result, (change, before, after))
        }
        if let (change, before, after) = made {
            changeLog.record(ChangeLog.Entry(
                change: change,
                undo: { [weak self] in self?.put(before, where: after) ?? .failed("the user database is closed") },
                redo: { [weak self] in self?.put(after, where: before) ?? .failed("the user database is closed") }))
        }
        return result
    }

    /// Puts `snapshot` back if the table is `expected` now, in one transaction, and has every watched
    /// store publish what it then reads.
    private func put(_ snapshot: TableSnapshot, where expected: TableSnapshot) -> ChangeLog.Applied {
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
