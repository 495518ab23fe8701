import XCTest
import NimbusPresentation
import NimbusTerminal
@testable import NimbusUI
@testable import NimbusApp

/// The app's own keys as values.
final class AppKeyMapTests: XCTestCase {
    private let l10n = L10n.bundled(.en)

    func testEachTabDigitSelectsItsTabAndTabStepsThroughThem() {
        let keys = AppCoordinator.commandKeys(l10n, tabs: 5)
        for n in 1...5 {
            XCTAssertEqual(keys.command(for: .char(Character(String(n))), in: ()), .send(.selectTab(n - 1)))
        }
        XCTAssertNil(keys.command(for: .char("6"), in: ()), "no sixth tab")
        XCTAssertEqual(keys.command(for: .tab, in: ()), .send(.nextTab(1)))
        XCTAssertEqual(keys.command(for: .backTab, in: ()), .send(.nextTab(-1)))
        XCTAssertEqual(keys.all[0].keyLabel, "1-5")
    }

    func testTheCommandsAndGoingBack() {
        let keys = AppCoordinator.commandKeys(l10n, tabs: 1)
        XCTAssertNil(keys.command(for: .char("1"), in: ()), "one tab: no digits")
        XCTAssertNil(keys.command(for: .tab, in: ()))
        XCTAssertEqual(keys.command(for: .char("?"), in: ()), .send(.help))
        XCTAssertEqual(keys.command(for: .char(","), in: ()), .send(.settings))
        XCTAssertEqual(keys.command(for: .function(2), in: ()), .send(.settings))
        XCTAssertEqual(keys.command(for: .char("y"), in: ()), .send(.copy))
        XCTAssertEqual(keys.command(for: .char("q"), in: ()), .send(.quit))
        let back = AppCoordinator.backKeys(l10n)
        XCTAssertEqual(back.command(for: .escape, in: ()), .send(.back))
        XCTAssertEqual(back.command(for: .backspace, in: ()), .send(.back))
    }
}
