import Foundation
import Testing
import TestSupport
@testable import NimbusData

/// While start-up paging is on, a mapped data file is read only where it is touched; once it ends,
/// the whole file is read in the background. Checked on a file written here and dropped from the
/// page cache, with `mincore` saying which of its pages are in memory.
@Suite(.serialized) struct StartupPagingTests {
    private static let size = 16 << 20

    /// The pages of `bytes` that are in memory.
    private func resident(_ bytes: UnsafeRawBufferPointer) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var vector = [UInt8](repeating: 0, count: (bytes.count + page - 1) / page)
        guard mincore(UnsafeMutableRawPointer(mutating: bytes.baseAddress!), bytes.count, &vector) == 0 else { return -1 }
        return vector.filter { $0 & 1 == 1 }.count
    }

    @Test func aFileMappedAtStartIsReadWhereTouchedThenAllOfIt() throws {
        // The test process started with paging on (the constructor runs in every program of the package).
        try #require(StartupPaging.isActive, "start-up paging ended already in this process")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-paging-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: 0x5A, count: Self.size).write(to: url)
        // Written, synced and dropped from the page cache: the next reads come from the disk.
        let fd = open(url.path, O_RDONLY)
        fsync(fd)
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        close(fd)

        let (data, registration) = try MappedFiles.load(url)
        withExtendedLifetime(registration) {}
        let pages = Self.size / Int(sysconf(Int32(_SC_PAGESIZE)))
        let touchedThenResident = data.withUnsafeBytes { bytes -> Int in
            _ = bytes[Self.size / 2]
            return resident(bytes)
        }
        #expect(touchedThenResident >= 1)
        #expect(touchedThenResident < pages / 4, "one byte touched brought \(touchedThenResident) of \(pages) pages in")

        StartupPaging.end()
        #expect(!StartupPaging.isActive)
        // The kernel reads ahead on its own time. Read-ahead is best effort: a busy disk may drop some
        // of it (4,036 of 4,096 pages were seen with the whole test suite running), so "most of it",
        // against a quarter at most before.
        var all = 0
        _ = poll(timeout: 5) {
            all = data.withUnsafeBytes { resident($0) }
            return all > pages / 2
        }
        #expect(all > pages / 2, "after end(), \(all) of \(pages) pages read in 5 s")
        withExtendedLifetime(registration) {}
    }
}
