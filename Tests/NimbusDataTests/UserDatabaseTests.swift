import XCTest
import GRDB
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
}
