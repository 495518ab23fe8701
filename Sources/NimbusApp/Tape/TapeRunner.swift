import Foundation
import Glibc
import NimbusData
import NimbusTerminal
import CombineSchedulers

/// Plays tapes headless: a `FakeTerminal` for the screen and a virtual clock for every timer.
@MainActor
public final class TapeRunner {
    public struct Failure: Error, CustomStringConvertible {
        public let tape: String
        public let line: Int
        public let text: String
        public let reason: String
        /// The screen at the failure; nil when the app had not started (then the failure is one line).
        public let screen: String?
        /// For a line of a `Source`d tape: the lines that sourced it, outermost first (`a.tape:5`).
        public var sourcedBy: [String] = []
        /// The folder the screen and the recording at the failure were saved in.
        public var saved: URL?
        /// Why they could not be saved there (nil when saved, or when there was nothing to save).
        public var notSaved: String?
        /// Outputs the run could not write (`--cast`), each one line saying why.
        public var notWritten: [String] = []

        public var description: String {
            let via = sourcedBy.isEmpty ? "" : " (sourced by \(sourcedBy.reversed().joined(separator: ", ")))"
            var savedLine = saved.map { "\n  saved: \($0.path) (screen.txt with styles, screen.svg, tape.cast)" } ?? ""
            if let notSaved { savedLine += "\n  not saved: \(notSaved)" }
            for problem in notWritten { savedLine += "\n  \(problem)" }
            guard let screen else { return Tape.oneLine(tape: tape + via, line: line, reason) + savedLine }
            let width = screen.split(separator: "\n", omittingEmptySubsequences: false)
                .map { DisplayWidth.of(String($0)) }.max() ?? 0
            let border = "+" + String(repeating: "-", count: width) + "+"
            let body = screen.split(separator: "\n", omittingEmptySubsequences: false)
                .map { "|" + DisplayWidth.pad(String($0), to: width) + "|" }.joined(separator: "\n")
            return "\(tape):\(line)\(via): \(text.trimmingCharacters(in: .whitespaces))\n  \(reason)\(savedLine)\nscreen:\n\(border)\n\(body)\n\(border)"
        }
    }

    /// What a run writes besides passing or failing.
    public struct Outputs: Sendable {
        /// The whole tape as an asciicast v2 recording on its virtual clock (written when it fails
        /// too), to a path as `OutputFile` writes one (`-` is standard output).
        public var cast: String?
        /// Every `Snapshot NAME` also as `NAME.svg` here.
        public var svgDirectory: URL?
        /// When a tape fails: its screen (text with styles, and SVG) and its recording up to the
        /// failure go to a folder named after the tape in here.
        public var failureDirectory: URL?

        public init(cast: String? = nil, svgDirectory: URL? = nil, failureDirectory: URL? = nil) {
            self.cast = cast
            self.svgDirectory = svgDirectory
            self.failureDirectory = failureDirectory
        }
    }

    /// Where `Snapshot NAME` files live, and whether to write them instead of comparing.
    public let snapshotDirectory: URL
    public let record: Bool
    /// Environment every tape starts from (its `Env` lines are added on top).
    public let baseEnvironment: [String: String]
    public var outputs: Outputs
    /// The snapshots the tapes run so far compared (or recorded), by name.
    public private(set) var snapshotsUsed: Set<String> = []
    /// Every pattern match its tapes hand to ICU, from handing over to coming back
    /// (`ScreenSearch`): what shows that a match stopped when its line failed.
    private let matching = DispatchGroup()

    /// True once every pattern match the tapes run so far handed to ICU has come back; false if
    /// one is still running `seconds` (wall time) later.
    nonisolated func matchesEnded(within seconds: TimeInterval) -> Bool {
        matching.wait(timeout: .now() + seconds) == .success
    }

    /// The snapshots in `directory` (`NAME.txt`) that are not in `used`, sorted: tests that no
    /// longer run. Empty when the directory can't be read.
    public static func unusedSnapshots(in directory: URL, used: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Set(names.filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }).subtracting(used).sorted()
    }

    /// How deep `Source` lines may nest.
    static let maxSourceDepth = 8
    /// How many lines sourced tapes may play in one run, all told: a tape that sources a file of
    /// `Source` lines eight deep would otherwise play without end.
    static let maxSourcedLines = 200_000

    public init(snapshotDirectory: URL, record: Bool, baseEnvironment: [String: String], outputs: Outputs = Outputs()) {
        self.snapshotDirectory = snapshotDirectory
        self.record = record
        self.baseEnvironment = baseEnvironment
        self.outputs = outputs
    }

    /// Runs every line of `tape`; throws a `Failure` at the first line that does not hold. When recording,
    /// the whole tape runs, writing each snapshot, and then fails saying which were recorded.
    public func run(_ tape: Tape) throws {
        let folder = TapeFolder(url: snapshotDirectory.deletingLastPathComponent(), snapshots: snapshotDirectory)
        let session = Session(environment: baseEnvironment, folder: folder, record: record, svgDirectory: outputs.svgDirectory,
                              title: tape.name, search: ScreenSearch(matching: matching))
        defer { snapshotsUsed.formUnion(session.snapshotsUsed) }
        sourcedLines = 0
        do {
            try play(tape, in: session, sourcedBy: [])
        } catch var failure as Failure {
            session.mark("failed: \(failure.tape):\(failure.line)")
            switch saveFailure(of: tape, session: session, failure: failure) {
            case .saved(let folder): failure.saved = folder
            case .notSaved(let reason): failure.notSaved = reason
            case .nothing: break
            }
            do { try writeCast(session) } catch { failure.notWritten.append("--cast: \(error)") }
            throw failure
        }
        try writeCast(session)
        if let first = session.recorded.first {
            throw Failure(tape: first.tape, line: first.line.number, text: first.line.text,
                          reason: session.recorded.map { "\($0.mismatch)" }.joined(separator: "\n  "), screen: session.screenText)
        }
    }

    /// Lines played from sourced tapes in this run.
    private var sourcedLines = 0

    private func play(_ tape: Tape, in session: Session, sourcedBy: [String]) throws {
        for line in tape.lines {
            func failure(_ reason: String) -> Failure {
                Failure(tape: tape.name, line: line.number, text: line.text, reason: reason, screen: session.failureScreen,
                        sourcedBy: sourcedBy)
            }
            do {
                if case .source(let file) = line.command {
                    guard sourcedBy.count < Self.maxSourceDepth else {
                        throw failure("Source \(file): tapes source each other more than \(Self.maxSourceDepth) deep (a loop?)")
                    }
                    let sourced = try session.source(file)
                    sourcedLines += sourced.lines.count
                    guard sourcedLines <= Self.maxSourcedLines else {
                        throw failure("Source \(file): sourced tapes played over \(Self.maxSourcedLines) lines in this run")
                    }
                    try play(sourced, in: session, sourcedBy: sourcedBy + ["\(tape.name):\(line.number)"])
                } else {
                    try session.perform(line.command, tape: tape.name, line: line)
                }
            } catch let failure as Failure {
                throw failure
            } catch let reason as Reason {
                throw failure(reason.text)
            } catch let error as Tape.ParseError {
                throw failure("Source: \(error)")
            } catch {
                throw failure("\(error)")
            }
        }
    }

    /// Writes the recording to `--cast`; throws `OutputFile.Failure` when it could not.
    private func writeCast(_ session: Session) throws {
        guard let path = outputs.cast else { return }
        try OutputFile.write(Data(session.cast.text.utf8), to: path)
    }

    private enum Saved {
        case saved(URL)
        case notSaved(String)
        /// No failures folder, or the app never started: there is no screen to save.
        case nothing
    }

    /// Writes the screen at the failure (text with styles, and SVG) and the recording up to it in a
    /// folder named after the tape, a real folder (0700) inside the failures folder, with files that
    /// replace whatever name was there and never write through a link.
    private func saveFailure(of tape: Tape, session: Session, failure: Failure) -> Saved {
        guard let root = outputs.failureDirectory, let screen = session.screenSnapshot else { return .nothing }
        let name = String(tape.name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") ? $0 : "_" })
        let folder = root.appendingPathComponent(name.isEmpty || name == "." || name == ".." ? "tape" : name)
        var rootKind = SafeFile.kind(atPath: root.path)
        if rootKind == .missing {
            SafeFile.makeDirectory(root)
            rootKind = SafeFile.kind(atPath: root.path)
        }
        // The failures folder the user named may be a link they made; the tape's own folder never is.
        var st = stat()
        guard stat(root.path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            return .notSaved("\(root.path) is a \(rootKind == .missing ? "path that can't be made" : rootKind.name), not a folder")
        }
        guard SafeFile.makeDirectory(folder) else {
            return .notSaved("\(folder.path) is a \(SafeFile.kind(atPath: folder.path).name), not a folder of its own")
        }
        let files = [("screen.txt", screen.fileText), ("screen.svg", session.svg), ("tape.cast", session.cast.text),
                     ("failure.txt", "\(failure)\n")]
        for (file, text) in files where !SafeFile.write(Data(text.utf8), to: folder.appendingPathComponent(file), mode: 0o600) {
            return .notSaved("could not write \(folder.appendingPathComponent(file).path)")
        }
        return .saved(folder)
    }
}

/// One run of the app inside a tape.
@MainActor
private final class Session {
    private var size = Size(cols: 80, rows: 24)
    private var environment: [String: String]
    private var arguments: [String] = []
    private let scheduler = DispatchQueue.test
    /// The fake terminal the app draws on, and the bytes of its frames for the recording.
    private var terminal: EncodingTerminal?
    private var screen: FakeTerminal? { terminal?.screen }
    /// The app loop the live runner runs, on the fake terminal and the virtual clock.
    private var loop: AppLoop?
    private var container: AppDIContainer?
    private var coordinator: AppCoordinator? { loop?.coordinator }
    private var parser = KeyParser()
    private var exited = false
    private let network: TapeHTTPClient
    private let folder: TapeFolder
    private let record: Bool
    private let svgDirectory: URL?
    private let search: ScreenSearch
    /// The wall clock at virtual time zero; `Now` sets it.
    private var clockStart = Date(timeIntervalSince1970: 1_781_913_600) // 2026-06-21T00:00:00Z
    private let schedulerStart: DispatchQueue.SchedulerTimeType
    /// The whole run as an asciicast, on the virtual clock.
    private(set) var cast: Asciicast
    private var castSize: Size?
    /// Snapshots compared or recorded, by name; those recorded, to report at the end.
    private(set) var snapshotsUsed: Set<String> = []
    private(set) var recorded: [(tape: String, line: Tape.Line, mismatch: TextSnapshots.Mismatch)] = []

    /// The tape's own home, data, cache, config and state directories, so likes and cached forecasts
    /// never leak between tapes or into the user's (a tape cannot set them: `Tape.protectedEnvironment`);
    /// removed when the tape ends.
    private let home: URL

    init(environment: [String: String], folder: TapeFolder, record: Bool, svgDirectory: URL?, title: String, search: ScreenSearch) {
        self.search = search
        self.environment = environment
        self.folder = folder
        self.record = record
        self.svgDirectory = svgDirectory
        cast = Asciicast(size: size, title: title)
        schedulerStart = scheduler.now
        network = TapeHTTPClient(clock: scheduler)
        home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-tape-\(UUID().uuidString)")
        self.environment["HOME"] = home.path
        self.environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        self.environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        self.environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        self.environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        self.environment["XDG_RUNTIME_DIR"] = nil
    }

    deinit {
        try? FileManager.default.removeItem(at: home)
    }

    /// Wall time: the pinned start plus the virtual time that has passed.
    private var clock: @Sendable () -> Date {
        let start = clockStart
        let origin = schedulerStart.dispatchTime
        let scheduler = self.scheduler
        return {
            let elapsed = DispatchQueue.SchedulerTimeType(origin).distance(to: scheduler.now)
            return start.addingTimeInterval(TimeInterval(elapsed.magnitude) / 1e9)
        }
    }

    /// Virtual seconds since the tape began.
    private var seconds: Double {
        Double(schedulerStart.distance(to: scheduler.now).magnitude) / 1e9
    }

    var screenText: String { screen?.screenText() ?? "(the app has not started)" }
    /// The screen for a failure message; nil before the app starts.
    var failureScreen: String? { screen?.screenText() }

    /// The screen with its styles and cursor; nil before the app starts.
    var screenSnapshot: ScreenSnapshot? {
        screen.map { ScreenSnapshot($0.grid, cursor: $0.cursor) }
    }

    /// The screen as an SVG picture, on the background the app's theme is made for.
    var svg: String {
        guard let screen else { return "" }
        let background: ScreenSVG.Background = container?.preferences.themeBackground == .light ? .light : .dark
        return ScreenSVG.render(screen.grid, cursor: screen.cursor, background: background)
    }

    func mark(_ label: String) {
        cast.marker(label, at: seconds)
    }

    /// The tape a `Source FILE` line plays: a plain file inside the tape's folder, at most 1 MB of UTF-8.
    func source(_ file: String) throws -> Tape {
        let data = try folder.read(file, command: "Source", maxBytes: TapeFile.maximumSize)
        guard let text = String(data: data, encoding: .utf8) else { throw Reason("Source \(file): not UTF-8 text") }
        return try Tape(name: file, source: text)
    }

    func perform(_ command: Tape.Command, tape: String, line: Tape.Line) throws {
        switch command {
        case .size(let s):
            guard coordinator == nil else { throw Reason("Size must come before the app starts; use Resize") }
            size = s
        case .env(let name, let value):
            guard coordinator == nil else { throw Reason("Env must come before the app starts (or after Restart)") }
            // Refused when parsing already; checked again for tapes built in code.
            guard !Tape.protectedEnvironment.contains(name) else { throw Reason("Env \(name) is not allowed") }
            environment[name] = value
        case .args(let args):
            guard coordinator == nil else { throw Reason("Args must come before the app starts (or after Restart)") }
            arguments = args
        case .restart:
            loop = nil
            container = nil
            terminal = nil
            exited = false
        case .type(let text):
            try started()
            try feed(Array(text.utf8))
            deliver(parser.flushPending())
        case .press(let key, let count):
            try started()
            // One read of `count` keys, as a key held down arrives: each key is handled, and the
            // frame is drawn once after them.
            deliver(Array(repeating: key, count: count))
        case .wait(let ms):
            try started()
            turn(advancingBy: .milliseconds(ms))
        case .resize(let s):
            try started()
            size = s
            screen?.size = s
            cast.resize(to: s, at: seconds)
            castSize = s
            loop?.invalidate()
            loop?.draw()
        case .expect(let matcher):
            try started()
            try waitUntil({ "expected the screen to contain \(matcher)" }) { try search.isShown(matcher, in: screenText) }
        case .expectNot(let matcher):
            try started()
            settle()
            if try search.isShown(matcher, in: screenText) { throw Reason("expected the screen not to contain \(matcher)") }
        case .expectGone(let matcher):
            try started()
            try waitUntil({ "expected \(matcher) to go from the screen" }) { try !search.isShown(matcher, in: screenText) }
        case .expectStyle(let matcher, let spec):
            try started()
            try waitUntil({ try styleMismatch(matcher, spec) }) { try styleMismatch(matcher, spec) == nil }
        case .expectCell(let x, let y, let text, let spec):
            try started()
            try waitUntil({ cellMismatch(x: x, y: y, text: text, spec: spec) }) { cellMismatch(x: x, y: y, text: text, spec: spec) == nil }
        case .expectCursor(let point):
            try started()
            func at(_ p: Point?) -> String { p.map { "\($0.x) \($0.y)" } ?? "hidden" }
            try waitUntil({ "expected the cursor at \(at(point)); it is at \(at(self.screen?.cursor))" }) { screen?.cursor == point }
        case .snapshot(let name):
            try started()
            settle()
            try snapshot(name, tape: tape, line: line)
        case .expectExit:
            guard exited else { throw Reason("expected the app to have quit") }
        case .serve(let path, let answer):
            var headers = ["content-type": "application/json"]
            for header in answer.headers { headers[header.name.lowercased()] = header.value }
            network.serve(path, answer: TapeHTTPClient.Answer(
                status: answer.status, headers: headers, body: try answer.file.map { try folder.read($0, command: "Serve") } ?? Data(),
                delay: TimeInterval(answer.delayMilliseconds) / 1000))
        case .expectRequest(let path, let header, let value):
            try started()
            settle()
            guard let headers = network.lastRequestHeaders(path) else {
                throw Reason("expected a request for \(path); none was made")
            }
            guard let sent = headers[header.lowercased()] else {
                throw Reason("expected the last request for \(path) to carry \(header); it carried "
                             + (headers.isEmpty ? "no headers" : headers.keys.sorted().joined(separator: ", ")))
            }
            if let value, sent != value {
                throw Reason("expected the last request for \(path) to carry \(header): \(value); it carried \(header): \(sent)")
            }
        case .offline:
            network.goOffline()
        case .config(let file):
            guard coordinator == nil else { throw Reason("Config must come before the app starts (or after Restart)") }
            let body = try folder.read(file, command: "Config")
            let url = ConfigFile(environment: environment).url
            guard SafeFile.write(body, to: url) else { throw Reason("Config \(file): could not write \(url.path)") }
        case .file(let name, let fixture):
            let body = try folder.read(fixture, command: "File")
            let url = home.appendingPathComponent(name)
            guard SafeFile.makeDirectory(home), SafeFile.write(body, to: url) else {
                throw Reason("File \(name): could not write \(url.path)")
            }
        case .expectConfig(let text):
            try started()
            settle()
            let url = ConfigFile(environment: environment).url
            let saved = SafeFile.read(url, maxBytes: ConfigFile.maximumSize).map { String(decoding: $0, as: UTF8.self) }
            guard let saved, saved.contains(text) else {
                throw Reason("expected config.toml to contain \"\(text)\"; it has: \(saved ?? "(no file)")")
            }
        case .mouse(let events):
            try started()
            try feed(events.flatMap(\.sgrBytes))
        case .expectClipboard(let text):
            try started()
            settle()
            guard let copied = screen?.clipboard else {
                throw Reason("expected \"\(text)\" on the clipboard; nothing was copied (no OSC 52 write)")
            }
            if copied != text { throw Reason("expected \"\(text)\" on the clipboard; it holds \"\(copied)\"") }
        case .now(let date):
            guard coordinator == nil else { throw Reason("Now must come before the app starts (or after Restart)") }
            clockStart = date.addingTimeInterval(-TimeInterval(schedulerStart.distance(to: scheduler.now).magnitude) / 1e9)
        case .paced(let ms, .type(let text)):
            try started()
            for (i, character) in text.enumerated() {
                if i > 0 { turn(advancingBy: .milliseconds(ms)) }
                try feed(Array(String(character).utf8))
                deliver(parser.flushPending())
            }
        case .paced(let ms, .press(let key, let count)):
            try started()
            for i in 0..<count {
                if i > 0 { turn(advancingBy: .milliseconds(ms)) }
                deliver([key])
            }
        case .paced:
            throw Reason("only Type and Press take @TIME")
        case .source:
            preconditionFailure("the runner plays Source lines")
        }
    }

    private func started() throws {
        if exited { throw Reason("the app has quit; only ExpectExit or Restart can follow") }
        if coordinator != nil { return }
        let screen = FakeTerminal(size: size)
        var options = try CLIOptions.parseCommandLine(arguments)
        if let catalog = options.catalog {
            // Like a Serve file: inside the tape's folder, relative to it.
            options.catalog = try folder.inside(catalog, command: "Args --catalog").path
        }
        var configuration = options.configuration(
            environment: environment, scheduler: MainScheduler.onVirtualClock(scheduler), colors: screen.supportsColor)
        configuration.httpClient = network
        configuration.now = clock
        configuration.retryJitter = { 0.5 }
        let container = try AppDIContainer(configuration: configuration)
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        if castSize == nil {
            cast.size = size
        } else if castSize != size {
            cast.resize(to: size, at: seconds)
        }
        castSize = size
        let terminal = EncodingTerminal(screen) { [unowned self] bytes in self.cast.output(bytes, at: self.seconds) }
        self.terminal = terminal
        self.container = container
        let scheduler = self.scheduler
        loop = AppLoop(coordinator: coordinator, backend: terminal, size: { [unowned self] in self.size },
                       runDueWork: { scheduler.advance() })
        scheduler.advance()
        loop?.draw()
    }

    private func feed(_ bytes: [UInt8]) throws {
        deliver(parser.feed(bytes))
    }

    private func deliver(_ keys: [Key]) {
        guard let loop, !exited, !keys.isEmpty else { return }
        if loop.handle(keys) { exited = true }
    }

    /// Runs what is due now; draws if anything asked for a frame.
    private func settle() {
        turn(advancingBy: .zero)
    }

    /// One turn of the loop on the virtual clock: the work due within `interval` runs, then the frame
    /// is drawn if anything asked for one, as the live loop does after the main queue's work.
    private func turn(advancingBy interval: DispatchQueue.SchedulerTimeType.Stride) {
        scheduler.advance(by: interval)
        loop?.drawIfNeeded()
    }

    /// How long an expectation waits for the screen, in virtual time.
    static let expectTimeoutMilliseconds = 5000

    /// Passes as soon as `holds`; virtual time moves on in 10 ms steps for up to 5 s. `holds` is asked
    /// again only when a frame was drawn since it was last asked.
    private func waitUntil(_ message: () throws -> String?, _ holds: () throws -> Bool) throws {
        settle()
        var waited = 0
        var askedAt = -1
        while true {
            let frames = screen?.flushCount ?? 0
            if frames != askedAt {
                if try holds() { return }
                askedAt = frames
            }
            guard waited < Self.expectTimeoutMilliseconds else {
                throw Reason((try message() ?? "the expectation did not hold") + " (waited 5 s of virtual time)")
            }
            turn(advancingBy: .milliseconds(10))
            waited += 10
        }
    }

    /// Why `matcher` is not on screen in a style `spec` allows; nil when some place shows it so.
    private func styleMismatch(_ matcher: Tape.Matcher, _ spec: StyleSpec) throws -> String? {
        guard let grid = screen?.grid else { return "the app has not started" }
        var seen: [String] = []
        for row in grid.rows {
            for range in try search.ranges(of: matcher, in: row) {
                let columns = row.columns(range)
                let styles = columns.map { grid[$0, row.y].style }
                if styles.allSatisfy(spec.matches) { return nil }
                var distinct: [Style] = []
                for style in styles where !distinct.contains(style) { distinct.append(style) }
                let shown = String(row.characters[range])
                seen.append("\"\(shown)\" at \(columns.lowerBound) \(row.y) is " + distinct.map(StyleWords.describe).joined(separator: ", partly "))
            }
        }
        guard !seen.isEmpty else { return "expected \(matcher) in \(spec); it is not on the screen" }
        let more = seen.count > 5 ? " (and \(seen.count - 5) more)" : ""
        return "expected \(matcher) in \(spec); " + seen.prefix(5).joined(separator: "; ") + more
    }

    /// Why cell (x, y) does not hold `text` in a style `spec` allows; nil when it does.
    private func cellMismatch(x: Int, y: Int, text: String, spec: StyleSpec?) -> String? {
        guard let grid = screen?.grid else { return "the app has not started" }
        guard x < grid.size.cols, y < grid.size.rows else {
            return "cell \(x) \(y) is outside the \(grid.size.cols)×\(grid.size.rows) screen"
        }
        let cell = grid[x, y]
        let wanted = "expected \"\(text)\"" + (spec.map { " in \($0)" } ?? "") + " at \(x) \(y)"
        if cell.isContinuation {
            return "\(wanted); it is the right half of \"\(grid[x - 1, y].text)\""
        }
        if cell.text != text { return "\(wanted); it holds \"\(cell.text)\"" }
        if let spec, !spec.matches(cell.style) { return "\(wanted); it is \(StyleWords.describe(cell.style))" }
        return nil
    }

    private func snapshot(_ name: String, tape: String, line: Tape.Line) throws {
        guard let screenSnapshot else { return }
        snapshotsUsed.insert(name)
        mark("Snapshot \(name)")
        if let svgDirectory {
            try FileManager.default.createDirectory(at: svgDirectory, withIntermediateDirectories: true)
            do {
                try OutputFile.write(Data(svg.utf8), to: svgDirectory.appendingPathComponent("\(name).svg").path)
            } catch let failure as OutputFile.Failure {
                throw Reason("Snapshot \(name): --svg: \(failure)")
            }
        }
        let snapshots = TextSnapshots(directory: folder.snapshots, record: record, storage: folder.snapshotStorage)
        let mismatch: TextSnapshots.Mismatch?
        do {
            mismatch = try snapshots.check(screenSnapshot, named: name)
        } catch let refused as TapeFolder.Refused {
            throw Reason("Snapshot \(name): \(refused)")
        }
        guard let mismatch else { return }
        if case .recorded = mismatch {
            recorded.append((tape, line, mismatch))
            return
        }
        throw Reason("\(mismatch)")
    }
}
