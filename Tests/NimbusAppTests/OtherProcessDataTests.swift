import XCTest
import AppExploration
import NimbusData
import NimbusDomain
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// What another process saves while the app runs shows in the app: `nimbus wishlist import` (or a
/// second window) writes the same `nimbus.sqlite` through its own connection.
@MainActor
final class OtherProcessDataTests: XCTestCase {
    private func isolated() -> [String: String] {
        let (environment, home) = AppHarness.sandbox([:])
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        return environment
    }

    /// Another process's connection to the app's user database, as `nimbus wishlist import` opens it.
    private func otherProcess(_ harness: AppHarness) throws -> UserDatabase {
        try UserDatabase(directory: UserDatabase.defaultDirectory(environment: harness.environment),
                         migrations: [WishlistStore.migration, MovieHistoryStore.migration, LikesStore.migration])
    }

    private func film(_ query: String) throws -> MovieSummary {
        try XCTUnwrap(try MovieCatalogue.bundled().page(query: query, page: 1).movies.first)
    }

    /// The Wishlist tab stayed at "Saved films: 0" after an import until something else changed the store.
    nonisolated func testFilmsImportedByAnotherProcessShowOnTheWishlistTab() throws {
        try onMain(self) { try $0.mainActorTestFilmsImportedByAnotherProcessShowOnTheWishlistTab() }
    }

    private func mainActorTestFilmsImportedByAnotherProcessShowOnTheWishlistTab() throws {
        let harness = try AppHarness(environment: isolated())
        harness.press(.char("6"))
        XCTAssertTrue(harness.screen.contains("Saved films: 0"), harness.screen)
        let other = WishlistStore(database: try otherProcess(harness))
        try other.add(try film("heat"))
        // Within the check's interval, with no key pressed.
        harness.advance(by: AppCoordinator.userDataCheckInterval)
        XCTAssertTrue(harness.screen.contains("Saved films: 1"), harness.screen)
        XCTAssertTrue(harness.screen.contains("Heat"), harness.screen)
        // Showing a tab looks at once.
        try other.add(try film("the matrix"))
        harness.press(.char("5"), .char("6"))
        XCTAssertTrue(harness.screen.contains("Saved films: 2"), harness.screen)
        XCTAssertTrue(harness.screen.contains("The Matrix"), harness.screen)
        // And a removal elsewhere too.
        try other.removeAll()
        harness.advance(by: AppCoordinator.userDataCheckInterval)
        XCTAssertTrue(harness.screen.contains("Your wishlist is empty"), harness.screen)
    }

    /// A city liked in another window shows on the Liked tab.
    nonisolated func testACityLikedByAnotherProcessShowsOnTheLikedTab() throws {
        try onMain(self) { try $0.mainActorTestACityLikedByAnotherProcessShowsOnTheLikedTab() }
    }

    private func mainActorTestACityLikedByAnotherProcessShowsOnTheLikedTab() throws {
        let harness = try AppHarness(environment: isolated())
        harness.press(.char("3"))
        XCTAssertEqual(harness.acknowledgedLikes, [])
        let seoul = 1835848  // GeoNames
        try LikesStore(database: try otherProcess(harness)).setLiked(seoul, true)
        harness.advance(by: AppCoordinator.userDataCheckInterval)
        XCTAssertEqual(harness.acknowledgedLikes, [seoul])
        XCTAssertTrue(harness.screen.contains("Seoul"), harness.screen)
    }
}
