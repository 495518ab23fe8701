import XCTest
import NimbusDomain
@testable import NimbusData

/// The caches never follow a link, wait on a fifo or read a huge file placed where they keep their
/// files (issue 12, finding 6).
final class SafeFileTests: XCTestCase {
    private var directory: URL!
    private let fm = FileManager.default

    override func setUpWithError() throws {
        directory = fm.temporaryDirectory.appendingPathComponent("nimbus-safefile-\(UUID().uuidString)")
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    /// Someone else's file with mode 0644, and a link to it at `path`.
    private func linkToAVictim(at path: URL, contents: String = "precious") throws -> URL {
        let victim = directory.appendingPathComponent("victim-\(UUID().uuidString)")
        XCTAssertTrue(fm.createFile(atPath: victim.path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o644]))
        try fm.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: path.path, withDestinationPath: victim.path)
        return victim
    }

    private func assertUntouched(_ victim: URL, _ contents: String = "precious", file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), contents, file: file, line: line)
        let mode = try fm.attributesOfItem(atPath: victim.path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o644, "not chmod'ed", file: file, line: line)
    }

    func testReadRefusesLinksFifosDirectoriesAndOversizedFiles() throws {
        let plain = directory.appendingPathComponent("plain")
        try Data("abc".utf8).write(to: plain)
        XCTAssertEqual(SafeFile.read(plain, maxBytes: 3), Data("abc".utf8))
        XCTAssertNil(SafeFile.read(plain, maxBytes: 2))
        let link = directory.appendingPathComponent("link")
        try fm.createSymbolicLink(atPath: link.path, withDestinationPath: plain.path)
        XCTAssertNil(SafeFile.read(link, maxBytes: 100))
        let fifo = directory.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertNil(SafeFile.read(fifo, maxBytes: 100), "a fifo is refused at once, not waited on")
        XCTAssertNil(SafeFile.read(directory, maxBytes: 100))
        XCTAssertNil(SafeFile.read(directory.appendingPathComponent("missing"), maxBytes: 100))
        let devZero = directory.appendingPathComponent("zero")
        try fm.createSymbolicLink(atPath: devZero.path, withDestinationPath: "/dev/zero")
        XCTAssertNil(SafeFile.read(devZero, maxBytes: 100))
    }

    func testWriteReplacesALinkInsteadOfWritingThroughIt() throws {
        let target = directory.appendingPathComponent("cache/entry.json")
        let victim = try linkToAVictim(at: target)
        XCTAssertTrue(SafeFile.write(Data("new".utf8), to: target))
        try assertUntouched(victim)
        XCTAssertEqual(SafeFile.kind(atPath: target.path), .regular)
        XCTAssertEqual(SafeFile.read(target, maxBytes: 10), Data("new".utf8))
        XCTAssertEqual((try fm.attributesOfItem(atPath: target.path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: target.deletingLastPathComponent().path), ["entry.json"],
                       "no temporary file is left behind")
    }

    func testWriteRefusesADirectoryThatIsALink() throws {
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try fm.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: directory.appendingPathComponent("cache").path, withDestinationPath: elsewhere.path)
        XCTAssertFalse(SafeFile.write(Data("x".utf8), to: directory.appendingPathComponent("cache/entry.json")))
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: elsewhere.path), [])
    }

    func testTheWeatherCacheNeitherFollowsNorWaits() throws {
        let cache = WeatherCache(directory: directory)
        let seoul = Coordinate(latitude: 37.57, longitude: 126.98)
        let path = directory.appendingPathComponent("weather").appendingPathComponent(WeatherCache.key(seoul))
        let victim = try linkToAVictim(at: path, contents: #"{"fetchedAt":1,"body":"e30="}"#)
        XCTAssertNil(cache.read(seoul), "a link is not read as the cache")
        cache.write(Data("{}".utf8), for: seoul, fetchedAt: Date(timeIntervalSince1970: 2))
        try assertUntouched(victim, #"{"fetchedAt":1,"body":"e30="}"#)
        XCTAssertEqual(cache.read(seoul)?.body, Data("{}".utf8))

        try fm.removeItem(at: path)
        XCTAssertEqual(mkfifo(path.path, 0o600), 0)
        XCTAssertNil(cache.read(seoul), "a fifo is not waited on")
    }

    func testTheTMDBCacheNeitherFollowsNorWaits() throws {
        let cache = ResponseCache(directory: directory)
        let path = cache.url(for: "/3/search/movie?query=x")
        let victim = try linkToAVictim(at: path)
        XCTAssertNil(cache.read("/3/search/movie?query=x"))
        cache.write(Data("{}".utf8), for: "/3/search/movie?query=x")
        try assertUntouched(victim)
        XCTAssertEqual(cache.read("/3/search/movie?query=x"), Data("{}".utf8))

        try fm.removeItem(at: path)
        try fm.createSymbolicLink(atPath: path.path, withDestinationPath: "/dev/zero")
        XCTAssertNil(cache.read("/3/search/movie?query=x"), "an endless file is not read")
    }
}
