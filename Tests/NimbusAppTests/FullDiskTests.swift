import XCTest
import AppExploration
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// Saves that fail as on a full disk (the database refuses every change of the likes and the
/// wishlist): each says so where it was asked for, and what is shown stays what is saved.
@MainActor
final class FullDiskTests: XCTestCase {
    private func harness(_ language: String = "en", size: Size = Size(cols: 100, rows: 30)) throws -> AppHarness {
        let harness = try AppHarness(environment: isolated(["NIMBUS_LANG": language]), size: size)
        // The database exists once something was saved; then the disk fills.
        harness.press(.char("f"))
        harness.press(.char("f"))
        try harness.setDiskFull(true)
        return harness
    }

    nonisolated func testLikingACityOnAFullDiskSaysSoAndMarksNothing() throws {
        try onMain(self) { try $0.mainActorTestLikingACityOnAFullDiskSaysSoAndMarksNothing() }
    }

    private func mainActorTestLikingACityOnAFullDiskSaysSoAndMarksNothing() throws {
        for language in ["en", "ko", "ja"] {
            let harness = try harness(language)
            harness.press(.char("f"))
            let list = harness.screen
            XCTAssertFalse(list.contains("›*"), "\(language): the row is not marked liked:\n\(list)")
            XCTAssertEqual(try harness.savedLikes(), [])
            XCTAssertTrue(list.contains(language == "en" ? "Could not save" : language == "ko" ? "저장" : "保存"), "\(language):\n\(list)")
            // On the city's own screen too.
            harness.press(.enter)
            harness.press(.char("f"))
            let detail = harness.screen
            XCTAssertTrue(detail.contains(language == "en" ? "Could not save" : language == "ko" ? "저장" : "保存"), "\(language):\n\(detail)")
            XCTAssertFalse(detail.contains(language == "en" ? "[Liked]" : "♥"), "\(language):\n\(detail)")
            XCTAssertEqual(try harness.savedLikes(), [])
        }
    }

    nonisolated func testKeepingAFilmOnAFullDiskSaysSoAndMarksNothing() throws {
        try onMain(self) { try $0.mainActorTestKeepingAFilmOnAFullDiskSaysSoAndMarksNothing() }
    }

    private func mainActorTestKeepingAFilmOnAFullDiskSaysSoAndMarksNothing() throws {
        let harness = try harness()
        harness.press(.char("5"), .char("/"))
        harness.type("oldboy")
        harness.press(.enter, .char("w"))
        let list = harness.screen
        XCTAssertTrue(list.contains("could not be saved"), list)
        XCTAssertFalse(list.contains("♥"), list)
        XCTAssertEqual(try harness.savedWishlist(), [])
        harness.press(.enter, .char("w"))
        let detail = harness.screen
        XCTAssertTrue(detail.contains("could not be saved"), detail)
        XCTAssertEqual(try harness.savedWishlist(), [])
        XCTAssertEqual(harness.acknowledgedFilms, [])
    }

    nonisolated func testRemovingOnAFullDiskSaysSoAndKeepsTheRow() throws {
        try onMain(self) { try $0.mainActorTestRemovingOnAFullDiskSaysSoAndKeepsTheRow() }
    }

    private func mainActorTestRemovingOnAFullDiskSaysSoAndKeepsTheRow() throws {
        let harness = try AppHarness(environment: isolated([:]), size: Size(cols: 100, rows: 30))
        harness.press(.char("f"))
        harness.press(.char("5"), .char("/"))
        harness.type("oldboy")
        harness.press(.enter, .char("w"))
        try harness.setDiskFull(true)
        harness.press(.char("3"), .char("d"))
        let liked = harness.screen
        XCTAssertTrue(liked.contains("Shanghai"), liked)
        XCTAssertTrue(liked.contains("Could not save"), liked)
        XCTAssertEqual(try harness.savedLikes().count, 1)
        harness.press(.char("6"), .char("d"))
        let wishlist = harness.screen
        XCTAssertTrue(wishlist.contains("Oldboy"), wishlist)
        XCTAssertTrue(wishlist.contains("could not be saved"), wishlist)
        XCTAssertEqual(try harness.savedWishlist(), ["Oldboy"])
    }
}
