import XCTest
import Glibc
import NimbusData
import TestSupport
@testable import NimbusApp

/// `nimbus --version`, and a binary away from its build folder finding its data (or saying where it
/// looked), run as the real program.
final class VersionAndDataTests: XCTestCase {
    private struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `nimbus` that `swift build` put beside the test bundle, and its data.
    private let buildFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    private func run(_ binary: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-version-home")
        process.environment = ["PATH": "/usr/bin:/bin", "NIMBUS_LANG": "en", "HOME": home.path,
                               "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                               "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                               "XDG_CONFIG_HOME": home.appendingPathComponent("config").path]
            .merging(environment) { _, given in given }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                       stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The city count as the catalogue's header states it (u32 at offset 8), read here directly.
    private func headerCityCount(_ url: URL) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: url).prefix(12))
        let n = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.locale = Locale(identifier: "en_US")
        return formatter.string(from: NSNumber(value: n))!
    }

    /// A folder of its own with a hard link to the binary in `bin/` (a copy where links can't be made).
    private func binaryAway() throws -> (root: URL, binary: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-away-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let binary = bin.appendingPathComponent("nimbus")
        do { try FileManager.default.linkItem(at: buildFolder.appendingPathComponent("nimbus"), to: binary) }
        catch { try FileManager.default.copyItem(at: buildFolder.appendingPathComponent("nimbus"), to: binary) }
        return (root, binary)
    }

    func testVersionSaysTheVersionTheCommitAndTheDataFound() throws {
        let resources = buildFolder.appendingPathComponent("Nimbus_NimbusResources.resources")
        for arguments in [["--version"], ["weather", "--version"]] {
            let outcome = try run(buildFolder.appendingPathComponent("nimbus"), arguments)
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            let lines = outcome.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "nimbus \(nimbusVersion)")
            let commit = lines.count > 1 ? lines[1] : ""
            XCTAssertNotNil(commit.wholeMatch(of: /commit ([0-9a-f]{12}(-dirty)?|unknown)/), commit)
            XCTAssertEqual(lines.count > 2 ? lines[2] : "", SystemZoneDatabase(environment: ProcessInfo.processInfo.environment).summary,
                           "the zone database read")
            XCTAssertTrue(lines.contains("  from \(resources.path) (beside the executable):"), outcome.stdout)
            let count = try headerCityCount(resources.appendingPathComponent("cities15000.bin"))
            XCTAssertTrue(lines.contains { $0.hasPrefix("    cities15000.bin") && $0.hasSuffix("city catalogue NMBC v3, \(count) cities") },
                          outcome.stdout)
            XCTAssertTrue(lines.contains { $0.contains("ko.lproj/Localizable.strings") && $0.hasSuffix(" strings") }, outcome.stdout)
        }
    }

    func testABinaryAwayFromItsBuildFolderReadsNimbusDataDir() throws {
        let (root, binary) = try binaryAway()
        let data = root.appendingPathComponent("data")
        for bundle in ["Nimbus_NimbusResources.resources", "Nimbus_NimbusLocalization.resources"] {
            let from = buildFolder.appendingPathComponent(bundle)
            for name in try FileManager.default.contentsOfDirectory(atPath: from.path) {
                try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(at: data.appendingPathComponent(name),
                                                           withDestinationURL: from.appendingPathComponent(name))
            }
        }
        let environment = ["NIMBUS_DATA_DIR": data.path, "XDG_DATA_DIRS": root.appendingPathComponent("none").path]
        let version = try run(binary, ["--version"], environment: environment)
        XCTAssertTrue(version.stdout.contains("  from \(data.path) (NIMBUS_DATA_DIR):"), version.stdout)
        XCTAssertFalse(version.stdout.contains(buildFolder.path), version.stdout)
        let search = try run(binary, ["search", "seoul", "--limit", "1"], environment: environment)
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.hasPrefix("Seoul"), search.stdout)
    }

    func testNoDataIsOneLineSayingWhereItLooked() throws {
        let (root, binary) = try binaryAway()
        let none = root.appendingPathComponent("none").path
        let outcome = try run(binary, ["search", "seoul"], environment: ["XDG_DATA_DIRS": none])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, outcome.stderr)
        for place in ["\(root.path)/bin/Nimbus_NimbusResources.resources (beside the executable)",
                      "\(root.path)/share/nimbus (the installation prefix)", "\(none)/nimbus (XDG_DATA_DIRS)"] {
            XCTAssertTrue(outcome.stderr.contains(place), "\(place) not in: \(outcome.stderr)")
        }
        let version = try run(binary, ["--version"], environment: ["XDG_DATA_DIRS": none])
        XCTAssertEqual(version.status, 1, "no data is a failure")
        XCTAssertTrue(version.stdout.contains("data: none found"), version.stdout)
    }

    /// Every shipped file of the build folder, linked into `folder`, except those `replace` makes itself.
    private func dataFolder(_ folder: URL, replace: (URL) throws -> Bool) throws {
        for bundle in ["Nimbus_NimbusResources.resources", "Nimbus_NimbusLocalization.resources"] {
            let from = buildFolder.appendingPathComponent(bundle)
            for relative in try FileManager.default.subpathsOfDirectory(atPath: from.path) {
                let source = from.appendingPathComponent(relative)
                var st = stat()
                guard stat(source.path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
                let target = folder.appendingPathComponent(relative)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if try replace(target) { continue }
                try FileManager.default.createSymbolicLink(at: target, withDestinationURL: source)
            }
        }
    }

    /// A fifo, a folder or a file past its size cap where a data file should be is passed over: the
    /// next folder's file is used, nothing waits on the fifo or reads the huge file, and --version
    /// names exactly the files used.
    func testAFifoAFolderOrAHugeFileInTheDataFolderIsPassedOver() throws {
        let (root, binary) = try binaryAway()
        let hostile = root.appendingPathComponent("hostile"), good = root.appendingPathComponent("good/nimbus")
        try dataFolder(hostile) { file in
            switch file.lastPathComponent {
            case "movies.sqlite":
                XCTAssertEqual(mkfifo(file.path, 0o644), 0)
            case "cities15000.bin":
                try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
            case "Localizable.strings" where file.path.contains("/en.lproj/"), "meteoalarm-regions.tsv":
                // Sparse: 600 MB long, no disk used.
                let fd = open(file.path, O_WRONLY | O_CREAT, 0o644)
                XCTAssertEqual(ftruncate(fd, 600 << 20), 0)
                close(fd)
            default:
                return false
            }
            return true
        }
        try dataFolder(good) { _ in false }
        let environment = ["NIMBUS_DATA_DIR": hostile.path, "XDG_DATA_DIRS": root.appendingPathComponent("good").path,
                           "PATH": "/usr/bin:/bin", "NIMBUS_LANG": "en", "HOME": root.path]
        let movies = try ChildProcess.run(binary.path, ["movies", "heat"], environment: environment, timeout: 20)
        XCTAssertFalse(movies.timedOut, "nimbus movies waited on the fifo")
        XCTAssertEqual(movies.status, 0, movies.stderr)
        XCTAssertTrue(movies.stdout.contains("Heat"), movies.stdout)
        let search = try ChildProcess.run(binary.path, ["search", "seoul", "--limit", "1"], environment: environment, timeout: 20)
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.hasPrefix("Seoul"), search.stdout)
        // Not under AddressSanitizer, whose quarantine of freed memory is in the child's peak
        // (384 MB with it, 84 MB with `quarantine_size_mb=0`).
        if !Sanitizers.address { XCTAssertLessThan(search.peakRSS, 150 << 20, "the 600 MB strings file was read") }
        let version = try ChildProcess.run(binary.path, ["--version"], environment: environment, timeout: 20)
        XCTAssertFalse(version.timedOut)
        XCTAssertEqual(version.status, 0, version.stderr)
        if !Sanitizers.address { XCTAssertLessThan(version.peakRSS, 150 << 20) }
        let lines = version.stdout.split(separator: "\n").map(String.init)
        let goodHeader = try XCTUnwrap(lines.firstIndex(of: "  from \(good.path) (XDG_DATA_DIRS):"), version.stdout)
        let goodFiles = lines[(goodHeader + 1)...].prefix { $0.hasPrefix("    ") }.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        for file in ["movies.sqlite", "cities15000.bin", "en.lproj/Localizable.strings", "meteoalarm-regions.tsv"] {
            XCTAssertTrue(goodFiles.contains(file), "\(file) not listed from \(good.path):\n\(version.stdout)")
        }
    }
}
