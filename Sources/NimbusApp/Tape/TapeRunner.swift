import Foundation
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

        public var description: String {
            guard let screen else { return Tape.oneLine(tape: tape, line: line, reason) }
            let width = screen.split(separator: "\n", omittingEmptySubsequences: false)
                .map { DisplayWidth.of(String($0)) }.max() ?? 0
            let border = "+" + String(repeating: "-", count: width) + "+"
            let body = screen.split(separator: "\n", omittingEmptySubsequences: false)
                .map { "|" + DisplayWidth.pad(String($0), to: width) + "|" }.joined(separator: "\n")
            return "\(tape):\(line): \(text.trimmingCharacters(in: .whitespaces))\n  \(reason)\nscreen:\n\(border)\n\(body)\n\(border)"
        }
    }

    /// Where `Snapshot NAME` files live, and whether to write them instead of comparing.
    public let snapshotDirectory: URL
    public let record: Bool
    /// Environment every tape starts from (its `Env` lines are added on top).
    public let baseEnvironment: [String: String]

    public init(snapshotDirectory: URL, record: Bool, baseEnvironment: [String: String]) {
        self.snapshotDirectory = snapshotDirectory
        self.record = record
        self.baseEnvironment = baseEnvironment
    }

    /// Runs every line of `tape`; throws a `Failure` at the first line that does not hold. When recording,
    /// the whole tape runs, writing each snapshot, and then fails saying which were recorded.
    public func run(_ tape: Tape) throws {
        let session = Session(environment: baseEnvironment,
                              fixtures: snapshotDirectory.deletingLastPathComponent())
        var recorded: [(line: Tape.Line, snapshot: TextSnapshots.Mismatch)] = []
        for line in tape.lines {
            do {
                try session.perform(line.command, snapshots: snapshotDirectory, record: record)
            } catch let snapshot as Recorded {
                recorded.append((line, snapshot.mismatch))
            } catch let reason as Reason {
                throw Failure(tape: tape.name, line: line.number, text: line.text, reason: reason.text,
                              screen: session.failureScreen)
            } catch {
                throw Failure(tape: tape.name, line: line.number, text: line.text, reason: "\(error)",
                              screen: session.failureScreen)
            }
        }
        if let first = recorded.first {
            throw Failure(tape: tape.name, line: first.line.number, text: first.line.text,
                          reason: recorded.map { "\($0.snapshot)" }.joined(separator: "\n  "), screen: session.screenText)
        }
    }
}

/// A snapshot written in record mode: the tape goes on, and fails at its end.
private struct Recorded: Error {
    let mismatch: TextSnapshots.Mismatch
}

/// One run of the app inside a tape.
@MainActor
private final class Session {
    private var size = Size(cols: 80, rows: 24)
    private var environment: [String: String]
    private var arguments: [String] = []
    private let scheduler = DispatchQueue.test
    private var terminal: FakeTerminal?
    /// The app loop the live runner runs, on the fake terminal and the virtual clock.
    private var loop: AppLoop?
    private var coordinator: AppCoordinator? { loop?.coordinator }
    private var parser = KeyParser()
    private var exited = false
    private let network: TapeHTTPClient
    private let fixtures: URL
    /// The wall clock at virtual time zero; `Now` sets it.
    private var clockStart = Date(timeIntervalSince1970: 1_781_913_600) // 2026-06-21T00:00:00Z
    private let schedulerStart: DispatchQueue.SchedulerTimeType

    /// The tape's own home, data, cache, config and state directories, so likes and cached forecasts
    /// never leak between tapes or into the user's (a tape cannot set them: `Tape.protectedEnvironment`);
    /// removed when the tape ends.
    private let home: URL

    init(environment: [String: String], fixtures: URL) {
        self.environment = environment
        self.fixtures = fixtures
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

    var screenText: String { terminal?.screenText() ?? "(the app has not started)" }
    /// The screen for a failure message; nil before the app starts.
    var failureScreen: String? { terminal?.screenText() }

    func perform(_ command: Tape.Command, snapshots: URL, record: Bool) throws {
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
            terminal = nil
            exited = false
        case .type(let text):
            try started()
            try feed(Array(text.utf8))
            deliver(parser.flushPending())
        case .press(let key, let count):
            try started()
            for _ in 0..<count { deliver([key]) }
        case .wait(let ms):
            try started()
            turn(advancingBy: .milliseconds(ms))
        case .resize(let s):
            try started()
            size = s
            terminal?.size = s
            loop?.invalidate()
            loop?.draw()
        case .expect(let text):
            try started()
            try expect(text)
        case .expectNot(let text):
            try started()
            settle()
            if screenText.contains(text) { throw Reason("expected the screen not to contain \"\(text)\"") }
        case .snapshot(let name):
            try started()
            settle()
            try snapshot(name, directory: snapshots, record: record)
        case .expectExit:
            guard exited else { throw Reason("expected the app to have quit") }
        case .serve(let path, let answer):
            var headers = ["content-type": "application/json"]
            for header in answer.headers { headers[header.name.lowercased()] = header.value }
            network.serve(path, answer: TapeHTTPClient.Answer(
                status: answer.status, headers: headers, body: try answer.file.map { try fixture($0) } ?? Data(),
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
            let body = try fixture(file)
            let url = ConfigFile(environment: environment).url
            guard SafeFile.write(body, to: url) else { throw Reason("Config \(file): could not write \(url.path)") }
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
            guard let copied = terminal?.clipboard else {
                throw Reason("expected \"\(text)\" on the clipboard; nothing was copied (no OSC 52 write)")
            }
            if copied != text { throw Reason("expected \"\(text)\" on the clipboard; it holds \"\(copied)\"") }
        case .now(let date):
            guard coordinator == nil else { throw Reason("Now must come before the app starts (or after Restart)") }
            clockStart = date.addingTimeInterval(-TimeInterval(schedulerStart.distance(to: scheduler.now).magnitude) / 1e9)
        }
    }

    /// Fixtures are at most this large.
    static let maxFixtureBytes = 16 << 20

    /// The bytes of a `Serve` file: a plain file inside the tape's folder once links and `..` are
    /// resolved, so a tape can't read anything else.
    private func fixture(_ file: String) throws -> Data {
        let resolved = try insideTapeFolder(file, command: "Serve")
        guard let body = SafeFile.read(resolved, maxBytes: Self.maxFixtureBytes) else {
            throw Reason("Serve \(file): not a readable file of at most 16 MB")
        }
        return body
    }

    /// `file`, relative to the tape's folder, with links and `..` resolved; it must lie inside the folder.
    private func insideTapeFolder(_ file: String, command: String) throws -> URL {
        let url = fixtures.appendingPathComponent(file)
        guard let folder = Self.realPath(fixtures.path), let resolved = Self.realPath(url.path) else {
            throw Reason("no fixture file \(url.path)")
        }
        guard resolved.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
            throw Reason("\(command) \(file): the file must be inside the tape's folder \(folder)")
        }
        return URL(fileURLWithPath: resolved)
    }

    /// The path with every link and `..` resolved (realpath(3)); nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func started() throws {
        if exited { throw Reason("the app has quit; only ExpectExit or Restart can follow") }
        if coordinator != nil { return }
        let terminal = FakeTerminal(size: size)
        var options = try CLIOptions.parseCommandLine(arguments)
        if let catalog = options.catalog {
            // Like a Serve file: inside the tape's folder, relative to it.
            options.catalog = try insideTapeFolder(catalog, command: "Args --catalog").path
        }
        var configuration = options.configuration(
            environment: environment, scheduler: MainScheduler.onVirtualClock(scheduler), colors: terminal.supportsColor)
        configuration.httpClient = network
        configuration.now = clock
        configuration.retryJitter = { 0.5 }
        let container = try AppDIContainer(configuration: configuration)
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        self.terminal = terminal
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
        guard let loop, !exited else { return }
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

    /// Passes as soon as the text shows; virtual time moves on in 10 ms steps for up to 5 s.
    private func expect(_ text: String) throws {
        settle()
        var waited = 0
        while !screenText.contains(text) {
            guard waited < 5000 else { throw Reason("expected the screen to contain \"\(text)\" (waited 5 s of virtual time)") }
            turn(advancingBy: .milliseconds(10))
            waited += 10
        }
    }

    private func snapshot(_ name: String, directory: URL, record: Bool) throws {
        guard let mismatch = try TextSnapshots(directory: directory, record: record)
            .check(screenText + "\n", named: name) else { return }
        if case .recorded = mismatch { throw Recorded(mismatch: mismatch) }
        throw Reason("\(mismatch)")
    }
}
