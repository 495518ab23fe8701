import Foundation
import Testing
import AppExploration
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// Saves that fail as on a full disk (the database refuses every change of the likes and the
/// wishlist): each says so where it was asked for, and what is shown stays what is saved.
@Suite @MainActor struct FullDiskTests {
    private let temporary = TemporaryDirectories()

    private func harness(_ language: String = "en", size: Size = Size(cols: 100, rows: 30)) throws -> AppHarness {
        let harness = try AppHarness(environment: temporary.isolated(["NIMBUS_LANG": language]), size: size)
        // The database exists once something was saved; then the disk fills.
        harness.press(.char("f"))
        harness.press(.char("f"))
        try harness.setDiskFull(true)
        return harness
    }

    @Test func testLikingACityOnAFullDiskSaysSoAndMarksNothing() throws {
        for language in ["en", "ko", "ja"] {
            let harness = try harness(language)
            harness.press(.char("f"))
            let list = harness.screen
            #expect(!list.contains("›*"), "\(language): the row is not marked liked:\n\(list)")
            #expect(try harness.savedLikes() == [])
            #expect(list.contains(language == "en" ? "Could not save" : language == "ko" ? "저장" : "保存"), "\(language):\n\(list)")
            // On the city's own screen too.
            harness.press(.enter)
            harness.press(.char("f"))
            let detail = harness.screen
            #expect(detail.contains(language == "en" ? "Could not save" : language == "ko" ? "저장" : "保存"), "\(language):\n\(detail)")
            #expect(!detail.contains(language == "en" ? "[Liked]" : "♥"), "\(language):\n\(detail)")
            #expect(try harness.savedLikes() == [])
        }
    }

    @Test func testKeepingAFilmOnAFullDiskSaysSoAndMarksNothing() throws {
        let harness = try harness()
        harness.press(.char("5"), .char("/"))
        harness.type("oldboy")
        harness.press(.enter, .char("w"))
        let list = harness.screen
        #expect(list.contains("could not be saved"), "\(list)")
        #expect(!list.contains("♥"), "\(list)")
        #expect(try harness.savedWishlist() == [])
        harness.press(.enter, .char("w"))
        let detail = harness.screen
        #expect(detail.contains("could not be saved"), "\(detail)")
        #expect(try harness.savedWishlist() == [])
        #expect(harness.acknowledgedFilms == [])
    }

    @Test func testRemovingOnAFullDiskSaysSoAndKeepsTheRow() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]), size: Size(cols: 100, rows: 30))
        harness.press(.char("f"))
        harness.press(.char("5"), .char("/"))
        harness.type("oldboy")
        harness.press(.enter, .char("w"))
        try harness.setDiskFull(true)
        harness.press(.char("3"), .char("d"))
        let liked = harness.screen
        #expect(liked.contains("Shanghai"), "\(liked)")
        #expect(liked.contains("Could not save"), "\(liked)")
        #expect(try harness.savedLikes().count == 1)
        harness.press(.char("6"), .char("d"))
        let wishlist = harness.screen
        #expect(wishlist.contains("Oldboy"), "\(wishlist)")
        #expect(wishlist.contains("could not be saved"), "\(wishlist)")
        #expect(try harness.savedWishlist() == ["Oldboy"])
    }
}
