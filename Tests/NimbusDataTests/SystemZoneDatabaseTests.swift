import Foundation
import Glibc
import XCTest
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Where the zone database is found, and what is done with what is found there.
final class SystemZoneDatabaseTests: XCTestCase {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-zones-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func write(_ bytes: [UInt8], _ name: String, in directory: URL) throws {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// A zone always 5 hours 30 minutes east of UTC, as a TZif file.
    private static let plusFiveThirty: [UInt8] = {
        // Counts: isutcnt, isstdcnt, leapcnt, timecnt 0, typecnt 1, charcnt 4.
        let counts: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4]
        let header: [UInt8] = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15) + counts
        let type: [UInt8] = [0, 0, 0x4D, 0x58, 0, 0]
        let block: [UInt8] = header + type + Array("IST\0".utf8)
        return block + block + Array("\n<+0530>-5:30\n".utf8)
    }()

    func testTZDIRIsReadFirstThenTheSystemsDirectory() throws {
        let directory = try temporaryDirectory()
        try write(Self.plusFiveThirty, "Test/Plus", in: directory)
        let zones = SystemZoneDatabase(environment: ["TZDIR": directory.path])
        XCTAssertEqual(zones.origin, .directory(path: directory.path))
        XCTAssertEqual(zones.zone(named: "Test/Plus")?.offset(at: Date()), 19_800)
        XCTAssertEqual(zones.zone(named: "Test/Plus")?.isBuiltIn, false)
        // A TZDIR that is not a directory is said, and the system's database is read.
        let missing = SystemZoneDatabase(tzdir: directory.appendingPathComponent("nope").path, defaultDirectory: directory.path)
        XCTAssertEqual(missing.origin, .directory(path: directory.path))
        XCTAssertTrue(missing.summary.contains("is not a directory"), missing.summary)
    }

    func testASystemWithoutADatabaseUsesTheBuiltInCopyAndSaysSo() {
        let zones = SystemZoneDatabase(tzdir: nil, defaultDirectory: "/nonexistent/zoneinfo")
        guard case .builtIn(let reason) = zones.origin else { return XCTFail("\(zones.origin)") }
        XCTAssertTrue(reason.contains("/nonexistent/zoneinfo"))
        XCTAssertTrue(zones.summary.hasPrefix("time zones: the built-in copy"), zones.summary)
        let seoul = zones.zone(named: "Asia/Seoul")
        XCTAssertEqual(seoul?.isBuiltIn, true)
        XCTAssertEqual(seoul?.offset(at: Date()), 9 * 3600)
        XCTAssertNil(zones.zone(named: "GMT+9"), "Foundation's offsets are no zone names")
    }

    func testADamagedOrMissingFileFallsBackToTheBuiltInZoneAndIsListed() throws {
        let directory = try temporaryDirectory()
        try write(Array(Self.plusFiveThirty.prefix(30)), "Asia/Kolkata", in: directory)
        let zones = SystemZoneDatabase(tzdir: directory.path)
        let kolkata = try XCTUnwrap(zones.zone(named: "Asia/Kolkata"))
        XCTAssertTrue(kolkata.isBuiltIn)
        XCTAssertEqual(kolkata.offset(at: Date()), 19_800)
        XCTAssertEqual(zones.builtInFallbacks["Asia/Kolkata"], "truncated")
        XCTAssertEqual(zones.zone(named: "Asia/Seoul")?.isBuiltIn, true)
        XCTAssertEqual(zones.builtInFallbacks["Asia/Seoul"], "no such file")
        XCTAssertNil(zones.zone(named: "Not/A_Zone"))
    }

    /// A FIFO, a directory or a file too large to be a zone is refused at once (a FIFO would block a
    /// plain read for ever); names that leave the database are never opened.
    /// A file is read whole, exactly, at every size up to the cap, and one past the cap is refused;
    /// a file whose size the system reports as 0 (`/proc`) is read on until its end.
    func testAFileIsReadWholeAtEverySizeUpToTheCap() throws {
        let directory = try temporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 1_000, 4_095, 4_096, 65_537, TZif.maxBytes - 1, TZif.maxBytes] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try write(bytes, "Sizes/\(size)", in: directory)
            XCTAssertEqual(try SystemZoneDatabase.read(directory.path + "/Sizes/\(size)"), bytes, "\(size) bytes")
        }
        try write(Array(repeating: 0x41, count: TZif.maxBytes + 1), "Sizes/over", in: directory)
        XCTAssertThrowsError(try SystemZoneDatabase.read(directory.path + "/Sizes/over"))
        let version = try SystemZoneDatabase.read("/proc/version")
        XCTAssertGreaterThan(version.count, 1)
        XCTAssertEqual(Data(version), try Data(contentsOf: URL(fileURLWithPath: "/proc/version")))
    }

    func testHostileFilesAndNamesAreRefused() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Area/Dir"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(directory.appendingPathComponent("Area/Fifo").path, 0o600), 0)
        try write(Array(repeating: 0x41, count: TZif.maxBytes + 10), "Area/Huge", in: directory)
        try write(Self.plusFiveThirty, "Secret", in: directory.deletingLastPathComponent())
        let zones = SystemZoneDatabase(tzdir: directory.path)
        for name in ["Area/Fifo", "Area/Dir", "Area/Huge"] {
            XCTAssertNil(zones.zone(named: name), name)
        }
        for name in ["../\(directory.deletingLastPathComponent().lastPathComponent)/Secret", "Area/../../Secret", "/etc/localtime",
                     "Area//Fifo", "Area/", "Area/\u{1B}[31m", "Area/ x", String(repeating: "a/", count: 40) + "b", "", "EST", "-x/y"] {
            XCTAssertFalse(SystemZoneDatabase.isZoneName(name), name)
        }
        XCTAssertTrue(SystemZoneDatabase.isZoneName("America/Argentina/Buenos_Aires"))
        XCTAssertTrue(SystemZoneDatabase.isZoneName("Etc/GMT-14"))
        XCTAssertTrue(SystemZoneDatabase.isZoneName("UTC"))
    }

    func testTheReleaseIsReadFromTzdataZi() throws {
        let directory = try temporaryDirectory()
        try write(Array("# version 2026f\n# redo posix_only\n".utf8), "tzdata.zi", in: directory)
        XCTAssertEqual(SystemZoneDatabase.version(in: directory.path), "2026f")
        XCTAssertEqual(SystemZoneDatabase(tzdir: directory.path).summary, "time zones: \(directory.path) (tzdata 2026f)")
        try write(Array("# version \u{1B}]0;x\u{7}\n".utf8), "tzdata.zi", in: directory)
        XCTAssertNil(SystemZoneDatabase.version(in: directory.path))
    }
}
