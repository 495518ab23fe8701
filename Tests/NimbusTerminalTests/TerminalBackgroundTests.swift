import XCTest
@testable import NimbusTerminal

/// OSC 11: the terminal's answer is parsed for its luminance, and never reaches a screen as keys.
final class TerminalBackgroundTests: XCTestCase {
    func testAnswersAreParsedByLuminance() {
        XCTAssertEqual(TerminalBackground.parse("11;rgb:ffff/ffff/ffff"), .light)
        XCTAssertEqual(TerminalBackground.parse("11;rgb:0000/0000/0000"), .dark)
        XCTAssertEqual(TerminalBackground.parse("11;rgb:1e1e/1e1e/2e2e"), .dark)
        XCTAssertEqual(TerminalBackground.parse("11;rgb:fdfd/f6f6/e3e3"), .light, "solarized light")
        XCTAssertEqual(TerminalBackground.parse("11;rgb:00/2b/36"), .dark, "two hex digits")
        XCTAssertEqual(TerminalBackground.parse("11;rgb:f/f/f"), .light, "one hex digit")
        XCTAssertEqual(TerminalBackground.parse("11;rgba:ffff/ffff/ffff/0000"), .light)
        XCTAssertEqual(TerminalBackground.parse("11;rgb:0000/ffff/0000"), .light, "green is bright")
        XCTAssertEqual(TerminalBackground.parse("11;rgb:0000/0000/ffff"), .dark, "blue is dark")
        for bad in ["", "11;", "10;rgb:ffff/ffff/ffff", "11;rgb:ffff/ffff", "11;rgb:fffff/0/0", "11;rgb:gg/00/00",
                    "11;#ffffff", "11;rgb:ffff//ffff", "11;?"] {
            XCTAssertNil(TerminalBackground.parse(bad), bad)
        }
    }

    func testTheParserSwallowsTheAnswerWithBELOrST() {
        var parser = KeyParser()
        let keys = parser.feed(Array("a\u{1B}]11;rgb:ffff/ffff/ffff\u{07}b".utf8))
        XCTAssertEqual(keys, [.char("a"), .char("b")])
        XCTAssertEqual(parser.terminalAnswers, ["11;rgb:ffff/ffff/ffff"])
        let more = parser.feed(Array("\u{1B}]11;rgb:0/0/0\u{1B}\\c".utf8))
        XCTAssertEqual(more, [.char("c")])
        XCTAssertEqual(parser.terminalAnswers.last, "11;rgb:0/0/0")
    }

    func testAnAnswerSplitAcrossReadsIsStillSwallowed() {
        var parser = KeyParser()
        XCTAssertEqual(parser.feed(Array("\u{1B}]11;rgb:ff".utf8)), [])
        XCTAssertTrue(parser.hasPendingEscape)
        XCTAssertEqual(parser.feed(Array("ff/ffff/ffff\u{07}x".utf8)), [.char("x")])
        XCTAssertEqual(parser.terminalAnswers, ["11;rgb:ffff/ffff/ffff"])
    }

    func testALongAnswerIsCutAndAnUnfinishedOneDropped() {
        var parser = KeyParser()
        _ = parser.feed(Array(("\u{1B}]" + String(repeating: "x", count: 5000) + "\u{07}").utf8))
        XCTAssertEqual(parser.terminalAnswers.first?.utf8.count, KeyParser.oscLimit)
        _ = parser.feed(Array("\u{1B}]11;rgb:".utf8))
        XCTAssertEqual(parser.flushPending(), [])
        XCTAssertEqual(parser.feed(Array("q".utf8)), [.char("q")])
    }
}
