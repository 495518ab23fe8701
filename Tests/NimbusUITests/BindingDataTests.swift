import Testing
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// The bindings the app dispatches, as values: each carries the command its key map gives it, and
/// `Binding.press` hands that command to the scope's one `perform`, or says why it does not.
@Suite @MainActor struct BindingDataTests {
    private typealias Keys = KeyMap<QuakeDetailViewModel.Event, QuakeDetailState>
    private let l10n = L10n.bundled(.en)

    private func state(_ city: String?) -> QuakeDetailState {
        QuakeDetailState(title: "M5.1", nearestTown: nil, region: "", facts: [], warnings: [], nearestCity: city, nearestLiked: false,
                         likeError: nil)
    }

    @Test func testABindingCarriesItsCommandAsAValue() throws {
        let bindings = QuakeDetailScreen.keyMap(l10n).bindings(in: state("Pohang"))
        let f = try #require(Binding.find(.char("f"), in: bindings))
        #expect(f.command == BoundCommand(KeyCommand<QuakeDetailViewModel.Event>.send(.likeToggled)))
        #expect(f.command != BoundCommand(KeyCommand<QuakeDetailViewModel.Event>.describe))
        #expect(f.isEnabled)
        #expect(Keys.command(f.command, pressed: .char("f")) == .send(.likeToggled))
        // The same value in another scope's type is another command: a host passes it to its panel.
        #expect(KeyMap<CityMapViewModel.Event, CityMapState>.command(f.command, pressed: .char("f")) == nil)
        #expect(f.command != BoundCommand("f"))
    }

    @Test func testTheSameStateListsEqualBindings() {
        let keys = QuakeDetailScreen.keyMap(l10n)
        #expect(keys.bindings(in: state("Pohang")) == keys.bindings(in: state("Pohang")))
        #expect(keys.bindings(in: state(nil)) == [], "f is listed only where there is a city")
    }

    @Test func testPressingHandsTheCommandToThePerformerOrSaysWhyNot() {
        let keys = WishlistScreen.keyMap(l10n)
        let empty = WishlistState(rows: [], summary: "", emptyMessage: nil, confirmation: nil)
        var performed: [BoundCommand] = []
        func perform(_ command: BoundCommand, _ key: Key) -> Bool {
            performed.append(command)
            return true
        }
        let bindings = keys.bindings(in: empty)
        #expect(Binding.press(.char("D"), in: bindings, perform: perform) == .refused(l10n[.helpKeyDisabledNoRow]))
        #expect(performed == [], "a disabled binding sends nothing")
        #expect(Binding.press(.char("x"), in: bindings, perform: perform) == .passed)
        let d = Binding.find(.char("D"), in: bindings)
        #expect(d?.isEnabled == false)
        #expect(d?.disabledReason == l10n[.helpKeyDisabledNoRow])
    }

    @Test func testOneBindingWithAnEventPerKeySendsTheKeysOwn() {
        typealias Zoom = KeyMap<Int, Void>
        let keys = Zoom([KeyBinding([.char("+"), .char("-")], "+ -", help: .text("zoom"), .sendEach([.char("+"): 1, .char("-"): -1]))])
        var sent: [KeyCommand<Int>] = []
        let bindings = keys.bindings(in: ())
        for key in [Key.char("-"), .char("+")] {
            let press = Binding.press(key, in: bindings) { command, key in
                Zoom.command(command, pressed: key).map { sent.append($0) } != nil
            }
            #expect(press == .ran)
        }
        #expect(sent == [.send(-1), .send(1)])
    }

    @Test func testAKeyThatPerformsNothingPassesOn() {
        let keys = KeyMap<Int, Void>([KeyBinding(.char("c"), help: .text("copy"), .send(1))])
        #expect(Binding.press(.char("c"), in: keys.bindings(in: ()), perform: { _, _ in false }) == .passed)
    }
}
