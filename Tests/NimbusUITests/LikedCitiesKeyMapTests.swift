import XCTest
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// The Liked tab's keys as values.
final class LikedCitiesKeyMapTests: XCTestCase {
    private let l10n = L10n.bundled(.en)

    private func state(rows: Int, canRetry: Bool = false) -> LikedCitiesState {
        let row = LikedRow(cityID: 1, name: "Seoul", country: "South Korea", range: nil, condition: nil, coordinates: "")
        return LikedCitiesState(rows: Array(repeating: row, count: rows), emptyMessage: rows == 0 ? l10n[.likedEmpty] : nil,
                                notice: nil, canRetry: canRetry)
    }

    func testEachKeySendsItsEvent() {
        let keys = LikedCitiesScreen.keyMap(l10n)
        let two = state(rows: 2)
        XCTAssertEqual(keys.event(for: "r", in: two), .refreshRequested)
        XCTAssertEqual(keys.command(for: .enter, in: two), .openSelection)
        XCTAssertEqual(keys.command(for: .char("d"), in: two), .removeSelection)
        XCTAssertEqual(keys.command(for: .delete, in: two), .removeSelection)
        XCTAssertEqual(keys.command(for: .char("j"), in: two), .moveSelection)
        XCTAssertNil(keys.command(for: .char("f"), in: two))
    }

    /// With no city, Enter and `d` stay in the help but pass their key on, saying why; their hints go.
    func testAnEmptyListListsButDisablesOpenAndRemove() {
        let keys = LikedCitiesScreen.keyMap(l10n)
        let empty = state(rows: 0)
        XCTAssertNil(keys.command(for: .enter, in: empty))
        XCTAssertNil(keys.command(for: .char("d"), in: empty))
        XCTAssertEqual(keys.disabledReason(for: .char("d"), in: empty), l10n[.likedEmpty])
        XCTAssertNil(keys.disabledReason(for: .char("d"), in: state(rows: 1)))
        XCTAssertEqual(keys.listed(in: empty).map(\.help), keys.listed(in: state(rows: 1)).map(\.help))
        XCTAssertEqual(keys.listed(in: empty).compactMap { keys.hint($0, in: empty) }, [])
        XCTAssertEqual(keys.listed(in: state(rows: 1)).compactMap { keys.hint($0, in: state(rows: 1)) },
                       [l10n[.hintMove], l10n[.hintOpen], l10n[.hintRemove]])
        XCTAssertEqual(keys.listed(in: state(rows: 1, canRetry: true)).compactMap { keys.hint($0, in: state(rows: 1, canRetry: true)) },
                       [l10n[.hintMove], l10n[.hintOpen], l10n[.hintRemove], l10n[.hintRetry]])
    }
}
