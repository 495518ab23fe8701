import Testing
import PropertyBased
@testable import NimbusTerminal
import TestSupport

/// A list whose selection its view model keeps.
@Suite struct ListMoveTests {
    /// `move` answers what `handle` would select and keeps only the offset: from any list, selection
    /// and key.
    @Test func moveIsHandleKeepingOnlyTheOffset() async {
        let keys: [Key] = [.up, .down, .pageUp, .pageDown, .home, .end, .char("j"), .char("k"), .char("g"), .char("G"), .char("x"), .enter]
        await propertyCheck(count: PropertyCount.scaled(default: 200),
                            input: Gen.int(in: 0...80), Gen.int(in: 0...90), Gen.int(in: 1...30)) { count, selection, page in
            var list = ListState(count: count)
            list.select(selection)
            for key in keys {
                var handled = list
                let isListKey = handled.handle(key, pageSize: page)
                var moved = list
                let to = moved.move(key, pageSize: page)
                #expect(to == (isListKey ? handled.selection : nil))
                #expect(moved.offset == (isListKey ? handled.offset : list.offset))
                #expect(moved.selection == list.selection)
            }
        }
    }
}
