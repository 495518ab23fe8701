import Foundation

/// Runs a reference script of `scripts/` with python3: the second reader a reference test checks
/// Nimbus against (Python's zoneinfo, skyfield, the Flinn–Engdahl package). The packages a script
/// needs beyond the standard library are installed by `scripts/setup.sh` into
/// `.build/reference-python` (pinned), which is put on `PYTHONPATH`.
public enum PythonReference {
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// The package's root directory.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where `scripts/setup.sh` installs the reference packages.
    public static let packages = root.appendingPathComponent(".build/reference-python")

    /// Whether `module` can be imported with the reference packages on the path (nil: no python3).
    public static func has(module: String) -> Bool {
        (try? run(["-c", "import \(module)"], input: Data())) != nil
    }

    /// `python3 ARGUMENTS` with `input` on its standard input; its standard output, or why it failed.
    public static func run(_ arguments: [String], input: Data, environment extra: [String: String] = [:]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = ([packages.path] + [environment["PYTHONPATH"]].compactMap { $0 }).joined(separator: ":")
        environment.merge(extra) { _, new in new }
        process.environment = environment
        process.currentDirectoryURL = root
        let stdin = Pipe(), stdout = Pipe()
        let stderr = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-python-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: stderr.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: stderr) }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        // The input is written while the output is read, so neither pipe fills up and stops the other.
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            throw Failed(description: "python3 \(arguments.first ?? ""): exit \(process.terminationStatus)\n\(message.suffix(2000))")
        }
        return data
    }
}
