import Foundation
import Testing
import AppExploration
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// Defects a new user met in the first minutes, each kept from coming back.
@Suite @MainActor struct UserDataRegressionTests {
    private let temporary = TemporaryDirectories()

    private func films(_ harness: AppHarness, saving count: Int, query: String = "nolan") {
        harness.press(.char("5"), .char("/"))
        harness.type(query)
        harness.press(.enter)
        for i in 0..<count {
            if i > 0 { harness.press(.down) }
            harness.press(.char("w"))
        }
        harness.press(.char("6"))
    }

    private func wishlistCount(_ harness: AppHarness) throws -> Int {
        try harness.savedWishlist().count
    }

    /// Deleting the only film of the wishlist trapped (SIGILL): the store's change notice reloaded the
    /// list inside `remove`, and the view model then removed the row a second time.
    @Test func testDeletingTheOnlyWishlistFilmLeavesAnEmptyWishlist() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        films(harness, saving: 1)
        #expect(harness.screen.contains("Saved films: 1"), "\(harness.screen)")
        harness.press(.char("d"))
        #expect(harness.screen.contains("Your wishlist is empty"), "\(harness.screen)")
        #expect(try wishlistCount(harness) == 0)
    }

    @Test func testDeletingTheLastFilmOfALongerListKeepsTheOthers() throws {
        let harness = try AppHarness(environment: temporary.isolated(["NIMBUS_LANG": "ko"]))
        films(harness, saving: 3)
        harness.press(.char("G"), .char("d"))
        #expect(try wishlistCount(harness) == 2)
        #expect(harness.screen.contains("2"), "\(harness.screen)")
    }

    /// Six films, delete the second: the screen showed 4 while the database held 5.
    @Test func testDeletingARowRemovesThatFilmOnlyOnScreenAndOnDisk() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        films(harness, saving: 6, query: "the")
        #expect(try wishlistCount(harness) == 6)
        harness.press(.down, .char("d"))
        #expect(try wishlistCount(harness) == 5)
        #expect(harness.screen.contains("Saved films: 5"), "\(harness.screen)")
        let saved = try harness.savedWishlist()
        for title in saved { #expect(harness.screen.contains(String(title.prefix(20))), "\(title) not on\n\(harness.screen)") }
        try harness.restart()
        harness.press(.char("6"))
        #expect(harness.screen.contains("Saved films: 5"), "\(harness.screen)")
    }

    @Test func testWithTwoFilmsDeletingTheFirstShowsTheSecond() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        films(harness, saving: 2)
        harness.press(.char("g"), .char("d"))
        #expect(!harness.screen.contains("Your wishlist is empty"), "\(harness.screen)")
        #expect(harness.screen.contains("Saved films: 1"), "\(harness.screen)")
        #expect(try wishlistCount(harness) == 1)
    }

    /// A weather screen opened before the city was unliked on the Liked tab said "[Liked]", and `f`
    /// there liked it again.
    @Test func testAWeatherScreenShowsTheLikeSavedNowNotWhenItWasOpened() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        harness.press(.char("/"))
        harness.type("seoul")
        harness.press(.enter, .enter)
        harness.press(.char("f"))
        #expect(harness.screen.contains("[Liked]"), "\(harness.screen)")
        harness.press(.char("3"), .char("d"))
        #expect(harness.screen.contains("No liked cities"), "\(harness.screen)")
        harness.press(.char("1"))
        #expect(!harness.screen.contains("[Liked]"), "\(harness.screen)")
        harness.press(.char("f"))
        #expect(harness.screen.contains("[Liked]"), "\(harness.screen)")
        harness.press(.char("3"))
        #expect(harness.screen.contains("Seoul"), "\(harness.screen)")
    }
}
