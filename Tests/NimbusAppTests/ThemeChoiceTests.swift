import NimbusDomain
@testable import NimbusApp
import NimbusTerminal
import NimbusUI
import XCTest

/// Dark, light, and auto from the terminal's background; monochrome wins over all.
final class ThemeChoiceTests: XCTestCase {
    func testTheThemeFollowsTheSettingTheBackgroundAndNoColor() {
        func pick(_ s: UserSettings.Theme, _ b: TerminalBackground?, mono: Bool = false) -> Style {
            AppPreferences.chooseTheme(s, background: b, monochrome: mono).selection
        }
        XCTAssertEqual(pick(.dark, .light), Theme.color.selection)
        XCTAssertEqual(pick(.light, .dark), Theme.light.selection)
        XCTAssertEqual(pick(.auto, .light), Theme.light.selection)
        XCTAssertEqual(pick(.auto, .dark), Theme.color.selection)
        XCTAssertEqual(pick(.auto, nil), Theme.color.selection, "no answer within 50 ms: dark")
        for s in UserSettings.Theme.allCases {
            for b in [TerminalBackground.light, .dark, nil] {
                XCTAssertEqual(pick(s, b, mono: true), Theme.monochrome.selection, "NO_COLOR wins")
            }
        }
    }
}
