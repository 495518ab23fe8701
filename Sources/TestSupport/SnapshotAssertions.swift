import Foundation
import Testing
import NimbusTerminal

/// Asserts `text` equals the snapshot `directory/<name>.txt`, failing with a line diff when it does not.
///
/// With `NIMBUS_RECORD=1` in the environment it writes the snapshot and then fails ("recorded <name>; run
/// again without NIMBUS_RECORD"), so a recording run is never mistaken for a passing one. The comparison
/// and the recording are `TextSnapshots`' (NimbusTerminal), which the tapes' `Snapshot` command uses too.
public func assertSnapshot(of text: String, named name: String, in directory: URL,
                           record: Bool = ProcessInfo.processInfo.environment[TextSnapshots.recordVariable] == "1",
                           file: StaticString = #filePath, line: UInt = #line) {
    if let failure = snapshotFailure(of: text, named: name, in: directory, record: record) {
        recordFailure(failure, file: file, line: line)
    }
}

/// The same, for a Swift Testing helper that passes on its caller's location.
public func assertSnapshot(of text: String, named name: String, in directory: URL,
                           record: Bool = ProcessInfo.processInfo.environment[TextSnapshots.recordVariable] == "1",
                           sourceLocation: SourceLocation) {
    if let failure = snapshotFailure(of: text, named: name, in: directory, record: record) {
        recordFailure(failure, sourceLocation: sourceLocation)
    }
}

private func snapshotFailure(of text: String, named name: String, in directory: URL, record: Bool) -> String? {
    do {
        return try TextSnapshots(directory: directory, record: record).check(text, named: name).map { "\($0)" }
    } catch {
        return "could not record snapshot \(name) in \(directory.path): \(error)"
    }
}
