import XCTest
@testable import NimbusTerminal

/// Text made to be slow: long runs of letter + combining-mark pairs (or one letter under thousands of
/// marks) are sanitised, normalised and measured in time linear in their length.
///
/// Linear is checked as a ratio (ten times the text, at most twenty times the CPU time: quadratic
/// work would take a hundred), never against a number of seconds: a bound in seconds holds on one
/// machine and fails on a slower or busier one (1M pairs took 2.56 s of CPU in a debug build on a
/// loaded two-core machine, against a 2 s bound). Speed itself is `scripts/bench.sh`'s to measure.
final class CombiningFloodTests: XCTestCase {
    static func pairs(_ n: Int) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(2 * n)
        let marks: [Unicode.Scalar] = ["\u{301}", "\u{308}", "\u{323}", "\u{30A}"]
        for i in 0..<n {
            scalars.append(Unicode.Scalar(UInt8(ascii: "a") + UInt8(i % 26)))
            scalars.append(marks[i % marks.count])
        }
        return String(scalars)
    }

    /// CPU seconds this thread spent on `work`: the work itself, not the wait for a core while the
    /// rest of the suite runs beside it on two.
    private func seconds(_ work: () -> Void) -> Double {
        func now() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        let start = now()
        work()
        return now() - start
    }

    func testAMillionLetterAndMarkPairsSanitiseInLinearTime() {
        let small = Self.pairs(100_000), large = Self.pairs(1_000_000)
        var smallOut = "", largeOut = ""
        let t100k = seconds { smallOut = DisplayWidth.sanitize(small) }
        let t1M = seconds { largeOut = DisplayWidth.sanitize(large) }
        print("sanitize: 100k pairs \(String(format: "%.3f", t100k)) s, 1M pairs \(String(format: "%.3f", t1M)) s")
        Self.assertLinear(small: t100k, large: t1M, "1M pairs")
        XCTAssertEqual(Array(smallOut.unicodeScalars), Array(small.precomposedStringWithCanonicalMapping.unicodeScalars))
        XCTAssertEqual(largeOut.count, 1_000_000, "one grapheme per pair")
    }

    func testChunkedNormalisationAgreesWithFoundation() {
        let samples = [
            Self.pairs(3000), "x" + String(repeating: "a\u{301}", count: 3000), "xy" + String(repeating: "o\u{308}", count: 2500) + "\u{323}", "e\u{301}" + String(repeating: "x", count: 700) + "o\u{308}\u{323}",
            String(repeating: "\u{1112}\u{1161}\u{11AB}", count: 600), String(repeating: "か\u{3099}", count: 900),
            String(repeating: "\u{212B}a\u{30A}", count: 500), String(repeating: "q\u{323}\u{307}", count: 800),
        ]
        for sample in samples {
            // Scalar by scalar: `==` on String holds for any canonically equivalent pair.
            XCTAssertEqual(Array(DisplayWidth.nfc(sample).unicodeScalars),
                           Array(sample.precomposedStringWithCanonicalMapping.unicodeScalars))
        }
    }

    func testCombiningRunsAreCappedPerBaseCharacter() {
        let zalgo = "Z" + String(repeating: "\u{301}\u{316}", count: 5_000) + "a"
        let clean = DisplayWidth.sanitize(zalgo)
        XCTAssertEqual(clean.count, 2, "still two graphemes")
        XCTAssertLessThanOrEqual(clean.unicodeScalars.count, 1 + DisplayWidth.maxCombiningMarks + 1)
        XCTAssertEqual(clean.decomposedStringWithCanonicalMapping.unicodeScalars.first, "Z")
        XCTAssertEqual(clean.unicodeScalars.last, "a")
        // Ordinary stacks are left alone: Vietnamese and Korean.
        XCTAssertEqual(Array(DisplayWidth.sanitize("Hà Nội ệ").unicodeScalars), Array("Hà Nội ệ".unicodeScalars))
        XCTAssertEqual(Array(DisplayWidth.sanitize("q\u{323}\u{307}").unicodeScalars),
                       Array("q\u{323}\u{307}".precomposedStringWithCanonicalMapping.unicodeScalars))
        let small = String(repeating: "\u{301}", count: 100_000), flood = String(repeating: "\u{301}", count: 1_000_000)
        let t100k = seconds { XCTAssertLessThanOrEqual(DisplayWidth.sanitize(small).unicodeScalars.count, DisplayWidth.maxCombiningMarks) }
        let t1M = seconds { XCTAssertLessThanOrEqual(DisplayWidth.sanitize(flood).unicodeScalars.count, DisplayWidth.maxCombiningMarks) }
        Self.assertLinear(small: t100k, large: t1M, "1M marks")
    }

    func testMeasuringAndCuttingAFloodIsLinearToo() {
        let small = DisplayWidth.sanitize(Self.pairs(100_000)), large = DisplayWidth.sanitize(Self.pairs(1_000_000))
        func measure(_ text: String, _ count: Int) -> Double {
            seconds {
                XCTAssertEqual(DisplayWidth.of(text), count)
                XCTAssertEqual(DisplayWidth.of(DisplayWidth.truncate(text, to: 40)), 40)
            }
        }
        Self.assertLinear(small: measure(small, 100_000), large: measure(large, 1_000_000), "measuring 1M pairs")
    }

    /// Ten times the input took at most twenty times the CPU time of the smaller (with a floor of
    /// 50 ms for the smaller, below which a clock's grain and a cache's warmth decide).
    private static func assertLinear(small: Double, large: Double, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThan(large, max(0.05, small) * 20, "\(what): \(large) s, against \(small) s for a tenth", file: file, line: line)
    }
}
