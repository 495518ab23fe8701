import XCTest
import NimbusTerminal
import NimbusDomain
@testable import NimbusPresentation
@testable import NimbusUI

/// The Wishlist tab's keys as values.
final class WishlistKeyMapTests: XCTestCase {
    private let l10n = L10n.bundled(.en)

    private func state(rows: Int) -> WishlistState {
        let row = WishlistRow(id: MovieID(source: .catalogue, value: 1), title: "Alien", year: "1979", director: "", added: "")
        return WishlistState(rows: Array(repeating: row, count: rows), summary: "", emptyMessage: nil, confirmation: nil)
    }

    func testEachKeySendsItsEventOnlyWithFilmsSaved() {
        let keys = WishlistScreen.keyMap(l10n)
        XCTAssertEqual(keys.event(for: "D", in: state(rows: 2)), .deleteAllRequested)
        XCTAssertEqual(keys.command(for: .char("d"), in: state(rows: 2)), .removeSelection)
        XCTAssertEqual(keys.command(for: .enter, in: state(rows: 2)), .openSelection)
        XCTAssertEqual(keys.command(for: .pageDown, in: state(rows: 2)), .moveSelection)
        for key in [Key.char("D"), .char("d"), .enter] {
            XCTAssertNil(keys.command(for: key, in: state(rows: 0)), "\(key)")
            XCTAssertEqual(keys.disabledReason(for: key, in: state(rows: 0)), l10n[.helpKeyDisabledNoRow])
        }
        XCTAssertEqual(keys.listed(in: state(rows: 0)).count, keys.listed(in: state(rows: 3)).count, "the help lists them all the same")
    }

    /// `i` opens the import's field whether or not films are saved; in the field, Enter and Esc are
    /// the field's and the list's keys are not bound (every other key is text).
    func testImportOpensAFieldWhereTheListKeysAreText() {
        let keys = WishlistScreen.keyMap(l10n)
        XCTAssertEqual(keys.event(for: "i", in: state(rows: 0)), .importRequested)
        XCTAssertEqual(keys.event(for: "i", in: state(rows: 2)), .importRequested)
        var field = state(rows: 2)
        field.importing = true
        XCTAssertEqual(keys.command(for: .enter, in: field), .editField)
        XCTAssertEqual(keys.command(for: .escape, in: field), .editField)
        for key in [Key.char("i"), .char("d"), .char("D"), .char("j"), .down, .pageDown] {
            XCTAssertNil(keys.command(for: key, in: field), "\(key)")
        }
    }
}
