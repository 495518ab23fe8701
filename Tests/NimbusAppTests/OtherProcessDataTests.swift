import Foundation
import Testing
import AppExploration
import NimbusData
import NimbusDomain
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// What another process saves while the app runs shows in the app: `nimbus wishlist import` (or a
/// second window) writes the same `nimbus.sqlite` through its own connection.
@Suite @MainActor struct OtherProcessDataTests {
    private let temporary = TemporaryDirectories()

    private func isolated() -> [String: String] {
        let (environment, home) = AppHarness.sandbox([:])
        temporary.remove(home)
        return environment
    }

    /// Another process's connection to the app's user database, as `nimbus wishlist import` opens it.
    private func otherProcess(_ harness: AppHarness) throws -> UserDatabase {
        try UserDatabase(directory: UserDatabase.defaultDirectory(environment: harness.environment),
                         migrations: [WishlistStore.migration, MovieHistoryStore.migration, LikesStore.migration])
    }

    private func film(_ query: String) throws -> MovieSummary {
        try #require(try MovieCatalogue.bundled().page(query: query, page: 1).movies.first)
    }

    /// The Wishlist tab stayed at "Saved films: 0" after an import until something else changed the store.
    @Test func testFilmsImportedByAnotherProcessShowOnTheWishlistTab() throws {
        let harness = try AppHarness(environment: isolated())
        harness.press(.char("6"))
        #expect(harness.screen.contains("Saved films: 0"), "\(harness.screen)")
        let other = WishlistStore(database: try otherProcess(harness))
        try other.add(try film("heat"))
        // Within the check's interval, with no key pressed.
        harness.advance(by: AppCoordinator.userDataCheckInterval)
        #expect(harness.screen.contains("Saved films: 1"), "\(harness.screen)")
        #expect(harness.screen.contains("Heat"), "\(harness.screen)")
        // Showing a tab looks at once.
        try other.add(try film("the matrix"))
        harness.press(.char("5"), .char("6"))
        #expect(harness.screen.contains("Saved films: 2"), "\(harness.screen)")
        #expect(harness.screen.contains("The Matrix"), "\(harness.screen)")
        // And a removal elsewhere too.
        try other.removeAll()
        harness.advance(by: AppCoordinator.userDataCheckInterval)
        #expect(harness.screen.contains("Your wishlist is empty"), "\(harness.screen)")
    }

    /// A city liked in another window shows on the Liked tab.
    @Test func testACityLikedByAnotherProcessShowsOnTheLikedTab() throws {
        let harness = try AppHarness(environment: isolated())
        harness.press(.char("3"))
        #expect(harness.acknowledgedLikes == [])
        let seoul = 1835848  // GeoNames
        try LikesStore(database: try otherProcess(harness)).setLiked(seoul, true)
        harness.advance(by: AppCoordinator.userDataCheckInterval)
        #expect(harness.acknowledgedLikes == [seoul])
        #expect(harness.screen.contains("Seoul"), "\(harness.screen)")
    }
}
