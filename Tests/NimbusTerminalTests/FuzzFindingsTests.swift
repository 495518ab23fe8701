import XCTest
@testable import NimbusTerminal
import NimbusText

/// Inputs the fuzzer (scripts/fuzz.sh) found breaking an invariant, kept as they were found.
final class FuzzFindingsTests: XCTestCase {
    /// `width`: a string ending in U+0600 (ARABIC NUMBER SIGN, a prepended concatenation mark) was
    /// padded one column short: the first space joined the mark's grapheme and was not counted,
    /// though a terminal draws the mark and the space in a column each.
    func testPaddingAfterAPrependedConcatenationMarkFillsTheColumns() {
        let found = "a\u{1B}[31mmr\0\0[31\u{05}vil\u{0600}"
        XCTAssertEqual(DisplayWidth.of(found), 14)
        XCTAssertEqual(DisplayWidth.of(DisplayWidth.pad(found, to: 21)), 21)
        XCTAssertEqual(DisplayWidth.pad(found, to: 21), found + String(repeating: " ", count: 7))
    }

    /// Every prepended concatenation mark before a narrow letter, a wide one, a space and another
    /// mark: the grapheme is as wide as its scalars are in a terminal, and padding fills the columns.
    func testPrependedConcatenationMarksTakeAColumnOfTheirOwn() {
        let marks: [UInt32] = [0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2,
                               0x110BD, 0x110CD]
        for v in marks {
            let mark = String(Unicode.Scalar(v)!)
            XCTAssertTrue(ScalarWidth.isPrependedConcatenationMark(v))
            for (follower, width) in [("x", 2), ("서", 3), (" ", 2), (mark, 2), ("x\u{301}", 2)] {
                let text = mark + follower
                XCTAssertEqual(DisplayWidth.of(text), width, "U+\(String(v, radix: 16)) \(follower.debugDescription)")
                for cols in 1...6 {
                    XCTAssertEqual(DisplayWidth.of(DisplayWidth.pad(text, to: cols)), cols, "\(text.debugDescription) to \(cols)")
                    XCTAssertLessThanOrEqual(DisplayWidth.of(DisplayWidth.truncate(text, to: cols)), cols)
                }
            }
        }
    }

    /// `width`: sanitising was not idempotent. NFC splits U+0F81 (TIBETAN VOWEL SIGN REVERSED II)
    /// into U+0F71 U+0F80, so eight kept marks became sixteen, past the cap, and a second pass cut
    /// them again: text sanitised at the boundary changed when it was sanitised where it is drawn.
    func testSanitizingIsIdempotentWhenNFCSplitsMarks() {
        let flood = "e" + String(repeating: "\u{0F81}", count: 8)
        let once = DisplayWidth.sanitize(flood)
        XCTAssertEqual(DisplayWidth.sanitize(once), once)
        XCTAssertEqual(once.unicodeScalars.count, 1 + DisplayWidth.maxCombiningMarks)

        // The input as found (its first byte chose a column count; the rest is the text).
        let found = Data(base64Encoded: "kajigI2p4v//6x++Z+C+gWXgvmXgvoHgvoGB//+B/xRl4L6B/////1r/g8y+zGXgvoH//4H/FGXgvoHgvmXgvoHgvoGB4L6B/////1r/g8y+zGXgvoH//4H/FFr/g8y+zGXgvoGDzL7/gGXgvbHgvbHgvoDgvoDvv71l4L2xKwAA+//////rH75n4L6B4L2x4L6A4L6A77+977+977+977+977+977+94L2x4L6A77+977+9ampqampqampqampqampqampqampq77+977+977+977+9bGxsbGxsbGXgvmXgvoHgvoGB//+B/xRl4L6B/////1r/g8y+zGXgvoH//4H/FGXgvoHgvmVsbGxsbGxszL7Mvsy+zL7MvuC+geC+gYHgvmxsbIH/////Wv+DzL7MZeC+gf//gf8UZeC+bMy+zIH/")!
        let text = String(decoding: found.dropFirst(), as: UTF8.self)
        let clean = DisplayWidth.sanitize(text)
        XCTAssertEqual(DisplayWidth.sanitize(clean), clean)

        // Found later: Tibetan marks among others, where one round of capping was not enough.
        let later = Data(base64Encoded: "nHMAuA3//x8AAAAAILgNCiDwn/8AAAAAn3sA8GzYAAAAn3sA8GzYgLgNCiDwn/8AANiA7ywU8J+RjfCfj71ybyDwn4ew8J+HtyAg4p2klb3gvbHgvoDMvsy+zL7Mvu+/ve+/vSDwn/8AANiA75W94L2p4L6AzL7Mvsy94L2x4L6AzL7Mvsy+zL7vv73vv73vv73vv0I=")!
        let laterText = String(decoding: later.dropFirst(), as: UTF8.self)
        let laterClean = DisplayWidth.sanitize(laterText)
        XCTAssertEqual(DisplayWidth.sanitize(laterClean), laterClean)
    }

    /// `keys`: a paste sent again read differently. The replacements for its invalid UTF-8 were
    /// removed after sanitising, which joined the runs of combining marks they parted into one past
    /// the cap; the same paste sent again was cut to the cap.
    func testAPasteSentAgainReadsTheSame() {
        let found = Data(base64Encoded: "HQcbWzIwMH4qT4TNxMyEzczNzcyEzcTMhM2E3sTMhM2EzcTMhM2s77/NhL3vuXrvv73mrIRbcnrvv70777+977+9M37EzITNfg==")!
        let marks = String(repeating: "\u{301}", count: 8)
        let crafted = Key.paste("x" + marks).bytes.dropLast(6) + [0xFF] + Array(marks.utf8) + Key.paste("").bytes.suffix(6)
        for bytes in [Array(found.dropFirst()), Array(crafted)] {
            var parser = KeyParser()
            let keys = parser.feed(bytes) + parser.flushPending() + parser.endUnterminatedPaste()
            for case .paste(let text) in keys {
                var again = KeyParser()
                XCTAssertEqual(again.feed(Key.paste(text).bytes), [.paste(text)])
            }
        }
        var parser = KeyParser()
        XCTAssertEqual(parser.feed(Array(crafted)), [.paste("x" + marks)])
    }
}
