import XCTest
import AppExploration
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// Defects a new user met in the first minutes, each kept from coming back.
@MainActor
final class UserDataRegressionTests: XCTestCase {
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
    nonisolated func testDeletingTheOnlyWishlistFilmLeavesAnEmptyWishlist() throws {
        try onMain(self) { try $0.mainActorTestDeletingTheOnlyWishlistFilmLeavesAnEmptyWishlist() }
    }

    private func mainActorTestDeletingTheOnlyWishlistFilmLeavesAnEmptyWishlist() throws {
        let harness = try AppHarness(environment: isolated([:]))
        films(harness, saving: 1)
        XCTAssertTrue(harness.screen.contains("Saved films: 1"), harness.screen)
        harness.press(.char("d"))
        XCTAssertTrue(harness.screen.contains("Your wishlist is empty"), harness.screen)
        XCTAssertEqual(try wishlistCount(harness), 0)
    }

    nonisolated func testDeletingTheLastFilmOfALongerListKeepsTheOthers() throws {
        try onMain(self) { try $0.mainActorTestDeletingTheLastFilmOfALongerListKeepsTheOthers() }
    }

    private func mainActorTestDeletingTheLastFilmOfALongerListKeepsTheOthers() throws {
        let harness = try AppHarness(environment: isolated(["NIMBUS_LANG": "ko"]))
        films(harness, saving: 3)
        harness.press(.char("G"), .char("d"))
        XCTAssertEqual(try wishlistCount(harness), 2)
        XCTAssertTrue(harness.screen.contains("2"), harness.screen)
    }

    /// Six films, delete the second: the screen showed 4 while the database held 5.
    nonisolated func testDeletingARowRemovesThatFilmOnlyOnScreenAndOnDisk() throws {
        try onMain(self) { try $0.mainActorTestDeletingARowRemovesThatFilmOnlyOnScreenAndOnDisk() }
    }

    private func mainActorTestDeletingARowRemovesThatFilmOnlyOnScreenAndOnDisk() throws {
        let harness = try AppHarness(environment: isolated([:]))
        films(harness, saving: 6, query: "the")
        XCTAssertEqual(try wishlistCount(harness), 6)
        harness.press(.down, .char("d"))
        XCTAssertEqual(try wishlistCount(harness), 5)
        XCTAssertTrue(harness.screen.contains("Saved films: 5"), harness.screen)
        let saved = try harness.savedWishlist()
        for title in saved { XCTAssertTrue(harness.screen.contains(String(title.prefix(20))), "\(title) not on\n\(harness.screen)") }
        try harness.restart()
        harness.press(.char("6"))
        XCTAssertTrue(harness.screen.contains("Saved films: 5"), harness.screen)
    }

    nonisolated func testWithTwoFilmsDeletingTheFirstShowsTheSecond() throws {
        try onMain(self) { try $0.mainActorTestWithTwoFilmsDeletingTheFirstShowsTheSecond() }
    }

    private func mainActorTestWithTwoFilmsDeletingTheFirstShowsTheSecond() throws {
        let harness = try AppHarness(environment: isolated([:]))
        films(harness, saving: 2)
        harness.press(.char("g"), .char("d"))
        XCTAssertFalse(harness.screen.contains("Your wishlist is empty"), harness.screen)
        XCTAssertTrue(harness.screen.contains("Saved films: 1"), harness.screen)
        XCTAssertEqual(try wishlistCount(harness), 1)
    }

    /// A weather screen opened before the city was unliked on the Liked tab said "[Liked]", and `f`
    /// there liked it again.
    nonisolated func testAWeatherScreenShowsTheLikeSavedNowNotWhenItWasOpened() throws {
        try onMain(self) { try $0.mainActorTestAWeatherScreenShowsTheLikeSavedNowNotWhenItWasOpened() }
    }

    private func mainActorTestAWeatherScreenShowsTheLikeSavedNowNotWhenItWasOpened() throws {
        let harness = try AppHarness(environment: isolated([:]))
        harness.press(.char("/"))
        harness.type("seoul")
        harness.press(.enter, .enter)
        harness.press(.char("f"))
        XCTAssertTrue(harness.screen.contains("[Liked]"), harness.screen)
        harness.press(.char("3"), .char("d"))
        XCTAssertTrue(harness.screen.contains("No liked cities"), harness.screen)
        harness.press(.char("1"))
        XCTAssertFalse(harness.screen.contains("[Liked]"), harness.screen)
        harness.press(.char("f"))
        XCTAssertTrue(harness.screen.contains("[Liked]"), harness.screen)
        harness.press(.char("3"))
        XCTAssertTrue(harness.screen.contains("Seoul"), harness.screen)
    }
}
