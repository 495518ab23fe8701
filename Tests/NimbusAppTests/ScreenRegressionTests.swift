import Foundation
import Testing
import AppExploration
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// What the screens say and which keys they offer, as a new user met them.
@Suite @MainActor struct ScreenRegressionTests {
    private let temporary = TemporaryDirectories()

    @Test func testQuestionMarkClosesTheHelpOverlayWhichScrollsWhenItDoesNotFit() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]), size: Size(cols: 40, rows: 10))
        harness.press(.char("?"))
        #expect(harness.screen.contains("Keys"), "\(harness.screen)")
        #expect(harness.screen.contains("↓ 1-"), "the border says there is more:\n\(harness.screen)")
        #expect(!harness.screen.contains("Esc close"), "the last line is below")
        #expect(!harness.screen.contains("…"), "labels wrap instead:\n\(harness.screen)")
        harness.press(.end)
        #expect(harness.screen.contains("Esc close"), "End shows the last line:\n\(harness.screen)")
        #expect(!harness.screen.contains("…"), "labels wrap instead:\n\(harness.screen)")
        #expect(harness.screen.contains("↑ "), "\(harness.screen)")
        harness.press(.home)
        harness.press(.down, .down)
        #expect(harness.screen.contains("↑↓ 3-"), "\(harness.screen)")
        harness.press(.char("?"))
        #expect(!harness.quit, "? closes help")
        #expect(!harness.screen.contains("Keys"), "\(harness.screen)")
        harness.press(.char("q"))
        #expect(harness.quit)
    }

    @Test func testEmptyStatesWrapInsteadOfBeingCut() throws {
        for language in ["en", "ko", "ja"] {
            let harness = try AppHarness(environment: temporary.isolated(["NIMBUS_LANG": language]), size: Size(cols: 40, rows: 12))
            // Between the tab bar and the status bar, which have their own rules for narrow terminals.
            func body() -> String { harness.screen.split(separator: "\n").dropFirst().dropLast().joined(separator: "\n") }
            harness.press(.char("3"))
            #expect(!body().contains("…"), "\(language):\n\(harness.screen)")
            harness.press(.char("6"))
            #expect(!body().contains("…"), "\(language):\n\(harness.screen)")
            #expect(!harness.screen.contains("Enter"), "nothing to open:\n\(harness.screen)")
        }
        let harness = try AppHarness(environment: temporary.isolated([:]), size: Size(cols: 40, rows: 12))
        harness.press(.char("3"))
        let text = harness.screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("No liked cities yet: press f on a city to like it."), "\(harness.screen)")
    }

    @Test func testARetryHintThatWorksWhereTheFocusIs() throws {
        // TMDB at a port nothing listens on: the search fails.
        let harness = try AppHarness(environment: temporary.isolated(["TMDB_API_KEY": "k", "NIMBUS_TMDB_URL": "http://127.0.0.1:9"]))
        harness.press(.char("5"), .char("/"))
        harness.type("heat")
        #expect(harness.wait(for: "Press Enter, then r to retry"), "\(harness.screen)")
        #expect(!harness.screen.contains("Press r to retry"), "r types in the field:\n\(harness.screen)")
        harness.press(.enter)
        #expect(harness.wait(for: "Press r to retry"), "\(harness.screen)")
        harness.press(.char("r"))
        #expect(harness.wait(for: "Press r to retry"), "r retried, and it failed again:\n\(harness.screen)")
    }

    @Test func testMapKeysAreOfferedAndTakenOnlyWhileTheMapIsOnScreen() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        harness.press(.char("/"))
        harness.type("seoul")
        harness.press(.enter, .enter)
        #expect(!harness.screen.contains("zoom"), "80×24 has no room for the map:\n\(harness.screen)")
        harness.press(.char("?"))
        #expect(!harness.screen.contains("zoom"), "\(harness.screen)")
        harness.press(.escape)
        harness.resize(Size(cols: 120, rows: 30))
        #expect(harness.screen.contains("zoom"), "the map is beside the weather:\n\(harness.screen)")
        harness.press(.char("?"))
        #expect(harness.screen.contains("zoom"), "\(harness.screen)")
    }
}
