import XCTest
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// The overlays' keys as values.
final class OverlayKeyMapTests: XCTestCase {
    func testTheWarningsTextClosesOnAOrEscAndScrollsOnTheMoves() {
        let keys = WarningsOverlay.keyMap(nil)
        XCTAssertEqual(keys.event(for: "a", in: nil), .closeRequested)
        XCTAssertEqual(keys.event(for: .escape, in: nil), .closeRequested)
        for key in [Key.up, .down, .char("j"), .char("k"), .pageUp, .pageDown, .char(" "), .home, .end, .char("g"), .char("G")] {
            XCTAssertEqual(keys.command(for: key, in: nil), .scroll, "\(key)")
        }
        XCTAssertNil(keys.command(for: .char("q"), in: nil), "q is the app's")
    }

    func testTheMapStatisticsCloseOnEscOnly() {
        let keys = MapStatsOverlay.keyMap(L10n.bundled(.en))
        XCTAssertEqual(keys.event(for: .escape, in: nil), .closeRequested)
        XCTAssertEqual(keys.all.flatMap(\.keys), [.escape], "other keys go on to the screen under it")
    }

    func testTheQuestionAnswersYesOnYAndNoOnNOrEsc() {
        let keys = ConfirmOverlay.keyMap(nil)
        for key in [Key.char("y"), .char("Y")] { XCTAssertEqual(keys.event(for: key, in: nil), .answered(true)) }
        for key in [Key.char("n"), .char("N"), .escape] { XCTAssertEqual(keys.event(for: key, in: nil), .answered(false)) }
        XCTAssertNil(keys.command(for: .char("q"), in: nil), "every other key waits for the answer")
    }
}
