import XCTest
import Synchronization
import CombineSchedulers
import NimbusData
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// Plays every `Tests/Tapes/*.tape` through the headless runner.
@MainActor
final class TapeTests: XCTestCase {
    private static let tapesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tapes")

    private func runner(record: Bool = false) throws -> TapeRunner {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-tapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        return TapeRunner(
            snapshotDirectory: Self.tapesDirectory.appendingPathComponent("__snapshots__"),
            record: record || ProcessInfo.processInfo.environment["NIMBUS_RECORD"] == "1",
            baseEnvironment: ["HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                              "XDG_CACHE_HOME": home.appendingPathComponent("cache").path])
    }

    nonisolated func testEveryTapePasses() throws {
        try onMain(self) { try $0.mainActorTestEveryTapePasses() }
    }

    private func mainActorTestEveryTapePasses() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.tapesDirectory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "tape" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        XCTAssertGreaterThanOrEqual(files.count, 8, "tapes are missing from \(Self.tapesDirectory.path)")
        var used: Set<String> = []
        for file in files {
            // Each tape starts from empty user data (its own HOME and XDG directories).
            let runner = try runner()
            // A failing tape's screen and recording are kept for a person to look at.
            runner.outputs.failureDirectory = ProcessInfo.processInfo.environment["NIMBUS_TAPE_FAILURES"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-tape-failures")
            let tape = try Tape(name: file.lastPathComponent, source: String(contentsOf: file, encoding: .utf8))
            do {
                try runner.run(tape)
            } catch {
                XCTFail("\(error)")
            }
            used.formUnion(runner.snapshotsUsed)
        }
        // A snapshot no tape takes is a test that no longer runs.
        let unused = TapeRunner.unusedSnapshots(in: Self.tapesDirectory.appendingPathComponent("__snapshots__"), used: used)
        XCTAssertEqual(unused, [], "snapshots in Tests/Tapes/__snapshots__ that no tape takes: \(unused.joined(separator: ", "))")
    }

    nonisolated func testAFailingExpectationNamesTheLineAndShowsTheScreen() throws {
        try onMain(self) { try $0.mainActorTestAFailingExpectationNamesTheLineAndShowsTheScreen() }
    }

    private func mainActorTestAFailingExpectationNamesTheLineAndShowsTheScreen() throws {
        let tape = try Tape(name: "failing.tape", source: "Size 40x10\nPress /\nType \"seoul\"\nExpect \"Atlantis\"\n")
        XCTAssertThrowsError(try runner().run(tape)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("failing.tape:4: Expect \"Atlantis\""), message)
            XCTAssertTrue(message.contains("expected the screen to contain \"Atlantis\""), message)
            XCTAssertTrue(message.contains("|Search: seoul"), message)
        }
    }

    nonisolated func testAMismatchedSnapshotShowsTheDifferingLines() throws {
        try onMain(self) { try $0.mainActorTestAMismatchedSnapshotShowsTheDifferingLines() }
    }

    private func mainActorTestAMismatchedSnapshotShowsTheDifferingLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-snap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "not the screen\n".write(to: directory.appendingPathComponent("x.txt"), atomically: true, encoding: .utf8)
        let runner = TapeRunner(snapshotDirectory: directory, record: false, baseEnvironment: [:])
        XCTAssertThrowsError(try runner.run(Tape(name: "s.tape", source: "Size 40x10\nSnapshot x"))) { error in
            XCTAssertTrue("\(error)".contains("- not the screen"), "\(error)")
        }
    }

    nonisolated func testRecordingWritesEverySnapshotOfTheTapeAndThenFails() throws {
        try onMain(self) { try $0.mainActorTestRecordingWritesEverySnapshotOfTheTapeAndThenFails() }
    }

    private func mainActorTestRecordingWritesEverySnapshotOfTheTapeAndThenFails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-snap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let runner = TapeRunner(snapshotDirectory: directory, record: true, baseEnvironment: [:])
        let tape = try Tape(name: "r.tape", source: "Size 40x10\nSnapshot first\nPress /\nSnapshot second\n")
        XCTAssertThrowsError(try runner.run(tape)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("r.tape:2: Snapshot first"), message)
            XCTAssertTrue(message.contains("recorded first; run again without NIMBUS_RECORD"), message)
            XCTAssertTrue(message.contains("recorded second; run again without NIMBUS_RECORD"), message)
        }
        let replay = TapeRunner(snapshotDirectory: directory, record: false, baseEnvironment: [:])
        XCTAssertNoThrow(try replay.run(tape), "the recorded snapshots match a second run")
    }

    nonisolated func testParseErrorsNameTheLine() {
        onMain(self) { $0.mainActorTestParseErrorsNameTheLine() }
    }

    private func mainActorTestParseErrorsNameTheLine() {
        XCTAssertThrowsError(try Tape(name: "t", source: "Size 80x24\nPress Hyper-Q\n")) { error in
            XCTAssertEqual((error as? Tape.ParseError)?.line, 2)
        }
        XCTAssertThrowsError(try Tape(name: "t", source: "Size eighty\n")) { error in
            XCTAssertEqual((error as? Tape.ParseError)?.reason, "expected a size like 80x24")
        }
        XCTAssertThrowsError(try Tape(name: "t", source: "Type seoul\n"))
        XCTAssertThrowsError(try Tape(name: "t", source: "Dance\n"))
    }

    nonisolated func testTapeSyntax() throws {
        try onMain(self) { try $0.mainActorTestTapeSyntax() }
    }

    private func mainActorTestTapeSyntax() throws {
        let tape = try Tape(name: "t", source: """
        Size 100x30   # comment
        Env NIMBUS_LANG=ko
        Type "a#b\\"c\\x41"
        Press Down 3
        Wait 300ms
        Wait 2s
        Expect "Seoul"
        """)
        XCTAssertEqual(tape.lines.map(\.command), [
            .size(Size(cols: 100, rows: 30)), .env("NIMBUS_LANG", "ko"), .type("a#b\"cA"),
            .press(.down, count: 3), .wait(milliseconds: 300), .wait(milliseconds: 2000), .expect("Seoul"),
        ])
    }

    nonisolated func testNetworkAndClockCommands() throws {
        try onMain(self) { try $0.mainActorTestNetworkAndClockCommands() }
    }

    private func mainActorTestNetworkAndClockCommands() throws {
        let tape = try Tape(name: "t", source: """
        Now 2026-06-21T09:12:00+09:00
        Serve /v1/forecast fixtures/open-meteo-seoul.json
        Offline
        """)
        XCTAssertEqual(tape.lines.map(\.command), [
            .now(Date(timeIntervalSince1970: 1_782_000_720)),
            .serve(path: "/v1/forecast", answer: .init(file: "fixtures/open-meteo-seoul.json")), .offline,
        ])
        XCTAssertThrowsError(try Tape(name: "t", source: "Now yesterday\n"))
        XCTAssertThrowsError(try Tape(name: "t", source: "Serve v1 file\n"))
        XCTAssertThrowsError(try Tape(name: "t", source: "Offline now\n"))
        let missing = try Tape(name: "m.tape", source: "Serve /v1/forecast fixtures/nothing-here.json\n")
        XCTAssertThrowsError(try runner().run(missing)) { error in
            XCTAssertTrue("\(error)".contains("Serve fixtures/nothing-here.json: no such file"), "\(error)")
        }
    }

    nonisolated func testServeScriptsStatusHeadersAndDelay() throws {
        try onMain(self) { try $0.mainActorTestServeScriptsStatusHeadersAndDelay() }
    }

    private func mainActorTestServeScriptsStatusHeadersAndDelay() throws {
        let tape = try Tape(name: "t", source: #"""
        Serve /feed fixtures/usgs-2.5_day.geojson status=304 header="Last-Modified: Wed, 21 Oct 2026 07:28:00 GMT" header="ETag: \"abc\"" delay=200ms
        Serve /feed - status=503 header="Retry-After: 120" delay=2s   # no body
        Serve  /feed   fixtures/a.json   # spaces between arguments
        ExpectRequest /feed If-Modified-Since
        ExpectRequest /feed If-None-Match "\"abc\""
        """#)
        XCTAssertEqual(tape.lines.map(\.command), [
            .serve(path: "/feed", answer: .init(file: "fixtures/usgs-2.5_day.geojson", status: 304, headers: [
                .init("Last-Modified", "Wed, 21 Oct 2026 07:28:00 GMT"), .init("ETag", "\"abc\""),
            ], delayMilliseconds: 200)),
            .serve(path: "/feed", answer: .init(file: nil, status: 503, headers: [.init("Retry-After", "120")],
                                                delayMilliseconds: 2000)),
            .serve(path: "/feed", answer: .init(file: "fixtures/a.json")),
            .expectRequest(path: "/feed", header: "If-Modified-Since", value: nil),
            .expectRequest(path: "/feed", header: "If-None-Match", value: "\"abc\""),
        ])
        for bad in ["Serve /feed", "Serve /feed f status=abc", "Serve /feed f status=99", "Serve /feed f status=200 status=304",
                    "Serve /feed f header=Last-Modified", "Serve /feed f header=\"no colon\"",
                    "Serve /feed f header=\"Bad Name: x\"", "Serve /feed f delay=soon", "Serve /feed f delay=2h",
                    "Serve /feed f colour=red", "Serve /feed f header=\"ETag: open", "Serve /feed \"f\"",
                    "ExpectRequest /feed", "ExpectRequest feed If-None-Match", "ExpectRequest /feed If-None-Match abc",
                    "ExpectRequest /feed If-None-Match \"a\" \"b\""] {
            XCTAssertThrowsError(try Tape(name: "t", source: bad + "\n"), bad) { error in
                XCTAssertEqual((error as? Tape.ParseError)?.line, 1, bad)
            }
        }
    }

    nonisolated func testExpectRequestFailsWithTheLineAndWhatWasSent() throws {
        try onMain(self) { try $0.mainActorTestExpectRequestFailsWithTheLineAndWhatWasSent() }
    }

    private func mainActorTestExpectRequestFailsWithTheLineAndWhatWasSent() throws {
        let path = "/earthquakes/feed/v1.0/summary/2.5_day.geojson"
        let first = """
        Size 100x30
        Serve \(path) fixtures/usgs-2.5_day.geojson header="ETag: \\"v1\\""
        Press 4
        Expect "M2.5+"
        """
        XCTAssertThrowsError(try runner().run(Tape(name: "r.tape", source: first + "\nExpectRequest \(path) If-None-Match\n"))) { error in
            XCTAssertTrue("\(error)".hasPrefix("r.tape:5: ExpectRequest"), "\(error)")
            XCTAssertTrue("\(error)".contains("to carry If-None-Match"), "\(error)")
        }
        XCTAssertThrowsError(try runner().run(Tape(name: "r.tape", source: first + "\nExpectRequest /other If-None-Match\n"))) { error in
            XCTAssertTrue("\(error)".contains("none was made"), "\(error)")
        }
        // The second request is conditional on the first answer's ETag.
        let refresh = first + "\nPress r\nExpectRequest \(path) If-None-Match \"\\\"v1\\\"\"\n"
        XCTAssertNoThrow(try runner().run(Tape(name: "r.tape", source: refresh)))
        XCTAssertThrowsError(try runner().run(Tape(name: "r.tape", source: first + "\nPress r\nExpectRequest \(path) If-None-Match \"v2\"\n"))) { error in
            XCTAssertTrue("\(error)".contains("it carried If-None-Match: \"v1\""), "\(error)")
        }
    }

    nonisolated func testADelayedAnswerComesOnTheVirtualClockAndASlowOneTimesOut() throws {
        try onMain(self) { try $0.mainActorTestADelayedAnswerComesOnTheVirtualClockAndASlowOneTimesOut() }
    }

    private func mainActorTestADelayedAnswerComesOnTheVirtualClockAndASlowOneTimesOut() throws {
        let scheduler = DispatchQueue.test
        let client = TapeHTTPClient(clock: scheduler)
        client.serve("/slow", answer: .init(headers: ["etag": "\"x\""], body: Data("{}".utf8), delay: 2))
        let results = Mutex<[Result<HTTPResponse, HTTPError>]>([])
        let request = try XCTUnwrap(HTTPRequest(base: "http://tape.invalid", path: "/slow", timeout: 5))
        _ = client.send(request) { result in results.withLock { $0.append(result) } }
        scheduler.advance(by: .milliseconds(1999))
        XCTAssertTrue(results.withLock { $0.isEmpty }, "nothing before the delay")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(results.withLock { $0 }, [.success(HTTPResponse(status: 200, headers: ["etag": "\"x\""], body: Data("{}".utf8)))])

        // Cancelled, it never comes; slower than the timeout, it times out at the timeout.
        results.withLock { $0 = [] }
        client.send(request) { result in results.withLock { $0.append(result) } }.cancel()
        client.serve("/slow", answer: .init(body: Data("{}".utf8), delay: 60))
        _ = client.send(request) { result in results.withLock { $0.append(result) } }
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(results.withLock { $0 }, [.failure(.transport(.timedOut))])

        // A 304 is a `.server` failure, as from the live client; the headers sent are kept.
        client.serve("/slow", answer: .init(status: 304))
        var conditional = request
        conditional.headers = ["If-None-Match": "\"x\""]
        results.withLock { $0 = [] }
        _ = client.send(conditional) { result in results.withLock { $0.append(result) } }
        XCTAssertEqual(results.withLock { $0 }, [.failure(.server(status: 304))])
        XCTAssertEqual(client.lastRequestHeaders("/slow"), ["if-none-match": "\"x\""])
    }

    nonisolated func testAHugePasteIsTakenQuicklyAndBounded() throws {
        try onMain(self) { try $0.mainActorTestAHugePasteIsTakenQuicklyAndBounded() }
    }

    private func mainActorTestAHugePasteIsTakenQuicklyAndBounded() throws {
        let paste = "\u{1B}[200~" + String(repeating: "서울 seoul ", count: 1250) + "\u{1B}[201~"
        let tape = try Tape(name: "paste.tape", source: "Size 80x24\nPress /\nType \"\(paste)\"\nExpect \"› Seoul\"\nExpect \"1 of 34,006 cities\"\n")
        let start = Date()
        try runner().run(tape)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "a 10,000-character paste must not stall input")
    }

    // MARK: Tapes are untrusted input (issue 12, finding 5)

    nonisolated func testEnvCannotMoveTheTapesDataCacheOrConfigDirectories() {
        onMain(self) { $0.mainActorTestEnvCannotMoveTheTapesDataCacheOrConfigDirectories() }
    }

    private func mainActorTestEnvCannotMoveTheTapesDataCacheOrConfigDirectories() {
        for name in ["XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME"] {
            XCTAssertThrowsError(try Tape(name: "evil.tape", source: "Size 80x24\nEnv \(name)=/home/someone/.local/share\n")) { error in
                let message = "\(error)"
                XCTAssertEqual((error as? Tape.ParseError)?.line, 2)
                XCTAssertTrue(message.hasPrefix("tape evil.tape:2: Env \(name) is not allowed"), message)
                XCTAssertFalse(message.contains("\n"), message)
            }
        }
        XCTAssertThrowsError(try Tape(name: "t", source: "Env A B=1\n"))
        XCTAssertNoThrow(try Tape(name: "t", source: "Env NIMBUS_LANG=ko\nEnv LC_MESSAGES=\n"))
    }

    nonisolated func testArgsAndParseErrorsPrintOneLine() {
        onMain(self) { $0.mainActorTestArgsAndParseErrorsPrintOneLine() }
    }

    private func mainActorTestArgsAndParseErrorsPrintOneLine() {
        XCTAssertThrowsError(try Tape(name: "args.tape", source: "Size 80x24\nArgs --bogus\n")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("tape args.tape:2: Args: "), message)
            XCTAssertTrue(message.contains("--bogus"), message)
            XCTAssertFalse(message.contains("\n"), message)
        }
        XCTAssertThrowsError(try Tape(name: "args.tape", source: "Args --location 99,999\n")) { error in
            XCTAssertTrue("\(error)".hasPrefix("tape args.tape:1: Args: --location: latitude"), "\(error)")
        }
        // Escape sequences in a tape never reach the terminal through an error message.
        XCTAssertThrowsError(try Tape(name: "esc.tape", source: "Dance\u{1B}[2J\u{7}\n")) { error in
            let message = "\(error)"
            XCTAssertFalse(message.unicodeScalars.contains { $0.value < 0x20 }, message)
            XCTAssertTrue(message.hasPrefix("tape esc.tape:1: unknown command"), message)
        }
    }

    nonisolated func testServeReadsOnlyPlainFilesInsideTheTapesFolder() throws {
        try onMain(self) { try $0.mainActorTestServeReadsOnlyPlainFilesInsideTheTapesFolder() }
    }

    private func mainActorTestServeReadsOnlyPlainFilesInsideTheTapesFolder() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("nimbus-serve-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("tapes")
        try fm.createDirectory(at: folder.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: root) }
        try Data("{}".utf8).write(to: root.appendingPathComponent("secret.json"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("fixtures/ok.json"))
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("link.json").path, withDestinationPath: "../secret.json")
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("inside.json").path, withDestinationPath: "fixtures/ok.json")
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("fifo.json").path, 0o600), 0)
        let runner = TapeRunner(snapshotDirectory: folder.appendingPathComponent("__snapshots__"), record: false,
                                baseEnvironment: [:])

        for file in ["../secret.json", "link.json", "fixtures/../../secret.json"] {
            XCTAssertThrowsError(try runner.run(Tape(name: "s.tape", source: "Serve /v1/forecast \(file)\n")), file) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("tape s.tape:1: Serve \(file): the file must be inside the tape's folder"), message)
                XCTAssertFalse(message.contains("\n"), message)
            }
        }
        XCTAssertThrowsError(try runner.run(Tape(name: "s.tape", source: "Serve /v1/forecast fifo.json\n"))) { error in
            XCTAssertTrue("\(error)".contains("not a readable file"), "\(error)")
        }
        XCTAssertThrowsError(try runner.run(Tape(name: "s.tape", source: "Serve /v1/forecast fixtures\n")))
        XCTAssertNoThrow(try runner.run(Tape(name: "s.tape", source: "Serve /v1/forecast fixtures/ok.json\nServe /x inside.json\n")))
        // A catalogue given in Args is held to the same rule.
        XCTAssertThrowsError(try runner.run(Tape(name: "c.tape", source: "Args --catalog ../secret.json\nExpect \"Cities\"\n"))) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("tape c.tape:2: Args --catalog ../secret.json: the file must be inside the tape's folder"), message)
            XCTAssertFalse(message.contains("\n"), message)
        }
    }
}
