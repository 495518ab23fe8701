import ArgumentParser
import Foundation
import Glibc
import NimbusCurses
import NimbusData
import NimbusTerminal

/// `nimbus tape`: plays tapes headless, or records one from a live session.
struct TapeCommand: MainActorCommand {
    static let configuration = CommandConfiguration(
        commandName: "tape",
        abstract: "Play scripted UI tests headless on a fake terminal with a virtual clock, or record one.",
        discussion: """
        Snapshots are read from __snapshots__/ beside each tape; NIMBUS_RECORD=1 writes them instead. \
        A failing tape's screen (text with styles, and SVG) and its recording up to the failure are saved \
        in --failures (else a private folder: $XDG_RUNTIME_DIR/nimbus-tape-failures, or a new one in $TMPDIR) \
        and the path is printed. --cast and --junit write a file atomically, a device or fifo in place, \
        and - to standard output (then the tapes' results go to standard error). \
        With --record FILE, Nimbus runs in the terminal (offline, in an empty home, as tapes run) and what \
        you do is written to FILE as a tape, its last screen as its snapshot (an existing tape or snapshot \
        only with --force); options after -- go to Nimbus. docs/tapes.md is the reference.
        """)

    @Argument(help: ArgumentHelp("Tape files. With --record, the tape to write, then -- and Nimbus's options.", valueName: "file"),
              completion: .file(extensions: ["tape"]))
    var files: [String]

    @Option(name: .customLong("cast"), help: ArgumentHelp(
        "Write the run as an asciicast v2 recording on the tape's virtual clock (one tape).", valueName: "out.cast"),
            completion: .file(extensions: ["cast"]))
    var cast: String?

    @Option(name: .customLong("svg"), help: ArgumentHelp("Write every Snapshot also as NAME.svg in this folder.", valueName: "dir"),
            completion: .directory)
    var svg: String?

    @Option(name: .customLong("junit"), help: ArgumentHelp("Write a JUnit XML report, one test case per tape.", valueName: "report.xml"),
            completion: .file(extensions: ["xml"]))
    var junit: String?

    @Option(name: .customLong("failures"), help: ArgumentHelp(
        "Where a failing tape's screen and recording are saved (default: a private folder, printed).", valueName: "dir"),
            completion: .directory)
    var failures: String?

    @Flag(name: .customLong("record"), help: "Run Nimbus in this terminal and write what you do as the tape FILE.")
    var record = false

    @Flag(name: .customLong("force"), help: "With --record: overwrite the tape FILE and its snapshot when they exist.")
    var force = false

    func validate() throws {
        if record {
            guard let first = files.first else { throw ValidationError("--record writes one tape: give one FILE") }
            // Words after `--` come as more files: they are Nimbus's options.
            guard files.count == 1 || CommandLine.arguments.drop(while: { $0 != first }).dropFirst().first == "--" else {
                throw ValidationError("--record writes one tape: give one FILE, then -- and Nimbus's options")
            }
            guard cast == nil, svg == nil, junit == nil else { throw ValidationError("--record takes no --cast, --svg or --junit") }
        } else {
            guard !files.isEmpty else { throw ValidationError("give a tape FILE to play (or --record FILE)") }
            guard cast == nil || files.count == 1 else { throw ValidationError("--cast records one tape: give one FILE") }
            guard !force else { throw ValidationError("--force goes with --record") }
            guard !(cast == "-" && junit == "-") else { throw ValidationError("--cast - and --junit - can't both go to standard output") }
        }
    }

    @MainActor func runOnMainActor() throws {
        if record { try LiveTapeRecorder.record(to: files[0], arguments: Array(files.dropFirst()), force: force) } else { try runTapes() }
    }

    /// The outputs as `OutputFile` will write them, checked before any tape runs: a path that will
    /// be refused is refused now, not after the run.
    private func checkedOutputs() throws -> (junit: OutputFile.Target?, toStandardOutput: Bool) {
        var toStandardOutput = false
        func check(_ path: String?, _ option: String) throws -> OutputFile.Target? {
            guard let path else { return nil }
            do {
                let target = try OutputFile.target(path)
                if OutputFile.isStandardOutput(target) { toStandardOutput = true }
                return target
            } catch let failure as OutputFile.Failure {
                throw CommandFailure(message: "\(option): \(failure)")
            }
        }
        _ = try check(cast, "--cast")
        let junit = try check(junit, "--junit")
        if let svg {
            var st = stat()
            if stat(svg, &st) == 0, st.st_mode & S_IFMT != S_IFDIR {
                throw CommandFailure(message: "--svg: \(CLIOptions.shown(svg)) is a \(OutputFile.kind(st.st_mode)), not a folder")
            }
        }
        return (junit, toStandardOutput)
    }

    @MainActor private func runTapes() throws {
        var failed = 0
        let environment = ProcessInfo.processInfo.environment
        var report = JUnitReport()
        var used: [URL: Set<String>] = [:]
        let (junitTarget, toStandardOutput) = try checkedOutputs()
        // When an output goes to standard output, the results go to standard error.
        func print(_ line: String) {
            if toStandardOutput { FileHandle.standardError.write(Data((line + "\n").utf8)) } else { Swift.print(line) }
        }
        let failureRoot = failures.map { URL(fileURLWithPath: $0) } ?? TapeFailuresFolder.make(environment: environment)
        defer { if failures == nil, let failureRoot { TapeFailuresFolder.removeIfEmpty(failureRoot) } }
        for path in files {
            let url = URL(fileURLWithPath: path)
            let runner = TapeRunner(
                snapshotDirectory: url.deletingLastPathComponent().appendingPathComponent("__snapshots__"),
                record: environment[TextSnapshots.recordVariable] == "1",
                baseEnvironment: TapeEnvironment.base(from: environment),
                outputs: TapeRunner.Outputs(cast: cast, svgDirectory: svg.map { URL(fileURLWithPath: $0) },
                                            failureDirectory: failureRoot))
            let started = Date()
            defer { used[url.deletingLastPathComponent().standardizedFileURL, default: []].formUnion(runner.snapshotsUsed) }
            do {
                let source = try TapeFile.read(url)
                try runner.run(try Tape(name: url.lastPathComponent, source: source))
                print("ok    \(path)")
                report.add(path, seconds: Date().timeIntervalSince(started), failure: nil)
            } catch let error as TapeFile.Unreadable {
                failed += 1
                print("FAIL  \(path): \(error.reason)")
                report.add(path, seconds: Date().timeIntervalSince(started), failure: error.reason)
            } catch let error as OutputFile.Failure {
                failed += 1
                print("FAIL  \(path): --cast: \(error)")
                report.add(path, seconds: Date().timeIntervalSince(started), failure: "--cast: \(error)")
            } catch {
                failed += 1
                print("FAIL  \(path)\n\(error)")
                report.add(path, seconds: Date().timeIntervalSince(started), failure: "\(error)")
            }
        }
        // Every tape of a folder played: a snapshot none of them took is a test that no longer runs.
        var unusedFolders = 0
        for (folder, names) in used.sorted(by: { $0.key.path < $1.key.path }) {
            let all = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".tape") }
            let played = Set(files.map { URL(fileURLWithPath: $0).standardizedFileURL }.filter { $0.deletingLastPathComponent() == folder }.map(\.lastPathComponent))
            guard failed == 0, !all.isEmpty, Set(all).isSubset(of: played) else { continue }
            let unused = TapeRunner.unusedSnapshots(in: folder.appendingPathComponent("__snapshots__"), used: names)
            guard !unused.isEmpty else { continue }
            unusedFolders += 1
            let line = "snapshots no tape takes in \(folder.appendingPathComponent("__snapshots__").path): \(unused.joined(separator: ", "))"
            print("FAIL  \(line)")
            report.add(folder.appendingPathComponent("__snapshots__").path, seconds: 0, failure: line)
        }
        print("\(files.count - failed) passed, \(failed + unusedFolders) failed")
        if let junit, let junitTarget {
            do {
                try OutputFile.write(Data(report.xml.utf8), to: junitTarget, named: junit)
            } catch {
                throw CommandFailure(message: "--junit: \(error)")
            }
        }
        if failed + unusedFolders > 0 { throw ExitCode.failure }
    }
}

/// A JUnit XML report of tapes (the format CI systems read): one `testcase` per tape, a
/// `failure` with the runner's message for each that failed.
struct JUnitReport {
    private var cases: [(path: String, seconds: Double, failure: String?)] = []

    mutating func add(_ path: String, seconds: Double, failure: String?) {
        cases.append((path, seconds, failure))
    }

    var xml: String {
        let failures = cases.filter { $0.failure != nil }.count
        let total = cases.reduce(0) { $0 + $1.seconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" time=\"\(Self.seconds(total))\">\n"
        out += "  <testsuite name=\"tapes\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(Self.seconds(total))\">\n"
        for c in cases {
            let name = URL(fileURLWithPath: c.path).deletingPathExtension().lastPathComponent
            out += "    <testcase classname=\"tapes\" name=\"\(Self.escaped(name))\" file=\"\(Self.escaped(c.path))\" time=\"\(Self.seconds(c.seconds))\""
            guard let failure = c.failure else { out += "/>\n"; continue }
            let first = failure.split(separator: "\n").first.map(String.init) ?? failure
            out += ">\n      <failure message=\"\(Self.escaped(first))\" type=\"TapeFailure\">\(Self.escaped(failure))</failure>\n    </testcase>\n"
        }
        return out + "  </testsuite>\n</testsuites>\n"
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Text for XML: the five special characters escaped, and characters XML 1.0 forbids (controls
    /// other than tab, newline and return) written as `\xNN`, since even `&#1;` is not allowed.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

/// A tape's text, or one line saying why it can't be had.
enum TapeFile {
    struct Unreadable: Error {
        let reason: String
    }

    /// Tapes are small scripts: anything larger than this is not one.
    static let maximumSize = 1 << 20

    static func read(_ url: URL) throws -> String {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw Unreadable(reason: String(cString: strerror(errno)).lowercased())
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Unreadable(reason: "not a regular file") }
        guard info.st_size <= maximumSize else { throw Unreadable(reason: "larger than 1 MB, not a tape") }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Unreadable(reason: "cannot be read (permission denied?)")
        }
        guard let text = String(bytes: data, encoding: .utf8) else { throw Unreadable(reason: "not UTF-8 text") }
        return text
    }
}

/// The environment tapes start from: only what makes runs reproducible.
public enum TapeEnvironment {
    public static func base(from environment: [String: String]) -> [String: String] {
        var base: [String: String] = [:]
        for name in ["HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "TMPDIR"] {
            if let v = environment[name] { base[name] = v }
        }
        return base
    }

    /// The variables of the user's environment a recorded tape keeps with `Env`: the ones that
    /// change what the app shows (language, units, theme, map style, mouse, position, colours, zone).
    static let recorded = ["NIMBUS_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "NIMBUS_UNITS", "NIMBUS_THEME",
                           "NIMBUS_MAP_STYLE", "NIMBUS_MOUSE", "NIMBUS_LOCATION", "NO_COLOR", "TZ"]
}

/// `nimbus tape --record FILE`: the app in the terminal, as `nimbus` runs it, but with a tape's
/// surroundings (an empty home, no network, the bundled film catalogue), so that playing the tape
/// back shows what the person saw; what they do is written to FILE when the app exits, with the
/// last screen as the tape's snapshot.
@MainActor
final class LiveTapeRecorder: LiveObserver {
    private let file: URL
    /// Whether a tape and snapshot that are there (made meanwhile) may be replaced.
    private let force: Bool
    private let origin: Date
    private var recording: TapeRecording
    private var loop: AppLoop?
    private var lastFrame: ScreenBuffer?
    private var written = false
    private let home: URL
    private let preferences: () -> AppPreferences

    private init(file: URL, force: Bool, origin: Date, recording: TapeRecording, home: URL, preferences: @escaping () -> AppPreferences) {
        self.file = file
        self.force = force
        self.origin = origin
        self.recording = recording
        self.home = home
        self.preferences = preferences
    }

    private var milliseconds: Int { Int(Date().timeIntervalSince(origin) * 1000) }

    func started(_ loop: AppLoop, size: Size) {
        self.loop = loop
        loop.onKey = { [unowned self] key in recording.key(key, at: milliseconds) }
        loop.onFrame = { [unowned self] frame in lastFrame = frame }
    }

    func resized(to size: Size) {
        recording.resize(size, at: milliseconds)
    }

    func exiting() {
        guard !written else { return }
        written = true
        defer { try? FileManager.default.removeItem(at: home) }
        // The key that quit is not played back: the tape ends on the screen it was pressed on.
        if loop?.coordinator.quitRequested == true { recording.dropLastKey() }
        // The theme the terminal's background chose (`auto`), which a tape's terminal can't answer.
        // What the terminal chose, which a tape's terminal can't say: a light background (for the
        // `auto` theme), or no colours at all.
        let outside = ProcessInfo.processInfo.environment
        let now = recording.preamble.firstIndex { $0.hasPrefix("Now ") } ?? recording.preamble.count
        if preferences().monochrome && (outside["NO_COLOR"] ?? "").isEmpty {
            recording.preamble.insert("Env NO_COLOR=1", at: now)
        } else if preferences().themeBackground == .light && outside["NIMBUS_THEME"] == nil {
            recording.preamble.insert("Env NIMBUS_THEME=light", at: now)
        }
        let name = Self.snapshotName(for: file)
        let text = recording.text(endingAt: milliseconds, snapshot: name)
        let folder = TapeFolder(url: file.deletingLastPathComponent(),
                                snapshots: file.deletingLastPathComponent().appendingPathComponent("__snapshots__"))
        var notes: [String] = []
        var saved = false
        if force {
            saved = SafeFile.write(Data(text.utf8), to: file, mode: 0o644)
            if !saved { notes.append("nimbus: could not write \(file.path)") }
        } else {
            do {
                try OutputFile.create(Data(text.utf8), at: file.path)
                saved = true
            } catch {
                notes.append("nimbus: \(error)")
            }
        }
        if saved { notes.append("nimbus: recorded \(recording.keyCount) keys to \(file.path)") }
        if !force && SafeFile.kind(atPath: Self.snapshotURL(for: file).path) != .missing {
            notes.append("nimbus: the snapshot was not written: \(Self.snapshotURL(for: file).path) exists (--force overwrites it)")
        } else if let frame = lastFrame {
            do {
                _ = try TextSnapshots(directory: folder.snapshots, record: true, storage: folder.snapshotStorage)
                    .check(ScreenSnapshot(frame, cursor: frame.cursor), named: name)
                notes.append("nimbus: its last screen is the snapshot \(folder.snapshots.appendingPathComponent(name + ".txt").path)")
            } catch {
                notes.append("nimbus: the snapshot was not written: \(error)")
            }
        }
        FileHandle.standardError.write(Data((notes.joined(separator: "\n") + "\n").utf8))
    }

    /// Where the recording's last screen goes: `__snapshots__/NAME.txt` beside the tape.
    static func snapshotURL(for file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent("__snapshots__").appendingPathComponent(snapshotName(for: file) + ".txt")
    }

    /// The file's name without `.tape`, as a snapshot name (letters, digits, - and _).
    static func snapshotName(for file: URL) -> String {
        let base = file.deletingPathExtension().lastPathComponent
        let name = String(base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        return name.isEmpty ? "recorded" : name
    }

    /// Runs the app in this terminal and records it to `path` (replacing a tape and snapshot that are
    /// there only when `force`); returns only by throwing.
    static func record(to path: String, arguments: [String], force: Bool) throws {
        let file = URL(fileURLWithPath: path)
        guard !file.lastPathComponent.isEmpty, SafeFile.kind(atPath: file.deletingLastPathComponent().path) == .directory else {
            throw CommandFailure(message: "--record: the folder of \(path) does not exist")
        }
        let kind = SafeFile.kind(atPath: file.path)
        guard kind == .missing || kind == .regular else { throw CommandFailure(message: "--record: \(path) is a \(kind.name)") }
        if !force {
            if kind == .regular { throw CommandFailure(message: "--record: \(path) exists (--force overwrites it and its snapshot)") }
            let snapshot = snapshotURL(for: file)
            if SafeFile.kind(atPath: snapshot.path) != .missing {
                throw CommandFailure(message: "--record: the snapshot \(snapshot.path) exists (--force overwrites it)")
            }
        }
        if let spaced = arguments.first(where: { $0.contains(where: \.isWhitespace) }) {
            throw CommandFailure(message: "--record: a tape's Args line can't hold \"\(spaced)\" (it has a space)")
        }
        var options: CLIOptions
        do {
            options = try CLIOptions.parseCommandLine(arguments)
        } catch {
            throw ValidationError(CLIOptions.message(for: error))
        }
        if options.catalog != nil { throw CommandFailure(message: "--record: --catalog is not recorded; copy the catalogue beside the tape and add Args by hand") }
        // The recording's clock starts on a whole second, which the tape's `Now` can say exactly.
        let origin = Date(timeIntervalSince1970: floor(Date().timeIntervalSince1970))
        let outside = ProcessInfo.processInfo.environment
        var environment: [String: String] = [:]
        var kept: [(String, String)] = []
        for name in TapeEnvironment.recorded {
            guard let value = outside[name], !value.contains(where: \.isNewline) else { continue }
            environment[name] = value
            kept.append((name, value))
        }
        if outside["TZ"] == nil {
            // The Today tab's place comes from the system's zone when nothing else gives one.
            kept.append(("TZ", TimeZone.current.identifier))
            environment["TZ"] = TimeZone.current.identifier
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-record-\(UUID().uuidString)")
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        var configuration = options.configuration(environment: environment, scheduler: MainScheduler.live, colors: true)
        configuration.httpClient = TapeHTTPClient() // no routes: offline, as a tape without Serve lines
        let container: AppDIContainer
        do {
            container = try AppDIContainer(configuration: configuration)
        } catch {
            throw CommandFailure(message: "could not start: \(error)")
        }
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
            throw CommandFailure(message: "--record needs a terminal on stdin and stdout")
        }
        let preferences = container.preferences
        let backend = NCursesBackend(mouse: preferences.mouse)
        let recorder = LiveTapeRecorder(
            file: file, force: force, origin: origin,
            recording: TapeRecording(preamble: TapeRecording.preamble(start: origin, size: backend.size, environment: kept,
                                                                      arguments: arguments)),
            home: home, preferences: { preferences })
        let runner = LiveRunner(backend: backend, observer: recorder)
        try withExtendedLifetime((runner, recorder)) {
            let ask = preferences.themeSetting == .auto && !preferences.monochrome
            try runner.run(askBackground: ask, useBackground: { preferences.useTerminalBackground($0) }) {
                if !backend.supportsColor { preferences.useMonochrome() }
                return AppCoordinator(container: container)
            }
        }
    }
}
