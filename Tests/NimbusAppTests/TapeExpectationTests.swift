import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif
import NimbusData
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// The tape lines that look at colour, patterns, cells and the cursor, `Source`, and what a run writes
/// (casts, SVGs, the screen at a failure, JUnit reports, recordings).
@Suite @MainActor struct TapeExpectationTests {
    private let temporary = TemporaryDirectories()
    fileprivate let folder: URL

    init() throws {
        folder = try temporary.make("nimbus-tape-x")
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
    private func failure(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        do {
            try run(source)
            Issue.record("expected the tape to fail", sourceLocation: sourceLocation)
            return ""
        } catch {
            return "\(error)"
        }
    }

    // MARK: Parsing

    @Test func testTheNewLinesParse() throws {
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
        #expect(tape.lines.map(\.command) == [
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
        #expect(try Tape(name: "t", source: "Expect \"a/b/\"\nExpectNot \"x\"\n").lines.map(\.command) == [.expect("a/b/"), .expectNot("x")])
    }

    @Test func testBadNewLinesAreRefusedWithTheirLine() {
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
            if let error = #expect(throws: (any Error).self, "\(line)", performing: { try Tape(name: "t", source: "Size 80x24\n" + line + "\n") }) {
                #expect((error as? Tape.ParseError)?.line == 2, "\(line)")
                #expect(!"\(error)".contains("\n"), "\(error)")
            }
        }
    }

    // MARK: Colour and attributes

    @Test func testExpectStyleFindsTheSelectionHighlightAndFailsOnTheWrongRow() throws {
        // "seo" finds Seoul first, then Seongnam-si; one move down selects Seongnam-si: white on blue (24).
        let open = "Size 80x24\nPress /\nType \"seo\"\nPress Enter\nPress Down\nExpect \"› Seongnam-si\"\n"
        #expect(throws: Never.self) { try run(open + "ExpectStyle \"› Seongnam-si\" bold fg=white bg=24\nExpectStyle \"Seoul\" bg=default !bold\n") }
        // Failing first: the highlight is not on the row the tape says, and the message says what is there.
        let message = failure(open + "ExpectStyle \"Seoul\" bg=24\n")
        #expect(message.contains("expected \"Seoul\" in bg=24; \"Seoul\" at 2 3 is plain (waited 5 s of virtual time)"), "\(message)")
        let wrong = failure(open + "ExpectStyle \"› Seongnam-si\" reverse\n")
        #expect(wrong.contains("expected \"› Seongnam-si\" in reverse; \"› Seongnam-si\" at 0 4 is bold fg=white bg=24"), "\(wrong)")
        #expect(failure(open + "ExpectStyle \"Atlantis\" bold\n").contains("expected \"Atlantis\" in bold; it is not on the screen"))
    }

    @Test func testWithoutColourTheSelectionIsReversed() throws {
        let open = "Size 80x24\nEnv NO_COLOR=1\nPress /\nType \"seoul\"\nPress Down\nExpect \"› Seoul\"\n"
        #expect(throws: Never.self) { try run(open + "ExpectStyle \"› Seoul\" reverse fg=default bg=default\n") }
        #expect(failure(open + "ExpectStyle \"› Seoul\" bg=24\n").contains("is reverse"))
    }

    @Test func testSnapshotsKeepStylesAndAWrongStyleFails() throws {
        let tape = "Size 40x10\nPress /\nType \"seoul\"\nPress Down\nExpect \"Seoul\"\nSnapshot styled\n"
        if let error = #expect(throws: (any Error).self, performing: { try run(tape, record: true) }) { #expect("\(error)".contains("recorded styled")) }
        let url = folder.appendingPathComponent("__snapshots__/styled.txt")
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(file.contains("\n" + ScreenSnapshot.stylesMarker + "\n"), "\(file)")
        #expect(file.contains("\n-- legend --\n.  plain\na  bold fg=black bg=75\n"), "\(file)")
        #expect(file.hasSuffix("-- cursor hidden --\n"), "\(file)")
        #expect(throws: Never.self) { try run(tape) }

        // Failing first: the same text in another colour (the selected row's background changed).
        let letter = file.split(separator: "\n").first { $0.hasSuffix("bold fg=white bg=24") }!.first!
        try file.replacingOccurrences(of: "\(letter)  bold fg=white bg=24", with: "\(letter)  bold fg=white bg=88")
            .write(to: url, atomically: true, encoding: .utf8)
        let message = failure(tape)
        #expect(message.contains("snapshot styled differs"), "\(message)")
        #expect(message.contains("style, row 4 columns 1-40 \"› Seoul"), "\(message)")
        #expect(message.contains("- bold fg=white bg=88\n    + bold fg=white bg=24"), "\(message)")
        #expect(!message.contains("line 4:"), "the text is the same: \(message)")

        // A snapshot without styles (as every one was before) compares the text only.
        try ScreenSnapshot(fileText: file)!.text.write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: Never.self) { try run(tape) }
    }

    // MARK: Patterns and absence

    @Test func testExpectAPatternAndAWrongOneFails() throws {
        let open = "Size 80x24\nPress /\nType \"seoul\"\n"
        #expect(throws: Never.self) { try run(open + "Expect /[0-9]+ of [0-9,]+ cities/\nExpect /^› Seoul +South Korea/\nExpect /SEOUL/i\nExpectNot /Busan|Tokyo/\n") }
        // Failing first: a pattern that is not on screen, and one that is but should not be.
        #expect(failure(open + "Expect /^Seoul/\n").contains("expected the screen to contain /^Seoul/ (waited 5 s of virtual time)"))
        #expect(failure(open + "ExpectNot /S[a-z]+l/\n").contains("expected the screen not to contain /S[a-z]+l/"))
        #expect(failure(open + "Expect /seoul city/i\n").contains("/seoul city/i"))
    }

    @Test func testAPatternThatBacktracksWithoutEndFailsItsLineInsteadOfHanging() throws {
        let message = failure("Size 80x24\nPress /\nType \"\(String(repeating: "a", count: 40))\"\nExpect /(a|aa)+$b/\n")
        #expect(message.contains("took over 2 s to match one screen"), "\(message)")
    }

    /// A pattern that backtracks without end fails its line at the deadline, and its match ends with
    /// the line: nothing waited on the wall clock but the signal that the match came back.
    @Test func testAPatternPastItsDeadlineStopsItsWorkWithTheLine() throws {
        let runner = runner()
        let message: String
        do {
            try runner.run(Tape(name: "t.tape", source: "Size 80x24\nPress /\nType \"\(String(repeating: "a", count: 40))\"\nExpect /(a|aa)+$b/\n"))
            message = ""
        } catch {
            message = "\(error)"
        }
        #expect(message.contains("took over 2 s to match one screen"), "\(message)")
        // Nothing goes on matching once the line has failed: every match handed to ICU has come
        // back by then. A match left running (on a worker the line stopped waiting for) would hold
        // on for minutes; the second given here is never waited out unless one does.
        #expect(runner.matchesEnded(within: 1), "a match is still running after its tape failed")
    }

    @Test func testTheTimePatternsTakeIsBoundedForTheWholeTape() throws {
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
            + String(repeating: "ExpectNot /(a|aa)+$b/\n", count: 80)
        let started = Date()
        let message = failure(tape)
        let elapsed = Date().timeIntervalSince(started)
        print("80 lines of a pattern of ~0.25 s (a run of \(n) a's): the tape failed after \(String(format: "%.1f", elapsed)) s")
        #expect(message.contains("in all"), "\(message)")
        // Five seconds of patterns for the whole tape, and the app around them: well under the
        // twenty the lines would take one after another, with room for two busy cores (a bound
        // of 7 s failed once at 7.8 s while other suites ran).
        // Not under AddressSanitizer, which slows the app around the patterns (12.9 s).
        #expect(Sanitizers.address || elapsed < 12, "the tape took \(elapsed) s")
    }

    @Test func testExpectGoneWaitsOnTheVirtualClockAndFailsForATextThatStays() throws {
        // The Today tab says its sections are loading until their answers come (offline: at once).
        let copied = "Size 80x24\nPress /\nType \"seoul\"\nPress Down\nExpect \"› Seoul\"\nPress y\nExpect \"Copied\"\n"
        // The status message goes with the next key.
        #expect(throws: Never.self) { try run(copied + "Press Down\nExpectGone \"Copied\"\n") }
        // Failing first: a text that never goes away.
        let message = failure(copied + "ExpectGone \"Seoul\"\n")
        #expect(message.contains("expected \"Seoul\" to go from the screen (waited 5 s of virtual time)"), "\(message)")
    }

    @Test func testExpectGoneWaitsForADelayedAnswer() throws {
        let fixtures = folder.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        let source = TapeExpectationTests.tapesDirectory.appendingPathComponent("fixtures/open-meteo-seoul.json")
        try FileManager.default.copyItem(at: source, to: fixtures.appendingPathComponent("seoul.json"))
        let tape = """
        Size 80x24
        Now 2026-06-21T09:12:00+09:00
        Serve /v1/forecast fixtures/seoul.json delay=3s
        Press /
        Type "seoul"
        Press Down
        Press Enter
        Expect "Loading"
        ExpectGone "Loading"
        Expect "Partly cloudy"
        """
        #expect(throws: Never.self) { try run(tape) }
    }

    // MARK: Cells and cursor

    @Test func testExpectCellAndTheCursorInKoreanInput() throws {
        let open = "Size 80x24\nEnv NIMBUS_LANG=ko\nPress /\nType \"서울\"\n"
        // "검색: 서울": each Hangul syllable over two cells, the caret after the text.
        #expect(throws: Never.self) { try run(open + "Expect \"검색: 서울\"\nExpectCell 0 1 \"검\"\nExpectCell 6 1 \"서\"\nExpectCell 8 1 \"울\"\nExpectCursor 10 1\n") }
        #expect(failure(open + "ExpectCell 7 1 \"서\"\n").contains("it is the right half of \"서\""))
        #expect(failure(open + "ExpectCell 6 1 \"울\"\n").contains("it holds \"서\""))
        #expect(failure(open + "ExpectCell 6 1 \"서\" reverse\n").contains("it is bold fg=75"))
        #expect(failure(open + "ExpectCell 80 1 \"x\"\n").contains("outside the 80×24 screen"))
        #expect(failure(open + "ExpectCursor 9 1\n").contains("expected the cursor at 9 1; it is at 10 1"))
        // Back on the list the cursor is hidden.
        #expect(throws: Never.self) { try run(open + "Press Enter\nExpectCursor hidden\n") }
    }

    // MARK: Reuse

    @Test func testSourcePlaysAnotherTapesLinesInsideTheFolder() throws {
        let parts = folder.appendingPathComponent("parts")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        try "Press /\nType \"seoul\"\nExpect \"› Seoul\"\n".write(to: parts.appendingPathComponent("search.tape"), atomically: true, encoding: .utf8)
        try "Source parts/search.tape\nExpect \"Atlantis\"\n".write(to: parts.appendingPathComponent("bad.tape"), atomically: true, encoding: .utf8)
        try "Source parts/loop.tape\n".write(to: parts.appendingPathComponent("loop.tape"), atomically: true, encoding: .utf8)
        try "Size 80x24\n".write(to: folder.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString).tape"),
                                 atomically: true, encoding: .utf8)
        #expect(throws: Never.self) { try run("Size 80x24\nSource parts/search.tape\nPress Enter\nExpect \"South Korea\"\n") }

        // A failure inside names the sourced line and the line that sourced it.
        let inner = failure("Size 80x24\nSource parts/bad.tape\n")
        #expect(inner.hasPrefix("parts/bad.tape:2 (sourced by t.tape:2): Expect \"Atlantis\""), "\(inner)")
        #expect(failure("Source parts/loop.tape\n").contains("more than 8 deep"))
        // Files of a thousand Source lines each, nested, would play 1,000^depth lines: the run stops first.
        try String(repeating: "Source parts/leaf.tape\n", count: 1000).write(to: parts.appendingPathComponent("wide.tape"), atomically: true, encoding: .utf8)
        try String(repeating: "Size 80x24\n", count: 1000).write(to: parts.appendingPathComponent("leaf.tape"), atomically: true, encoding: .utf8)
        let wide = failure("Source parts/wide.tape\n")
        #expect(wide.contains("Source parts/leaf.tape: sourced tapes played over 200000 lines in this run"), "\(wide)")
        #expect(failure("Source ../\(folder.lastPathComponent)/../x.tape\n").contains("Source"))
        let link = parts.appendingPathComponent("link.tape")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/etc/passwd")
        #expect(failure("Source parts/link.tape\n").contains("the file must be inside the tape's folder"))
        try "Dance\n".write(to: parts.appendingPathComponent("broken.tape"), atomically: true, encoding: .utf8)
        #expect(failure("Source parts/broken.tape\n").contains("Source: tape parts/broken.tape:1: unknown command"))
    }

    @Test func testASnapshotNoTapeTakesIsNamed() throws {
        let runner = self.runner(record: true)
        #expect(throws: (any Error).self) { try runner.run(Tape(name: "a.tape", source: "Size 40x10\nSnapshot taken\n")) }
        try "old screen\n".write(to: folder.appendingPathComponent("__snapshots__/forgotten.txt"), atomically: true, encoding: .utf8)
        #expect(runner.snapshotsUsed == ["taken"])
        #expect(TapeRunner.unusedSnapshots(in: folder.appendingPathComponent("__snapshots__"), used: runner.snapshotsUsed) == ["forgotten"])
    }

    // MARK: Issue 25: snapshots and files are confined to the tape's folder

    @Test func testASnapshotLinkedOutOfTheFolderIsRefusedNotPrinted() throws {
        let snapshots = folder.appendingPathComponent("__snapshots__")
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        let secret = folder.deletingLastPathComponent().appendingPathComponent("secret-\(UUID().uuidString).txt")
        try "root:the-secret-line\n".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        try FileManager.default.createSymbolicLink(atPath: snapshots.appendingPathComponent("shadow.txt").path, withDestinationPath: secret.path)
        let message = failure("Size 40x10\nSnapshot shadow\n")
        #expect(message.contains("Snapshot shadow: snapshot shadow.txt is a symbolic link"), "\(message)")
        #expect(!message.contains("the-secret-line"), "\(message)")
        // Recording does not write through it either.
        #expect(throws: (any Error).self) { try run("Size 40x10\nSnapshot shadow\n", record: true) }
        #expect(try String(contentsOf: secret, encoding: .utf8) == "root:the-secret-line\n")
    }

    @Test func testASnapshotFolderLinkedElsewhereIsNeitherReadNorWritten() throws {
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-elsewhere-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try "private notes\n".write(to: elsewhere.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("__snapshots__").path, withDestinationPath: elsewhere.path)
        let message = failure("Size 40x10\nSnapshot notes\n")
        #expect(message.contains("__snapshots__ is a symbolic link"), "\(message)")
        #expect(!message.contains("private notes"), "\(message)")
        if let error = #expect(throws: (any Error).self, performing: { try run("Size 40x10\nSnapshot written\n", record: true) }) {
            #expect("\(error)".contains("__snapshots__ is a symbolic link"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["notes.txt"])
    }

    @Test func testARefusedConfigSaysConfigNotServe() throws {
        let message = failure("Config ../../../../etc/passwd\n")
        #expect(message.hasPrefix("tape t.tape:1: Config ../../../../etc/passwd: the file must be inside the tape's folder"), "\(message)")
        #expect(!message.contains("Serve"), "\(message)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir"), withIntermediateDirectories: true)
        #expect(failure("Config dir\n").hasPrefix("tape t.tape:1: Config dir: not a readable file"))
    }

    @Test func testARepeatCountCostsNoMoreThanItsKeys() throws {
        // 10,000 moves down the Movies list (paging through the catalogue): each key is handled,
        // one frame is drawn after them, and each film's row is made once. Timed in CPU time of
        // this thread, which a busy machine does not stretch: ~0.8 s in a debug build (9.6 s under
        // AddressSanitizer, where the bound is not asserted: `Sanitizers.address`).
        let start = Self.threadCPUSeconds()
        try run("Size 80x24\nPress 5\nExpect \"Movies\"\nPress Down 10000\nExpect /› /\n")
        if !Sanitizers.address {
            #expect((Self.threadCPUSeconds() - start) < 5, "Press Down 10000 took a minute of CPU when each key drew a frame and made every row again")
        }
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: Outputs

    @Test func testACastHoldsTheFramesOnTheVirtualClock() throws {
        let cast = folder.appendingPathComponent("run.cast")
        #expect(throws: (any Error).self, "recording ends in a failure") { try run("Size 40x10\nPress /\nWait 1500ms\nType \"seoul\"\nResize 50x12\nExpect \"Seoul\"\nSnapshot s\n",
                                       record: true, outputs: .init(cast: cast.path)) }
        let lines = try String(contentsOf: cast, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect((header["version"] as? Int) == 2)
        #expect((header["width"] as? Int) == 40)
        #expect((header["height"] as? Int) == 10)
        let events = try lines.dropFirst().map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any]) }
        let times = events.map { $0[0] as! Double }
        #expect(times == times.sorted(), "events in time order")
        #expect((events.first?[1] as? String) == "o")
        #expect((events.first?[2] as? String)?.hasPrefix("\u{1B}(B\u{1B}[m\u{1B}[H\u{1B}[2J") == true, "the first frame clears the screen")
        let resize = try #require(events.first { $0[1] as? String == "r" })
        #expect((resize[2] as? String) == "50x12")
        #expect((resize[0] as? Double) == 1.5, "the resize came after the 1.5 s wait, on the virtual clock")
        #expect((events.last?[1] as? String) == "m")
        #expect((events.last?[2] as? String) == "Snapshot s")
        #expect(events.contains { ($0[2] as? String)?.contains("seoul") == true })
    }

    @Test func testPacedTypingTakesVirtualTimeBetweenKeys() throws {
        let cast = folder.appendingPathComponent("typed.cast")
        try run("Size 40x10\nOffline\nPress /\nType@100ms \"seoul\"\nPress@250ms Down 2\nExpect \"seoul\"\n", outputs: .init(cast: cast.path))
        let times = try String(contentsOf: cast, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])[0] as? Double }
        // The first frame, "/", then a frame per letter 100 ms apart; the first Down (to the list)
        // right after the last letter; the second, 250 ms later, changes nothing and writes nothing.
        #expect(Array(times.prefix(8)) == [0, 0, 0, 0.1, 0.2, 0.3, 0.4, 0.4])
        // The shown rows' weather is asked once typing has settled for 250 ms; offline, the answer
        // (no temperatures, and the line saying so) is a frame of its own at 0.65 s, not a key's.
        #expect(Array(times.dropFirst(8)) == [0.65])
    }

    @Test func testSVGsOfSnapshotsAndTheScreenAtAFailureAreWritten() throws {
        let svgs = folder.appendingPathComponent("svg"), failures = folder.appendingPathComponent("failures")
        let tape = "Size 40x10\nEnv NIMBUS_THEME=light\nPress /\nType \"서울\"\nSnapshot light-seoul\nExpect \"Atlantis\"\n"
        if let error = #expect(throws: (any Error).self, performing: { try run(tape, name: "light.tape", record: true,
                                     outputs: .init(svgDirectory: svgs, failureDirectory: failures)) }) {
            #expect("\(error)".contains("saved: \(failures.appendingPathComponent("light.tape").path)"), "\(error)")
        }
        let svg = try String(contentsOf: svgs.appendingPathComponent("light-seoul.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"380\" height=\"210\""), "\(svg)")
        #expect(svg.contains("fill=\"#ffffff\"/>"), "a light theme's picture is on white")
        #expect(svg.contains(">서울<"), "\(svg)")
        let saved = failures.appendingPathComponent("light.tape")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: saved.path)) == ["screen.txt", "screen.svg", "tape.cast", "failure.txt"])
        let screen = try String(contentsOf: saved.appendingPathComponent("screen.txt"), encoding: .utf8)
        #expect(ScreenSnapshot(fileText: screen)?.styles != nil, "the screen at the failure has its styles")
        let cast = try String(contentsOf: saved.appendingPathComponent("tape.cast"), encoding: .utf8)
        #expect(cast.contains("\"m\", \"failed: light.tape:6\""), "\(cast)")
    }

    @Test func testJUnitReportOfTapes() {
        var report = JUnitReport()
        report.add("Tests/Tapes/a.tape", seconds: 0.25, failure: nil)
        report.add("Tests/Tapes/b<&>.tape", seconds: 1, failure: "b.tape:3: Expect \"x\"\n  expected \u{1B}[2J it")
        let xml = report.xml
        #expect(xml.contains("<testsuites tests=\"2\" failures=\"1\" errors=\"0\" time=\"1.250\">"), "\(xml)")
        #expect(xml.contains("<testcase classname=\"tapes\" name=\"a\" file=\"Tests/Tapes/a.tape\" time=\"0.250\"/>"), "\(xml)")
        #expect(xml.contains("name=\"b&lt;&amp;&gt;\""), "\(xml)")
        #expect(xml.contains("<failure message=\"b.tape:3: Expect &quot;x&quot;\" type=\"TapeFailure\">"), "\(xml)")
        #expect(xml.contains("expected \\x1b[2J it</failure>"), "\(xml)")
        // An XML parser reads it (no control characters, every entity closed).
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
    }

    // MARK: Recording

    @Test func testARecordingIsWrittenAsATape() throws {
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
        #expect(recording.text(endingAt: 3000, snapshot: "demo") == #"""
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
        #expect(throws: Never.self) { try Tape(name: "demo", source: recording.text(endingAt: 3000, snapshot: "demo")) }
    }

    @Test func testPlayingARecordingBackShowsTheScreenTheKeysMade() throws {
        // The keys a person typed, fed to the app as a live terminal would, and the tape made of them.
        var recording = TapeRecording(preamble: TapeRecording.preamble(
            start: Date(timeIntervalSince1970: 1_782_000_720), size: Size(cols: 80, rows: 24), environment: [], arguments: []))
        let keys: [Key] = [.char("/"), .char("s"), .char("e"), .char("o"), .enter, .down, .down, .up, .char("f"), .char("3")]
        for (i, key) in keys.enumerated() { recording.key(key, at: i * 50) }
        let direct = "Size 80x24\nNow 2026-06-21T09:12:00+09:00\nType \"/seo\"\nPress Enter\nPress Down 2\nPress Up\nType \"f3\"\nSnapshot direct\n"
        #expect(throws: (any Error).self) { try run(direct, record: true) }
        let recorded = try String(contentsOf: folder.appendingPathComponent("__snapshots__/direct.txt"), encoding: .utf8)
        try recorded.write(to: folder.appendingPathComponent("__snapshots__/played.txt"), atomically: true, encoding: .utf8)
        #expect(throws: Never.self) { try run(recording.text(endingAt: 500, snapshot: "played")) }
    }

    static let tapesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tapes")
}
