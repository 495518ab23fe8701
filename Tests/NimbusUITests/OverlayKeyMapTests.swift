import XCTest
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// The overlays' keys as values.
final class OverlayKeyMapTests: XCTestCase {
    func testTheWarningsTextClosesOnAOrEscAndScrollsOnTheMoves() {
        let keys = WarningsOverlay.keyMap()
        XCTAssertEqual(keys.event(for: "a", in: nil), .closeRequested)
        XCTAssertEqual(keys.event(for: .escape, in: nil), .closeRequested)
        for key in [Key.up, .down, .char("j"), .char("k"), .pageUp, .pageDown, .char(" "), .home, .end, .char("g"), .char("G")] {
            XCTAssertEqual(keys.command(for: key, in: nil), .scroll, "\(key)")
        }
        XCTAssertNil(keys.command(for: .char("q"), in: nil), "q is the app's")
    }

    func testTheMapStatisticsCloseOnEscOnly() {
        let keys = MapStatsOverlay.keyMap()
        XCTAssertEqual(keys.event(for: .escape, in: nil), .closeRequested)
        XCTAssertEqual(keys.all.flatMap(\.keys), [.escape], "other keys go on to the screen under it")
    }

    func testTheQuestionAnswersYesOnYAndNoOnNOrEsc() {
        let keys = ConfirmOverlay.keyMap(nil)
        for key in [Key.char("y"), .char("Y")] { XCTAssertEqual(keys.event(for: key, in: nil), .answered(true)) }
        for key in [Key.char("n"), .char("N"), .escape] { XCTAssertEqual(keys.event(for: key, in: nil), .answered(false)) }
        XCTAssertNil(keys.command(for: .char("q"), in: nil), "every other key waits for the answer")
    }

    func testTheHelpsKeysEditItsFilterAndLeaveLettersToIt() {
        let keys = HelpOverlay.keyMap()
        XCTAssertEqual(keys.event(for: "?", in: nil), .closeRequested)
        XCTAssertEqual(keys.event(for: .escape, in: nil), .escaped)
        XCTAssertEqual(keys.event(for: .enter, in: nil), .kept)
        XCTAssertEqual(keys.event(for: .backspace, in: nil), .backspace)
        XCTAssertEqual(keys.event(for: .ctrl("u"), in: nil), .cleared)
        for key in [Key.up, .down, .pageUp, .pageDown, .home, .end] { XCTAssertEqual(keys.command(for: key, in: nil), .scroll, "\(key)") }
        for key in [Key.char("j"), .char("k"), .char("g"), .char("q"), .char(" ")] {
            XCTAssertNil(keys.command(for: key, in: nil), "\(key) types into the filter")
        }
    }

    private func settings(selected: Int, rows: Int = 9, search: SettingsState.Search? = nil) -> SettingsState {
        SettingsState(title: "Settings", rows: (0..<rows).map { SettingsState.Row(label: "row \($0)", value: "v", values: ["v"], flagged: false) },
                      selected: selected, search: search, footer: "", footers: [""], help: "", searchPrompt: "")
    }

    func testEachSettingsMoveSendsTheRowItLandsOn() {
        let l10n = L10n.bundled(.en)
        let middle = settings(selected: 4)
        let keys = SettingsOverlay.keyMap(for: middle)
        let expected: [(Key, Int)] = [(.up, 3), (.char("k"), 3), (.down, 5), (.char("j"), 5), (.home, 0), (.char("g"), 0),
                                      (.pageUp, 0), (.end, 8), (.char("G"), 8), (.pageDown, 8)]
        for (key, row) in expected { XCTAssertEqual(keys.event(for: key, in: middle), .rowSelected(row), "\(key)") }
        // At the ends the moves stay on the row.
        let top = settings(selected: 0), bottom = settings(selected: 8)
        XCTAssertEqual(SettingsOverlay.keyMap(for: top).event(for: .up, in: top), .rowSelected(0))
        XCTAssertEqual(SettingsOverlay.keyMap(for: bottom).event(for: .down, in: bottom), .rowSelected(8))
        XCTAssertEqual(keys.event(for: .right, in: middle), .valueStepped(1))
        XCTAssertEqual(keys.event(for: .enter, in: middle), .valueStepped(1))
        XCTAssertEqual(keys.event(for: "h", in: middle), .valueStepped(-1))
        XCTAssertEqual(keys.event(for: .delete, in: middle), .valueCleared)
        for key in [Key.escape, .char("q"), .char(","), .function(2), .char("?")] {
            XCTAssertEqual(keys.event(for: key, in: middle), .closeRequested, "\(key)")
        }
    }

    func testInTheHomeSearchOnlyItsKeysAreInForce() {
        let l10n = L10n.bundled(.en)
        let searching = settings(selected: 8, search: .init(prompt: "Home:", text: "se", results: ["Seoul", "Sendai"], pick: 1))
        let keys = SettingsOverlay.keyMap(for: searching)
        XCTAssertEqual(keys.event(for: .escape, in: searching), .searchCancelled)
        XCTAssertEqual(keys.event(for: .enter, in: searching), .resultPicked)
        XCTAssertEqual(keys.event(for: .up, in: searching), .resultSelected(0))
        XCTAssertEqual(keys.event(for: .down, in: searching), .resultSelected(2))
        for key in [Key.char("q"), .char("j"), .left, .backspace] { XCTAssertNil(keys.command(for: key, in: searching), "\(key) is the field's") }
        XCTAssertTrue(SettingsOverlay.keyMap(for: nil).all.isEmpty, "nothing before the first state")
    }
}
