import XCTest
import NimbusText
@testable import NimbusTerminal

/// Every Unicode scalar, as outside text (a warning, a film, a quake's place, a city's name) reaches
/// the screen: sanitised, measured, drawn into cells. What is drawn must be printable, and the
/// columns the app counts must be the columns a terminal advances, as an independent reading says:
/// `Tests/Reference/terminal-widths.tsv`, written by `scripts/terminal-widths.py` from Python's own
/// `unicodedata` (what cannot be printed) and the pinned `wcwidth` package (how wide the rest is),
/// not from the app's tables. A terminal advances nothing for a character it cannot print, so such a
/// character left in the text leaves cells unpainted.
final class TerminalWidthReferenceTests: XCTestCase {
    /// The reference's width of every code point: -1 where a terminal cannot print it.
    static let reference: [Int8] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Reference/terminal-widths.tsv")
        var widths = [Int8](repeating: -2, count: 0x110000)
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("first") {
            let fields = line.split(separator: "\t")
            guard fields.count == 3, let a = Int(fields[0], radix: 16), let b = Int(fields[1], radix: 16), let w = Int8(fields[2]) else { continue }
            for cp in a...b { widths[cp] = w }
        }
        return widths
    }()

    /// The columns a terminal advances for `text`, scalar by scalar; nil when something in it cannot
    /// be printed. A flag (two regional indicators) is two columns, as `wcwidth.wcswidth` and the C
    /// library (one each) both count it.
    static func advance(_ text: String) -> Int? {
        var total = 0
        var pendingIndicator = false
        for scalar in text.unicodeScalars {
            let indicator = (0x1F1E6...0x1F1FF).contains(scalar.value)
            if indicator && pendingIndicator { pendingIndicator = false; continue } // the flag's second half
            pendingIndicator = indicator
            let w = Int(reference[Int(scalar.value)])
            guard w >= 0 else { return nil }
            total += w
        }
        return total
    }

    /// Graphemes of several scalars: a letter with each scalar the reference gives no column
    /// (combining marks, joiners, variation selectors: each sums to the letter's one column, as a
    /// terminal adds scalar by scalar), and every flag (two regional indicators: two columns).
    func testGraphemesOfSeveralScalars() {
        var checked = 0
        var differ: [String] = []
        var buffer = ScreenBuffer(size: Size(cols: 4, rows: 1))
        func check(_ text: String) {
            checked += 1
            let clean = DisplayWidth.sanitize(text)
            let app = DisplayWidth.of(clean)
            guard Self.advance(clean) == app else {
                if differ.count < 20 { differ.append("sanitize " + text.unicodeScalars.map { String(format: "U+%04X", $0.value) }.joined(separator: " ") + " app \(app) terminal \(String(describing: Self.advance(clean)))") }
                return
            }
            buffer.fill(buffer.bounds, with: " ")
            let moved = buffer.put(text, x: 0, y: 0)
            var printed = ""
            var x = 0
            while x < moved { printed += buffer[x, 0].text; x += max(1, Int(buffer[x, 0].width)) }
            if Self.advance(printed) != moved, differ.count < 20 {
                differ.append("drawn " + text.unicodeScalars.map { String(format: "U+%04X", $0.value) }.joined(separator: " ") + " moved \(moved)")
            }
        }
        for v in UInt32(0x300)...0x10FFFF where Self.reference[Int(v)] == 0 {
            guard let scalar = Unicode.Scalar(v) else { continue }
            check("a" + String(Character(scalar)))
        }
        for a in UInt32(0x1F1E6)...0x1F1FF {
            for b in UInt32(0x1F1E6)...0x1F1FF {
                let flag = String(String.UnicodeScalarView([Unicode.Scalar(a)!, Unicode.Scalar(b)!]))
                // A flag alone, and with a mark or a joiner in its grapheme.
                for tail in ["", "\u{0348}", "\u{200D}"] { check(flag + tail) }
            }
        }
        print("terminal widths of graphemes: \(checked - differ.count) of \(checked) agree")
        XCTAssertEqual(differ, [])
        XCTAssertEqual(DisplayWidth.of("🇰🇷"), 2)
        XCTAssertEqual(DisplayWidth.sanitize("🇰🇷"), "🇰🇷", "a flag is kept")
        XCTAssertEqual(DisplayWidth.sanitize("a\u{1F1F0}b"), "a\u{FFFD}b", "a lone regional indicator is not")
    }

    /// Wide in the reference, not in the table: blocks later than it (Yijing hexagrams, which
    /// `wcwidth` 0.7.0 draws wide before Unicode 16 made them so, Khitan, Tangut supplement, Kana
    /// Extended-B), and the squared ideographs U+1F200–1F265 the table never had. With a UTF-8 locale, what the app runs under, the C library measures them; the
    /// table alone (no such locale) draws them one column.
    static let newerThanTheWideTable: [ClosedRange<UInt32>] = [0x4DC0...0x4DFF, 0x18B00...0x18CFF, 0x18D00...0x18D08, 0x1AFF0...0x1AFFE,
                                                               0x1F200...0x1F265]

    /// The table of wide scalars, what the app measures by where the C library cannot help (no
    /// UTF-8 locale) and what the encoder trusts without a cursor move after a glyph: every scalar
    /// it calls wide the reference draws two columns (or cannot print), and every East Asian wide
    /// scalar the reference draws two columns, but for the emoji (wide by their own property) and
    /// the scalars terminals disagree on, is in it.
    func testTheWideTableIsTheReferencesWideScalars() {
        var checked = 0
        var differ: [String] = []
        for v in UInt32(0x1100)...0x3FFFD {
            guard let scalar = Unicode.Scalar(v) else { continue }
            let reference = Self.reference[Int(v)]
            let wide = ScalarWidth.isWide(v)
            // Measured before the table is read: marks, format characters, what cannot be printed, the disputed.
            switch scalar.properties.generalCategory {
            case .unassigned, .surrogate, .control, .lineSeparator, .paragraphSeparator, .spacingMark, .nonspacingMark,
                 .enclosingMark, .format, .privateUse:
                continue
            default:
                if reference < 0 || ScalarWidth.isDisputed(v) { continue }
            }
            if wide && reference != 2 {
                differ.append(String(format: "U+%04X is in the table, the reference draws it %d", v, reference))
            }
            let emoji = scalar.properties.isEmojiPresentation || scalar.properties.isEmoji
            if !wide && reference == 2 && !emoji && !Self.newerThanTheWideTable.contains(where: { $0.contains(v) }) {
                differ.append(String(format: "U+%04X is drawn two columns, not in the table", v))
            }
            checked += 1
        }
        print("wide table: \(checked - differ.count) of \(checked) scalars agree")
        XCTAssertEqual(Array(differ.prefix(40)), [], "\(differ.count) differ")
    }

    func testTheReferenceCoversEveryCodePoint() {
        XCTAssertFalse(Self.reference.contains(-2), "scripts/terminal-widths.py writes every code point")
    }

    func testOutsideTextIsPrintedWithTheWidthATerminalAdvances() {
        var checked = 0
        var unprintable: [String: [UInt32]] = [:]
        var differ: [String: [UInt32]] = [:]
        var buffer = ScreenBuffer(size: Size(cols: 4, rows: 1))
        for v in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            checked += 1
            let text = String(Character(scalar))
            // Sanitised, then measured: what one-line fields and the command line print.
            let clean = DisplayWidth.sanitize(text)
            let category = "\(scalar.properties.generalCategory)"
            switch Self.advance(clean) {
            case nil: unprintable["sanitize: \(category)", default: []].append(v)
            case let columns? where columns != DisplayWidth.of(clean):
                differ["sanitize: \(category) app \(DisplayWidth.of(clean)) terminal \(columns)", default: []].append(v)
            default: break
            }
            // Drawn as it came (the screen's own guard): what the cells hold must advance as far as
            // the app moved on.
            buffer.fill(buffer.bounds, with: " ")
            let moved = buffer.put(text, x: 0, y: 0)
            var printed = ""
            var x = 0
            while x < moved {
                let cell = buffer[x, 0]
                printed += cell.text
                x += max(1, Int(cell.width))
            }
            switch Self.advance(printed) {
            case nil: unprintable["drawn: \(category)", default: []].append(v)
            case let columns? where columns != moved:
                differ["drawn: \(category) app \(moved) terminal \(columns)", default: []].append(v)
            default: break
            }
        }
        func describe(_ classes: [String: [UInt32]]) -> String {
            classes.sorted { $0.value.count > $1.value.count }.map { name, list in
                "\(name): \(list.count) (" + list.prefix(6).map { String(format: "U+%04X", $0) }.joined(separator: " ") + ")"
            }.joined(separator: "\n  ")
        }
        let failures = unprintable.values.map(\.count).reduce(0, +) + differ.values.map(\.count).reduce(0, +)
        print("terminal widths: \(checked) scalars, \(checked * 2 - failures) of \(checked * 2) checks agree")
        XCTAssertTrue(unprintable.isEmpty, "kept though a terminal cannot print them:\n  \(describe(unprintable))")
        XCTAssertTrue(differ.isEmpty, "widths that differ from the terminal's:\n  \(describe(differ))")
    }
}
