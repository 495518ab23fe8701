import XCTest
import TestSupport
import Glibc

/// Where the commands that write a file the user names (`tape --cast`, `--junit`, `--svg`, the
/// failures folder, `--record`, `wishlist export FILE`) write, run as the real program: a regular
/// file or a new path is replaced atomically (through a link, at its target); a character device,
/// a fifo or `-` is written in place; anything else is refused with one line and status 1; a write
/// that fails is always reported with status 1.
final class OutputPathTests: XCTestCase {
    private struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `nimbus` that `swift build` put beside the test bundle.
    private let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nimbus")
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A tape that passes at once, on the bundled data.
        try Data("Size 40x10\nExpect \"Cities\"\n".utf8).write(to: folder.appendingPathComponent("t.tape"))
        try Data("Size 40x10\nExpect \"no such text\"\n".utf8).write(to: folder.appendingPathComponent("fails.tape"))
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ["NIMBUS_LANG": "en", "PATH": "/usr/bin:/bin", "HOME": folder.appendingPathComponent("home").path,
                               "TMPDIR": folder.path]
            .merging(environment) { _, given in given }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes drained at once: a command writing much to one must not block on the other.
        let stdoutData = Once<Data>()
        let reader = Thread { stdoutData.set(out.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        waitUntil("the reader of the command's standard output to end") { stdoutData.done }
        return Outcome(status: process.terminationStatus, stdout: String(decoding: stdoutData.value, as: UTF8.self),
                       stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A fifo at `path` read to its end on another thread while `body` runs; what came through it.
    /// The test holds the fifo open too (read-write, which never blocks on Linux) until `body` is
    /// done, so the reader ends even when the command never opened it.
    private func readingFifo(_ path: String, _ body: () throws -> Void) throws -> String {
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let keeper = open(path, O_RDWR)
        XCTAssertGreaterThanOrEqual(keeper, 0)
        let got = Once<Data>()
        let reader = Thread {
            guard let handle = FileHandle(forReadingAtPath: path) else { got.set(Data()); return }
            got.set(handle.readDataToEndOfFile())
        }
        reader.start()
        try body()
        close(keeper)
        waitUntil("the fifo's reader to end") { got.done }
        return got.done ? String(decoding: got.value, as: UTF8.self) : "(the reader never ended)"
    }

    /// `/dev/full`, `/dev/null` and `/dev/stdout`, or, when the tests run as root, the same devices
    /// and link made in the test's folder: a command that wrongly replaced what is at the path then
    /// replaces only those, never the machine's own.
    private func device(_ name: String, minor: UInt64) -> String {
        guard geteuid() == 0 else { return "/dev/" + name }
        let path = folder.appendingPathComponent(name).path
        XCTAssertEqual(mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | minor)), 0, "mknod \(path)")
        return path
    }
    private var devFull: String { device("full", minor: 7) }
    private var devNull: String { device("null", minor: 3) }
    private var devStdout: String {
        guard geteuid() == 0 else { return "/dev/stdout" }
        let path = folder.appendingPathComponent("stdout").path
        XCTAssertEqual(symlink("/proc/self/fd/1", path), 0)
        return path
    }

    private func kind(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
    }

    // MARK: Character devices, fifos and `-`: in place

    /// `wishlist export FILE` writes what the extension says (.json, .csv; CSV for any other), unless
    /// --format says otherwise, and says on standard error which it wrote; to standard output it says nothing.
    func testWishlistExportPicksItsFormatByTheFilesExtension() throws {
        for (arguments, file, json) in [(["out.json"], "out.json", true), (["out.CSV"], "out.CSV", false),
                                         (["--format", "csv", "out.json"], "out.json", false),
                                         (["--format", "json", "list.txt"], "list.txt", true), (["list.txt"], "list.txt", false)] {
            let outcome = try run(["wishlist", "export"] + arguments)
            XCTAssertEqual(outcome.status, 0, "\(arguments): \(outcome.stderr)")
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            if json {
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]), "\(arguments): \(text)")
            } else {
                XCTAssertTrue(text.hasPrefix("Title,Year,Directors,Genres,Added"), "\(arguments): \(text)")
            }
            XCTAssertEqual(outcome.stderr, "nimbus: wrote the wishlist as \(json ? "JSON" : "CSV") to \(file)\n", "\(arguments)")
        }
        let out = try run(["wishlist", "export", "--format", "json"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stderr, "", "standard output: the data alone, and nothing said")
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8), options: [.fragmentsAllowed]))
    }

    func testAWriteToDevFullFailsWithAMessageAndStatusOne() throws {
        let full = devFull
        let junit = try run(["tape", "t.tape", "--junit", full])
        XCTAssertEqual(junit.status, 1, junit.stdout + junit.stderr)
        XCTAssertTrue(junit.stderr.contains(full), junit.stderr)
        XCTAssertTrue(junit.stderr.lowercased().contains("no space left"), junit.stderr)
        let cast = try run(["tape", "t.tape", "--cast", full])
        XCTAssertEqual(cast.status, 1, cast.stdout + cast.stderr)
        XCTAssertTrue((cast.stdout + cast.stderr).contains(full), cast.stdout + cast.stderr)
        let export = try run(["wishlist", "export", full])
        XCTAssertEqual(export.status, 1, export.stderr)
        XCTAssertTrue(export.stderr.lowercased().contains("no space left"), export.stderr)
        XCTAssertEqual(kind(full), S_IFCHR)
    }

    func testDevNullAndDevStdoutAreWrittenInPlace() throws {
        let devNull = self.devNull
        let null = try run(["tape", "t.tape", "--junit", devNull, "--cast", devNull])
        XCTAssertEqual(null.status, 0, null.stderr)
        XCTAssertEqual(kind(devNull), S_IFCHR)
        let devStdout = self.devStdout
        let stdout = try run(["tape", "t.tape", "--junit", devStdout])
        XCTAssertEqual(kind(devStdout), S_IFLNK, "the link stays a link")
        XCTAssertEqual(stdout.status, 0, stdout.stderr)
        XCTAssertTrue(stdout.stdout.contains("<testsuites tests=\"1\" failures=\"0\""), stdout.stdout)
        let dash = try run(["tape", "t.tape", "--cast", "-"])
        XCTAssertEqual(dash.status, 0, dash.stderr)
        XCTAssertTrue(dash.stdout.contains("{\"version\": 2"), dash.stdout)
        XCTAssertEqual(kind(folder.appendingPathComponent("-").path), 0, "no file named -")
        let export = try run(["wishlist", "export", "-", "--format", "json"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.hasPrefix("["), export.stdout)
    }

    func testAFifoStaysAFifoAndGetsTheWholeOutput() throws {
        let junitPath = folder.appendingPathComponent("junit.fifo").path
        let junit = try readingFifo(junitPath) {
            let outcome = try run(["tape", "t.tape", "--junit", junitPath])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
        }
        XCTAssertTrue(junit.hasSuffix("</testsuites>\n"), junit)
        XCTAssertEqual(kind(junitPath), S_IFIFO)
        let castPath = folder.appendingPathComponent("cast.fifo").path
        let cast = try readingFifo(castPath) {
            let outcome = try run(["tape", "t.tape", "--cast", castPath])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
        }
        XCTAssertTrue(cast.hasPrefix("{\"version\": 2"), cast)
        XCTAssertEqual(kind(castPath), S_IFIFO)
        let exportPath = folder.appendingPathComponent("export.fifo").path
        let export = try readingFifo(exportPath) {
            let outcome = try run(["wishlist", "export", exportPath])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
        }
        XCTAssertTrue(export.hasPrefix("Title,Year"), export)
        XCTAssertEqual(kind(exportPath), S_IFIFO)
    }

    // MARK: Anything else: refused before the tapes run

    func testAFolderAMissingFolderAndASocketAreRefused() throws {
        let socketPath = folder.appendingPathComponent("s.sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        defer { close(fd) }
        let cases: [([String], String)] = [
            (["--cast", folder.path], "folder"),
            (["--cast", "missing/t.cast"], "does not exist"),
            (["--junit", folder.path], "folder"),
            (["--junit", socketPath], "socket"),
            (["--svg", folder.appendingPathComponent("t.tape").path], "not a folder"),
        ]
        for (options, part) in cases {
            let outcome = try run(["tape", "t.tape"] + options)
            XCTAssertEqual(outcome.status, 1, "\(options): \(outcome.stdout) \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(options): \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains(part), "\(options): \(outcome.stderr)")
            XCTAssertFalse(outcome.stdout.contains("passed"), "refused before any tape runs: \(outcome.stdout)")
        }
        XCTAssertEqual(kind(socketPath), S_IFSOCK)
        let export = try run(["wishlist", "export", folder.path])
        XCTAssertEqual(export.status, 1, export.stderr)
        XCTAssertTrue(export.stderr.contains("folder"), export.stderr)
    }

    // MARK: Regular files: atomically, at a link's target, keeping the mode

    func testAFileThroughALinkIsReplacedAtItsTargetKeepingItsMode() throws {
        let target = folder.appendingPathComponent("report.xml")
        try Data("old".utf8).write(to: target)
        XCTAssertEqual(chmod(target.path, 0o640), 0)
        let link = folder.appendingPathComponent("link.xml")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let outcome = try run(["tape", "t.tape", "--junit", link.path])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(kind(link.path), S_IFLNK, "the link stays a link")
        XCTAssertTrue(try String(contentsOf: target, encoding: .utf8).hasPrefix("<?xml"))
        var st = stat()
        XCTAssertEqual(stat(target.path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no temporary file left beside it")
    }

    // MARK: The failures folder and --record

    func testFailuresAreSavedInAPrivateFolderNeverThroughALink() throws {
        // Someone made the shared folder a link to a folder of the user's.
        let victim = folder.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("nimbus-tape-failures"), withDestinationURL: victim)
        let outcome = try run(["tape", "fails.tape"], environment: ["XDG_RUNTIME_DIR": ""])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: victim.path), [], "nothing written through the link")
        let saved = try XCTUnwrap(outcome.stdout.split(separator: "\n").first { $0.contains("saved: ") }, outcome.stdout)
        let path = String(saved.split(separator: " ").first { $0.hasPrefix("/") } ?? "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "/screen.txt"), outcome.stdout)
        var st = stat()
        XCTAssertEqual(stat(URL(fileURLWithPath: path).deletingLastPathComponent().path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700, "the failures folder is private")
        XCTAssertEqual(st.st_uid, geteuid())
    }

    func testAFailureThatCouldNotBeSavedSaysSo() throws {
        let notAFolder = folder.appendingPathComponent("t.tape").path
        let outcome = try run(["tape", "fails.tape", "--failures", notAFolder])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stdout.contains("not saved"), outcome.stdout)
    }

    func testRecordRefusesToOverwriteATapeOrItsSnapshotWithoutForce() throws {
        let tape = folder.appendingPathComponent("t.tape")
        let before = try Data(contentsOf: tape)
        let outcome = try run(["tape", "--record", tape.path])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("--force"), outcome.stderr)
        XCTAssertEqual(try Data(contentsOf: tape), before)
        let snapshots = folder.appendingPathComponent("__snapshots__")
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: snapshots.appendingPathComponent("new.txt"))
        let snapshot = try run(["tape", "--record", folder.appendingPathComponent("new.tape").path])
        XCTAssertEqual(snapshot.status, 1)
        XCTAssertTrue(snapshot.stderr.contains("--force"), snapshot.stderr)
        XCTAssertTrue(snapshot.stderr.contains("new.txt"), snapshot.stderr)
        // With --force the only thing left to stop it is the missing terminal.
        let forced = try run(["tape", "--record", "--force", tape.path])
        XCTAssertEqual(forced.status, 1)
        XCTAssertTrue(forced.stderr.contains("needs a terminal"), forced.stderr)
    }
}

/// A value another thread sets once.
private final class Once<T>: @unchecked Sendable { // unchecked: `lock` guards both vars
    private let lock = NSLock()
    private var stored: T?
    init() {}
    func set(_ value: T) { lock.lock(); stored = value; lock.unlock() }
    var done: Bool { lock.lock(); defer { lock.unlock() }; return stored != nil }
    var value: T { lock.lock(); defer { lock.unlock() }; return stored! }
}
