import XCTest
import TestSupport
@testable import NimbusTerminal

final class DisplayWidthTests: XCTestCase {
    func testASCII() {
        XCTAssertEqual(DisplayWidth.of("hello"), 5)
        XCTAssertEqual(DisplayWidth.of(""), 0)
        XCTAssertEqual(DisplayWidth.of(Character("a")), 1)
        XCTAssertEqual(DisplayWidth.of("a\tb\u{1B}"), 2, "controls have no width")
    }

    func testHangulKanaCJK() {
        XCTAssertEqual(DisplayWidth.of("서울"), 4)
        XCTAssertEqual(DisplayWidth.of("ソウル"), 6)
        XCTAssertEqual(DisplayWidth.of("東京"), 4)
        XCTAssertEqual(DisplayWidth.of("北京市"), 6)
        XCTAssertEqual(DisplayWidth.of("ｱ"), 1, "halfwidth katakana is narrow")
        XCTAssertEqual(DisplayWidth.of("Ａ"), 2, "fullwidth latin is wide")
        XCTAssertEqual(DisplayWidth.of("ㄱ"), 2, "compatibility jamo is wide")
        XCTAssertEqual(DisplayWidth.of("Seoul 서울"), 10)
    }

    func testConjoiningJamoFormOneWideGrapheme() {
        let decomposed = "\u{1109}\u{1165}" // ᄉ + ᅥ = 서
        XCTAssertEqual(decomposed.count, 1)
        XCTAssertEqual(DisplayWidth.of(decomposed), 2)
    }

    func testCombiningMarks() {
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), DisplayWidth.of("é"))
        XCTAssertEqual(DisplayWidth.of(Character("\u{301}")), 0)
        XCTAssertEqual(DisplayWidth.of("Zürich"), 6)
        XCTAssertEqual(DisplayWidth.of("Zu\u{308}rich"), 6)
    }

    func testEmoji() {
        XCTAssertEqual(DisplayWidth.of("😀"), 2)
        XCTAssertEqual(DisplayWidth.of("👍🏽"), 2, "skin-tone modifier sequence")
        XCTAssertEqual(DisplayWidth.of("👨‍👩‍👧"), 2, "ZWJ sequence")
        XCTAssertEqual(DisplayWidth.of("🇰🇷"), 2, "flag")
        XCTAssertEqual(DisplayWidth.of("☀\u{FE0F}"), 2, "emoji presentation selector")
        XCTAssertEqual(DisplayWidth.of("⛅"), 2)
    }

    func testControlCharacters() {
        XCTAssertEqual(DisplayWidth.of(Character("\n")), 0)
        XCTAssertEqual(DisplayWidth.of(Character("\r\n")), 0)
        XCTAssertEqual(DisplayWidth.of(Character("\u{7F}")), 0)
        XCTAssertEqual(DisplayWidth.of(Character("\u{85}")), 0)
    }

    func testTruncateByColumns() {
        XCTAssertEqual(DisplayWidth.truncate("hello", to: 10), "hello")
        XCTAssertEqual(DisplayWidth.truncate("hello", to: 5), "hello")
        XCTAssertEqual(DisplayWidth.truncate("hello world", to: 5), "hell…")
        XCTAssertEqual(DisplayWidth.truncate("hello world", to: 5, ellipsis: false), "hello")
        XCTAssertEqual(DisplayWidth.truncate("hello", to: 0), "")
        XCTAssertEqual(DisplayWidth.truncate("hello", to: -3), "")
        XCTAssertEqual(DisplayWidth.truncate("hello", to: 1), "…")
    }

    func testTruncateAtWideGlyphBoundary() {
        XCTAssertEqual(DisplayWidth.truncate("서울특별시", to: 10), "서울특별시")
        XCTAssertEqual(DisplayWidth.truncate("서울특별시", to: 9), "서울특별…")
        XCTAssertEqual(DisplayWidth.truncate("서울특별시", to: 6), "서울…")
        XCTAssertEqual(DisplayWidth.truncate("서울특별시", to: 4), "서…")
        XCTAssertEqual(DisplayWidth.truncate("서울특별시", to: 5, ellipsis: false), "서울")
        XCTAssertEqual(DisplayWidth.truncate("서울", to: 2), "…")
    }

    func testTruncateNeverExceedsWidth() {
        let samples = ["서울특별시 Seoul", "ソウル東京", "e\u{301}e\u{301}e\u{301}abc", "👨‍👩‍👧x😀y", "abc", "a서b울c", ""]
        for s in samples {
            for cols in 0...20 {
                for ellipsis in [true, false] {
                    let t = DisplayWidth.truncate(s, to: cols, ellipsis: ellipsis)
                    XCTAssertLessThanOrEqual(DisplayWidth.of(t), max(0, cols), "\(s) → \(t) at \(cols)")
                    if DisplayWidth.of(s) > cols && cols > 0 && ellipsis {
                        XCTAssertTrue(t.hasSuffix("…"), "\(s) at \(cols) → \(t)")
                        XCTAssertGreaterThanOrEqual(DisplayWidth.of(t), cols - 1, "uses the room it has")
                    }
                }
                let padded = DisplayWidth.pad(s, to: cols)
                XCTAssertEqual(DisplayWidth.of(padded), max(0, cols), "pad \(s) to \(cols) → \(padded)")
            }
        }
    }

    func testTruncateResultIsNFC() {
        XCTAssertEqual(DisplayWidth.truncate("e\u{301}", to: 5).unicodeScalars.count, 1)
    }

    func testSanitize() {
        XCTAssertEqual(DisplayWidth.sanitize("plain"), "plain")
        XCTAssertEqual(DisplayWidth.sanitize("a\u{1B}[31mred\u{1B}[0m"), "ared")
        XCTAssertEqual(DisplayWidth.sanitize("x\u{1B}]0;title\u{07}y"), "xy")
        XCTAssertEqual(DisplayWidth.sanitize("x\u{1B}]8;;http://e\u{1B}\\link\u{1B}]8;;\u{1B}\\y"), "xlinky")
        XCTAssertEqual(DisplayWidth.sanitize("a\u{0}b\u{7F}c\u{9B}2Jd\u{85}e\n\tf"), "abcdef")
        XCTAssertEqual(DisplayWidth.sanitize("\u{1B}(Bok"), "ok")
        XCTAssertEqual(DisplayWidth.sanitize("e\u{301}"), "é")
        XCTAssertEqual(DisplayWidth.sanitize("서울"), "서울")
        XCTAssertEqual(DisplayWidth.sanitize("a\u{202E}b"), "ab", "bidi override dropped")
    }

    /// The quick NFC check must never skip a string Foundation would change: every scalar it calls
    /// stable has combining class 0, is its own NFC, and is never the second part of a composition.
    func testScalarsTheQuickNFCCheckTrustsAreStableUnderNFC() {
        var secondParts = Set<UInt32>()
        for v in UInt32(0)...0x2FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
            for part in decomposed.dropFirst() { secondParts.insert(part) }
        }
        // Conjoining jamo compose without a decomposition table entry.
        for v in UInt32(0x1161)...0x11C2 { secondParts.insert(v) }
        var checked = 0
        for v in UInt32(0)...0x2FFFF where DisplayWidth.isStableUnderNFC(v) {
            guard let scalar = Unicode.Scalar(v) else { continue }
            checked += 1
            XCTAssertEqual(scalar.properties.canonicalCombiningClass, .notReordered, "U+\(String(v, radix: 16))")
            XCTAssertEqual(String(scalar).precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value), [v],
                           "U+\(String(v, radix: 16)) changes under NFC")
            XCTAssertFalse(secondParts.contains(v), "U+\(String(v, radix: 16)) can be composed with what precedes it")
        }
        XCTAssertGreaterThan(checked, 45_000)
        // And the check sends what NFC would change to Foundation.
        XCTAssertEqual(DisplayWidth.nfc("e\u{301}"), "é")
        XCTAssertEqual(DisplayWidth.nfc("\u{1112}\u{1161}\u{11AB}"), "한")
        XCTAssertEqual(DisplayWidth.nfc("\u{212B}"), "\u{C5}")
        XCTAssertEqual(DisplayWidth.nfc("か\u{3099}"), "が")
        XCTAssertEqual(DisplayWidth.sanitize("가\u{11A8}"), "각")
        XCTAssertTrue(DisplayWidth.isNFC("서울 · ソウル · São Paulo · Hà Nội · Москва · ⠿▀ 😀"))
    }

    /// Text of scalars that stand alone is measured and cut scalar by scalar: each of them must be
    /// a grapheme of its own next to anything else of the kind.
    func testScalarsThatStandAloneAreGraphemesOfTheirOwn() {
        var checked = 0
        for v in UInt32(0x20)...0x2FFFF where DisplayWidth.standsAlone(v) {
            guard let scalar = Unicode.Scalar(v), !(0x7F..<0xA0).contains(v) else { continue }
            checked += 1
            XCTAssertFalse(scalar.properties.isGraphemeExtend, "U+\(String(v, radix: 16))")
            XCTAssertNotEqual(scalar.properties.generalCategory, .spacingMark, "U+\(String(v, radix: 16))")
            var text = String.UnicodeScalarView()
            text.append("가"); text.append(scalar); text.append("a")
            XCTAssertEqual(String(text).count, 3, "U+\(String(v, radix: 16)) joins a neighbour")
        }
        XCTAssertGreaterThan(checked, 45_000)
    }

    func testSimpleTextIsMeasuredAndCutAsGraphemeByGraphemeWould() {
        var rng = SplitMix(seed: 11)
        let pieces = ["a", "서울", "ソウル", "東京", "é", "Ω", "Москва", "⠿", "…", "“", " ", "Hà Nội", "ｓ"]
        for _ in 0..<400 {
            var s = ""
            for _ in 0..<rng.next(6) { s += pieces[rng.next(pieces.count)] }
            XCTAssertTrue(DisplayWidth.isSimple(s))
            let width = s.reduce(0) { $0 + DisplayWidth.of($1) }
            XCTAssertEqual(DisplayWidth.of(s), width, s)
            for cols in 0...(width + 1) {
                let cut = DisplayWidth.truncate(s, to: cols)
                XCTAssertLessThanOrEqual(DisplayWidth.of(cut), max(0, cols), "\(s) at \(cols)")
                if width <= cols { XCTAssertEqual(cut, s) } else if cols > 0 { XCTAssertTrue(cut.hasSuffix("…")) }
                let plain = DisplayWidth.truncate(s, to: cols, ellipsis: false)
                XCTAssertTrue(s.hasPrefix(plain), "\(s) at \(cols)")
                if cols > 0 && cols < width { XCTAssertGreaterThanOrEqual(DisplayWidth.of(plain), cols - 1) }
            }
        }
        XCTAssertFalse(DisplayWidth.isSimple("e\u{301}"))
        XCTAssertFalse(DisplayWidth.isSimple("👍🏽"))
        XCTAssertFalse(DisplayWidth.isSimple("\u{1100}\u{1161}"))
    }

    func testCombiningMarksInsideWideBlocksTakeNoColumn() {
        for v: UInt32 in [0x302A, 0x302B, 0x302C, 0x302D, 0x3099, 0x309A] {
            XCTAssertEqual(DisplayWidth.of(Character(Unicode.Scalar(v)!)), 0, "U+\(String(v, radix: 16))")
        }
        XCTAssertEqual(DisplayWidth.of("か\u{3099}"), 2)
        var b = ScreenBuffer(size: Size(cols: 6, rows: 1))
        b.put("\u{3099}abc", x: 0, y: 0)
        XCTAssertEqual(b.lines(), ["abc   "], "a lone voicing mark takes no cell")
    }
}
