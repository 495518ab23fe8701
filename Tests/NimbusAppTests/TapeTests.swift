import Foundation
import Testing
import Synchronization
import CombineSchedulers
import NimbusData
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// Plays every `Tests/Tapes/*.tape` through the headless runner.
@Suite @MainActor struct TapeTests {
    private static let tapesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tapes")

    private let temporary = TemporaryDirectories()

    private func runner(record: Bool = false) throws -> TapeRunner {
        let home = try temporary.make("nimbus-tapes")
        return TapeRunner(
            snapshotDirectory: Self.tapesDirectory.appendingPathComponent("__snapshots__"),
            record: record || ProcessInfo.processInfo.environment["NIMBUS_RECORD"] == "1",
            baseEnvironment: ["HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                              "XDG_CACHE_HOME": home.appendingPathComponent("cache").path])
    }

    @Test func testEveryTapePasses() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.tapesDirectory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "tape" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        #expect(files.count >= 8, "tapes are missing from \(Self.tapesDirectory.path)")
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
                Issue.record("\(error)")
            }
            used.formUnion(runner.snapshotsUsed)
        }
        // A snapshot no tape takes is a test that no longer runs.
        let unused = TapeRunner.unusedSnapshots(in: Self.tapesDirectory.appendingPathComponent("__snapshots__"), used: used)
        #expect(unused == [], "snapshots in Tests/Tapes/__snapshots__ that no tape takes: \(unused.joined(separator: ", "))")
    }

    @Test func testAFailingExpectationNamesTheLineAndShowsTheScreen() throws {
        let tape = try Tape(name: "failing.tape", source: "Size 40x10\nPress /\nType \"seoul\"\nExpect \"Atlantis\"\n")
        if let error = #expect(throws: (any Error).self, performing: { try runner().run(tape) }) {
            let message = "\(error)"
            #expect(message.hasPrefix("failing.tape:4: Expect \"Atlantis\""), "\(message)")
            #expect(message.contains("expected the screen to contain \"Atlantis\""), "\(message)")
            #expect(message.contains("|Search: seoul"), "\(message)")
        }
    }

    @Test func testAMismatchedSnapshotShowsTheDifferingLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-snap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "not the screen\n".write(to: directory.appendingPathComponent("x.txt"), atomically: true, encoding: .utf8)
        let runner = TapeRunner(snapshotDirectory: directory, record: false, baseEnvironment: [:])
        if let error = #expect(throws: (any Error).self, performing: { try runner.run(Tape(name: "s.tape", source: "Size 40x10\nSnapshot x")) }) {
            #expect("\(error)".contains("- not the screen"), "\(error)")
        }
    }

    @Test func testRecordingWritesEverySnapshotOfTheTapeAndThenFails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-snap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let runner = TapeRunner(snapshotDirectory: directory, record: true, baseEnvironment: [:])
        let tape = try Tape(name: "r.tape", source: "Size 40x10\nSnapshot first\nPress /\nSnapshot second\n")
        if let error = #expect(throws: (any Error).self, performing: { try runner.run(tape) }) {
            let message = "\(error)"
            #expect(message.hasPrefix("r.tape:2: Snapshot first"), "\(message)")
            #expect(message.contains("recorded first; run again without NIMBUS_RECORD"), "\(message)")
            #expect(message.contains("recorded second; run again without NIMBUS_RECORD"), "\(message)")
        }
        let replay = TapeRunner(snapshotDirectory: directory, record: false, baseEnvironment: [:])
        #expect(throws: Never.self, "the recorded snapshots match a second run") { try replay.run(tape) }
    }

    @Test func testParseErrorsNameTheLine() {
        if let error = #expect(throws: (any Error).self, performing: { try Tape(name: "t", source: "Size 80x24\nPress Hyper-Q\n") }) {
            #expect((error as? Tape.ParseError)?.line == 2)
        }
        if let error = #expect(throws: (any Error).self, performing: { try Tape(name: "t", source: "Size eighty\n") }) {
            #expect((error as? Tape.ParseError)?.reason == "expected a size like 80x24")
        }
        #expect(throws: (any Error).self) { try Tape(name: "t", source: "Type seoul\n") }
        #expect(throws: (any Error).self) { try Tape(name: "t", source: "Dance\n") }
    }

    @Test func testTapeSyntax() throws {
        let tape = try Tape(name: "t", source: """
        Size 100x30   # comment
        Env NIMBUS_LANG=ko
        Type "a#b\\"c\\x41"
        Press Down 3
        Wait 300ms
        Wait 2s
        Expect "Seoul"
        """)
        #expect(tape.lines.map(\.command) == [
            .size(Size(cols: 100, rows: 30)), .env("NIMBUS_LANG", "ko"), .type("a#b\"cA"),
            .press(.down, count: 3), .wait(milliseconds: 300), .wait(milliseconds: 2000), .expect("Seoul"),
        ])
    }

    @Test func testNetworkAndClockCommands() throws {
        let tape = try Tape(name: "t", source: """
        Now 2026-06-21T09:12:00+09:00
        Serve /v1/forecast fixtures/open-meteo-seoul.json
        Offline
        """)
        #expect(tape.lines.map(\.command) == [
            .now(Date(timeIntervalSince1970: 1_782_000_720)),
            .serve(path: "/v1/forecast", answer: .init(file: "fixtures/open-meteo-seoul.json")), .offline,
        ])
        #expect(throws: (any Error).self) { try Tape(name: "t", source: "Now yesterday\n") }
        #expect(throws: (any Error).self) { try Tape(name: "t", source: "Serve v1 file\n") }
        #expect(throws: (any Error).self) { try Tape(name: "t", source: "Offline now\n") }
        let missing = try Tape(name: "m.tape", source: "Serve /v1/forecast fixtures/nothing-here.json\n")
        if let error = #expect(throws: (any Error).self, performing: { try runner().run(missing) }) {
            #expect("\(error)".contains("Serve fixtures/nothing-here.json: no such file"), "\(error)")
        }
    }

    @Test func testServeScriptsStatusHeadersAndDelay() throws {
        let tape = try Tape(name: "t", source: #"""
        Serve /feed fixtures/usgs-2.5_day.geojson status=304 header="Last-Modified: Wed, 21 Oct 2026 07:28:00 GMT" header="ETag: \"abc\"" delay=200ms
        Serve /feed - status=503 header="Retry-After: 120" delay=2s   # no body
        Serve  /feed   fixtures/a.json   # spaces between arguments
        ExpectRequest /feed If-Modified-Since
        ExpectRequest /feed If-None-Match "\"abc\""
        """#)
        #expect(tape.lines.map(\.command) == [
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
            if let error = #expect(throws: (any Error).self, "\(bad)", performing: { try Tape(name: "t", source: bad + "\n") }) {
                #expect((error as? Tape.ParseError)?.line == 1, "\(bad)")
            }
        }
    }

    @Test func testExpectRequestFailsWithTheLineAndWhatWasSent() throws {
        let path = "/earthquakes/feed/v1.0/summary/2.5_day.geojson"
        let first = """
        Size 100x30
        Serve \(path) fixtures/usgs-2.5_day.geojson header="ETag: \\"v1\\""
        Press 4
        Expect "M2.5+"
        """
        if let error = #expect(throws: (any Error).self, performing: { try runner().run(Tape(name: "r.tape", source: first + "\nExpectRequest \(path) If-None-Match\n")) }) {
            #expect("\(error)".hasPrefix("r.tape:5: ExpectRequest"), "\(error)")
            #expect("\(error)".contains("to carry If-None-Match"), "\(error)")
        }
        if let error = #expect(throws: (any Error).self, performing: { try runner().run(Tape(name: "r.tape", source: first + "\nExpectRequest /other If-None-Match\n")) }) {
            #expect("\(error)".contains("none was made"), "\(error)")
        }
        // The second request is conditional on the first answer's ETag.
        let refresh = first + "\nPress r\nExpectRequest \(path) If-None-Match \"\\\"v1\\\"\"\n"
        #expect(throws: Never.self) { try runner().run(Tape(name: "r.tape", source: refresh)) }
        if let error = #expect(throws: (any Error).self, performing: { try runner().run(Tape(name: "r.tape", source: first + "\nPress r\nExpectRequest \(path) If-None-Match \"v2\"\n")) }) {
            #expect("\(error)".contains("it carried If-None-Match: \"v1\""), "\(error)")
        }
    }

    @Test func testADelayedAnswerComesOnTheVirtualClockAndASlowOneTimesOut() throws {
        let scheduler = DispatchQueue.test
        let client = TapeHTTPClient(clock: scheduler)
        client.serve("/slow", answer: .init(headers: ["etag": "\"x\""], body: Data("{}".utf8), delay: 2))
        let results = Mutex<[Result<HTTPResponse, HTTPError>]>([])
        let request = try #require(HTTPRequest(base: "http://tape.invalid", path: "/slow", timeout: 5))
        _ = client.send(request) { result in results.withLock { $0.append(result) } }
        scheduler.advance(by: .milliseconds(1999))
        #expect(results.withLock { $0.isEmpty }, "nothing before the delay")
        scheduler.advance(by: .milliseconds(1))
        #expect((results.withLock { $0 }) == [.success(HTTPResponse(status: 200, headers: ["etag": "\"x\""], body: Data("{}".utf8)))])

        // Cancelled, it never comes; slower than the timeout, it times out at the timeout.
        results.withLock { $0 = [] }
        client.send(request) { result in results.withLock { $0.append(result) } }.cancel()
        client.serve("/slow", answer: .init(body: Data("{}".utf8), delay: 60))
        _ = client.send(request) { result in results.withLock { $0.append(result) } }
        scheduler.advance(by: .seconds(5))
        #expect((results.withLock { $0 }) == [.failure(.transport(.timedOut))])

        // A 304 is a `.server` failure, as from the live client; the headers sent are kept.
        client.serve("/slow", answer: .init(status: 304))
        var conditional = request
        conditional.headers = ["If-None-Match": "\"x\""]
        results.withLock { $0 = [] }
        _ = client.send(conditional) { result in results.withLock { $0.append(result) } }
        #expect((results.withLock { $0 }) == [.failure(.server(status: 304))])
        #expect(client.lastRequestHeaders("/slow") == ["if-none-match": "\"x\""])
    }

    @Test func testAHugePasteIsTakenQuicklyAndBounded() throws {
        let paste = "\u{1B}[200~" + String(repeating: "서울 seoul ", count: 1250) + "\u{1B}[201~"
        let tape = try Tape(name: "paste.tape", source: "Size 80x24\nPress /\nType \"\(paste)\"\nExpect \"› Seoul\"\nExpect \"1 of 34,006 cities\"\n")
        let start = Date()
        try runner().run(tape)
        #expect(Date().timeIntervalSince(start) < 5, "a 10,000-character paste must not stall input")
    }

    // MARK: Tapes are untrusted input (issue 12, finding 5)

    @Test func testEnvCannotMoveTheTapesDataCacheOrConfigDirectories() {
        for name in ["XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME"] {
            if let error = #expect(throws: (any Error).self, performing: { try Tape(name: "evil.tape", source: "Size 80x24\nEnv \(name)=/home/someone/.local/share\n") }) {
                let message = "\(error)"
                #expect((error as? Tape.ParseError)?.line == 2)
                #expect(message.hasPrefix("tape evil.tape:2: Env \(name) is not allowed"), "\(message)")
                #expect(!message.contains("\n"), "\(message)")
            }
        }
        #expect(throws: (any Error).self) { try Tape(name: "t", source: "Env A B=1\n") }
        #expect(throws: Never.self) { try Tape(name: "t", source: "Env NIMBUS_LANG=ko\nEnv LC_MESSAGES=\n") }
    }

    @Test func testArgsAndParseErrorsPrintOneLine() {
        if let error = #expect(throws: (any Error).self, performing: { try Tape(name: "args.tape", source: "Size 80x24\nArgs --bogus\n") }) {
            let message = "\(error)"
            #expect(message.hasPrefix("tape args.tape:2: Args: "), "\(message)")
            #expect(message.contains("--bogus"), "\(message)")
            #expect(!message.contains("\n"), "\(message)")
        }
        if let error = #expect(throws: (any Error).self, performing: { try Tape(name: "args.tape", source: "Args --location 99,999\n") }) {
            #expect("\(error)".hasPrefix("tape args.tape:1: Args: --location: latitude"), "\(error)")
        }
        // Escape sequences in a tape never reach the terminal through an error message.
        if let error = #expect(throws: (any Error).self, performing: { try Tape(name: "esc.tape", source: "Dance\u{1B}[2J\u{7}\n") }) {
            let message = "\(error)"
            #expect(!(message.unicodeScalars.contains { $0.value < 0x20 }), "\(message)")
            #expect(message.hasPrefix("tape esc.tape:1: unknown command"), "\(message)")
        }
    }

    @Test func testServeReadsOnlyPlainFilesInsideTheTapesFolder() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("nimbus-serve-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("tapes")
        try fm.createDirectory(at: folder.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: root) }
        try Data("{}".utf8).write(to: root.appendingPathComponent("secret.json"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("fixtures/ok.json"))
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("link.json").path, withDestinationPath: "../secret.json")
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("inside.json").path, withDestinationPath: "fixtures/ok.json")
        #expect(mkfifo(folder.appendingPathComponent("fifo.json").path, 0o600) == 0)
        let runner = TapeRunner(snapshotDirectory: folder.appendingPathComponent("__snapshots__"), record: false,
                                baseEnvironment: [:])

        for file in ["../secret.json", "link.json", "fixtures/../../secret.json"] {
            if let error = #expect(throws: (any Error).self, "\(file)", performing: { try runner.run(Tape(name: "s.tape", source: "Serve /v1/forecast \(file)\n")) }) {
                let message = "\(error)"
                #expect(message.hasPrefix("tape s.tape:1: Serve \(file): the file must be inside the tape's folder"), "\(message)")
                #expect(!message.contains("\n"), "\(message)")
            }
        }
        if let error = #expect(throws: (any Error).self, performing: { try runner.run(Tape(name: "s.tape", source: "Serve /v1/forecast fifo.json\n")) }) {
            #expect("\(error)".contains("not a readable file"), "\(error)")
        }
        #expect(throws: (any Error).self) { try runner.run(Tape(name: "s.tape", source: "Serve /v1/forecast fixtures\n")) }
        #expect(throws: Never.self) { try runner.run(Tape(name: "s.tape", source: "Serve /v1/forecast fixtures/ok.json\nServe /x inside.json\n")) }
        // A catalogue given in Args is held to the same rule.
        if let error = #expect(throws: (any Error).self, performing: { try runner.run(Tape(name: "c.tape", source: "Args --catalog ../secret.json\nExpect \"Cities\"\n")) }) {
            let message = "\(error)"
            #expect(message.hasPrefix("tape c.tape:2: Args --catalog ../secret.json: the file must be inside the tape's folder"), "\(message)")
            #expect(!message.contains("\n"), "\(message)")
        }
    }
}
