import XCTest
import NimbusTerminal
import TestSupport

final class ListStateTests: XCTestCase {
    func testMovementAndClamping() {
        var s = ListState(count: 5)
        XCTAssertTrue(s.handle(.down, pageSize: 3))
        XCTAssertTrue(s.handle(.char("j"), pageSize: 3))
        XCTAssertEqual(s.selection, 2)
        XCTAssertTrue(s.handle(.char("k"), pageSize: 3))
        XCTAssertEqual(s.selection, 1)
        XCTAssertTrue(s.handle(.up, pageSize: 3))
        XCTAssertTrue(s.handle(.up, pageSize: 3))
        XCTAssertEqual(s.selection, 0, "clamped at top")
        XCTAssertTrue(s.handle(.end, pageSize: 3))
        XCTAssertEqual(s.selection, 4)
        XCTAssertEqual(s.offset, 2)
        XCTAssertTrue(s.handle(.down, pageSize: 3))
        XCTAssertEqual(s.selection, 4, "clamped at bottom")
        XCTAssertTrue(s.handle(.char("g"), pageSize: 3))
        XCTAssertEqual(s.selection, 0)
        XCTAssertEqual(s.offset, 0)
        XCTAssertTrue(s.handle(.char("G"), pageSize: 3))
        XCTAssertEqual(s.selection, 4)
        XCTAssertTrue(s.handle(.home, pageSize: 3))
        XCTAssertEqual(s.selection, 0)
        XCTAssertFalse(s.handle(.char("x"), pageSize: 3))
        XCTAssertFalse(s.handle(.enter, pageSize: 3))
    }

    func testPaging() {
        var s = ListState(count: 100)
        XCTAssertTrue(s.handle(.pageDown, pageSize: 10))
        XCTAssertEqual(s.selection, 10)
        XCTAssertEqual(s.offset, 1)
        XCTAssertTrue(s.handle(.pageDown, pageSize: 10))
        XCTAssertEqual(s.selection, 20)
        XCTAssertEqual(s.offset, 11)
        XCTAssertTrue(s.handle(.pageUp, pageSize: 10))
        XCTAssertEqual(s.selection, 10)
        XCTAssertEqual(s.offset, 10)
        for _ in 0..<20 { _ = s.handle(.pageDown, pageSize: 10) }
        XCTAssertEqual(s.selection, 99)
        XCTAssertEqual(s.offset, 90)
        _ = s.handle(.pageDown, pageSize: 0)
        XCTAssertEqual(s.selection, 99)
    }

    func testSetCountClamps() {
        var s = ListState(count: 50)
        s.select(45)
        s.scrollToSelection(pageSize: 10)
        XCTAssertEqual(s.offset, 36)
        s.setCount(10)
        XCTAssertEqual(s.selection, 9)
        XCTAssertLessThanOrEqual(s.offset, 9)
        s.scrollToSelection(pageSize: 10)
        XCTAssertEqual(s.offset, 0, "no wasted rows after shrinking")
        s.setCount(0)
        XCTAssertEqual(s.selection, 0)
        XCTAssertEqual(s.offset, 0)
        XCTAssertTrue(s.handle(.down, pageSize: 5))
        XCTAssertEqual(s.selection, 0)
        s.setCount(-4)
        XCTAssertEqual(s.count, 0)
        s.setCount(3)
        s.select(-7)
        XCTAssertEqual(s.selection, 0)
        s.select(700)
        XCTAssertEqual(s.selection, 2)
    }

    func testListViewDrawsVisibleRowsAndKeepsSelectionVisible() {
        let canvas = Canvas(size: Size(cols: 8, rows: 3))
        var state = ListState(count: 10)
        state.select(5)
        var drawn: [Int] = []
        let selected = Style(reverse: true)
        ListView.draw(canvas.painter(), state: &state, selectedStyle: selected) { i, p, isSel in
            drawn.append(i)
            XCTAssertEqual(p.height, 1)
            XCTAssertEqual(p.width, 8)
            XCTAssertEqual(isSel, i == 5)
            p.text("item \(i)", x: 0, y: 0, style: isSel ? selected : .plain)
        }
        XCTAssertEqual(drawn, [3, 4, 5])
        XCTAssertEqual(state.offset, 3)
        assertScreen(canvas.buffer, "item 3\nitem 4\nitem 5")
        XCTAssertTrue(canvas.buffer[7, 2].style.reverse, "selected row background filled across the width")
        XCTAssertFalse(canvas.buffer[7, 1].style.reverse)
    }

    func testListViewWithZeroHeightOrEmptyList() {
        let canvas = Canvas(size: Size(cols: 5, rows: 0))
        var state = ListState(count: 3)
        var calls = 0
        ListView.draw(canvas.painter(), state: &state, selectedStyle: .plain) { _, _, _ in calls += 1 }
        XCTAssertEqual(calls, 0)
        let c2 = Canvas(size: Size(cols: 5, rows: 5))
        var empty = ListState()
        ListView.draw(c2.painter(), state: &empty, selectedStyle: .plain) { _, _, _ in calls += 1 }
        XCTAssertEqual(calls, 0)
    }
}

final class TextFieldTests: XCTestCase {
    func testSearchKeysFollowTheSharedFocusRules() {
        var field = TextFieldState()
        XCTAssertEqual(field.handleSearchKey(.char("q")), .edited("q"), "q is text in a field")
        XCTAssertEqual(field.handleSearchKey(.char("1")), .edited("q1"))
        XCTAssertEqual(field.handleSearchKey(.down), .down)
        XCTAssertEqual(field.text, "q1", "↓ keeps the query")
        XCTAssertEqual(field.handleSearchKey(.enter), .submitted("q1"))
        XCTAssertEqual(field.handleSearchKey(.escape), .cancelled, "Esc clears the query and leaves, as fzf's does")
        XCTAssertEqual(field, TextFieldState())
        XCTAssertEqual(field.text, "")
        XCTAssertEqual(field.handleSearchKey(.escape), .cancelled, "an empty field is left as well")
        XCTAssertEqual(field.handleSearchKey(.left), .unchanged)
        XCTAssertEqual(field.handleSearchKey(.ctrl("c")), .ignored)
    }

    func testTypingIncludingQAndDigits() {
        var s = TextFieldState()
        for c in "q1 서울" { XCTAssertEqual(s.handle(.char(c)), .changed) }
        XCTAssertEqual(s.text, "q1 서울")
        XCTAssertEqual(s.caret, 5)
        XCTAssertEqual(s.caretColumn, 7)
    }

    func testCaretMovementAndEditingWithHangul() {
        var s = TextFieldState(text: "서울시")
        XCTAssertEqual(s.caret, 3)
        XCTAssertEqual(s.handle(.left), .unchanged)
        XCTAssertEqual(s.caretColumn, 4)
        XCTAssertEqual(s.handle(.backspace), .changed)
        XCTAssertEqual(s.text, "서시")
        XCTAssertEqual(s.caret, 1)
        XCTAssertEqual(s.handle(.char("울")), .changed)
        XCTAssertEqual(s.text, "서울시")
        XCTAssertEqual(s.caret, 2)
        XCTAssertEqual(s.handle(.delete), .changed)
        XCTAssertEqual(s.text, "서울")
        XCTAssertEqual(s.handle(.delete), .unchanged)
        XCTAssertEqual(s.handle(.home), .unchanged)
        XCTAssertEqual(s.caret, 0)
        XCTAssertEqual(s.handle(.backspace), .unchanged)
        XCTAssertEqual(s.handle(.left), .unchanged)
        XCTAssertEqual(s.caret, 0)
        XCTAssertEqual(s.handle(.ctrl("e")), .unchanged)
        XCTAssertEqual(s.caret, 2)
        XCTAssertEqual(s.handle(.right), .unchanged)
        XCTAssertEqual(s.caret, 2)
        XCTAssertEqual(s.handle(.ctrl("a")), .unchanged)
        XCTAssertEqual(s.caret, 0)
        XCTAssertEqual(s.handle(.end), .unchanged)
        XCTAssertEqual(s.caret, 2)
    }

    func testCombiningMarkJoinsPreviousGrapheme() {
        var s = TextFieldState(text: "Zu")
        XCTAssertEqual(s.handle(.char("\u{308}")), .changed)
        XCTAssertEqual(s.text, "Zü")
        XCTAssertEqual(s.text.unicodeScalars.count, 2, "NFC")
        XCTAssertEqual(s.caret, 2)
    }

    func testClearDeleteWordSubmitCancel() {
        var s = TextFieldState(text: "new york city")
        XCTAssertEqual(s.handle(.ctrl("w")), .changed)
        XCTAssertEqual(s.text, "new york ")
        XCTAssertEqual(s.handle(.ctrl("w")), .changed)
        XCTAssertEqual(s.text, "new ")
        XCTAssertEqual(s.caret, 4)
        XCTAssertEqual(s.handle(.ctrl("u")), .changed)
        XCTAssertEqual(s.text, "")
        XCTAssertEqual(s.caret, 0)
        XCTAssertEqual(s.handle(.ctrl("u")), .unchanged)
        XCTAssertEqual(s.handle(.enter), .submitted)
        XCTAssertEqual(s.handle(.escape), .cancelled)
        XCTAssertEqual(s.handle(.up), .ignored)
        XCTAssertEqual(s.handle(.tab), .ignored)
        XCTAssertEqual(s.handle(.ctrl("c")), .ignored)
        XCTAssertEqual(s.handle(.function(1)), .ignored)
    }

    func testMaxLength() {
        var s = TextFieldState()
        for _ in 0..<5 { _ = s.handle(.char("a"), maxLength: 3) }
        XCTAssertEqual(s.text, "aaa")
        XCTAssertEqual(s.handle(.char("b"), maxLength: 3), .unchanged)
        XCTAssertEqual(s.handle(.paste("xyz"), maxLength: 3), .unchanged)
        XCTAssertEqual(s.handle(.home), .unchanged)
        XCTAssertEqual(s.handle(.paste("서울"), maxLength: 4), .changed)
        XCTAssertEqual(s.text, "서aaa")
        XCTAssertEqual(s.caret, 1)
    }

    func testPasteSanitizesAndIsFastForLargeInput() {
        var s = TextFieldState(text: "ab")
        s.caret = 1
        XCTAssertEqual(s.handle(.paste("X\u{1B}[31mY\nZ")), .changed)
        XCTAssertEqual(s.text, "aXY Zb")
        XCTAssertEqual(s.caret, 5)

        var big = TextFieldState()
        let paste = String(repeating: "서울", count: 5_000)
        let start = Date()
        XCTAssertEqual(big.handle(.paste(paste)), .changed)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5)
        XCTAssertEqual(big.text.count, 256)
        XCTAssertEqual(big.caret, 256)
    }

    func testControlCharacterIsIgnored() {
        var s = TextFieldState()
        XCTAssertEqual(s.handle(.char("\u{7}")), .ignored)
        XCTAssertEqual(s.text, "")
    }

    func testDrawPlaceholderAndCursor() {
        let canvas = Canvas(size: Size(cols: 20, rows: 1))
        TextField.draw(canvas.painter(), state: TextFieldState(), prompt: "/ ", placeholder: "Search cities",
                       focused: true, style: .plain, placeholderStyle: Style(dim: true))
        assertScreen(canvas.buffer, "/ Search cities")
        XCTAssertTrue(canvas.buffer[2, 0].style.dim)
        XCTAssertEqual(canvas.buffer.cursor, Point(x: 2, y: 0))
    }

    func testDrawPutsCursorAtCaretColumnForWideText() {
        let canvas = Canvas(size: Size(cols: 20, rows: 1))
        var s = TextFieldState(text: "서울 x")
        TextField.draw(canvas.painter(), state: s, prompt: "> ", placeholder: "", focused: true, style: .plain,
                       placeholderStyle: .plain)
        assertScreen(canvas.buffer, "> 서울 x")
        XCTAssertEqual(canvas.buffer.cursor, Point(x: 8, y: 0))
        _ = s.handle(.home)
        _ = s.handle(.right)
        TextField.draw(canvas.painter(), state: s, prompt: "> ", placeholder: "", focused: true, style: .plain,
                       placeholderStyle: .plain)
        XCTAssertEqual(canvas.buffer.cursor, Point(x: 4, y: 0))
        canvas.buffer.cursor = nil
        TextField.draw(canvas.painter(), state: s, prompt: "> ", placeholder: "", focused: false, style: .plain,
                       placeholderStyle: .plain)
        XCTAssertNil(canvas.buffer.cursor, "unfocused field leaves the cursor alone")
    }

    func testDrawScrollsHorizontallyToKeepCaretVisible() {
        let canvas = Canvas(size: Size(cols: 8, rows: 1))
        let s = TextFieldState(text: "가나다라마바") // 12 columns
        TextField.draw(canvas.painter(), state: s, prompt: "> ", placeholder: "", focused: true, style: .plain,
                       placeholderStyle: .plain)
        // 6 columns available; caret at end needs one free column → shows "마바" plus the cursor cell.
        let line = canvas.buffer.lines()[0]
        XCTAssertTrue(line.hasPrefix("> "))
        XCTAssertTrue(line.contains("마바"), line)
        XCTAssertFalse(line.contains("가"), line)
        let cursor = try! XCTUnwrap(canvas.buffer.cursor)
        XCTAssertEqual(cursor.y, 0)
        XCTAssertLessThan(cursor.x, 8)
        XCTAssertEqual(canvas.buffer[cursor.x, 0].text, " ", "cursor sits just after the last glyph")
        XCTAssertEqual(canvas.buffer[cursor.x - 2, 0].text, "바")

        var s2 = s
        _ = s2.handle(.home)
        TextField.draw(canvas.painter(), state: s2, prompt: "> ", placeholder: "", focused: true, style: .plain,
                       placeholderStyle: .plain)
        XCTAssertEqual(canvas.buffer.lines()[0], "> 가나다")
        XCTAssertEqual(canvas.buffer.cursor, Point(x: 2, y: 0))
    }
}

final class BarsAndOverlayTests: XCTestCase {
    func testTabBarFormat() {
        let canvas = Canvas(size: Size(cols: 30, rows: 1))
        TabBar.draw(canvas.painter(), titles: ["Cities", "Movies"], active: 1, activeStyle: Style(reverse: true),
                    style: .plain)
        XCTAssertEqual(canvas.buffer.lines()[0], " 1 Cities  2 Movies           ")
        XCTAssertFalse(canvas.buffer[3, 0].style.reverse)
        XCTAssertTrue(canvas.buffer[12, 0].style.reverse)
    }

    func testTabBarNarrowKeepsActiveTabVisible() {
        let canvas = Canvas(size: Size(cols: 12, rows: 1))
        TabBar.draw(canvas.painter(), titles: ["Cities", "Movies"], active: 1, activeStyle: Style(bold: true),
                    style: .plain)
        let line = canvas.buffer.lines()[0]
        XCTAssertTrue(line.contains("1"), line)
        XCTAssertTrue(line.contains("2"), line)
        XCTAssertEqual(DisplayWidth.of(line), 12)
        let tiny = Canvas(size: Size(cols: 3, rows: 1))
        TabBar.draw(tiny.painter(), titles: ["A", "B", "C", "D"], active: 3, activeStyle: Style(bold: true), style: .plain)
        XCTAssertTrue(tiny.buffer.lines()[0].contains("4"), tiny.buffer.lines()[0])
    }

    func testStatusBarHintsAndRightText() {
        let canvas = Canvas(size: Size(cols: 40, rows: 1))
        StatusBar.draw(canvas.painter(), hints: [("q", "Quit"), ("/", "Search")], right: "34,000 cities",
                       style: .plain, keyStyle: Style(bold: true))
        XCTAssertEqual(canvas.buffer.lines()[0], " q Quit  / Search          34,000 cities")
        XCTAssertTrue(canvas.buffer[1, 0].style.bold)
        XCTAssertFalse(canvas.buffer[3, 0].style.bold)
    }

    /// At 40 columns the Cities bar's right side read `GeoNames · 34,006 c…`: parts go before a cut.
    func testStatusBarDropsTheRightTextsLastPartsBeforeCuttingIt() {
        let canvas = Canvas(size: Size(cols: 40, rows: 1))
        StatusBar.draw(canvas.painter(), hints: [("Esc", "back"), ("/", "search"), ("1-6", "tabs")],
                       right: "GeoNames · 34,006 cities", style: .plain, keyStyle: .plain, partsDrop: true)
        XCTAssertTrue(canvas.buffer.lines()[0].hasSuffix(" GeoNames"), canvas.buffer.lines()[0])
        // A message is cut at its end: its parts are one sentence.
        let message = Canvas(size: Size(cols: 40, rows: 1))
        StatusBar.draw(message.painter(), hints: [], right: "Copied: M 4.4 · 2.4 km NW of Tsukuba, Japan · 75 min ago",
                       style: .plain, keyStyle: .plain)
        XCTAssertTrue(message.buffer.lines()[0].contains("Copied: M 4.4 · 2.4 km NW of Tsukuba"), message.buffer.lines()[0])
        XCTAssertEqual(StatusBar.shortened("GeoNames · 34,006 cities", to: 24), "GeoNames · 34,006 cities")
        XCTAssertEqual(StatusBar.shortened("GeoNames · 34,006 cities", to: 23), "GeoNames")
        XCTAssertEqual(StatusBar.shortened("connection failed", to: 5), "connection failed", "one part is cut, not dropped")
    }

    /// A message comes before the hints (they are back after the next key) and in place of the
    /// source: at 40 columns "rate limited, retrying in 12 s" was cut to "rate limited, retryi…".
    func testStatusBarGivesAMessageTheRoomItNeeds() {
        let hints = [("Esc", "back"), ("/", "search"), ("1-6", "tabs"), ("?", "help")]
        for width in [30, 40, 60, 80] {
            let canvas = Canvas(size: Size(cols: width, rows: 1))
            StatusBar.draw(canvas.painter(), hints: hints, right: "rate limited, retrying in 12 s", style: .plain, keyStyle: .plain)
            XCTAssertTrue(canvas.buffer.lines()[0].hasSuffix("rate limited, retrying in 12 s"), "\(width): \(canvas.buffer.lines()[0])")
        }
        // The source still leaves the hints their room, down to half the bar.
        let canvas = Canvas(size: Size(cols: 40, rows: 1))
        StatusBar.draw(canvas.painter(), hints: hints, right: "Open-Meteo · GeoNames · 34,006 cities", style: .plain,
                       keyStyle: .plain, partsDrop: true)
        XCTAssertTrue(canvas.buffer.lines()[0].hasPrefix(" Esc back  / search"), canvas.buffer.lines()[0])
    }

    func testStatusBarNeverOverlaps() {
        for width in 1...60 {
            let canvas = Canvas(size: Size(cols: width, rows: 1))
            StatusBar.draw(canvas.painter(), hints: [("q", "Quit"), ("/", "검색"), ("?", "Help")],
                           right: "서울 12:00 업데이트", style: .plain, keyStyle: Style(bold: true))
            let line = canvas.buffer.lines()[0]
            XCTAssertEqual(DisplayWidth.of(line), width)
            // Each hint is either complete or absent.
            for label in ["Quit", "검색", "Help"] where line.contains(String(label.prefix(1))) && label != "검색" {
                XCTAssertTrue(line.contains(label) || !line.contains(" \(label.prefix(1))"), "\(width): \(line)")
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.contains("Quit") && line.contains("서") {
                let quitEnd = line.range(of: "Quit")!.upperBound
                let rightStart = line.range(of: "서")!.lowerBound
                XCTAssertLessThan(quitEnd, rightStart, "\(width): \(line)")
            }
            XCTAssertFalse(trimmed.isEmpty && width > 2, "\(width): something is drawn")
        }
    }

    func testOverlayCenteredWithBorder() {
        let canvas = Canvas(size: Size(cols: 20, rows: 7))
        Overlay.draw(canvas.painter(), title: "Help", lines: ["q  Quit", "/  Search"], style: .plain,
                     borderStyle: Style(bold: true))
        let expected = [
            "",
            "   ┌─ Help ────┐",
            "   │ q  Quit   │",
            "   │ /  Search │",
            "   └───────────┘",
        ].joined(separator: "\n")
        assertScreen(canvas.buffer, expected)
        XCTAssertTrue(canvas.buffer[3, 1].style.bold)
        XCTAssertFalse(canvas.buffer[5, 2].style.bold)
    }

    func testSpinner() {
        XCTAssertEqual(Spinner.frames.count, 10)
        XCTAssertEqual(Spinner.frame(0), "⠋")
        XCTAssertEqual(Spinner.frame(10), "⠋")
        XCTAssertEqual(Spinner.frame(13), "⠸")
        XCTAssertEqual(Spinner.frame(-1), "⠏")
    }

    /// Every widget at every width 1…200 and a range of sizes up to 500×200: no crash, nothing outside its painter.
    func testWidgetsNeverCrashAtAnySize() {
        var sizes = (1...200).map { Size(cols: $0, rows: 1 + $0 % 7) }
        sizes += [Size(cols: 1, rows: 1), Size(cols: 2, rows: 2), Size(cols: 1, rows: 50), Size(cols: 500, rows: 200),
                  Size(cols: 3, rows: 200), Size(cols: 500, rows: 1)]
        let titles = ["Cities", "Movies", "서울 날씨", "天気"]
        let lines = ["q  Quit", "/  Search 검색", "A very long line that will need to be truncated somewhere", ""]
        var field = TextFieldState(text: "서울특별시 Seoul")
        field.caret = 3
        for size in sizes {
            let canvas = Canvas(size: size)
            let root = canvas.painter()
            let inner = root.sub(Rect(x: 1, y: 0, width: size.cols - 2, height: size.rows))
            for p in [root, inner] {
                TabBar.draw(p, titles: titles, active: 2, activeStyle: Style(reverse: true), style: .plain)
                StatusBar.draw(p, hints: [("q", "Quit"), ("/", "Search")], right: "34,000 cities · 서울",
                               style: .plain, keyStyle: Style(bold: true))
                TextField.draw(p, state: field, prompt: "검색: ", placeholder: "Search", focused: true,
                               style: .plain, placeholderStyle: Style(dim: true))
                Overlay.draw(p, title: "도움말 Help", lines: lines, style: .plain, borderStyle: .plain)
                var list = ListState(count: 1000)
                list.select(size.cols * 3)
                ListView.draw(p, state: &list, selectedStyle: Style(reverse: true)) { i, rp, _ in
                    rp.text("\(i) 서울특별시 Seoul", x: 0, y: 0)
                }
                if p.height > 0 {
                    XCTAssertGreaterThanOrEqual(list.selection, list.offset)
                    XCTAssertLessThan(list.selection, list.offset + p.height)
                }
                p.text(Spinner.frame(size.cols), x: p.width - 1, y: p.height - 1)
            }
            let rows = canvas.buffer.lines()
            XCTAssertEqual(rows.count, size.rows)
            for row in rows { XCTAssertEqual(DisplayWidth.of(row), size.cols, "\(size)") }
            if let c = canvas.buffer.cursor {
                XCTAssertTrue(Rect(size: size).contains(c), "\(size) cursor \(c)")
            }
        }
    }

    func testInnerPainterDoesNotTouchOutside() {
        for width in 1...40 {
            let canvas = Canvas(size: Size(cols: width + 4, rows: 5))
            canvas.buffer.fill(Rect(x: 0, y: 0, width: width + 4, height: 5), with: "#")
            let p = canvas.painter().sub(Rect(x: 2, y: 1, width: width, height: 3))
            TabBar.draw(p.sub(Rect(x: 0, y: 0, width: width, height: 1)), titles: ["Cities", "서울"], active: 0,
                        activeStyle: .plain, style: .plain)
            StatusBar.draw(p.sub(Rect(x: 0, y: 2, width: width, height: 1)), hints: [("q", "Quit")], right: "서울",
                           style: .plain, keyStyle: .plain)
            Overlay.draw(p, title: "T", lines: ["서울서울서울"], style: .plain, borderStyle: .plain)
            let rows = canvas.buffer.lines()
            XCTAssertEqual(rows[0], String(repeating: "#", count: width + 4))
            XCTAssertEqual(rows[4], String(repeating: "#", count: width + 4))
            for y in 1...3 {
                XCTAssertTrue(rows[y].hasPrefix("##"), "\(width): \(rows[y])")
                XCTAssertTrue(rows[y].hasSuffix("##"), "\(width): \(rows[y])")
            }
        }
    }
}
