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
        in --failures (else $TMPDIR/nimbus-tape-failures) and the path is printed. \
        With --record FILE, Nimbus runs in the terminal (offline, in an empty home, as tapes run) and what \
        you do is written to FILE as a tape, its last screen as its snapshot; options after -- go to Nimbus. \
        docs/tapes.md is the reference.
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
        "Where a failing tape's screen and recording are saved (default: $TMPDIR/nimbus-tape-failures).", valueName: "dir"),
            completion: .directory)
    var failures: String?

    @Flag(name: .customLong("record"), help: "Run Nimbus in this terminal and write what you do as the tape FILE.")
    var record = false

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
        }
    }

    @MainActor func runOnMainActor() throws {
        if record { try LiveTapeRecorder.record(to: files[0], arguments: Array(files.dropFirst())) } else { try runTapes() }
    }

    @MainActor private func runTapes() throws {
        var failed = 0
        let environment = ProcessInfo.processInfo.environment
        var report = JUnitReport()
        var used: [URL: Set<String>] = [:]
        let failureRoot = failures.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-tape-failures")
        for path in files {
            let url = URL(fileURLWithPath: path)
            let runner = TapeRunner(
                snapshotDirectory: url.deletingLastPathComponent().appendingPathComponent("__snapshots__"),
                record: environment[TextSnapshots.recordVariable] == "1",
                baseEnvironment: TapeEnvironment.base(from: environment),
                outputs: TapeRunner.Outputs(cast: cast.map { URL(fileURLWithPath: $0) }, svgDirectory: svg.map { URL(fileURLWithPath: $0) },
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
        if let junit {
            do {
                try Data(report.xml.utf8).write(to: URL(fileURLWithPath: junit), options: .atomic)
            } catch {
                throw CommandFailure(message: "could not write the JUnit report \(junit): \(error.localizedDescription)")
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
    private let origin: Date
    private var recording: TapeRecording
    private var loop: AppLoop?
    private var lastFrame: ScreenBuffer?
    private var written = false
    private let home: URL
    private let preferences: () -> AppPreferences

    private init(file: URL, origin: Date, recording: TapeRecording, home: URL, preferences: @escaping () -> AppPreferences) {
        self.file = file
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
        if SafeFile.write(Data(text.utf8), to: file, mode: 0o644) {
            notes.append("nimbus: recorded \(recording.keyCount) keys to \(file.path)")
        } else {
            notes.append("nimbus: could not write \(file.path)")
        }
        if let frame = lastFrame {
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

    /// The file's name without `.tape`, as a snapshot name (letters, digits, - and _).
    static func snapshotName(for file: URL) -> String {
        let base = file.deletingPathExtension().lastPathComponent
        let name = String(base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        return name.isEmpty ? "recorded" : name
    }

    /// Runs the app in this terminal and records it to `path`; returns only by throwing.
    static func record(to path: String, arguments: [String]) throws {
        let file = URL(fileURLWithPath: path)
        guard !file.lastPathComponent.isEmpty, SafeFile.kind(atPath: file.deletingLastPathComponent().path) == .directory else {
            throw CommandFailure(message: "--record: the folder of \(path) does not exist")
        }
        let kind = SafeFile.kind(atPath: file.path)
        guard kind == .missing || kind == .regular else { throw CommandFailure(message: "--record: \(path) is a \(kind.name)") }
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
            file: file, origin: origin,
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
