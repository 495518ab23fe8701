import XCTest
import NimbusTerminal
import TestSupport

/// Snapshot files with a style layer: written, read back, compared; and the style words of
/// `ExpectStyle` and the legends.
final class ScreenSnapshotTests: XCTestCase {
    private let tab = Style(fg: .black, bg: .index(75), bold: true)
    private let bar = Style(fg: .index(250), bg: .index(236))
    private let selection = Style(fg: .white, bg: .index(24), bold: true)

    private func screen() -> ScreenBuffer {
        var buffer = ScreenBuffer(size: Size(cols: 16, rows: 4))
        buffer.fill(Rect(x: 0, y: 0, width: 16, height: 1), style: bar)
        buffer.put(" 1 도시 ", x: 0, y: 0, style: tab)
        buffer.put(" 2 Today", x: 8, y: 0, style: bar)
        buffer.put("› 서울", x: 0, y: 2, style: selection)
        buffer.put("plain", x: 0, y: 3)
        return buffer
    }

    func testTheFileIsTheTextThenALetterPerCellThenTheLegend() {
        let file = ScreenSnapshot(screen(), cursor: Point(x: 6, y: 2)).fileText
        XCTAssertEqual(file, """
         1 도시  2 Today

        › 서울
        plain
        -- styles: a letter a cell, named in the legend --
        aaaaaaaabbbbbbbb

        cccccc

        -- legend --
        .  plain
        a  bold fg=black bg=75
        b  fg=250 bg=236
        c  bold fg=white bg=24
        -- cursor 6,2 --

        """)
        // Under each wide glyph two letters: the layer lines up with the text in a monospace font.
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(DisplayWidth.of(String(lines[0])), 16)
        XCTAssertEqual(lines[5].count, 16)
    }

    func testAFileReadsBackAsTheScreenItWasWrittenFrom() {
        let snapshot = ScreenSnapshot(screen(), cursor: nil)
        XCTAssertEqual(ScreenSnapshot(fileText: snapshot.fileText), snapshot)
        XCTAssertEqual(ScreenSnapshot(fileText: snapshot.fileText)?.differences(from: snapshot), "")
    }

    func testATextOnlyFileComparesTheTextAlone() {
        let snapshot = ScreenSnapshot(screen(), cursor: Point(x: 1, y: 1))
        let old = ScreenSnapshot(fileText: snapshot.text)
        XCTAssertNil(old?.styles)
        XCTAssertEqual(old?.differences(from: snapshot), "")
        var other = screen()
        other.put("plainer", x: 0, y: 3)
        XCTAssertEqual(old?.differences(from: ScreenSnapshot(other, cursor: nil)), "  line 4:\n    - plain\n    + plainer")
    }

    func testAChangedStyleIsNamedByRowColumnsTextAndWords() {
        let expected = ScreenSnapshot(screen(), cursor: nil)
        var moved = screen()
        moved.put("› 서울", x: 0, y: 2, style: Style(reverse: true))
        XCTAssertEqual(expected.differences(from: ScreenSnapshot(moved, cursor: Point(x: 2, y: 2))), """
          style, row 3 columns 1-6 "› 서울":
            - bold fg=white bg=24
            + reverse
          cursor:
            - hidden
            + 2,2
        """)
    }

    func testADamagedStyleLayerIsNotRead() {
        let file = ScreenSnapshot(screen(), cursor: nil).fileText
        XCTAssertNil(ScreenSnapshot(fileText: file.replacingOccurrences(of: "aaaaaaaa", with: "zzzzzzzz")), "a letter the legend lacks")
        XCTAssertNil(ScreenSnapshot(fileText: file.replacingOccurrences(of: "a  bold fg=black bg=75", with: "a  sparkly")))
        XCTAssertNil(ScreenSnapshot(fileText: file.replacingOccurrences(of: "-- cursor hidden --\n", with: "")))
    }

    func testMoreStylesThanLettersAreMarkedAndNotCompared() {
        var buffer = ScreenBuffer(size: Size(cols: 256, rows: 1))
        for x in 0..<256 { buffer.put("x", x: x, y: 0, style: Style(fg: .index(UInt8(x)))) }
        let snapshot = ScreenSnapshot(buffer, cursor: nil)
        let file = snapshot.fileText
        XCTAssertTrue(file.contains("?  one of the styles past the last letter (not compared)"), file)
        let read = ScreenSnapshot(fileText: file)
        XCTAssertNotNil(read)
        XCTAssertEqual(read?.differences(from: snapshot), "")
    }

    func testTextSnapshotsCompareScreensAndStillReadOldFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-screens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let snapshot = ScreenSnapshot(screen(), cursor: nil)
        XCTAssertEqual(try TextSnapshots(directory: directory, record: true).check(snapshot, named: "s"),
                       .recorded(name: "s", path: directory.appendingPathComponent("s.txt").path))
        let snapshots = TextSnapshots(directory: directory, record: false)
        XCTAssertNil(try snapshots.check(snapshot, named: "s"))
        try snapshot.text.write(to: directory.appendingPathComponent("old.txt"), atomically: true, encoding: .utf8)
        var recoloured = screen()
        recoloured.put("plain", x: 0, y: 3, style: Style(fg: .red))
        XCTAssertNil(try snapshots.check(ScreenSnapshot(recoloured, cursor: nil), named: "old"), "a text-only file ignores styles")
        guard case .differs(_, let diff)? = try snapshots.check(ScreenSnapshot(recoloured, cursor: nil), named: "s") else {
            return XCTFail("a styled file sees the colour")
        }
        XCTAssertTrue(diff.contains("+ fg=red"), diff)
    }

    // MARK: Style words

    func testStyleWordsDescribeAndReadBack() throws {
        for style in [Style.plain, tab, bar, selection, Style(dim: true, underline: true), Style(fg: .index(7), bg: .default, reverse: true)] {
            XCTAssertEqual(StyleWords.style(StyleWords.describe(style)), style, StyleWords.describe(style))
        }
        XCTAssertEqual(StyleWords.describe(.plain), "plain")
        XCTAssertEqual(StyleWords.describe(selection), "bold fg=white bg=24")
    }

    func testAStyleSpecAsksOnlyForWhatItNames() throws {
        let reverse = try StyleSpec(words: ["reverse"])
        XCTAssertTrue(reverse.matches(Style(bold: true, reverse: true)))
        XCTAssertFalse(reverse.matches(selection))
        let notBold = try StyleSpec(words: ["!bold", "bg=24"])
        XCTAssertFalse(notBold.matches(selection))
        XCTAssertTrue(notBold.matches(Style(bg: .index(24))))
        // A named colour is its palette entry.
        XCTAssertTrue(try StyleSpec(words: ["fg=7"]).matches(selection))
        XCTAssertTrue(try StyleSpec(words: ["fg=WHITE"]).matches(Style(fg: .index(7))))
        XCTAssertTrue(try StyleSpec(words: ["plain"]).matches(.plain))
        XCTAssertFalse(try StyleSpec(words: ["plain"]).matches(Style(dim: true)))
        for bad in [["fg=256"], ["bold", "bold"], ["bold", "!bold"], ["plain", "bold"], ["loud"], [], ["fg="], ["fg=-1"]] {
            XCTAssertThrowsError(try StyleSpec(words: bad), "\(bad)")
        }
    }
}
