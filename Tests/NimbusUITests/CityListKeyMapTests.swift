import XCTest
import NimbusTerminal
import NimbusDomain
@testable import NimbusPresentation
@testable import NimbusUI

/// The Cities tab's keys as values: the list's keys, and the field's while it has the focus.
final class CityListKeyMapTests: XCTestCase {
    private let l10n = L10n.bundled(.en)
    private let keys = CityListScreen.keyMap(L10n.bundled(.en))

    private func state(rows: Int, searching: Bool = false) -> CityListState {
        let matches = CityMatches(query: "", refs: (0..<rows).map { CityRef(Int32($0)) })
        let listed = CityRows(matches: matches, l10n: .bundled(.en), format: { _ in fatalError("the key map reads no row") })
        return CityListState(query: "", rows: listed, summary: "", emptyMessage: nil, searching: searching)
    }

    func testTheListsKeys() {
        let list = state(rows: 0)
        XCTAssertEqual(keys.event(for: "/", in: list), .searchFocused(true))
        XCTAssertEqual(keys.event(for: "r", in: list), .retryRequested)
        XCTAssertEqual(keys.command(for: .char("j"), in: list), .moveSelection)
        XCTAssertNil(keys.command(for: .enter, in: list), "no row: Enter passes on")
        XCTAssertEqual(keys.command(for: .enter, in: state(rows: 2)), .openSelection)
        XCTAssertEqual(keys.command(for: .char("f"), in: state(rows: 2)), .likeSelection)
        XCTAssertEqual(keys.disabledReason(for: .char("f"), in: list), l10n[.helpKeyDisabledNoRow])
        XCTAssertEqual(keys.listed(in: list).filter { $0.command == .describe }.map(\.keyLabel), ["Enter ↓", "Esc"],
                       "the field's keys are in the list's help")
    }

    func testInTheFieldOnlyWhatLeavesItIsBound() {
        let field = state(rows: 0, searching: true)
        XCTAssertEqual(keys.command(for: .enter, in: field), .editField)
        XCTAssertEqual(keys.command(for: .down, in: field), .editField)
        XCTAssertEqual(keys.command(for: .escape, in: field), .editField)
        XCTAssertEqual(keys.command(for: .ctrl("c"), in: field), .describe)
        for key in [Key.char("/"), .char("f"), .char("r"), .char("j")] {
            XCTAssertNil(keys.command(for: key, in: field), "\(key) is text in the field")
        }
    }
}
