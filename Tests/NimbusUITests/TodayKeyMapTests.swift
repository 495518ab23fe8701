import XCTest
import NimbusDomain
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// Today's keys as values: what each sends depends on where the selection is.
final class TodayKeyMapTests: XCTestCase {
    private let l10n = L10n.bundled(.en)

    private func state(viewed: Int = 0, selection: TodayTarget?) -> TodayState {
        TodayState(places: .init(title: "Places", status: .loaded(note: nil), rows: []), placesNotes: [],
                   quakes: .init(title: "Quakes", status: .empty("none"), rows: []),
                   films: .init(title: "Films", status: .empty("none"), rows: []),
                   viewed: (0..<viewed).map { TodayFilmRow(id: MovieID(source: .catalogue, value: $0 + 1), title: "Film \($0)") }, selection: selection)
    }

    private func keys(_ state: TodayState?) -> KeyMap<TodayViewModel.Event, TodayState> { TodayScreen.keyMap(l10n, for: state) }

    func testBracketsGoRoundTheSectionsEachItsOwnWay() {
        let s = state(selection: .section(.quakes))
        XCTAssertEqual(keys(s).event(for: "[", in: s), .moved(.section(-1)))
        XCTAssertEqual(keys(s).event(for: "]", in: s), .moved(.section(1)))
        XCTAssertEqual(keys(s).command(for: .down, in: s), .moveSelection)
    }

    func testRRefreshesTheSectionTheSelectionIsIn() {
        for (selection, section) in [(TodayTarget.section(.quakes), TodaySection.quakes), (.item(.place(0)), .places),
                                     (.item(.viewed(0)), .films)] {
            let s = state(viewed: 1, selection: selection)
            XCTAssertEqual(keys(s).event(for: "r", in: s), .refreshRequested(section))
        }
        // Before the first state, the places.
        XCTAssertEqual(keys(nil).event(for: "r", in: nil), .refreshRequested(.places))
    }

    func testEnterOpensTheSelectedItemAndPassesOnOverASectionsMessage() {
        let onPlace = state(selection: .item(.place(2)))
        XCTAssertEqual(keys(onPlace).event(for: .enter, in: onPlace), .opened(.place(2)))
        let enter = keys(onPlace).listed(in: onPlace).first { $0.keys == [.enter] }!
        XCTAssertEqual(keys(onPlace).hint(enter, in: onPlace), l10n[.hintOpen])
        let onMessage = state(selection: .section(.films))
        XCTAssertNil(keys(onMessage).command(for: .enter, in: onMessage))
        XCTAssertNil(keys(onMessage).hint(enter, in: onMessage))
        // Still in the help.
        XCTAssertTrue(keys(onMessage).listed(in: onMessage).contains { $0.keys == [.enter] })
    }

    func testArrowsAlongTheViewedFilmsOnlyThere() {
        let none = state(selection: .section(.films))
        XCTAssertFalse(keys(none).listed(in: none).contains { $0.keys.contains(.left) })
        let onViewed = state(viewed: 3, selection: .item(.viewed(1)))
        XCTAssertEqual(keys(onViewed).event(for: .left, in: onViewed), .moved(.along(-1)))
        XCTAssertEqual(keys(onViewed).event(for: "h", in: onViewed), .moved(.along(-1)))
        XCTAssertEqual(keys(onViewed).event(for: .right, in: onViewed), .moved(.along(1)))
        XCTAssertEqual(keys(onViewed).event(for: "l", in: onViewed), .moved(.along(1)))
        // Listed, but passed on while the selection is elsewhere.
        let elsewhere = state(viewed: 3, selection: .section(.quakes))
        XCTAssertTrue(keys(elsewhere).listed(in: elsewhere).contains { $0.keys.contains(.left) })
        XCTAssertNil(keys(elsewhere).command(for: .left, in: elsewhere))
    }

    func testTheBarShowsTheMovesAsOneHint() {
        let s = state(selection: nil)
        let first = keys(s).listed(in: s)[0]
        XCTAssertEqual(first.hintKey, "↑↓")
        XCTAssertEqual(keys(s).hint(first, in: s), l10n[.hintMove])
    }
}
