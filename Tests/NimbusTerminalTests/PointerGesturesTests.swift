import Foundation
import Testing
import PropertyBased
@testable import NimbusTerminal
import TestSupport

/// Mouse reports into clicks, double clicks, drags and wheel notches.
@Suite struct PointerGesturesTests {
    private let t0 = Date(timeIntervalSince1970: 1_000_000)

    @Test func twoPressesOnOneCellWithinTheIntervalAreADoubleClickAndAThirdStartsAgain() {
        var g = PointerGestures()
        let press = MouseEvent(.press, x: 5, y: 3)
        #expect(g.gesture(press, at: t0)?.action == .click(count: 1))
        _ = g.gesture(MouseEvent(.release, x: 5, y: 3), at: t0)
        #expect(g.gesture(press, at: t0.addingTimeInterval(0.3))?.action == .click(count: 2))
        #expect(g.gesture(press, at: t0.addingTimeInterval(0.5))?.action == .click(count: 1))
        #expect(g.gesture(press, at: t0.addingTimeInterval(1.5))?.action == .click(count: 1), "too late")
        #expect(g.gesture(MouseEvent(.press, x: 6, y: 3), at: t0.addingTimeInterval(1.6))?.action == .click(count: 1), "another cell")
    }

    @Test func aHeldButtonDragsByWhatItMovedAndAReleaseEndsIt() {
        var g = PointerGestures()
        _ = g.gesture(MouseEvent(.press, x: 10, y: 10), at: t0)
        #expect(g.gesture(MouseEvent(.drag, x: 12, y: 9), at: t0)?.action == .drag(dx: 2, dy: -1))
        #expect(g.gesture(MouseEvent(.drag, x: 12, y: 9), at: t0) == nil, "no move, no step")
        _ = g.gesture(MouseEvent(.release, x: 12, y: 9), at: t0)
        #expect(g.gesture(MouseEvent(.drag, x: 14, y: 9), at: t0) == nil, "no button held")
    }

    @Test func theWheelIsANotchAndOtherButtonsAreNothing() {
        var g = PointerGestures()
        #expect(g.gesture(MouseEvent(.wheelUp, button: .none, x: 1, y: 1), at: t0)?.action == .wheel(-1))
        #expect(g.gesture(MouseEvent(.wheelDown, button: .none, x: 1, y: 1), at: t0)?.action == .wheel(1))
        #expect(g.gesture(MouseEvent(.press, button: .right, x: 1, y: 1), at: t0) == nil)
    }

    /// For any reports, the drag steps since a press add up to where the pointer is from the press,
    /// and a double click is always the second of two presses on one cell within the interval.
    @Test func dragStepsAddUpAndDoubleClicksAreRealPairs() async {
        await propertyCheck(count: PropertyCount.scaled(default: 200),
                            input: Gen.int(in: 0...5).array(of: 1...60), Gen.int(in: 0...9).array(of: 60...60)) { kinds, cells in
            var g = PointerGestures()
            var time = t0
            var pressedAt: Point?, moved = (dx: 0, dy: 0), position = Point(x: 0, y: 0)
            var presses: [(Point, Date)] = []
            for (i, kind) in kinds.enumerated() {
                time = time.addingTimeInterval(Double(cells[i]) * 0.1)
                let x = cells[i] % 4, y = cells[(i + 1) % cells.count] % 3
                let event: MouseEvent
                switch kind {
                case 0, 1: event = MouseEvent(.press, x: x, y: y)
                case 2, 3: event = MouseEvent(.drag, x: x, y: y)
                case 4: event = MouseEvent(.release, x: x, y: y)
                default: event = MouseEvent(.wheelDown, button: .none, x: x, y: y)
                }
                let gesture = g.gesture(event, at: time)
                switch event.action {
                case .press:
                    if case .click(let count)? = gesture?.action, count == 2 {
                        let (at, when) = presses.last!
                        #expect(at == Point(x: x, y: y) && time.timeIntervalSince(when) <= PointerGestures.doubleClickInterval)
                    }
                    presses.append((Point(x: x, y: y), time))
                    pressedAt = Point(x: x, y: y)
                    moved = (0, 0)
                    position = Point(x: x, y: y)
                case .drag:
                    if case .drag(let dx, let dy)? = gesture?.action {
                        moved.dx += dx
                        moved.dy += dy
                        position = Point(x: x, y: y)
                    }
                    if let start = pressedAt {
                        #expect(start.x + moved.dx == position.x && start.y + moved.dy == position.y)
                    } else {
                        #expect(gesture == nil)
                    }
                case .release:
                    pressedAt = nil
                default:
                    break
                }
            }
        }
    }
}
