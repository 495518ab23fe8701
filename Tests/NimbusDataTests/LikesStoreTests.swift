import XCTest
import GRDB
import NimbusDomain
@testable import NimbusData

final class LikesStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-likes-\(UUID().uuidString)")
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    func testLikesPersistNewestFirstAndUnlikeRemoves() throws {
        let clock = ManualClock(seconds: 1000)
        do {
            let store = LikesStore(database: try UserDatabase(directory: directory, migrations: [LikesStore.migration]),
                                   now: { Date(timeIntervalSince1970: clock.seconds) })
            try store.setLiked(1835848, true)
            clock.seconds += 1
            try store.setLiked(1838524, true)
            clock.seconds += 1
            try store.setLiked(1835848, true) // already liked: stays where it was
            XCTAssertEqual(try store.likedCityIDs(), [1838524, 1835848])
            try store.setLiked(1838524, false)
            XCTAssertFalse(try store.isLiked(1838524))
        }
        let reopened = LikesStore(database: try UserDatabase(directory: directory, migrations: [LikesStore.migration]))
        XCTAssertEqual(try reopened.likedCityIDs(), [1835848])
        XCTAssertTrue(try reopened.isLiked(1835848))
        let file = directory.appendingPathComponent(UserDatabase.fileName)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testContentsAreWhatIsSavedNowThenAfterEveryChange() throws {
        let database = try UserDatabase(inMemory: [LikesStore.migration])
        let clock = Clock()
        let store = LikesStore(database: database, now: { clock.tick() })
        try store.setLiked(7, true)
        var seen: [[Int]] = []
        let c = store.contents.sink { seen.append($0) }
        try store.setLiked(1, true)
        try store.setLiked(1, true)
        try store.setLiked(7, false)
        XCTAssertEqual(seen, [[7], [1, 7], [1, 7], [1]])
        XCTAssertEqual(try store.likedCityIDs(), seen.last)
        c.cancel()
    }

    func testACorruptFileIsMovedAsideAndLikesStartAfresh() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(UserDatabase.fileName)
        try Data(repeating: 0x42, count: 4096).write(to: file)
        let database = try UserDatabase(directory: directory, migrations: [LikesStore.migration])
        let recovery = try XCTUnwrap(database.recovery)
        XCTAssertTrue(FileManager.default.fileExists(atPath: recovery.movedTo.path))
        XCTAssertEqual(try Data(contentsOf: recovery.movedTo), Data(repeating: 0x42, count: 4096), "nothing is lost")
        XCTAssertEqual(try LikesStore(database: database).likedCityIDs(), [])
    }

    func testABrokenTableGivesATypedError() throws {
        let database = try UserDatabase(directory: directory, migrations: [LikesStore.migration])
        let store = LikesStore(database: database)
        try database.writer.write { try $0.execute(sql: "DROP TABLE liked_city") }
        let result = LikeCityUseCase(repository: store).toggle(1)
        guard case .failure(.storage) = result else { return XCTFail("expected a storage error, got \(result)") }
    }
}

/// A clock the test moves by hand (the store reads it from its own calls, on the test's thread).
private final class ManualClock: @unchecked Sendable {
    var seconds: Double
    init(seconds: Double) { self.seconds = seconds }
}

/// A clock that moves a second each time it is read.
private final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var time = 1_700_000_000.0
    func tick() -> Date {
        lock.lock()
        defer { lock.unlock() }
        time += 1
        return Date(timeIntervalSince1970: time)
    }
}
