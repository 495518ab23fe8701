import XCTest
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// The Quakes tab's keys as values: what each key sends in each state, and when it is not in force.
final class QuakeListKeyMapTests: XCTestCase {
    private typealias Event = QuakeListViewModel.Event
    private let l10n = L10n.bundled(.en)

    private func state(rows: Int, loading: Bool = false, failed: Bool = false) -> QuakeListState {
        let row = QuakeRow(id: "a", magnitude: "5.1", strength: 3, time: "12 min ago", place: "Pohang", depth: "10 km", flagged: false)
        return QuakeListState(filterParts: [], rows: Array(repeating: row, count: rows), message: nil, summaryParts: [],
                              likeError: nil, status: "", failed: failed, loading: loading)
    }

    func testEachKeySendsItsEvent() {
        let keys = QuakeListScreen.keyMap(l10n, likesCities: true)
        let loaded = state(rows: 2)
        XCTAssertEqual(keys.event(for: "f", in: loaded), .likeToggled)
        XCTAssertEqual(keys.event(for: "m", in: loaded), .magnitudeCycled)
        XCTAssertEqual(keys.event(for: "p", in: loaded), .periodCycled)
        XCTAssertEqual(keys.event(for: "n", in: loaded), .nearToggled)
        XCTAssertEqual(keys.event(for: "s", in: loaded), .sortToggled)
        XCTAssertEqual(keys.event(for: "r", in: loaded), .refreshRequested)
        XCTAssertEqual(keys.command(for: .enter, in: loaded), .openSelection)
        for key in [Key.up, .down, .char("j"), .char("k"), .pageUp, .pageDown, .home, .end, .char("g"), .char("G")] {
            XCTAssertEqual(keys.command(for: key, in: loaded), .moveSelection, "\(key)")
        }
        XCTAssertNil(keys.command(for: .escape, in: loaded), "Esc stops only a request in flight")
        XCTAssertEqual(keys.event(for: .escape, in: state(rows: 2, loading: true)), .cancelRequested)
    }

    func testKeysThatNeedARowAreUnboundWithoutOne() {
        let keys = QuakeListScreen.keyMap(l10n, likesCities: true)
        let empty = state(rows: 0)
        XCTAssertNil(keys.command(for: .char("f"), in: empty))
        XCTAssertNil(keys.command(for: .enter, in: empty))
        XCTAssertNil(QuakeListScreen.keyMap(l10n, likesCities: false).command(for: .char("f"), in: state(rows: 1)),
                     "no likes store: f is not offered")
    }

    func testRetryOrRefreshIsOneKeyWhoseHintFollowsTheState() {
        let keys = QuakeListScreen.keyMap(l10n, likesCities: true)
        XCTAssertEqual(keys.binding(for: .char("r"), in: state(rows: 1))?.hint, l10n[.hintRefresh])
        XCTAssertEqual(keys.binding(for: .char("r"), in: state(rows: 1, failed: true))?.hint, l10n[.hintRetry])
        for s in [state(rows: 0), state(rows: 3, loading: true), state(rows: 1, failed: true), state(rows: 2)] {
            let keys = keys.listed(in: s).flatMap(\.keys)
            XCTAssertEqual(keys.count, Set(keys).count, "a key bound twice in \(s)")
        }
    }

    /// Before the first state every condition reads false: the list keys and the filters, no Enter, no f.
    func testBeforeTheFirstState() {
        let keys = QuakeListScreen.keyMap(l10n, likesCities: true)
        XCTAssertEqual(keys.event(for: "m", in: nil), .magnitudeCycled)
        XCTAssertNil(keys.command(for: .enter, in: nil))
        XCTAssertEqual(keys.binding(for: .char("r"), in: nil)?.hint, l10n[.hintRefresh])
    }
}
