import XCTest
import NimbusTerminal
import TestSupport

final class RendererTests: XCTestCase {
    private func frame(_ size: Size, _ rows: [String]) -> ScreenBuffer {
        var b = ScreenBuffer(size: size)
        for (y, r) in rows.enumerated() { b.put(r, x: 0, y: y) }
        return b
    }

    func testFirstFrameSendsEveryCellThenOnlyChanges() {
        let term = FakeTerminal(size: Size(cols: 10, rows: 3))
        let renderer = Renderer(backend: term)
        let size = term.size
        var f = frame(size, ["hello", "world"])
        renderer.render(f)
        XCTAssertEqual(renderer.lastChangeCount, 30)
        XCTAssertEqual(term.lastDrawCount, 30)
        XCTAssertEqual(term.clearCount, 1)
        assertScreen(term, "hello\nworld")

        renderer.render(f)
        XCTAssertEqual(renderer.lastChangeCount, 0, "identical frame sends nothing")
        XCTAssertEqual(term.totalCellsDrawn, 30)

        f.put("J", x: 0, y: 0)
        f.put("!", x: 5, y: 1)
        renderer.render(f)
        XCTAssertEqual(renderer.lastChangeCount, 2)
        assertScreen(term, "Jello\nworld!")

        f.put("x", x: 1, y: 2, style: Style(bold: true))
        renderer.render(f)
        XCTAssertEqual(renderer.lastChangeCount, 1)
        XCTAssertEqual(term[1, 2], Cell(text: "x", width: 1, style: Style(bold: true)))
        XCTAssertEqual(term.flushCount, 4)
    }

    func testStyleOnlyChangeIsSent() {
        let term = FakeTerminal(size: Size(cols: 4, rows: 1))
        let renderer = Renderer(backend: term)
        var f = frame(term.size, ["abcd"])
        renderer.render(f)
        f.fill(Rect(x: 1, y: 0, width: 2, height: 1), with: " ", style: .plain)
        f.put("bc", x: 1, y: 0, style: Style(reverse: true))
        renderer.render(f)
        XCTAssertEqual(renderer.lastChangeCount, 2)
        XCTAssertTrue(term[2, 0].style.reverse)
    }

    func testWideGlyphContinuationCellsAreNotSent() {
        let term = FakeTerminal(size: Size(cols: 6, rows: 1))
        let renderer = Renderer(backend: term)
        renderer.render(frame(term.size, ["서울"]))
        XCTAssertEqual(renderer.lastChangeCount, 4, "2 wide cells + 2 blanks; continuations skipped")
        assertScreen(term, "서울")
        renderer.render(frame(term.size, ["a서울"]))
        assertScreen(term, "a서울")
        renderer.render(frame(term.size, ["ab"]))
        assertScreen(term, "ab")
    }

    func testInvalidateAndResizeRepaintEverything() {
        let term = FakeTerminal(size: Size(cols: 5, rows: 2))
        let renderer = Renderer(backend: term)
        let f = frame(term.size, ["abc"])
        renderer.render(f)
        renderer.invalidate()
        renderer.render(f)
        XCTAssertEqual(renderer.lastChangeCount, 10)
        XCTAssertEqual(term.clearCount, 2)

        term.size = Size(cols: 7, rows: 3)
        XCTAssertEqual(term.screenText(), "\n\n", "resized terminal starts blank")
        renderer.render(frame(term.size, ["resized"]))
        XCTAssertEqual(renderer.lastChangeCount, 21)
        assertScreen(term, "resized")
    }

    func testCursorIsForwarded() {
        let term = FakeTerminal(size: Size(cols: 5, rows: 2))
        let renderer = Renderer(backend: term)
        var f = ScreenBuffer(size: term.size)
        f.cursor = Point(x: 3, y: 1)
        renderer.render(f)
        XCTAssertEqual(term.cursor, Point(x: 3, y: 1))
        f.cursor = nil
        renderer.render(f)
        XCTAssertNil(term.cursor)
        XCTAssertEqual(renderer.lastChangeCount, 0)
    }

    /// Random frames with mixed narrow/wide text: the fake terminal must always show exactly the last frame.
    func testFakeTerminalMatchesFramesAfterRandomSequences() {
        var rng = SplitMix(seed: 42)
        let pieces = ["a", "bc", "서울", "ソウル", "東", "x서", " ", "é", "👍", "12345"]
        let styles = [Style.plain, Style(fg: .red), Style(bold: true), Style(bg: .index(236))]
        for sizeIndex in 0..<4 {
            let size = [Size(cols: 7, rows: 3), Size(cols: 12, rows: 4), Size(cols: 1, rows: 1), Size(cols: 3, rows: 2)][sizeIndex]
            let term = FakeTerminal(size: size)
            let renderer = Renderer(backend: term)
            var f = ScreenBuffer(size: size)
            for step in 0..<150 {
                for _ in 0..<rng.next(4) {
                    let s = pieces[rng.next(pieces.count)]
                    f.put(s, x: rng.next(size.cols + 2) - 1, y: rng.next(size.rows), style: styles[rng.next(styles.count)])
                }
                if rng.next(10) == 0 {
                    f.fill(Rect(x: rng.next(size.cols), y: rng.next(size.rows), width: rng.next(4), height: 2),
                           with: "가", style: styles[rng.next(styles.count)])
                }
                renderer.render(f)
                XCTAssertEqual(term.screenText(), f.text(), "size \(size) step \(step)")
                XCTAssertEqual(term.grid, f, "cells and styles, size \(size) step \(step)")
            }
        }
    }
}

final class FakeTerminalTests: XCTestCase {
    func testScriptedInputFeedsTheParser() {
        let term = FakeTerminal()
        term.type("서q")
        term.send([.down, .enter, .ctrl("c")])
        var parser = KeyParser()
        XCTAssertEqual(parser.feed(term.takeInput()), [.char("서"), .char("q"), .down, .enter, .ctrl("c")])
        XCTAssertEqual(term.takeInput(), [])
    }

    func testExtremeSizesRenderFully() {
        for size in [Size(cols: 1, rows: 1), Size(cols: 500, rows: 200), Size(cols: 2, rows: 1), Size(cols: 0, rows: 0)] {
            let term = FakeTerminal(size: size)
            let renderer = Renderer(backend: term)
            let canvas = Canvas(size: size)
            let p = canvas.painter()
            for y in 0..<size.rows { p.text("서울 Seoul \(y)", x: y % 3, y: y) }
            renderer.render(canvas.buffer)
            XCTAssertEqual(term.screenText(), canvas.buffer.text(), "\(size)")
            XCTAssertEqual(term.screenLines().count, size.rows)
            p.text("x", x: 0, y: 0)
            renderer.render(canvas.buffer)
            XCTAssertLessThanOrEqual(renderer.lastChangeCount, 2, "\(size)")
            XCTAssertEqual(term.screenText(), canvas.buffer.text(), "\(size)")
        }
    }
}

/// Deterministic generator for randomized tests.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}
