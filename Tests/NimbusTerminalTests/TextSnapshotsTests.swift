import XCTest
import NimbusTerminal
import TestSupport

/// The snapshot files behind the tapes' `Snapshot` and `assertSnapshot`.
final class TextSnapshotsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-snapshots-\(UUID().uuidString)")
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    func testRecordingWritesTheFileAndReportsItInsteadOfPassing() throws {
        let snapshots = TextSnapshots(directory: directory, environment: ["NIMBUS_RECORD": "1"])
        let mismatch = try snapshots.check("a\nb\n", named: "x")
        let path = directory.appendingPathComponent("x.txt").path
        XCTAssertEqual(mismatch, .recorded(name: "x", path: path))
        XCTAssertEqual(mismatch?.description, "recorded x; run again without NIMBUS_RECORD")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "a\nb\n")
    }

    func testComparingPassesOnEqualTextAndShowsTheDifferingLinesOtherwise() throws {
        _ = try TextSnapshots(directory: directory, record: true).check("same\nold\nend\n", named: "x")
        let snapshots = TextSnapshots(directory: directory, environment: [:])
        XCTAssertFalse(snapshots.record)
        XCTAssertNil(try snapshots.check("same\nold\nend\n", named: "x"))
        let mismatch = try snapshots.check("same\nnew\nend\n", named: "x")
        XCTAssertEqual(mismatch, .differs(name: "x", diff: "  line 2:\n    - old\n    + new"))
        XCTAssertEqual(mismatch?.description, "snapshot x differs:\n  line 2:\n    - old\n    + new")
    }

    func testAMissingSnapshotSaysHowToRecordIt() throws {
        let mismatch = try TextSnapshots(directory: directory, record: false).check("x", named: "nothing")
        XCTAssertEqual(mismatch?.description,
                       "no snapshot \(directory.appendingPathComponent("nothing.txt").path); run with NIMBUS_RECORD=1 to record it")
    }

    func testLineDiffMarksMissingLines() {
        XCTAssertEqual(LineDiff.describe(expected: "a\nb", actual: "a"), "  line 2:\n    - b\n    + ∅")
        XCTAssertEqual(LineDiff.describe(expected: "a", actual: "a"), "")
    }

    func testAssertSnapshotPassesOnAMatchingFile() throws {
        _ = try TextSnapshots(directory: directory, record: true).check("screen\n", named: "y")
        assertSnapshot(of: "screen\n", named: "y", in: directory, record: false)
    }
}
