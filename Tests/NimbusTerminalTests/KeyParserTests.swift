import XCTest
import NimbusTerminal

final class KeyParserTests: XCTestCase {
    private func parse(_ s: String) -> [Key] {
        var p = KeyParser()
        return p.feed(Array(s.utf8)) + p.flushPending()
    }

    func testPrintableAndControls() {
        XCTAssertEqual(parse("q/ 1"), [.char("q"), .char("/"), .char(" "), .char("1")])
        XCTAssertEqual(parse("\r\n\t\u{7F}\u{8}"), [.enter, .enter, .tab, .backspace, .backspace])
        XCTAssertEqual(parse("\u{3}\u{1}\u{17}\u{15}"), [.ctrl("c"), .ctrl("a"), .ctrl("w"), .ctrl("u")])
        XCTAssertEqual(parse("\u{0}"), [.ctrl(" ")])
    }

    func testArrowsAndNavigation() {
        XCTAssertEqual(parse("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D"), [.up, .down, .right, .left])
        XCTAssertEqual(parse("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD"), [.up, .down, .right, .left])
        XCTAssertEqual(parse("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OH\u{1B}OF\u{1B}[7~\u{1B}[8~"),
                       [.home, .end, .home, .end, .home, .end, .home, .end])
        XCTAssertEqual(parse("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[2~\u{1B}[Z"),
                       [.pageUp, .pageDown, .delete, .insert, .backTab])
    }

    func testModifiedKeysMapToBaseKey() {
        XCTAssertEqual(parse("\u{1B}[1;5A\u{1B}[1;2D\u{1B}[3;5~\u{1B}[1;5H"), [.up, .left, .delete, .home])
    }

    func testFunctionKeys() {
        XCTAssertEqual(parse("\u{1B}OP\u{1B}OQ\u{1B}OR\u{1B}OS"), (1...4).map { Key.function($0) })
        XCTAssertEqual(parse("\u{1B}[11~\u{1B}[15~\u{1B}[17~\u{1B}[18~\u{1B}[19~\u{1B}[20~\u{1B}[21~\u{1B}[23~\u{1B}[24~"),
                       [1, 5, 6, 7, 8, 9, 10, 11, 12].map { Key.function($0) })
        XCTAssertEqual(parse("\u{1B}[[A\u{1B}[[E"), [.function(1), .function(5)])
        XCTAssertEqual(parse("\u{1B}[1;2P"), [.function(1)])
    }

    func testHangulAndSplitUTF8AcrossFeeds() {
        XCTAssertEqual(parse("서울"), [.char("서"), .char("울")])
        let bytes = Array("a서울😀".utf8)
        for split in 0...bytes.count {
            var p = KeyParser()
            let keys = p.feed(Array(bytes[..<split])) + p.feed(Array(bytes[split...]))
            XCTAssertEqual(keys, [.char("a"), .char("서"), .char("울"), .char("😀")], "split at \(split)")
        }
        var p = KeyParser()
        var keys: [Key] = []
        for b in Array("ソウル".utf8) { keys += p.feed([b]) }
        XCTAssertEqual(keys, [.char("ソ"), .char("ウ"), .char("ル")])
    }

    func testCombiningSequenceInOneFeedIsOneCharacter() {
        XCTAssertEqual(parse("e\u{301}x"), [.char("e\u{301}"), .char("x")])
    }

    func testInvalidUTF8IsDropped() {
        var p = KeyParser()
        XCTAssertEqual(p.feed([0x61, 0xFF, 0x80, 0xEC, 0x62]), [.char("a"), .char("b")])
    }

    func testLoneEscapeStaysPendingUntilFlush() {
        var p = KeyParser()
        XCTAssertEqual(p.feed([0x1B]), [])
        XCTAssertTrue(p.hasPendingEscape)
        XCTAssertEqual(p.flushPending(), [.escape])
        XCTAssertFalse(p.hasPendingEscape)
        XCTAssertEqual(p.flushPending(), [])
    }

    func testEscapeSequenceSplitAcrossFeeds() {
        var p = KeyParser()
        XCTAssertEqual(p.feed([0x1B]), [])
        XCTAssertEqual(p.feed([0x5B]), [])
        XCTAssertTrue(p.hasPendingEscape)
        XCTAssertEqual(p.feed([0x31, 0x3B, 0x35]), [])
        XCTAssertEqual(p.feed([0x41]), [.up])
        XCTAssertFalse(p.hasPendingEscape)
    }

    func testDoubleEscapeAndAltKey() {
        XCTAssertEqual(parse("\u{1B}\u{1B}"), [.escape, .escape])
        XCTAssertEqual(parse("\u{1B}x"), [.escape], "Alt-x reports Escape and drops x")
        XCTAssertEqual(parse("\u{1B}\r"), [.escape, .enter])
    }

    func testIncompleteSequenceIsDroppedOnFlush() {
        var p = KeyParser()
        XCTAssertEqual(p.feed(Array("\u{1B}[1;".utf8)), [])
        XCTAssertEqual(p.flushPending(), [])
        XCTAssertEqual(p.feed(Array("a".utf8)), [.char("a")])
    }

    func testUnknownSequencesAreSwallowed() {
        XCTAssertEqual(parse("a\u{1B}[99xb"), [.char("a"), .char("b")])
        XCTAssertEqual(parse("\u{1B}[I\u{1B}[O"), [], "focus events")
        XCTAssertEqual(parse("\u{1B}[99~"), [])
        XCTAssertEqual(parse("\u{1B}OZ"), [])
        let long = "\u{1B}[" + String(repeating: "1;", count: 200) + "Aq"
        XCTAssertEqual(parse(long), [.char("q")], "overlong CSI is swallowed, never shown as text")
    }

    func testBracketedPaste() {
        XCTAssertEqual(parse("\u{1B}[200~hello\nworld\r\n서울\u{1B}[201~x"), [.paste("hello world  서울"), .char("x")])
        XCTAssertEqual(parse("\u{1B}[200~a\u{1B}[31mb\u{7}c\u{1B}[201~"), [.paste("abc")])
        XCTAssertEqual(parse("\u{1B}[200~\u{1B}[201~"), [], "empty paste produces nothing")
        XCTAssertEqual(parse("\u{1B}[200~a\u{1B}[20b\u{1B}[201~"), [.paste("a")], "partial end marker is content, then sanitized")
        XCTAssertEqual(parse("\u{1B}[200~x\u{1B}\u{1B}[201~y"), [.paste("x"), .char("y")], "marker match restarts")
        XCTAssertEqual(parse("\u{1B}[200~a\u{1B}[201x\u{1B}[201~"), [.paste("a")])
    }

    func testPasteSplitAcrossFeeds() {
        var p = KeyParser()
        let bytes = Array("\u{1B}[200~Zürich 서울\u{1B}[201~".utf8)
        var keys: [Key] = []
        for chunk in stride(from: 0, to: bytes.count, by: 3) {
            keys += p.feed(Array(bytes[chunk..<min(chunk + 3, bytes.count)]))
            if chunk + 3 < bytes.count && chunk > 6 {
                XCTAssertTrue(p.isInPaste)
                XCTAssertEqual(keys, [])
            }
        }
        XCTAssertEqual(keys, [.paste("Zürich 서울")])
    }

    func testLargePasteIsBoundedAndFast() {
        let text = String(repeating: "가나다라마바사아자차", count: 1000) // 10k Hangul, 30 KB
        var p = KeyParser()
        let start = Date()
        let keys = p.feed(Array("\u{1B}[200~\(text)\u{1B}[201~".utf8))
        XCTAssertLessThan(Date().timeIntervalSince(start), 2.0)
        XCTAssertEqual(keys, [.paste(text)])

        let huge = String(repeating: "서", count: 40_000) // 120 KB > 64 KiB
        let hugeKeys = p.feed(Array("\u{1B}[200~\(huge)\u{1B}[201~q".utf8))
        XCTAssertEqual(hugeKeys.count, 2)
        guard case .paste(let kept) = hugeKeys.first else { return XCTFail("expected paste") }
        XCTAssertLessThanOrEqual(kept.utf8.count, KeyParser.pasteLimit)
        XCTAssertEqual(kept.utf8.count, KeyParser.pasteLimit / 3 * 3, "cut on a character boundary")
        XCTAssertTrue(kept.allSatisfy { $0 == "서" })
        XCTAssertEqual(hugeKeys.last, .char("q"))
    }

    func testKeyBytesRoundTripThroughParser() {
        let keys: [Key] = [.char("a"), .char("서"), .enter, .tab, .backTab, .backspace, .delete, .up, .down, .left, .right,
                           .home, .end, .pageUp, .pageDown, .insert, .ctrl("c"), .ctrl("w")]
            + (1...12).map { Key.function($0) }
        for k in keys {
            var p = KeyParser()
            XCTAssertEqual(p.feed(k.bytes) + p.flushPending(), [k], "\(k)")
        }
        var p = KeyParser()
        XCTAssertEqual(p.feed(Key.escape.bytes) + p.flushPending(), [.escape])
        XCTAssertEqual(p.feed(Key.paste("hi there").bytes), [.paste("hi there")])
    }
}

final class KeyNameTests: XCTestCase {
    func testNamesParse() {
        XCTAssertEqual(Key(name: "Enter"), .enter)
        XCTAssertEqual(Key(name: "enter"), .enter)
        XCTAssertEqual(Key(name: "Shift-Tab"), .backTab)
        XCTAssertEqual(Key(name: "BackTab"), .backTab)
        XCTAssertEqual(Key(name: "Esc"), .escape)
        XCTAssertEqual(Key(name: "PgUp"), .pageUp)
        XCTAssertEqual(Key(name: "PGDN"), .pageDown)
        XCTAssertEqual(Key(name: "Space"), .char(" "))
        XCTAssertEqual(Key(name: "Ctrl-C"), .ctrl("c"))
        XCTAssertEqual(Key(name: "ctrl-w"), .ctrl("w"))
        XCTAssertEqual(Key(name: "Ctrl-I"), .tab)
        XCTAssertEqual(Key(name: "F1"), .function(1))
        XCTAssertEqual(Key(name: "f12"), .function(12))
        XCTAssertEqual(Key(name: "q"), .char("q"))
        XCTAssertEqual(Key(name: "Q"), .char("Q"))
        XCTAssertEqual(Key(name: "/"), .char("/"))
        XCTAssertEqual(Key(name: "?"), .char("?"))
        XCTAssertEqual(Key(name: "서"), .char("서"))
        XCTAssertNil(Key(name: "F13"))
        XCTAssertNil(Key(name: "Ctrl-1"))
        XCTAssertNil(Key(name: "Bogus"))
        XCTAssertNil(Key(name: ""))
        XCTAssertNil(Key(name: "\u{7}"))
    }

    func testNameRoundTrip() {
        let keys: [Key] = [.char("q"), .char(" "), .char("서"), .char("G"), .enter, .tab, .backTab, .backspace, .delete,
                           .escape, .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .insert,
                           .ctrl("a"), .ctrl("z"), .ctrl(" "), .paste("a b"), .unknown]
            + (1...12).map { Key.function($0) }
        for k in keys {
            XCTAssertEqual(Key(name: k.name), k, k.name)
        }
        XCTAssertEqual(Key.ctrl("c").name, "Ctrl-C")
        XCTAssertEqual(Key.char(" ").name, "Space")
        XCTAssertEqual(Key.pageDown.name, "PageDown")
    }
}

final class UnterminatedPasteTests: XCTestCase {
    func testAPasteWithoutItsEndMarkerCanBeEndedSoCtrlCWorksAgain() {
        var parser = KeyParser()
        XCTAssertEqual(parser.feed(Array("\u{1B}[200~abc\u{03}".utf8)), [])
        XCTAssertTrue(parser.isInPaste)
        XCTAssertEqual(parser.endUnterminatedPaste(), [.paste("abc")])
        XCTAssertFalse(parser.isInPaste)
        XCTAssertEqual(parser.feed([0x03]), [.ctrl("c")])
        XCTAssertEqual(parser.endUnterminatedPaste(), [], "nothing to end outside a paste")
    }
}
