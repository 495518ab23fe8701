import Synchronization
import XCTest
import GRDB
import NimbusDomain
@testable import NimbusData

/// Recent queries, recently viewed films and the wishlist in the user database.
final class MovieStoresTests: XCTestCase {
    private var directory: URL!
    private let clock = TickingClock()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-movies-\(UUID().uuidString)")
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    private func open() throws -> UserDatabase {
        try UserDatabase(directory: directory, migrations: [WishlistStore.migration, MovieHistoryStore.migration])
    }

    private func film(_ n: Int, _ title: String, year: Int? = 2000, source: MovieSource = .catalogue) -> MovieSummary {
        MovieSummary(id: MovieID(source: source, value: n), title: title, year: year, genres: ["Drama", "Crime"],
                     directors: ["A. Director"])
    }

    func testRecentQueriesAreNewestFirstDeduplicatedAndBounded() throws {
        let store = MovieHistoryStore(database: try open(), now: { [clock] in clock.tick() })
        try store.saveQuery("heat")
        try store.saveQuery("batman")
        try store.saveQuery("Heat")
        XCTAssertEqual(store.recentQueries(limit: 10), ["Heat", "batman"])
        for n in 0..<60 { try store.saveQuery("q\(n)") }
        XCTAssertEqual(store.recentQueries(limit: 10), (50..<60).reversed().map { "q\($0)" })
        XCTAssertEqual(store.recentQueries(limit: 100).count, MovieHistoryStore.keep)
    }

    func testRecentlyViewedMovesAReopenedFilmToTheFront() throws {
        let store = MovieHistoryStore(database: try open(), now: { [clock] in clock.tick() })
        try store.recordViewed(film(1, "Heat"))
        try store.recordViewed(film(2, "Alien"))
        try store.recordViewed(film(1, "Heat"))
        XCTAssertEqual(store.recentlyViewed(limit: 10).map(\.title), ["Heat", "Alien"])
        XCTAssertEqual(store.recentlyViewed(limit: 10).first, film(1, "Heat"))
    }

    func testHistoryPublishesWhatIsSavedNowThenAfterEveryChange() throws {
        let database = try open()
        let store = MovieHistoryStore(database: database, now: { [clock] in clock.tick() })
        try store.saveQuery("heat")
        var queries: [[String]] = []
        var viewed: [[String]] = []
        let q = store.queries.sink { queries.append($0) }
        let v = store.viewed.sink { viewed.append($0.map(\.title)) }
        try store.saveQuery("alien")
        try store.saveQuery("HEAT")
        try store.recordViewed(film(1, "Heat"))
        try store.recordViewed(film(2, "Alien"))
        XCTAssertEqual(queries, [["heat"], ["alien", "heat"], ["HEAT", "alien"]])
        XCTAssertEqual(viewed, [[], ["Heat"], ["Alien", "Heat"]])
        XCTAssertEqual(MovieHistoryStore(database: database).recentQueries(limit: 10), queries.last)
        q.cancel()
        v.cancel()
    }

    func testTheWishlistIsNewestFirstRefusesDuplicatesAndSurvivesReopening() throws {
        do {
            let store = WishlistStore(database: try open(), now: { [clock] in clock.tick() })
            var seen: [[String]] = []
            let watch = store.contents.sink { seen.append($0.map(\.movie.title)) }
            try store.add(film(1, "Heat", year: 1995))
            try store.add(film(2, "Alien", year: 1979))
            XCTAssertThrowsError(try store.add(film(1, "Heat", year: 1995))) { error in
                XCTAssertEqual(error as? WishlistError, .duplicate(title: "Heat"))
            }
            XCTAssertThrowsError(try store.add(film(949, "heat", year: 1995, source: .tmdb)), "same film from TMDB")
            try store.add(film(9, "Heat", year: 1986))
            XCTAssertEqual(seen, [[], ["Heat"], ["Alien", "Heat"], ["Heat", "Alien", "Heat"]])
            watch.cancel()
        }
        let reopened = WishlistStore(database: try open())
        XCTAssertEqual(try reopened.entries().map(\.movie.title), ["Heat", "Alien", "Heat"])
        XCTAssertEqual(try reopened.entries().first?.movie.year, 1986)
        XCTAssertEqual(try reopened.entries().last?.movie.genres, ["Drama", "Crime"])
        XCTAssertTrue(reopened.contains(MovieID(source: .catalogue, value: 2)))
        try reopened.remove(MovieID(source: .catalogue, value: 2))
        XCTAssertEqual(try reopened.entries().map(\.movie.id.value), [9, 1])
        try reopened.removeAll()
        XCTAssertEqual(try reopened.entries(), [])
        let mode = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent(UserDatabase.fileName).path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
    }
}

/// A clock one second further on each time it is read.
private final class TickingClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

    func tick() -> Date {
        now.withLock { now in
            now += 1
            return now
        }
    }
}
