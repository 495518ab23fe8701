import Testing
import PropertyBased
import NimbusTerminal
import NimbusPresentation
@testable import NimbusUI
import TestSupport

/// A key map makes the dispatcher's list once for each set of its conditions' answers: whatever
/// states came before, the list for a state is the one a new map makes for it.
@Suite @MainActor struct KeyMapMemoTests {
    struct Flags { var a: Bool; var b: Bool; var c: Bool }
    private typealias B = KeyBinding<Int, Flags>

    private static let conditions: [Condition<Flags>] = [.always, .when(\.a), .unless(\.a), .when(\.b), .unless(\.b), .when(\.c), .unless(\.c)]

    @Test func theListForAStateIsTheOneANewMapMakes() async {
        await propertyCheck(count: PropertyCount.scaled(default: 100),
                            input: Gen.int(in: 0...(7 * 7 * 7 - 1)).array(of: 0...40), Gen.int(in: 0...7).array(of: 1...60)) { shapes, states in
            let all = shapes.enumerated().map { i, shape in
                B([.char(Character(Unicode.Scalar(UInt8(33 + i % 90))))], "k\(i)", help: .text("h\(i)"), hint: "t\(i)", .send(i),
                  when: Self.conditions[shape % 7], enabled: Self.conditions[shape / 7 % 7], disabledReason: i % 2 == 0 ? "no \(i)" : nil,
                  hintWhen: Self.conditions[shape / 49 % 7])
            }
            let keys = KeyMap(all)
            for bits in states {
                let state = Flags(a: bits & 1 != 0, b: bits & 2 != 0, c: bits & 4 != 0)
                #expect(keys.bindings(in: state) == KeyMap(all).bindings(in: state))
                #expect(keys.bindings(in: nil) == KeyMap(all).bindings(in: nil))
            }
        }
    }
}
