import Foundation
import XCTest
import GRDB
import NimbusDomain
@testable import NimbusData

/// The stores publish what another connection (another process: `nimbus wishlist import`, a second
/// window) saved, once `UserDatabase.refreshIfChangedElsewhere` looked (SQLite's `data_version`).
final class OtherConnectionChangesTests: XCTestCase {
    private var directory: URL!
    private static let migrations = [WishlistStore.migration, MovieHistoryStore.migration, LikesStore.migration]

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-other-\(UUID().uuidString)")
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    /// One connection to the file, as one process opens it.
    private func open() throws -> UserDatabase {
        try UserDatabase(directory: directory, migrations: Self.migrations)
    }

    private func film(_ n: Int, _ title: String) -> MovieSummary {
        MovieSummary(id: MovieID(source: .catalogue, value: n), title: title, year: 2000, genres: ["Drama"], directors: ["A. Director"])
    }

    func testAWishlistWriteThroughAnotherConnectionIsPublishedAfterTheCheck() throws {
        let here = try open(), there = try open()
        let shown = WishlistStore(database: here), other = WishlistStore(database: there)
        var published: [[String]] = []
        let subscription = shown.contents.sink { published.append($0.map(\.movie.title)) }
        defer { subscription.cancel() }
        try other.add(film(1, "Heat"))
        XCTAssertEqual(published, [[]], "not before the check")
        XCTAssertTrue(here.refreshIfChangedElsewhere())
        XCTAssertEqual(published, [[], ["Heat"]])
        XCTAssertFalse(here.refreshIfChangedElsewhere(), "nothing new")
        XCTAssertEqual(published.count, 2)
        // Its own writes it publishes itself; the check does not count them again.
        try shown.add(film(2, "Alien"))
        XCTAssertEqual(published.last, ["Alien", "Heat"])
        XCTAssertFalse(here.refreshIfChangedElsewhere())
        XCTAssertEqual(published.count, 3)
        // The other side sees it the same way.
        XCTAssertTrue(there.refreshIfChangedElsewhere())
        XCTAssertEqual(try other.entries().map(\.movie.title), ["Alien", "Heat"])
        var seen: [String] = []
        _ = other.contents.sink { seen = $0.map(\.movie.title) }
        XCTAssertEqual(seen, ["Alien", "Heat"])
        try other.removeAll()
        XCTAssertTrue(here.refreshIfChangedElsewhere())
        XCTAssertEqual(published.last, [])
    }

    func testLikesAndHistoryFromAnotherConnectionArePublishedToo() throws {
        let here = try open(), there = try open()
        let likes = LikesStore(database: here), history = MovieHistoryStore(database: here)
        var liked: [[Int]] = [], queries: [[String]] = [], viewed: [[String]] = []
        let subscriptions = [likes.contents.sink { liked.append($0) }, history.queries.sink { queries.append($0) },
                             history.viewed.sink { viewed.append($0.map(\.title)) }]
        defer { subscriptions.forEach { $0.cancel() } }
        try LikesStore(database: there).setLiked(1835848, true)
        let otherHistory = MovieHistoryStore(database: there)
        try otherHistory.saveQuery("heat")
        XCTAssertTrue(here.refreshIfChangedElsewhere())
        XCTAssertEqual(liked, [[], [1835848]])
        XCTAssertEqual(queries, [[], ["heat"]])
        XCTAssertEqual(viewed, [[]], "unchanged: not published again")
        try otherHistory.recordViewed(film(3, "Ran"))
        XCTAssertTrue(here.refreshIfChangedElsewhere())
        XCTAssertEqual(viewed, [[], ["Ran"]])
        XCTAssertEqual(queries.count, 2, "unchanged: not published again")
        XCTAssertEqual(liked.count, 2)
    }

    /// A change to something no store here shows publishes nothing.
    func testAChangeNoStoreShowsPublishesNothing() throws {
        let here = try open(), there = try open()
        let shown = WishlistStore(database: here)
        var count = 0
        let subscription = shown.contents.sink { _ in count += 1 }
        defer { subscription.cancel() }
        try LikesStore(database: there).setLiked(1, true)
        XCTAssertFalse(here.refreshIfChangedElsewhere())
        XCTAssertEqual(count, 1)
    }

    func testAStoreThatWentAwayIsLetGoAndAnInMemoryDatabaseHasNoOneElse() throws {
        let here = try open(), there = try open()
        weak var gone: WishlistStore?
        do {
            let store = WishlistStore(database: here)
            gone = store
        }
        XCTAssertNil(gone, "the database does not keep its stores alive")
        try WishlistStore(database: there).add(film(1, "Heat"))
        XCTAssertFalse(here.refreshIfChangedElsewhere())
        let memory = try UserDatabase(inMemory: Self.migrations)
        _ = WishlistStore(database: memory)
        XCTAssertFalse(memory.refreshIfChangedElsewhere())
    }

    /// Another process for real: this test binary runs `testWriterHelperProcess`, which adds a film
    /// through its own connection and exits.
    func testAFilmAddedByAnotherProcessIsPublished() throws {
        let here = try open()
        let shown = WishlistStore(database: here)
        var published: [[String]] = []
        let subscription = shown.contents.sink { published.append($0.map(\.movie.title)) }
        defer { subscription.cancel() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["NimbusDataTests.OtherConnectionChangesTests/testWriterHelperProcess"]
        process.environment = ProcessInfo.processInfo.environment.merging([Self.helperVariable: directory.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(published, [[]])
        XCTAssertTrue(here.refreshIfChangedElsewhere())
        XCTAssertEqual(published, [[], ["Heat"]])
    }

    private static let helperVariable = "NIMBUS_TEST_OTHER_PROCESS_DIRECTORY"

    /// The other process of `testAFilmAddedByAnotherProcessIsPublished`; passes at once otherwise.
    func testWriterHelperProcess() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.helperVariable] else { return }
        let database = try UserDatabase(directory: URL(fileURLWithPath: path), migrations: Self.migrations)
        try WishlistStore(database: database).add(film(1, "Heat"))
    }
}
