import Foundation
import XCTest
import NimbusTerminal

/// Asserts `text` equals the snapshot `directory/<name>.txt`, failing with a line diff when it does not.
///
/// With `NIMBUS_RECORD=1` in the environment it writes the snapshot and then fails ("recorded <name>; run
/// again without NIMBUS_RECORD"), so a recording run is never mistaken for a passing one. The comparison
/// and the recording are `TextSnapshots`' (NimbusTerminal), which the tapes' `Snapshot` command uses too.
public func assertSnapshot(of text: String, named name: String, in directory: URL,
                           record: Bool = ProcessInfo.processInfo.environment[TextSnapshots.recordVariable] == "1",
                           file: StaticString = #filePath, line: UInt = #line) {
    do {
        if let mismatch = try TextSnapshots(directory: directory, record: record).check(text, named: name) {
            XCTFail("\(mismatch)", file: file, line: line)
        }
    } catch {
        XCTFail("could not record snapshot \(name) in \(directory.path): \(error)", file: file, line: line)
    }
}
