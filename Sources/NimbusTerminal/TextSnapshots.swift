import Foundation

/// Text snapshots kept as `<name>.txt` files in one directory: compared with what a test produced, or
/// written instead when recording.
///
/// The one implementation behind the tapes' `Snapshot` command (`TapeRunner`, in NimbusApp) and
/// TestSupport's `assertSnapshot(of:named:in:)`, so both compare, record and report alike. A recording
/// run always ends in a `Mismatch.recorded`, never in a pass, so it cannot be mistaken for a green run.
public struct TextSnapshots: Sendable {
    /// The environment variable that turns recording on (`NIMBUS_RECORD=1`).
    public static let recordVariable = "NIMBUS_RECORD"

    /// Why a snapshot did not pass.
    public enum Mismatch: Error, Equatable, CustomStringConvertible, Sendable {
        /// Recording: the file was written.
        case recorded(name: String, path: String)
        /// Comparing, and there is no file to compare with.
        case missing(name: String, path: String)
        /// Comparing, and the text differs; `diff` is a `LineDiff` of the two.
        case differs(name: String, diff: String)

        public var description: String {
            switch self {
            case .recorded(let name, _):
                return "recorded \(name); run again without \(TextSnapshots.recordVariable)"
            case .missing(_, let path):
                return "no snapshot \(path); run with \(TextSnapshots.recordVariable)=1 to record it"
            case .differs(let name, let diff):
                return "snapshot \(name) differs:\n" + diff
            }
        }
    }

    /// How snapshot files are read and written. Tapes give one that keeps them to plain files inside
    /// the tape's folder; `plain` is Foundation's, for the tests' own snapshot folders.
    public struct Storage: Sendable {
        /// The file's text; nil when there is none. Throws when something other than a plain file is there.
        public var read: @Sendable (URL) throws -> String?
        public var write: @Sendable (String, URL) throws -> Void

        public init(read: @escaping @Sendable (URL) throws -> String?, write: @escaping @Sendable (String, URL) throws -> Void) {
            self.read = read
            self.write = write
        }

        public static let plain = Storage(
            read: { url in try? String(contentsOf: url, encoding: .utf8) },
            write: { text, url in
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            })
    }

    public let directory: URL
    public let record: Bool
    public let storage: Storage

    public init(directory: URL, record: Bool, storage: Storage = .plain) {
        self.directory = directory
        self.record = record
        self.storage = storage
    }

    /// Records when `environment` has `NIMBUS_RECORD=1`.
    public init(directory: URL, environment: [String: String]) {
        self.init(directory: directory, record: environment[Self.recordVariable] == "1")
    }

    public func url(named name: String) -> URL {
        directory.appendingPathComponent("\(name).txt")
    }

    /// Compares `actual` with the snapshot `name` (or records it): nil when they are equal.
    /// Throws only when a recording cannot be written, or the storage refuses the file.
    public func check(_ actual: String, named name: String) throws -> Mismatch? {
        let url = url(named: name)
        if record {
            try storage.write(actual, url)
            return .recorded(name: name, path: url.path)
        }
        guard let expected = try storage.read(url) else {
            return .missing(name: name, path: url.path)
        }
        return expected == actual ? nil : .differs(name: name, diff: LineDiff.describe(expected: expected, actual: actual))
    }

    /// Compares a screen with the snapshot `name` (or records it, styles and cursor included). A
    /// snapshot file without styles is compared by its text alone; one with styles, cell by cell.
    public func check(_ screen: ScreenSnapshot, named name: String) throws -> Mismatch? {
        let url = url(named: name)
        if record {
            try storage.write(screen.fileText, url)
            return .recorded(name: name, path: url.path)
        }
        guard let file = try storage.read(url) else {
            return .missing(name: name, path: url.path)
        }
        guard let expected = ScreenSnapshot(fileText: file) else {
            return .differs(name: name, diff: "  the style layer of \(url.lastPathComponent) cannot be read; record it again")
        }
        let diff = expected.differences(from: screen)
        return diff.isEmpty ? nil : .differs(name: name, diff: diff)
    }
}

/// A short line-by-line difference for failure messages.
public enum LineDiff {
    /// Each differing line as `line N:` with `- expected` and `+ actual`; `∅` stands for a missing line.
    public static func describe(expected: String, actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for i in 0..<max(e.count, a.count) {
            let l = i < e.count ? String(e[i]) : "∅"
            let r = i < a.count ? String(a[i]) : "∅"
            if l != r {
                out.append("  line \(i + 1):\n    - \(l)\n    + \(r)")
            }
        }
        return out.joined(separator: "\n")
    }
}
