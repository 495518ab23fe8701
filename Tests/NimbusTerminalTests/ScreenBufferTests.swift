import XCTest
import NimbusTerminal
import TestSupport

final class ScreenBufferTests: XCTestCase {
    func testPutAndText() {
        var b = ScreenBuffer(size: Size(cols: 10, rows: 2))
        XCTAssertEqual(b.put("hello", x: 1, y: 0), 5)
        XCTAssertEqual(b.lines(), [" hello    ", "          "])
        XCTAssertEqual(b.text(), " hello\n")
        XCTAssertEqual(b[1, 0].text, "h")
        XCTAssertEqual(b[x: 5, y: 0].text, "o")
        XCTAssertEqual(b[99, 99], .blank)
    }

    func testWideGlyphsOccupyTwoCells() {
        var b = ScreenBuffer(size: Size(cols: 6, rows: 1))
        let style = Style(fg: .red)
        XCTAssertEqual(b.put("서울", x: 0, y: 0, style: style), 4)
        XCTAssertEqual(b[0, 0], Cell(text: "서", width: 2, style: style))
        XCTAssertEqual(b[1, 0].width, 0)
        XCTAssertEqual(b[1, 0].text, "")
        XCTAssertEqual(b[2, 0].text, "울")
        XCTAssertEqual(b.lines(), ["서울  "])
        XCTAssertEqual(DisplayWidth.of(b.lines()[0]), 6)
    }

    func testWideGlyphStraddlingRightEdgeBecomesSpace() {
        var b = ScreenBuffer(size: Size(cols: 5, rows: 1))
        b.put("ab서울", x: 0, y: 0)
        XCTAssertEqual(b.lines(), ["ab서 "])
        XCTAssertEqual(b[4, 0].text, " ")
        XCTAssertEqual(b[4, 0].width, 1)
    }

    func testWideGlyphStraddlingClipEdges() {
        var b = ScreenBuffer(size: Size(cols: 8, rows: 1))
        b.fill(Rect(x: 0, y: 0, width: 8, height: 1), with: ".")
        let clip = Rect(x: 2, y: 0, width: 3, height: 1)
        b.put("서울", x: 1, y: 0, clip: clip) // 서 covers 1-2 (straddles left), 울 covers 3-4
        XCTAssertEqual(b.lines(), [".. 울..."])
        b.fill(Rect(x: 0, y: 0, width: 8, height: 1), with: ".")
        b.put("a서울", x: 2, y: 0, clip: clip) // a at 2, 서 at 3-4, 울 at 5 is outside
        XCTAssertEqual(b.lines(), ["..a서..."])
        b.fill(Rect(x: 0, y: 0, width: 8, height: 1), with: ".")
        b.put("ab서", x: 2, y: 0, clip: clip) // 서 would cover 4-5, clip ends at 5
        XCTAssertEqual(b.lines(), ["..ab ..."])
    }

    func testOverwritingEitherHalfBlanksBothHalves() {
        var b = ScreenBuffer(size: Size(cols: 6, rows: 1))
        b.put("서울", x: 0, y: 0)
        b.put("x", x: 1, y: 0) // right half of 서
        XCTAssertEqual(b.lines(), [" x울  "])
        XCTAssertEqual(b[0, 0].width, 1)
        b.put("y", x: 2, y: 0) // left half of 울
        XCTAssertEqual(b.lines(), [" xy   "])
        b.put("東京", x: 1, y: 0)
        XCTAssertEqual(b.lines(), [" 東京 "])
        b.put("大", x: 2, y: 0) // covers right half of 東 and left half of 京
        XCTAssertEqual(b.lines(), ["  大  "])
        for x in 0..<6 {
            let c = b[x, 0]
            if c.width == 0 { XCTAssertEqual(b[x - 1, 0].width, 2, "continuation at \(x) must follow a wide cell") }
            if c.width == 2 { XCTAssertEqual(b[x + 1, 0].width, 0) }
        }
    }

    func testControlCharsSkippedAndNFC() {
        var b = ScreenBuffer(size: Size(cols: 8, rows: 1))
        XCTAssertEqual(b.put("a\u{1B}b\nc", x: 0, y: 0), 3)
        XCTAssertEqual(b.lines(), ["abc     "])
        b.put("e\u{301}", x: 0, y: 0)
        XCTAssertEqual(b[0, 0].text, "é")
        XCTAssertEqual(b[0, 0].text.unicodeScalars.count, 1)
    }

    func testPutClipping() {
        var b = ScreenBuffer(size: Size(cols: 5, rows: 2))
        XCTAssertEqual(b.put("abcdefg", x: 2, y: 1), 3)
        XCTAssertEqual(b.lines(), ["     ", "  abc"])
        XCTAssertEqual(b.put("xyz", x: -2, y: 0), 3)
        XCTAssertEqual(b.lines()[0], "z    ")
        XCTAssertEqual(b.put("xyz", x: 0, y: 5), 0)
        XCTAssertEqual(b.put("xyz", x: 0, y: -1), 0)
        XCTAssertEqual(b.put("xyz", x: 0, y: 0, clip: Rect(x: 0, y: 1, width: 5, height: 1)), 0)
        XCTAssertEqual(b.lines()[0], "z    ")
        XCTAssertEqual(b.put("12345", x: 0, y: 0, clip: Rect(x: 1, y: 0, width: 2, height: 1)), 3)
        XCTAssertEqual(b.lines()[0], "z23  ")
    }

    func testFill() {
        var b = ScreenBuffer(size: Size(cols: 5, rows: 3))
        let style = Style(bg: .blue)
        b.fill(Rect(x: 1, y: 1, width: 10, height: 10), with: "#", style: style)
        XCTAssertEqual(b.lines(), ["     ", " ####", " ####"])
        XCTAssertEqual(b[4, 2].style, style)
        b.fill(Rect(x: 0, y: 0, width: 5, height: 1), with: "가")
        XCTAssertEqual(b.lines()[0], "가가 ")
    }

    func testTextTrimsTrailingSpaces() {
        var b = ScreenBuffer(size: Size(cols: 6, rows: 3))
        b.put("a b", x: 0, y: 0)
        b.put("서", x: 4, y: 2)
        XCTAssertEqual(b.text(), "a b\n\n    서")
        XCTAssertEqual(b.lines().map { DisplayWidth.of($0) }, [6, 6, 6])
    }

    func testZeroSizedBuffers() {
        var b = ScreenBuffer(size: Size(cols: 0, rows: 0))
        XCTAssertEqual(b.put("abc", x: 0, y: 0), 0)
        b.fill(Rect(x: 0, y: 0, width: 5, height: 5))
        XCTAssertEqual(b.lines(), [])
        var n = ScreenBuffer(size: Size(cols: -3, rows: 2))
        XCTAssertEqual(n.size, Size(cols: 0, rows: 2))
        n.put("x", x: 0, y: 0)
        XCTAssertEqual(n.lines(), ["", ""])
    }

    func testRectHelpers() {
        let r = Rect(x: 2, y: 3, width: 10, height: 4)
        XCTAssertEqual(r.maxX, 12)
        XCTAssertEqual(r.maxY, 7)
        XCTAssertEqual(r.inset(by: 1), Rect(x: 3, y: 4, width: 8, height: 2))
        XCTAssertEqual(r.inset(by: 5).width, 0)
        XCTAssertEqual(r.inset(by: 5).height, 0)
        XCTAssertEqual(r.intersection(Rect(x: 0, y: 0, width: 5, height: 5)), Rect(x: 2, y: 3, width: 3, height: 2))
        XCTAssertTrue(r.intersection(Rect(x: 50, y: 50, width: 5, height: 5)).isEmpty)
    }
}

final class PainterTests: XCTestCase {
    func testSubPainterClipsAndOffsets() {
        let canvas = Canvas(size: Size(cols: 10, rows: 4))
        let root = canvas.painter()
        XCTAssertEqual(root.bounds, Rect(x: 0, y: 0, width: 10, height: 4))
        let sub = root.sub(Rect(x: 2, y: 1, width: 4, height: 2))
        XCTAssertEqual(sub.bounds, Rect(x: 2, y: 1, width: 4, height: 2))
        XCTAssertEqual(sub.width, 4)
        XCTAssertEqual(sub.height, 2)
        XCTAssertEqual(sub.text("abcdefgh", x: 0, y: 0), 4)
        sub.text("zz", x: 0, y: 2) // below the sub-rect
        sub.text("yy", x: -1, y: 1)
        assertScreen(canvas.buffer, """

          abcd
          y
        """)
        let nested = sub.sub(Rect(x: 3, y: 0, width: 10, height: 10))
        XCTAssertEqual(nested.bounds, Rect(x: 5, y: 1, width: 1, height: 2))
        nested.fill(style: Style(reverse: true))
        XCTAssertTrue(canvas.buffer[5, 1].style.reverse)
        XCTAssertFalse(canvas.buffer[6, 1].style.reverse)
        XCTAssertEqual(canvas.buffer[5, 1].text, " ")
    }

    func testSubPainterOutsideParentIsEmpty() {
        let canvas = Canvas(size: Size(cols: 4, rows: 4))
        let p = canvas.painter().sub(Rect(x: 10, y: 10, width: 3, height: 3))
        XCTAssertEqual(p.width, 0)
        XCTAssertEqual(p.height, 0)
        XCTAssertEqual(p.text("abc", x: 0, y: 0), 0)
        p.fill()
        p.setCursor(x: 0, y: 0)
        XCTAssertNil(canvas.buffer.cursor)
        XCTAssertEqual(canvas.buffer, ScreenBuffer(size: Size(cols: 4, rows: 4)))
    }

    func testLeftClippedSubKeepsOrigin() {
        let canvas = Canvas(size: Size(cols: 6, rows: 1))
        let p = canvas.painter().sub(Rect(x: 1, y: 0, width: 4, height: 1)).sub(Rect(x: -2, y: 0, width: 6, height: 1))
        XCTAssertEqual(p.bounds, Rect(x: 1, y: 0, width: 4, height: 1))
        p.text("abcdef", x: 0, y: 0) // a at absolute -1, b at 0 (clipped), c at 1…
        XCTAssertEqual(canvas.buffer.lines(), [" cdef "])
    }

    func testFillRectAndCursor() {
        let canvas = Canvas(size: Size(cols: 5, rows: 3))
        let p = canvas.painter().sub(Rect(x: 1, y: 1, width: 3, height: 2))
        p.fill(Rect(x: 1, y: 0, width: 10, height: 1), style: Style(bg: .green))
        XCTAssertEqual(canvas.buffer[2, 1].style.bg, .green)
        XCTAssertEqual(canvas.buffer[3, 1].style.bg, .green)
        XCTAssertEqual(canvas.buffer[4, 1].style.bg, .default)
        XCTAssertEqual(canvas.buffer[1, 1].style.bg, .default)
        p.setCursor(x: 1, y: 1)
        XCTAssertEqual(canvas.buffer.cursor, Point(x: 2, y: 2))
        p.setCursor(x: 3, y: 0) // outside: unchanged
        XCTAssertEqual(canvas.buffer.cursor, Point(x: 2, y: 2))
        p.hideCursor()
        XCTAssertNil(canvas.buffer.cursor)
    }

    func testGlyphsOfSeveralScalarsKeepTheirTextAndCompareEqual() {
        var b = ScreenBuffer(size: Size(cols: 8, rows: 1))
        // g + combining diaeresis has no composed form; the family emoji is a ZWJ sequence.
        b.put("g\u{308}👩‍👩‍👧x", x: 0, y: 0)
        XCTAssertEqual(b[0, 0].text, "g\u{308}")
        XCTAssertEqual(b[1, 0].text, "👩‍👩‍👧")
        XCTAssertEqual(b[1, 0].width, 2)
        XCTAssertEqual(b[2, 0].text, "", "the right half of a wide glyph")
        XCTAssertEqual(b[3, 0].text, "x")
        XCTAssertEqual(b[0, 0], Cell(text: "g\u{308}", width: 1), "the same grapheme is the same glyph")
        XCTAssertNotEqual(b[0, 0], Cell(text: "g", width: 1))
        XCTAssertEqual(Cell(text: "서", width: 2).glyph.scalar, "서")
        XCTAssertNil(b[1, 0].glyph.scalar)
        XCTAssertEqual(b.lines(), ["g\u{308}👩‍👩‍👧x    "])
    }

    func testStyleKeepsEveryColourAndFlagItIsGiven() {
        let colors: [Color] = [.default, .black, .red, .green, .yellow, .blue, .magenta, .cyan, .white, .index(0), .index(24), .index(255)]
        for fg in colors {
            for bg in colors {
                var s = Style(fg: fg, bg: bg, bold: true, underline: true)
                XCTAssertEqual(s.fg, fg)
                XCTAssertEqual(s.bg, bg)
                XCTAssertTrue(s.bold && s.underline && !s.dim && !s.reverse)
                s.bold = false
                s.dim = true
                s.reverse = true
                s.bg = .default
                XCTAssertEqual(s, Style(fg: fg, dim: true, reverse: true, underline: true))
            }
        }
        XCTAssertNotEqual(Style(fg: .index(1)), Style(fg: .red), "a palette entry is not the named colour")
    }
}
