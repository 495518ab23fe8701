import XCTest
@testable import NimbusPresentation

/// `WarningsViewModel.reduce` as a table: the overlay scrolls (never above its first line) and
/// `a`, Esc or `q` close it where it is.
final class WarningsReduceTests: XCTestCase {
    typealias VM = WarningsViewModel

    func testScrollingAndClosing() {
        let cases: [(String, VM.State, VM.Action, VM.State, [VM.Effect])] = [
            ("down", VM.State(), .scrolled(4), VM.State(scroll: 4), []),
            ("back up", VM.State(scroll: 4), .scrolled(1), VM.State(scroll: 1), []),
            ("to the top", VM.State(scroll: 4), .scrolled(0), VM.State(), []),
            ("never above the first line", VM.State(scroll: 4), .scrolled(-1), VM.State(), []),
            ("nor at Int.min", VM.State(scroll: 2), .scrolled(Int.min), VM.State(), []),
            // The overlay keeps the line within what its box measured; reduce takes it as given.
            ("far down", VM.State(), .scrolled(Int.max), VM.State(scroll: Int.max), []),
            ("close at the top", VM.State(), .close, VM.State(), [.close]),
            ("close keeps the line", VM.State(scroll: 6), .close, VM.State(scroll: 6), [.close]),
        ]
        for (name, before, action, after, effects) in cases {
            var state = before
            XCTAssertEqual(VM.reduce(&state, action), effects, name)
            XCTAssertEqual(state, after, name)
        }
    }
}
