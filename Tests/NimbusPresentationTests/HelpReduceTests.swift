import XCTest
import Testing
import PropertyBased
@testable import NimbusPresentation
import TestSupport

/// `HelpViewModel.reduce` as a table: the help's filter as every search of the app types it (`/` or a
/// letter starts typing, `q` is text, Enter keeps, Esc clears and then closes) and its scroll.
final class HelpReduceTests: XCTestCase {
    typealias VM = HelpViewModel

    func testTypingEditingKeepingAndClosing() {
        let cases: [(String, VM.State, VM.Action, VM.State, [VM.Effect])] = [
            // `/` sends an empty text: it starts typing and adds nothing.
            ("/ starts typing", VM.State(), .typed(""), VM.State(filter: "", typing: true), []),
            ("a letter starts typing", VM.State(), .typed("p"), VM.State(filter: "p", typing: true), []),
            ("q is text while typing", VM.State(filter: "e", typing: true), .typed("q"), VM.State(filter: "eq", typing: true), []),
            ("q is text before typing too", VM.State(), .typed("q"), VM.State(filter: "q", typing: true), []),
            ("a paste adds its whole text", VM.State(filter: "a", typing: true), .typed("b c"),
             VM.State(filter: "ab c", typing: true), []),
            ("typing goes back to the top", VM.State(filter: "p", typing: true, scroll: 9), .typed("a"),
             VM.State(filter: "pa", typing: true), []),
            ("a letter after Enter types on", VM.State(filter: "pa", typing: false, scroll: 4), .typed("r"),
             VM.State(filter: "par", typing: true), []),
            ("backspace edits", VM.State(filter: "par", typing: true, scroll: 3), .backspace,
             VM.State(filter: "pa", typing: true), []),
            ("backspace takes a whole character", VM.State(filter: "café", typing: true), .backspace,
             VM.State(filter: "caf", typing: true), []),
            ("backspace on nothing stops typing", VM.State(filter: "", typing: true), .backspace, VM.State(), []),
            ("backspace with nothing typed", VM.State(scroll: 5), .backspace, VM.State(), []),
            ("backspace edits a kept filter", VM.State(filter: "pa", typing: false), .backspace, VM.State(filter: "p"), []),
            ("Ctrl-U clears and keeps typing", VM.State(filter: "par", typing: true, scroll: 2), .cleared,
             VM.State(filter: "", typing: true), []),
            ("Ctrl-U with nothing", VM.State(), .cleared, VM.State(), []),
            ("Enter keeps the filter", VM.State(filter: "par", typing: true, scroll: 2), .kept,
             VM.State(filter: "par", typing: false, scroll: 2), []),
            ("Enter with nothing typed", VM.State(), .kept, VM.State(), []),
            ("Esc clears a typed filter", VM.State(filter: "par", typing: true, scroll: 2), .escaped, VM.State(), []),
            ("Esc clears a kept filter", VM.State(filter: "par", typing: false, scroll: 2), .escaped, VM.State(), []),
            ("Esc after / stops typing, does not close", VM.State(filter: "", typing: true), .escaped, VM.State(), []),
            ("Esc with no filter closes", VM.State(scroll: 3), .escaped, VM.State(scroll: 3), [.close]),
            ("? closes while typing", VM.State(filter: "par", typing: true), .close, VM.State(filter: "par", typing: true), [.close]),
            ("? closes", VM.State(), .close, VM.State(), [.close]),
            ("scrolling", VM.State(filter: "p", typing: true), .scrolled(7), VM.State(filter: "p", typing: true, scroll: 7), []),
            ("scrolling back to the top", VM.State(scroll: 7), .scrolled(0), VM.State(), []),
            ("never above the first line", VM.State(scroll: 7), .scrolled(-3), VM.State(), []),
            ("nor at Int.min", VM.State(), .scrolled(Int.min), VM.State(), []),
        ]
        for (name, before, action, after, effects) in cases {
            var state = before
            XCTAssertEqual(VM.reduce(&state, action), effects, name)
            XCTAssertEqual(state, after, name)
        }
    }

    /// Esc twice from a typed filter: the first clears, the second closes.
    func testEscClearsThenCloses() {
        var state = VM.State()
        for action: VM.Action in [.typed(""), .typed("w"), .typed("i")] { XCTAssertEqual(VM.reduce(&state, action), []) }
        XCTAssertEqual(state, VM.State(filter: "wi", typing: true))
        XCTAssertEqual(VM.reduce(&state, .escaped), [])
        XCTAssertEqual(VM.reduce(&state, .escaped), [.close])
    }
}

/// Any sequence of keys: the scroll is never above the first line, only Esc with no filter and `?`
/// close, and the filter is always what was typed, less what was erased.
@Suite struct HelpReducePropertyTests {
    static var actions: [HelpViewModel.Action] { [
        .typed(""), .typed("q"), .typed("é"), .typed("a b"), .backspace, .cleared, .kept, .escaped, .close,
        .scrolled(-2), .scrolled(0), .scrolled(5),
    ] }

    @Test func everySequenceKeepsTheScrollAndClosesOnlyWhenAsked() async {
        await propertyCheck(count: PropertyCount.scaled(default: 100), input: Gen.int().array(of: 1...40)) { seeds in
            var state = HelpViewModel.State()
            var model = ""
            for seed in seeds {
                let action = Self.actions[Int(UInt(bitPattern: seed) % UInt(Self.actions.count))]
                let before = state
                let effects = HelpViewModel.reduce(&state, action)
                switch action {
                case .typed(let text): model += text
                case .backspace: if !model.isEmpty { model.removeLast() }
                case .cleared, .escaped: model = ""
                default: break
                }
                let closes = action == .close || (action == .escaped && before.filter.isEmpty && !before.typing)
                #expect(effects == (closes ? [.close] : []), "\(before) \(action)")
                #expect(state.scroll >= 0)
                #expect(state.filter == model, "\(before) \(action)")
            }
        }
    }
}
