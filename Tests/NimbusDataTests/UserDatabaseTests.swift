import XCTest
import GRDB
import Synchronization
import NimbusDomain
@testable import NimbusData

final class UserDatabaseTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-db-\(UUID().uuidString)")
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    private let notes = UserDatabase.Migration("v1-notes") { db in
        try db.create(table: "note") { t in
            t.primaryKey("id", .integer)
            t.column("text", .text).notNull()
        }
    }

    func testCreatesTheFileWithMode0600AndKeepsWrites() throws {
        do {
            let db = try UserDatabase(directory: directory, migrations: [notes])
            XCTAssertNil(db.recovery)
            try db.writer.write { try $0.execute(sql: "INSERT INTO note (text) VALUES ('hello')") }
        }
        let url = directory.appendingPathComponent(UserDatabase.fileName)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
        let reopened = try UserDatabase(directory: directory, migrations: [notes])
        XCTAssertEqual(try reopened.writer.read { try String.fetchAll($0, sql: "SELECT text FROM note") }, ["hello"])
    }

    func testACorruptFileIsMovedAsideNotEmptied() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(UserDatabase.fileName)
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: url)

        let db = try UserDatabase(directory: directory, migrations: [notes])

        let recovery = try XCTUnwrap(db.recovery)
        XCTAssertEqual(try Data(contentsOf: recovery.movedTo), garbage, "the unreadable file is kept as it was")
        XCTAssertTrue(recovery.movedTo.lastPathComponent.hasPrefix("nimbus.sqlite.corrupt-"))
        XCTAssertEqual(try db.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM note") }, 0)
    }

    func testStatusSaysWhetherDataIsKept() throws {
        XCTAssertEqual(try UserDatabase(directory: directory, migrations: [notes]).status, .saved)
        XCTAssertEqual(try UserDatabase(inMemory: [notes], unavailable: ("/ro/nimbus", "read-only")).status,
                       .notSaved(directory: "/ro/nimbus", reason: "read-only"))
        let url = directory.appendingPathComponent(UserDatabase.fileName)
        try FileManager.default.removeItem(at: url)
        try Data(repeating: 1, count: 4096).write(to: url)
        guard case .recovered(let movedTo) = try UserDatabase(directory: directory, migrations: [notes]).status else {
            return XCTFail("an unreadable file is reported as recovered")
        }
        XCTAssertTrue(movedTo.hasPrefix(url.path + ".corrupt-"), movedTo)
    }

    func testDefaultDirectoryFollowsXDG() {
        XCTAssertEqual(UserDatabase.defaultDirectory(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"]).path,
                       "/x/data/nimbus")
        XCTAssertEqual(UserDatabase.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).path,
                       "/h/.local/share/nimbus")
    }

    // MARK: Hostile data directory (issue 12, findings 6 and 7)

    private func mode(_ path: String) -> mode_t {
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0, path)
        return st.st_mode & 0o7777
    }

    private func fileType(_ path: String) -> mode_t {
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0, path)
        return st.st_mode & S_IFMT
    }

    func testASymlinkAtTheDatabasePathIsMovedAsideAndItsTargetUntouched() throws {
        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = directory.appendingPathComponent("someone-elses-file")
        XCTAssertTrue(fm.createFile(atPath: target.path, contents: Data(), attributes: [.posixPermissions: 0o644]))
        let url = directory.appendingPathComponent(UserDatabase.fileName)
        try fm.createSymbolicLink(atPath: url.path, withDestinationPath: target.path)

        let db = try UserDatabase(directory: directory, migrations: [notes])
        try db.writer.write { try $0.execute(sql: "INSERT INTO note (text) VALUES ('mine')") }

        XCTAssertEqual(try Data(contentsOf: target).count, 0, "an empty target is not overwritten with the database")
        XCTAssertEqual(mode(target.path), 0o644, "the target is not chmod'ed")
        let recovery = try XCTUnwrap(db.recovery, "the user is told, as for a corrupt file")
        XCTAssertTrue(recovery.movedTo.lastPathComponent.hasPrefix("nimbus.sqlite.unexpected-"), recovery.movedTo.path)
        XCTAssertEqual(fileType(recovery.movedTo.path), S_IFLNK, "the link itself is moved, not followed")
        XCTAssertEqual(fileType(url.path), S_IFREG)
        XCTAssertEqual(mode(url.path), 0o600)
    }

    func testADirectoryOrFifoAtTheDatabasePathIsMovedAsideUnchanged() throws {
        let fm = FileManager.default
        let url = directory.appendingPathComponent(UserDatabase.fileName)
        try fm.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let first = try UserDatabase(directory: directory, migrations: [notes])
        let movedDirectory = try XCTUnwrap(first.recovery).movedTo
        XCTAssertEqual(fileType(movedDirectory.path), S_IFDIR)
        XCTAssertEqual(mode(movedDirectory.path), 0o755, "a directory there is not chmod'ed")
        XCTAssertEqual(first.status, .recovered(movedTo: movedDirectory.path))

        try fm.removeItem(at: url)
        XCTAssertEqual(mkfifo(url.path, 0o644), 0)
        let second = try UserDatabase(directory: directory, migrations: [notes])
        XCTAssertEqual(fileType(try XCTUnwrap(second.recovery).movedTo.path), S_IFIFO)
        XCTAssertEqual(fileType(url.path), S_IFREG)
    }

    func testAnExistingFileKeepsItsMode() throws {
        _ = try UserDatabase(directory: directory, migrations: [notes])
        let url = directory.appendingPathComponent(UserDatabase.fileName)
        XCTAssertEqual(chmod(url.path, 0o640), 0)
        XCTAssertNil(try UserDatabase(directory: directory, migrations: [notes]).recovery)
        XCTAssertEqual(mode(url.path), 0o640, "the app sets modes only on files it creates")
    }

    func testADatabaseMigratedByGRDBsMigratorOpensUnchanged() throws {
        let more = UserDatabase.Migration("v2-more") { db in try db.create(table: "more") { t in t.column("x") } }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(UserDatabase.fileName)
        do {
            // How earlier versions migrated: GRDB's DatabaseMigrator, one transaction a migration.
            let queue = try DatabaseQueue(path: url.path)
            var migrator = DatabaseMigrator()
            let notes = self.notes
            migrator.registerMigration(notes.identifier) { db in try notes.migrate(db) }
            try migrator.migrate(queue)
            try queue.write { try $0.execute(sql: "INSERT INTO note (text) VALUES ('kept')") }
        }
        let db = try UserDatabase(directory: directory, migrations: [notes, more])
        XCTAssertNil(db.recovery)
        try db.writer.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT text FROM note"), ["kept"])
            XCTAssertTrue(try db.tableExists("more"))
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"),
                           ["v1-notes", "v2-more"])
        }
    }

    /// Two first runs at once on an empty directory: both open the file and keep saving (before the
    /// fix, one in three lost with "table already exists" or "disk I/O error").
    func testConcurrentFirstRunsBothKeepSaving() throws {
        let migrations = [notes] + (2...4).map { n in
            UserDatabase.Migration("v\(n)-table") { db in try db.create(table: "t\(n)") { t in t.column("x") } }
        }
        for run in 0..<30 {
            let directory = self.directory.appendingPathComponent("run-\(run)")
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                do {
                    let db = try UserDatabase(directory: directory, migrations: migrations)
                    if let recovery = db.recovery { throw CocoaError(.fileReadCorruptFile, userInfo: ["reason": recovery.reason]) }
                    try db.writer.write { try $0.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: ["\(i)"]) }
                } catch {
                    errors.withLock { $0.append("run \(run), opener \(i): \(error)") }
                }
            }
            XCTAssertEqual(errors.withLock { $0 }, [])
            let db = try UserDatabase(directory: directory, migrations: migrations)
            XCTAssertEqual(try db.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM note") }, 2, "run \(run)")
        }
    }

    /// The same race between two processes: this test binary runs `testRaceHelperProcess` twice at
    /// once on one fresh directory, ten times.
    func testConcurrentFirstRunsInTwoProcessesBothKeepSaving() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        for run in 0..<10 {
            let directory = self.directory.appendingPathComponent("process-run-\(run)")
            let children = try (0..<2).map { i -> Process in
                let process = Process()
                process.executableURL = executable
                process.arguments = ["NimbusDataTests.UserDatabaseTests/testRaceHelperProcess"]
                process.environment = ProcessInfo.processInfo.environment.merging(
                    [Self.raceDirectoryVariable: directory.path, Self.raceLabelVariable: "\(i)"]) { $1 }
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            for child in children { child.waitUntilExit() }
            XCTAssertEqual(children.map(\.terminationStatus), [0, 0], "run \(run)")
            let db = try UserDatabase(directory: directory, migrations: Self.raceMigrations)
            XCTAssertEqual(try db.writer.read { try String.fetchAll($0, sql: "SELECT text FROM note ORDER BY text") },
                           ["0", "1"], "run \(run): both processes saved")
        }
    }

    private static let raceDirectoryVariable = "NIMBUS_TEST_RACE_DIRECTORY"
    private static let raceLabelVariable = "NIMBUS_TEST_RACE_LABEL"
    private static let raceMigrations = [
        UserDatabase.Migration("v1-notes") { db in
            try db.create(table: "note") { t in
                t.primaryKey("id", .integer)
                t.column("text", .text).notNull()
            }
        },
        UserDatabase.Migration("v2-table") { db in try db.create(table: "t2") { t in t.column("x") } },
        UserDatabase.Migration("v3-table") { db in try db.create(table: "t3") { t in t.column("x") } },
    ]

    /// One side of `testConcurrentFirstRunsInTwoProcessesBothKeepSaving`; passes at once otherwise.
    func testRaceHelperProcess() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[Self.raceDirectoryVariable], let label = environment[Self.raceLabelVariable] else { return }
        let db = try UserDatabase(directory: URL(fileURLWithPath: path), migrations: Self.raceMigrations)
        XCTAssertNil(db.recovery)
        try db.writer.write { try $0.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [label]) }
    }
}
