import XCTest
import AppExploration
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// What the screens say and which keys they offer, as a new user met them.
@MainActor
final class ScreenRegressionTests: XCTestCase {
    nonisolated func testQuestionMarkClosesTheHelpOverlayWhichScrollsWhenItDoesNotFit() throws {
        try onMain(self) { try $0.mainActorTestQClosesTheHelpOverlayWhichScrollsWhenItDoesNotFit() }
    }

    private func mainActorTestQClosesTheHelpOverlayWhichScrollsWhenItDoesNotFit() throws {
        let harness = try AppHarness(environment: isolated([:]), size: Size(cols: 40, rows: 10))
        harness.press(.char("?"))
        XCTAssertTrue(harness.screen.contains("Keys"), harness.screen)
        XCTAssertTrue(harness.screen.contains("↓ 1-"), "the border says there is more:\n\(harness.screen)")
        XCTAssertFalse(harness.screen.contains("Esc close"), "the last line is below")
        XCTAssertFalse(harness.screen.contains("…"), "labels wrap instead:\n\(harness.screen)")
        harness.press(.end)
        XCTAssertTrue(harness.screen.contains("Esc close"), "End shows the last line:\n\(harness.screen)")
        XCTAssertFalse(harness.screen.contains("…"), "labels wrap instead:\n\(harness.screen)")
        XCTAssertTrue(harness.screen.contains("↑ "), harness.screen)
        harness.press(.home)
        harness.press(.down, .down)
        XCTAssertTrue(harness.screen.contains("↑↓ 3-"), harness.screen)
        harness.press(.char("?"))
        XCTAssertFalse(harness.quit, "? closes help")
        XCTAssertFalse(harness.screen.contains("Keys"), harness.screen)
        harness.press(.char("q"))
        XCTAssertTrue(harness.quit)
    }

    nonisolated func testEmptyStatesWrapInsteadOfBeingCut() throws {
        try onMain(self) { try $0.mainActorTestEmptyStatesWrapInsteadOfBeingCut() }
    }

    private func mainActorTestEmptyStatesWrapInsteadOfBeingCut() throws {
        for language in ["en", "ko", "ja"] {
            let harness = try AppHarness(environment: isolated(["NIMBUS_LANG": language]), size: Size(cols: 40, rows: 12))
            // Between the tab bar and the status bar, which have their own rules for narrow terminals.
            func body() -> String { harness.screen.split(separator: "\n").dropFirst().dropLast().joined(separator: "\n") }
            harness.press(.char("3"))
            XCTAssertFalse(body().contains("…"), "\(language):\n\(harness.screen)")
            harness.press(.char("6"))
            XCTAssertFalse(body().contains("…"), "\(language):\n\(harness.screen)")
            XCTAssertFalse(harness.screen.contains("Enter"), "nothing to open:\n\(harness.screen)")
        }
        let harness = try AppHarness(environment: isolated([:]), size: Size(cols: 40, rows: 12))
        harness.press(.char("3"))
        let text = harness.screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        XCTAssertTrue(text.contains("No liked cities yet: press f on a city to like it."), harness.screen)
    }

    nonisolated func testARetryHintThatWorksWhereTheFocusIs() throws {
        try onMain(self) { try $0.mainActorTestARetryHintThatWorksWhereTheFocusIs() }
    }

    private func mainActorTestARetryHintThatWorksWhereTheFocusIs() throws {
        // TMDB at a port nothing listens on: the search fails.
        let harness = try AppHarness(environment: isolated(["TMDB_API_KEY": "k", "NIMBUS_TMDB_URL": "http://127.0.0.1:9"]))
        harness.press(.char("5"), .char("/"))
        harness.type("heat")
        XCTAssertTrue(harness.wait(for: "Press Enter, then r to retry"), harness.screen)
        XCTAssertFalse(harness.screen.contains("Press r to retry"), "r types in the field:\n\(harness.screen)")
        harness.press(.enter)
        XCTAssertTrue(harness.wait(for: "Press r to retry"), harness.screen)
        harness.press(.char("r"))
        XCTAssertTrue(harness.wait(for: "Press r to retry"), "r retried, and it failed again:\n\(harness.screen)")
    }

    nonisolated func testMapKeysAreOfferedAndTakenOnlyWhileTheMapIsOnScreen() throws {
        try onMain(self) { try $0.mainActorTestMapKeysAreOfferedAndTakenOnlyWhileTheMapIsOnScreen() }
    }

    private func mainActorTestMapKeysAreOfferedAndTakenOnlyWhileTheMapIsOnScreen() throws {
        let harness = try AppHarness(environment: isolated([:]))
        harness.press(.char("/"))
        harness.type("seoul")
        harness.press(.enter, .enter)
        XCTAssertFalse(harness.screen.contains("zoom"), "80×24 has no room for the map:\n\(harness.screen)")
        harness.press(.char("?"))
        XCTAssertFalse(harness.screen.contains("zoom"), harness.screen)
        harness.press(.escape)
        harness.resize(Size(cols: 120, rows: 30))
        XCTAssertTrue(harness.screen.contains("zoom"), "the map is beside the weather:\n\(harness.screen)")
        harness.press(.char("?"))
        XCTAssertTrue(harness.screen.contains("zoom"), harness.screen)
    }
}
