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

    /// With any scroll jump (vim's 'scrolljump'), after any keys: the selection is in view and no
    /// row is wasted past the end; a key whose selection is still in view leaves the view where it is,
    /// and one that moves it moves it by the jump (at most a page), or as far as the list goes.
    @Test func theViewMovesByTheJumpAndKeepsTheSelectionInView() async {
        let keys: [Key] = [.up, .down, .pageUp, .pageDown, .home, .end, .char("j"), .char("k")]
        await propertyCheck(count: PropertyCount.scaled(default: 300),
                            input: Gen.int(in: 0...80), Gen.int(in: 1...30), Gen.int(in: 1...40), Gen.int(in: 0...Int.max).array(of: 1...60)) {
            count, page, jump, seeds in
            var list = ListState(count: count)
            list.scrollJump = jump
            for seed in seeds {
                let before = list
                _ = list.handle(keys[seed % keys.count], pageSize: page)
                let last = max(0, count - page)
                #expect(list.offset >= 0 && list.offset <= last)
                if count > 0 { #expect(list.offset <= list.selection && list.selection < list.offset + page) }
                if list.selection >= before.offset && list.selection < before.offset + page {
                    #expect(list.offset == before.offset, "moved the view for a selection in view")
                } else {
                    let room = list.offset > before.offset ? last - before.offset : before.offset
                    #expect(abs(list.offset - before.offset) >= min(jump, page, room), "moved by less than the jump")
                }
            }
        }
    }

    /// The same for the pointer: `move` answers what `handle` would do (select or open a row, or
    /// nothing) and keeps only the offset, from any list, selection, scroll and pointer.
    @Test func movingByThePointerIsHandleKeepingOnlyTheOffset() async {
        await propertyCheck(count: PropertyCount.scaled(default: 200),
                            input: Gen.int(in: 0...80), Gen.int(in: 0...90), Gen.int(in: 0...60), Gen.int(in: 0...10_000)) {
            count, selection, offset, seed in
            var list = ListState(count: count)
            list.select(selection)
            list.offset = min(offset, max(0, count - 1))
            list.drawnArea = Rect(x: 2, y: 3, width: 40, height: 1 + seed % 20)
            let y = seed / 20 % 30, clicks = 1 + seed / 600 % 2, notches = seed / 1200 % 7 - 3
            let actions: [Pointer.Action] = [.click(count: clicks), .wheel(notches), .drag(dx: 1, dy: 1)]
            for action in actions {
                let pointer = Pointer(action, x: 5, y: y, screen: Point(x: 5, y: y))
                var handled = list
                let result = handled.handle(pointer)
                var moved = list
                let move = moved.move(pointer)
                switch result {
                case .ignored: #expect(move == .ignored)
                case .moved: #expect(move == .select(handled.selection))
                case .open(let row): #expect(move == .open(row))
                }
                #expect(moved.offset == (result == .moved ? handled.offset : list.offset))
                #expect(moved.selection == list.selection)
            }
        }
    }
}
