import XCTest
import NimbusTerminal

/// Clicks and the wheel on a list drawn at a known place.
final class ListPointerTests: XCTestCase {
    /// A list of 50 rows drawn 10 rows high at screen row 3.
    private func drawnList() -> ListState {
        var list = ListState(count: 50)
        let canvas = Canvas(size: Size(cols: 40, rows: 20))
        ListView.draw(canvas.painter().sub(Rect(x: 0, y: 3, width: 40, height: 10)), state: &list, selectedStyle: .plain) { _, _, _ in }
        return list
    }

    private func click(_ x: Int, _ y: Int, count: Int = 1) -> Pointer {
        Pointer(.click(count: count), x: x, y: y - 1, screen: Point(x: x, y: y))
    }

    func testAClickSelectsAndASecondClickOrADoubleClickOpens() {
        var list = drawnList()
        XCTAssertEqual(list.drawnArea, Rect(x: 0, y: 3, width: 40, height: 10))
        XCTAssertEqual(list.handle(click(5, 5)), .moved)
        XCTAssertEqual(list.selection, 2)
        XCTAssertEqual(list.handle(click(5, 5)), .open(2), "a click on the selected row opens it")
        XCTAssertEqual(list.handle(click(5, 8, count: 2)), .open(5), "a double click opens at once")
        XCTAssertEqual(list.selection, 5)
    }

    func testClicksOutsideTheRowsAreIgnored() {
        var list = drawnList()
        XCTAssertEqual(list.handle(click(5, 2)), .ignored)
        XCTAssertEqual(list.handle(click(5, 13)), .ignored)
        XCTAssertEqual(list.handle(click(40, 5)), .ignored)
        var short = ListState(count: 2)
        let canvas = Canvas(size: Size(cols: 40, rows: 20))
        ListView.draw(canvas.painter().sub(Rect(x: 0, y: 3, width: 40, height: 10)), state: &short, selectedStyle: .plain) { _, _, _ in }
        XCTAssertEqual(short.handle(click(5, 8)), .ignored, "below the last row")
        var undrawn = ListState(count: 5)
        XCTAssertEqual(undrawn.handle(click(1, 1)), .ignored, "never drawn")
    }

    func testTheWheelMovesTheSelectionAndStopsAtTheEnds() {
        var list = drawnList()
        let down = Pointer(.wheel(1), x: 5, y: 4, screen: Point(x: 5, y: 5))
        let up = Pointer(.wheel(-1), x: 5, y: 4, screen: Point(x: 5, y: 5))
        XCTAssertEqual(list.handle(down), .moved)
        XCTAssertEqual(list.selection, ListState.wheelStep)
        XCTAssertEqual(list.handle(up), .moved)
        XCTAssertEqual(list.handle(up), .ignored, "already at the top")
        for _ in 0..<30 { _ = list.handle(down) }
        XCTAssertEqual(list.selection, 49)
        XCTAssertEqual(list.offset, 40, "the selection stays in view")
    }

    func testTheTabBarSaysWhereEachTitleWasDrawn() {
        let canvas = Canvas(size: Size(cols: 80, rows: 1))
        let placed = TabBar.draw(canvas.painter(), titles: ["Cities", "도시"], active: 0, activeStyle: .plain, style: .plain)
        XCTAssertEqual(placed.map(\.tab), [0, 1])
        XCTAssertEqual(placed.map(\.columns), [0..<10, 10..<18], "\" 1 Cities \" then \" 2 도시 \" (wide)")
    }
}
