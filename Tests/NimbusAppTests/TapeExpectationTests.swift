import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif
import NimbusData
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// The tape lines that look at colour, patterns, cells and the cursor, `Source`, and what a run writes
/// (casts, SVGs, the screen at a failure, JUnit reports, recordings).
final class TapeExpectationTests: XCTestCase {
    fileprivate var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-tape-x-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { [folder] in try? FileManager.default.removeItem(at: folder!) }
    }

    @MainActor
    private func runner(record: Bool = false, outputs: TapeRunner.Outputs = .init()) -> TapeRunner {
        TapeRunner(snapshotDirectory: folder.appendingPathComponent("__snapshots__"), record: record,
                   baseEnvironment: [:], outputs: outputs)
    }

    @MainActor
    private func run(_ source: String, name: String = "t.tape", record: Bool = false, outputs: TapeRunner.Outputs = .init()) throws {
        try runner(record: record, outputs: outputs).run(Tape(name: name, source: source))
    }

    /// The failure `source` ends in, as text; fails the test when it passes.
    @MainActor
    private func failure(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            try run(source)
            XCTFail("expected the tape to fail", file: file, line: line)
            return ""
        } catch {
            return "\(error)"
        }
    }

    // MARK: Parsing

    func testTheNewLinesParse() throws {
        let tape = try Tape(name: "t", source: #"""
        Expect /Seoul|서울/
        Expect /m[0-9]\.[0-9]/i
        ExpectNot /error \d+/
        ExpectGone "Loading"
        ExpectGone /load(ing)?/
        ExpectStyle "Seoul" reverse
        ExpectStyle "Seoul" bold !dim fg=white bg=24
        ExpectStyle /Seo.l/ fg=default bg=red underline
        ExpectStyle "a b" plain
        ExpectCell 0 1 "S"
        ExpectCell 79 23 "서" bold
        ExpectCursor 12 1
        ExpectCursor hidden
        Source parts/open-seoul.tape
        Type@80ms "seoul"
        Press@1s Down 3
        """#)
        XCTAssertEqual(tape.lines.map(\.command), [
            .expect(.pattern("Seoul|서울", ignoringCase: false)),
            .expect(.pattern(#"m[0-9]\.[0-9]"#, ignoringCase: true)),
            .expectNot(.pattern(#"error \d+"#, ignoringCase: false)),
            .expectGone("Loading"),
            .expectGone(.pattern("load(ing)?", ignoringCase: false)),
            .expectStyle("Seoul", StyleSpec(reverse: true)),
            .expectStyle("Seoul", StyleSpec(bold: true, dim: false, fg: .white, bg: .index(24))),
            .expectStyle(.pattern("Seo.l", ignoringCase: false), StyleSpec(underline: true, fg: .default, bg: .red)),
            .expectStyle("a b", StyleSpec(bold: false, dim: false, reverse: false, underline: false, fg: .default, bg: .default)),
            .expectCell(x: 0, y: 1, text: "S", style: nil),
            .expectCell(x: 79, y: 23, text: "서", style: StyleSpec(bold: true)),
            .expectCursor(Point(x: 12, y: 1)),
            .expectCursor(nil),
            .source("parts/open-seoul.tape"),
            .paced(milliseconds: 80, .type("seoul")),
            .paced(milliseconds: 1000, .press(.down, count: 3)),
        ])
        // Every line a tape had before still means what it meant.
        XCTAssertEqual(try Tape(name: "t", source: "Expect \"a/b/\"\nExpectNot \"x\"\n").lines.map(\.command),
                       [.expect("a/b/"), .expectNot("x")])
    }

    func testBadNewLinesAreRefusedWithTheirLine() {
        let bad = [
            "Expect /unclosed", "Expect /[a-/", "Expect /(/", "Expect //", "Expect /a/x", "Expect /a/ more",
            "Expect /" + String(repeating: "a", count: 1001) + "/",
            "ExpectGone \"\"", "ExpectGone", "ExpectStyle \"x\"", "ExpectStyle \"x\" shiny", "ExpectStyle \"x\" fg=256",
            "ExpectStyle \"x\" bold bold", "ExpectStyle \"x\" plain bold", "ExpectStyle x bold", "ExpectStyle \"\" bold",
            "ExpectCell 1 \"a\"", "ExpectCell 1 2 \"ab\"", "ExpectCell 1 2 a", "ExpectCell -1 2 \"a\"", "ExpectCell 1 2 \"a\" loud",
            "ExpectCursor 1", "ExpectCursor here", "ExpectCursor 1 2 3", "Source", "Source a b",
            "Type@ \"a\"", "Type@0ms \"a\"", "Type@11s \"a\"", "Expect@1s \"a\"", "Press@fast Down",
        ]
        for line in bad {
            XCTAssertThrowsError(try Tape(name: "t", source: "Size 80x24\n" + line + "\n"), line) { error in
                XCTAssertEqual((error as? Tape.ParseError)?.line, 2, line)
                XCTAssertFalse("\(error)".contains("\n"), "\(error)")
            }
        }
    }

    // MARK: Colour and attributes

    func testExpectStyleFindsTheSelectionHighlightAndFailsOnTheWrongRow() throws {
        try onMain(self) { t in
            // "seo" finds Seoul first, then Seongnam-si; one move down selects Seongnam-si: white on blue (24).
            let open = "Size 80x24\nPress /\nType \"seo\"\nPress Enter\nPress Down\nExpect \"› Seongnam-si\"\n"
            XCTAssertNoThrow(try t.run(open + "ExpectStyle \"› Seongnam-si\" bold fg=white bg=24\nExpectStyle \"Seoul\" bg=default !bold\n"))
            // Failing first: the highlight is not on the row the tape says, and the message says what is there.
            let message = t.failure(open + "ExpectStyle \"Seoul\" bg=24\n")
            XCTAssertTrue(message.contains("expected \"Seoul\" in bg=24; \"Seoul\" at 2 3 is plain (waited 5 s of virtual time)"), message)
            let wrong = t.failure(open + "ExpectStyle \"› Seongnam-si\" reverse\n")
            XCTAssertTrue(wrong.contains("expected \"› Seongnam-si\" in reverse; \"› Seongnam-si\" at 0 4 is bold fg=white bg=24"), wrong)
            XCTAssertTrue(t.failure(open + "ExpectStyle \"Atlantis\" bold\n").contains("expected \"Atlantis\" in bold; it is not on the screen"))
        }
    }

    func testWithoutColourTheSelectionIsReversed() throws {
        try onMain(self) { t in
            let open = "Size 80x24\nEnv NO_COLOR=1\nPress /\nType \"seoul\"\nPress Enter\nExpect \"› Seoul\"\n"
            XCTAssertNoThrow(try t.run(open + "ExpectStyle \"› Seoul\" reverse fg=default bg=default\n"))
            XCTAssertTrue(t.failure(open + "ExpectStyle \"› Seoul\" bg=24\n").contains("is reverse"))
        }
    }

    func testSnapshotsKeepStylesAndAWrongStyleFails() throws {
        try onMain(self) { t in
            let tape = "Size 40x10\nPress /\nType \"seoul\"\nPress Enter\nExpect \"Seoul\"\nSnapshot styled\n"
            XCTAssertThrowsError(try t.run(tape, record: true)) { XCTAssertTrue("\($0)".contains("recorded styled")) }
            let url = t.folder.appendingPathComponent("__snapshots__/styled.txt")
            let file = try String(contentsOf: url, encoding: .utf8)
            XCTAssertTrue(file.contains("\n" + ScreenSnapshot.stylesMarker + "\n"), file)
            XCTAssertTrue(file.contains("\n-- legend --\n.  plain\na  bold fg=black bg=75\n"), file)
            XCTAssertTrue(file.hasSuffix("-- cursor hidden --\n"), file)
            XCTAssertNoThrow(try t.run(tape))

            // Failing first: the same text in another colour (the selected row's background changed).
            let letter = file.split(separator: "\n").first { $0.hasSuffix("bold fg=white bg=24") }!.first!
            try file.replacingOccurrences(of: "\(letter)  bold fg=white bg=24", with: "\(letter)  bold fg=white bg=88")
                .write(to: url, atomically: true, encoding: .utf8)
            let message = t.failure(tape)
            XCTAssertTrue(message.contains("snapshot styled differs"), message)
            XCTAssertTrue(message.contains("style, row 4 columns 1-40 \"› Seoul"), message)
            XCTAssertTrue(message.contains("- bold fg=white bg=88\n    + bold fg=white bg=24"), message)
            XCTAssertFalse(message.contains("line 4:"), "the text is the same: \(message)")

            // A snapshot without styles (as every one was before) compares the text only.
            try ScreenSnapshot(fileText: file)!.text.write(to: url, atomically: true, encoding: .utf8)
            XCTAssertNoThrow(try t.run(tape))
        }
    }

    // MARK: Patterns and absence

    func testExpectAPatternAndAWrongOneFails() throws {
        try onMain(self) { t in
            let open = "Size 80x24\nPress /\nType \"seoul\"\n"
            XCTAssertNoThrow(try t.run(open + "Expect /[0-9]+ of [0-9,]+ cities/\nExpect /^› Seoul +South Korea/\nExpect /SEOUL/i\nExpectNot /Busan|Tokyo/\n"))
            // Failing first: a pattern that is not on screen, and one that is but should not be.
            XCTAssertTrue(t.failure(open + "Expect /^Seoul/\n").contains("expected the screen to contain /^Seoul/ (waited 5 s of virtual time)"))
            XCTAssertTrue(t.failure(open + "ExpectNot /S[a-z]+l/\n").contains("expected the screen not to contain /S[a-z]+l/"))
            XCTAssertTrue(t.failure(open + "Expect /seoul city/i\n").contains("/seoul city/i"))
        }
    }

    func testAPatternThatBacktracksWithoutEndFailsItsLineInsteadOfHanging() throws {
        onMain(self) { t in
            let message = t.failure("Size 80x24\nPress /\nType \"\(String(repeating: "a", count: 40))\"\nExpect /(a|aa)+$b/\n")
            XCTAssertTrue(message.contains("took over 2 s to match one screen"), message)
        }
    }

    /// CPU time this process has used, in seconds.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    func testAPatternPastItsDeadlineStopsItsWorkWithTheLine() throws {
        onMain(self) { t in
            let message = t.failure("Size 80x24\nPress /\nType \"\(String(repeating: "a", count: 40))\"\nExpect /(a|aa)+$b/\n")
            XCTAssertTrue(message.contains("took over 2 s to match one screen"), message)
        }
        // Nothing goes on matching once the line has failed: a second of quiet costs no second of CPU.
        let before = Self.cpuSeconds()
        Thread.sleep(forTimeInterval: 1.5)
        let used = Self.cpuSeconds() - before
        print("pattern past its deadline: \(String(format: "%.3f", used)) s of CPU in the 1.5 s after its tape failed")
        XCTAssertLessThan(used, 0.3, "\(used) s of CPU in 1.5 s after the tape failed: the match is still running")
    }

    func testTheTimePatternsTakeIsBoundedForTheWholeTape() throws {
        try onMain(self) { t in
            // `(a|aa)+$b` backtracks through every way of cutting the row's run of a's, a number
            // that grows by half again with each a: the run is made as long as it takes for one
            // match to cost a quarter of a second, well under the two seconds one match may take.
            let search = ScreenSearch()
            let pattern = Tape.Matcher.pattern("(a|aa)+$b", ignoringCase: false)
            var n = 16
            while n < 60 {
                let started = Date()
                _ = try search.isShown(pattern, in: "/ " + String(repeating: "a", count: n) + "\n")
                if Date().timeIntervalSince(started) >= 0.25 { break }
                n += 1
            }
            let tape = "Size 80x24\nPress /\nType \"\(String(repeating: "a", count: n))\"\n"
                + String(repeating: "ExpectNot /(a|aa)+$b/\n", count: 40)
            let started = Date()
            let message = t.failure(tape)
            let elapsed = Date().timeIntervalSince(started)
            print("40 lines of a pattern of ~0.25 s (a run of \(n) a's): the tape failed after \(String(format: "%.1f", elapsed)) s")
            XCTAssertTrue(message.contains("in all"), message)
            // Five seconds of patterns for the whole tape, and the app around them.
            XCTAssertLessThan(elapsed, 7, "the tape took \(elapsed) s")
        }
    }

    func testExpectGoneWaitsOnTheVirtualClockAndFailsForATextThatStays() throws {
        try onMain(self) { t in
            // The Today tab says its sections are loading until their answers come (offline: at once).
            let copied = "Size 80x24\nPress /\nType \"seoul\"\nPress Enter\nExpect \"› Seoul\"\nPress y\nExpect \"Copied\"\n"
            // The status message goes with the next key.
            XCTAssertNoThrow(try t.run(copied + "Press Down\nExpectGone \"Copied\"\n"))
            // Failing first: a text that never goes away.
            let message = t.failure(copied + "ExpectGone \"Seoul\"\n")
            XCTAssertTrue(message.contains("expected \"Seoul\" to go from the screen (waited 5 s of virtual time)"), message)
        }
    }

    func testExpectGoneWaitsForADelayedAnswer() throws {
        try onMain(self) { t in
            let fixtures = t.folder.appendingPathComponent("fixtures")
            try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
            let source = TapeExpectationTests.tapesDirectory.appendingPathComponent("fixtures/open-meteo-seoul.json")
            try FileManager.default.copyItem(at: source, to: fixtures.appendingPathComponent("seoul.json"))
            let tape = """
            Size 80x24
            Now 2026-06-21T09:12:00+09:00
            Serve /v1/forecast fixtures/seoul.json delay=3s
            Press /
            Type "seoul"
            Press Enter
            Press Enter
            Expect "Loading"
            ExpectGone "Loading"
            Expect "Partly cloudy"
            """
            XCTAssertNoThrow(try t.run(tape))
        }
    }

    // MARK: Cells and cursor

    func testExpectCellAndTheCursorInKoreanInput() throws {
        try onMain(self) { t in
            let open = "Size 80x24\nEnv NIMBUS_LANG=ko\nPress /\nType \"서울\"\n"
            // "검색: 서울": each Hangul syllable over two cells, the caret after the text.
            XCTAssertNoThrow(try t.run(open + "Expect \"검색: 서울\"\nExpectCell 0 1 \"검\"\nExpectCell 6 1 \"서\"\nExpectCell 8 1 \"울\"\nExpectCursor 10 1\n"))
            XCTAssertTrue(t.failure(open + "ExpectCell 7 1 \"서\"\n").contains("it is the right half of \"서\""))
            XCTAssertTrue(t.failure(open + "ExpectCell 6 1 \"울\"\n").contains("it holds \"서\""))
            XCTAssertTrue(t.failure(open + "ExpectCell 6 1 \"서\" reverse\n").contains("it is bold fg=75"))
            XCTAssertTrue(t.failure(open + "ExpectCell 80 1 \"x\"\n").contains("outside the 80×24 screen"))
            XCTAssertTrue(t.failure(open + "ExpectCursor 9 1\n").contains("expected the cursor at 9 1; it is at 10 1"))
            // Back on the list the cursor is hidden.
            XCTAssertNoThrow(try t.run(open + "Press Enter\nExpectCursor hidden\n"))
        }
    }

    // MARK: Reuse

    func testSourcePlaysAnotherTapesLinesInsideTheFolder() throws {
        try onMain(self) { t in
            let parts = t.folder.appendingPathComponent("parts")
            try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
            try "Press /\nType \"seoul\"\nExpect \"› Seoul\"\n".write(to: parts.appendingPathComponent("search.tape"), atomically: true, encoding: .utf8)
            try "Source parts/search.tape\nExpect \"Atlantis\"\n".write(to: parts.appendingPathComponent("bad.tape"), atomically: true, encoding: .utf8)
            try "Source parts/loop.tape\n".write(to: parts.appendingPathComponent("loop.tape"), atomically: true, encoding: .utf8)
            try "Size 80x24\n".write(to: t.folder.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString).tape"),
                                     atomically: true, encoding: .utf8)
            XCTAssertNoThrow(try t.run("Size 80x24\nSource parts/search.tape\nPress Enter\nExpect \"South Korea\"\n"))

            // A failure inside names the sourced line and the line that sourced it.
            let inner = t.failure("Size 80x24\nSource parts/bad.tape\n")
            XCTAssertTrue(inner.hasPrefix("parts/bad.tape:2 (sourced by t.tape:2): Expect \"Atlantis\""), inner)
            XCTAssertTrue(t.failure("Source parts/loop.tape\n").contains("more than 8 deep"))
            // Files of a thousand Source lines each, nested, would play 1,000^depth lines: the run stops first.
            try String(repeating: "Source parts/leaf.tape\n", count: 1000).write(to: parts.appendingPathComponent("wide.tape"), atomically: true, encoding: .utf8)
            try String(repeating: "Size 80x24\n", count: 1000).write(to: parts.appendingPathComponent("leaf.tape"), atomically: true, encoding: .utf8)
            let wide = t.failure("Source parts/wide.tape\n")
            XCTAssertTrue(wide.contains("Source parts/leaf.tape: sourced tapes played over 200000 lines in this run"), wide)
            XCTAssertTrue(t.failure("Source ../\(t.folder.lastPathComponent)/../x.tape\n").contains("Source"))
            let link = parts.appendingPathComponent("link.tape")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/etc/passwd")
            XCTAssertTrue(t.failure("Source parts/link.tape\n").contains("the file must be inside the tape's folder"))
            try "Dance\n".write(to: parts.appendingPathComponent("broken.tape"), atomically: true, encoding: .utf8)
            XCTAssertTrue(t.failure("Source parts/broken.tape\n").contains("Source: tape parts/broken.tape:1: unknown command"))
        }
    }

    func testASnapshotNoTapeTakesIsNamed() throws {
        try onMain(self) { t in
            let runner = t.runner(record: true)
            XCTAssertThrowsError(try runner.run(Tape(name: "a.tape", source: "Size 40x10\nSnapshot taken\n")))
            try "old screen\n".write(to: t.folder.appendingPathComponent("__snapshots__/forgotten.txt"), atomically: true, encoding: .utf8)
            XCTAssertEqual(runner.snapshotsUsed, ["taken"])
            XCTAssertEqual(TapeRunner.unusedSnapshots(in: t.folder.appendingPathComponent("__snapshots__"), used: runner.snapshotsUsed),
                           ["forgotten"])
        }
    }

    // MARK: Issue 25: snapshots and files are confined to the tape's folder

    func testASnapshotLinkedOutOfTheFolderIsRefusedNotPrinted() throws {
        try onMain(self) { t in
            let snapshots = t.folder.appendingPathComponent("__snapshots__")
            try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
            let secret = t.folder.deletingLastPathComponent().appendingPathComponent("secret-\(UUID().uuidString).txt")
            try "root:the-secret-line\n".write(to: secret, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: secret) }
            try FileManager.default.createSymbolicLink(atPath: snapshots.appendingPathComponent("shadow.txt").path, withDestinationPath: secret.path)
            let message = t.failure("Size 40x10\nSnapshot shadow\n")
            XCTAssertTrue(message.contains("Snapshot shadow: snapshot shadow.txt is a symbolic link"), message)
            XCTAssertFalse(message.contains("the-secret-line"), message)
            // Recording does not write through it either.
            XCTAssertThrowsError(try t.run("Size 40x10\nSnapshot shadow\n", record: true))
            XCTAssertEqual(try String(contentsOf: secret, encoding: .utf8), "root:the-secret-line\n")
        }
    }

    func testASnapshotFolderLinkedElsewhereIsNeitherReadNorWritten() throws {
        try onMain(self) { t in
            let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-elsewhere-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: elsewhere) }
            try "private notes\n".write(to: elsewhere.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: t.folder.appendingPathComponent("__snapshots__").path, withDestinationPath: elsewhere.path)
            let message = t.failure("Size 40x10\nSnapshot notes\n")
            XCTAssertTrue(message.contains("__snapshots__ is a symbolic link"), message)
            XCTAssertFalse(message.contains("private notes"), message)
            XCTAssertThrowsError(try t.run("Size 40x10\nSnapshot written\n", record: true)) { error in
                XCTAssertTrue("\(error)".contains("__snapshots__ is a symbolic link"), "\(error)")
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), ["notes.txt"])
        }
    }

    func testARefusedConfigSaysConfigNotServe() throws {
        try onMain(self) { t in
            let message = t.failure("Config ../../../../etc/passwd\n")
            XCTAssertTrue(message.hasPrefix("tape t.tape:1: Config ../../../../etc/passwd: the file must be inside the tape's folder"), message)
            XCTAssertFalse(message.contains("Serve"), message)
            try FileManager.default.createDirectory(at: t.folder.appendingPathComponent("dir"), withIntermediateDirectories: true)
            XCTAssertTrue(t.failure("Config dir\n").hasPrefix("tape t.tape:1: Config dir: not a readable file"))
        }
    }

    func testARepeatCountCostsNoMoreThanItsKeys() throws {
        try onMain(self) { t in
            // 10,000 moves down the Movies list (paging through the catalogue): each key is handled,
            // one frame is drawn after them, and each film's row is made once. Timed in CPU time of
            // this thread, which a busy machine does not stretch: ~0.8 s in a debug build.
            let start = Self.threadCPUSeconds()
            try t.run("Size 80x24\nPress 5\nExpect \"Movies\"\nPress Down 10000\nExpect /› /\n")
            XCTAssertLessThan(Self.threadCPUSeconds() - start, 5,
                              "Press Down 10000 took a minute of CPU when each key drew a frame and made every row again")
        }
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: Outputs

    func testACastHoldsTheFramesOnTheVirtualClock() throws {
        try onMain(self) { t in
            let cast = t.folder.appendingPathComponent("run.cast")
            XCTAssertThrowsError(try t.run("Size 40x10\nPress /\nWait 1500ms\nType \"seoul\"\nResize 50x12\nExpect \"Seoul\"\nSnapshot s\n",
                                           record: true, outputs: .init(cast: cast.path)), "recording ends in a failure")
            let lines = try String(contentsOf: cast, encoding: .utf8).split(separator: "\n").map(String.init)
            let header = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            XCTAssertEqual(header["version"] as? Int, 2)
            XCTAssertEqual(header["width"] as? Int, 40)
            XCTAssertEqual(header["height"] as? Int, 10)
            let events = try lines.dropFirst().map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any]) }
            let times = events.map { $0[0] as! Double }
            XCTAssertEqual(times, times.sorted(), "events in time order")
            XCTAssertEqual(events.first?[1] as? String, "o")
            XCTAssertTrue((events.first?[2] as? String)?.hasPrefix("\u{1B}(B\u{1B}[m\u{1B}[H\u{1B}[2J") == true, "the first frame clears the screen")
            let resize = try XCTUnwrap(events.first { $0[1] as? String == "r" })
            XCTAssertEqual(resize[2] as? String, "50x12")
            XCTAssertEqual(resize[0] as? Double, 1.5, "the resize came after the 1.5 s wait, on the virtual clock")
            XCTAssertEqual(events.last?[1] as? String, "m")
            XCTAssertEqual(events.last?[2] as? String, "Snapshot s")
            XCTAssertTrue(events.contains { ($0[2] as? String)?.contains("seoul") == true })
        }
    }

    func testPacedTypingTakesVirtualTimeBetweenKeys() throws {
        try onMain(self) { t in
            let cast = t.folder.appendingPathComponent("typed.cast")
            try t.run("Size 40x10\nOffline\nPress /\nType@100ms \"seoul\"\nPress@250ms Down 2\nExpect \"seoul\"\n", outputs: .init(cast: cast.path))
            let times = try String(contentsOf: cast, encoding: .utf8).split(separator: "\n").dropFirst()
                .map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])[0] as? Double }
            // The first frame, "/", then a frame per letter 100 ms apart; the first Down (to the list)
            // right after the last letter; the second, 250 ms later, changes nothing and writes nothing.
            XCTAssertEqual(Array(times.prefix(8)), [0, 0, 0, 0.1, 0.2, 0.3, 0.4, 0.4])
            // The shown rows' weather is asked once typing has settled for 250 ms; offline, the answer
            // (no temperatures, and the line saying so) is a frame of its own at 0.65 s, not a key's.
            XCTAssertEqual(Array(times.dropFirst(8)), [0.65])
        }
    }

    func testSVGsOfSnapshotsAndTheScreenAtAFailureAreWritten() throws {
        try onMain(self) { t in
            let svgs = t.folder.appendingPathComponent("svg"), failures = t.folder.appendingPathComponent("failures")
            let tape = "Size 40x10\nEnv NIMBUS_THEME=light\nPress /\nType \"서울\"\nSnapshot light-seoul\nExpect \"Atlantis\"\n"
            XCTAssertThrowsError(try t.run(tape, name: "light.tape", record: true,
                                         outputs: .init(svgDirectory: svgs, failureDirectory: failures))) { error in
                XCTAssertTrue("\(error)".contains("saved: \(failures.appendingPathComponent("light.tape").path)"), "\(error)")
            }
            let svg = try String(contentsOf: svgs.appendingPathComponent("light-seoul.svg"), encoding: .utf8)
            XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"380\" height=\"210\""), svg)
            XCTAssertTrue(svg.contains("fill=\"#ffffff\"/>"), "a light theme's picture is on white")
            XCTAssertTrue(svg.contains(">서울<"), svg)
            let saved = failures.appendingPathComponent("light.tape")
            XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: saved.path)),
                           ["screen.txt", "screen.svg", "tape.cast", "failure.txt"])
            let screen = try String(contentsOf: saved.appendingPathComponent("screen.txt"), encoding: .utf8)
            XCTAssertNotNil(ScreenSnapshot(fileText: screen)?.styles, "the screen at the failure has its styles")
            let cast = try String(contentsOf: saved.appendingPathComponent("tape.cast"), encoding: .utf8)
            XCTAssertTrue(cast.contains("\"m\", \"failed: light.tape:6\""), cast)
        }
    }

    func testJUnitReportOfTapes() {
        var report = JUnitReport()
        report.add("Tests/Tapes/a.tape", seconds: 0.25, failure: nil)
        report.add("Tests/Tapes/b<&>.tape", seconds: 1, failure: "b.tape:3: Expect \"x\"\n  expected \u{1B}[2J it")
        let xml = report.xml
        XCTAssertTrue(xml.contains("<testsuites tests=\"2\" failures=\"1\" errors=\"0\" time=\"1.250\">"), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"tapes\" name=\"a\" file=\"Tests/Tapes/a.tape\" time=\"0.250\"/>"), xml)
        XCTAssertTrue(xml.contains("name=\"b&lt;&amp;&gt;\""), xml)
        XCTAssertTrue(xml.contains("<failure message=\"b.tape:3: Expect &quot;x&quot;\" type=\"TapeFailure\">"), xml)
        XCTAssertTrue(xml.contains("expected \\x1b[2J it</failure>"), xml)
        // An XML parser reads it (no control characters, every entity closed).
        let parser = XMLParser(data: Data(xml.utf8))
        XCTAssertTrue(parser.parse(), "\(String(describing: parser.parserError))")
    }

    // MARK: Recording

    func testARecordingIsWrittenAsATape() throws {
        var recording = TapeRecording(preamble: TapeRecording.preamble(
            start: Date(timeIntervalSince1970: 1_782_000_720), size: Size(cols: 80, rows: 24),
            environment: [("NIMBUS_LANG", "ko")], arguments: ["--units", "metric"], timeZone: TimeZone(identifier: "Asia/Seoul")!))
        var t = 100
        for c in "/서울" { recording.key(.char(c), at: t); t += 80 }
        recording.key(.enter, at: 1000)
        for _ in 0..<3 { recording.key(.down, at: 1100) }
        recording.resize(Size(cols: 100, rows: 30), at: 1200)
        recording.key(.mouse(MouseEvent(.press, x: 3, y: 4)), at: 1300)
        recording.key(.mouse(MouseEvent(.release, x: 3, y: 4)), at: 1310)
        recording.key(.mouse(MouseEvent(.press, x: 3, y: 4)), at: 1400)
        recording.key(.mouse(MouseEvent(.release, x: 3, y: 4)), at: 1410)
        recording.key(.mouse(MouseEvent(.wheelDown, button: .none, x: 9, y: 9)), at: 1500)
        recording.key(.mouse(MouseEvent(.press, x: 10, y: 10)), at: 1600)
        recording.key(.mouse(MouseEvent(.drag, x: 12, y: 11)), at: 1610)
        recording.key(.mouse(MouseEvent(.release, x: 14, y: 12)), at: 1620)
        recording.key(.paste("a \"b\""), at: 1700)
        recording.key(.ctrl("l"), at: 2500)
        recording.key(.char("q"), at: 2600)
        recording.dropLastKey()
        XCTAssertEqual(recording.text(endingAt: 3000, snapshot: "demo"), #"""
        # A tape recorded by `nimbus tape --record` at 2026-06-21T09:12:00+09:00: the keys, pauses, resizes and mouse
        # the app read, run offline in an empty home, as tapes run. Play it: nimbus tape FILE
        Size 80x24
        Env NIMBUS_LANG=ko
        Now 2026-06-21T09:12:00+09:00
        Args --units metric
        Type "/서울"
        Wait 1000ms
        Press Enter
        Press Down 3
        Resize 100x30
        DoubleClick 3 4
        Scroll down 9 9
        Drag 10 10 14 12
        Type "\e[200~a \"b\"\e[201~"
        Wait 1500ms
        Press Ctrl-L
        Wait 500ms
        Snapshot demo

        """#)
        XCTAssertNoThrow(try Tape(name: "demo", source: recording.text(endingAt: 3000, snapshot: "demo")))
    }

    func testPlayingARecordingBackShowsTheScreenTheKeysMade() throws {
        try onMain(self) { t in
            // The keys a person typed, fed to the app as a live terminal would, and the tape made of them.
            var recording = TapeRecording(preamble: TapeRecording.preamble(
                start: Date(timeIntervalSince1970: 1_782_000_720), size: Size(cols: 80, rows: 24), environment: [], arguments: []))
            let keys: [Key] = [.char("/"), .char("s"), .char("e"), .char("o"), .enter, .down, .down, .up, .char("f"), .char("3")]
            for (i, key) in keys.enumerated() { recording.key(key, at: i * 50) }
            let direct = "Size 80x24\nNow 2026-06-21T09:12:00+09:00\nType \"/seo\"\nPress Enter\nPress Down 2\nPress Up\nType \"f3\"\nSnapshot direct\n"
            XCTAssertThrowsError(try t.run(direct, record: true))
            let recorded = try String(contentsOf: t.folder.appendingPathComponent("__snapshots__/direct.txt"), encoding: .utf8)
            try recorded.write(to: t.folder.appendingPathComponent("__snapshots__/played.txt"), atomically: true, encoding: .utf8)
            XCTAssertNoThrow(try t.run(recording.text(endingAt: 500, snapshot: "played")))
        }
    }

    static let tapesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tapes")
}
