import XCTest
import NimbusResources
@testable import NimbusData

/// Mapped data files are known by address, so a SIGBUS from a truncated one names it; small ones are
/// read instead (issue 12, finding 9).
final class MappedFilesTests: XCTestCase {
    private func temporaryFile(bytes: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-mapped-\(UUID().uuidString).bin")
        try Data(repeating: 7, count: bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testAMappedFileIsNamedByAnyAddressInsideItUntilReleased() throws {
        let url = try temporaryFile(bytes: 10_000)
        var loaded: (data: Data, registration: MappedFiles.Registration?)? = try MappedFiles.load(url, mapThreshold: 0)
        XCTAssertNotNil(loaded?.registration)
        let (first, last, past) = loaded!.data.withUnsafeBytes { raw in
            (raw.baseAddress!, raw.baseAddress! + 9_999, raw.baseAddress! + 10_000)
        }
        XCTAssertEqual(MappedFiles.path(containing: first).map { String(cString: $0) }, url.path)
        XCTAssertEqual(MappedFiles.path(containing: last).map { String(cString: $0) }, url.path)
        XCTAssertNil(MappedFiles.path(containing: past))
        XCTAssertNil(MappedFiles.path(containing: nil))
        loaded = nil
        XCTAssertNil(MappedFiles.path(containing: first), "a released mapping is no longer named")
    }

    func testSmallFilesAreReadNotMapped() throws {
        let url = try temporaryFile(bytes: 10_000)
        let loaded = try MappedFiles.load(url)
        XCTAssertNil(loaded.registration)
        XCTAssertEqual(loaded.data.count, 10_000)
        // Read, not mapped: truncating the file cannot reach the bytes already loaded.
        XCTAssertEqual(truncate(url.path, 0), 0)
        XCTAssertEqual(loaded.data.reduce(0) { $0 + Int($1) }, 70_000)
    }

    func testAFullTableStillLoadsFiles() throws {
        let url = try temporaryFile(bytes: 100)
        let all = try (0..<(MappedFiles.capacity + 3)).map { _ in try MappedFiles.load(url, mapThreshold: 0) }
        XCTAssertLessThanOrEqual(all.compactMap(\.registration).count, MappedFiles.capacity)
        XCTAssertTrue(all.allSatisfy { $0.data.count == 100 })
    }

    func testTheBundledCatalogueAndLandMaskAreMapped() throws {
        func size(_ url: URL) throws -> Int { try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) }
        XCTAssertGreaterThan(try size(CityCatalog.bundled().url), MappedFiles.mapThreshold,
                             "the catalogue stays mapped: reading it would cost start-up time")
        let mask = try XCTUnwrap(NimbusResources.url(forResource: LandMask.bundledName, withExtension: "bin"))
        XCTAssertGreaterThan(try size(mask), MappedFiles.mapThreshold,
                             "the land mask (down to 1 km) stays mapped: a map reads only the pages it touches")
    }

    func testOnlyPlainFilesAreLoaded() throws {
        XCTAssertThrowsError(try MappedFiles.load(URL(fileURLWithPath: "/dev/zero")), "read without end")
        XCTAssertThrowsError(try MappedFiles.load(FileManager.default.temporaryDirectory))
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-fifo-\(UUID().uuidString)")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        XCTAssertThrowsError(try MappedFiles.load(fifo), "waited on for ever")
        XCTAssertThrowsError(try CityCatalog(contentsOf: fifo)) { error in
            XCTAssertEqual(error as? CityCatalogError, .unreadable(fifo.path))
        }
    }
}
