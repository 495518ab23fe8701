import XCTest
import OpenCombineShim
@testable import NimbusData
import TestSupport

/// The live client against answers meant to hurt it: compression bombs, redirects that would carry
/// credentials elsewhere, replies that are not HTTP, resets.
final class HostileHTTPTests: XCTestCase {
    private var server: FixtureServer!
    private var client: URLSessionHTTPClient!

    override func setUpWithError() throws {
        server = try FixtureServer()
        client = URLSessionHTTPClient(connectTimeout: 2)
    }

    override func tearDown() {
        server.stop()
        server = nil
        client = nil
    }

    private func request(_ path: String, base: URL? = nil, query: [URLQueryItem] = [], headers: [String: String] = [:],
                         timeout: TimeInterval = 5, maxBytes: Int = 1 << 20) -> HTTPRequest {
        HTTPRequest(base: (base ?? server.baseURL).absoluteString, path: path, query: query, headers: headers,
                    timeout: timeout, maxBytes: maxBytes)!
    }

    private func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError>? {
        let done = expectation(description: "completion")
        let box = Box<Result<HTTPResponse, HTTPError>>()
        _ = client.send(request) { result in
            box.set(result)
            done.fulfill()
        }
        wait(for: [done], timeout: 20)
        return box.value
    }

    func testGzipZerosFixtureInflatesToZeros() throws {
        server.route("/small", .init(behaviour: .gzipZeros(decodedBytes: 100_000)))
        let response = try XCTUnwrap(try? send(request("/small"))?.get())
        XCTAssertEqual(response.body, Data(count: 100_000))
    }

    func testAGzipBombIsCutAtTheDecodedCapWithBoundedMemory() {
        // 512 MiB of zeros in about 0.5 MB on the wire: under the compressed-size cap, far over the decoded one.
        server.route("/bomb", .init(behaviour: .gzipZeros(decodedBytes: 512 << 20)))
        let before = ProcessMemory.peakResidentBytes()
        let start = Date()
        let result = send(request("/bomb", maxBytes: 2 << 20))
        let answered = Date().timeIntervalSince(start)
        XCTAssertEqual(result?.failure, .transport(.tooLarge(limit: 2 << 20)))
        // libcurl inflates what it has already read before the cancel lands; wait until the transfer is over.
        waitUntil("libcurl to end the bomb's transfer", timeout: 60) { client.unfinishedTasks == 0 }
        let last = client.bytesReceived
        let growth = ProcessMemory.peakResidentBytes() - before
        print("gzip bomb: answered in \(String(format: "%.2f", answered)) s; \(last >> 20) MiB inflated in "
              + "\(String(format: "%.1f", Date().timeIntervalSince(start))) s; peak RSS grew \(growth >> 20) MiB")
        XCTAssertLessThan(answered, 5)
        // Not under AddressSanitizer: its quarantine keeps 256 MB of the freed inflate buffers
        // resident (437 MiB of growth with it, 35 MiB with `quarantine_size_mb=0`).
        if !Sanitizers.address {
            XCTAssertLessThan(growth, 128 << 20, "the inflated bytes past the cap are dropped as they come, not queued")
        }
    }

    func testGarbageMarkedGzipIsABadReplyNotALostConnection() {
        server.route("/garbage", .init(headers: ["Content-Encoding": "gzip"], body: Data((0..<4000).map { UInt8($0 % 251) })))
        XCTAssertEqual(send(request("/garbage"))?.failure, .transport(.badReply))
    }

    func testAnHTTP09ReplyIsABadReplyNotABadURL() {
        server.route("/09", .init(body: Data(#"{"latitude":1}"#.utf8), behaviour: .raw))
        XCTAssertEqual(send(request("/09"))?.failure, .transport(.badReply))
    }

    func testAResetMidBodyIsAConnectionLost() {
        server.route("/reset", .init(body: Data(String(repeating: "x", count: 100_000).utf8), behaviour: .reset(afterBytes: 1000)))
        XCTAssertEqual(send(request("/reset"))?.failure, .transport(.connectionLost))
    }

    // MARK: Redirects

    func testARedirectToAnotherHostIsRefusedAndTheTokenNeverArrives() throws {
        let other = try FixtureServer()
        defer { other.stop() }
        other.route("/steal", .init(json: #"{"stolen":true}"#))
        // The same machine under another name and port: another origin.
        server.route("/3/search/movie", .init(status: 302, headers: ["Location": "http://localhost:\(other.port)/steal?api_key=leaked"]))
        let result = send(request("/3/search/movie", query: [URLQueryItem(name: "api_key", value: "v3key")],
                                  headers: ["Authorization": "Bearer eyJsecret"]))
        XCTAssertEqual(result?.failure, .transport(.redirectRefused))
        XCTAssertEqual(other.requestsSoFar(), [], "the other origin never hears from us")
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(server.requests.first?.headers["authorization"], "Bearer eyJsecret")
    }

    func testARedirectToAnotherPortOfTheSameHostIsRefused() throws {
        let other = try FixtureServer()
        defer { other.stop() }
        other.route("/steal", .init(json: "{}"))
        server.route("/go", .init(status: 307, headers: ["Location": "http://127.0.0.1:\(other.port)/steal"]))
        XCTAssertEqual(send(request("/go", headers: ["Authorization": "Bearer eyJsecret"]))?.failure,
                       .transport(.redirectRefused))
        XCTAssertEqual(other.requests, [])
    }

    func testARedirectToAFileIsRefused() {
        server.route("/file", .init(status: 302, headers: ["Location": "file:///etc/passwd"]))
        XCTAssertEqual(send(request("/file"))?.failure, .transport(.redirectRefused))
    }

    func testARedirectWithinTheOriginIsFollowedWithItsHeaders() throws {
        server.route("/old", .init(status: 301, headers: ["Location": "/new"]))
        server.route("/new", .init(json: #"{"ok":true}"#))
        let response = try XCTUnwrap(try? send(request("/old", headers: ["Authorization": "Bearer eyJsecret"]))?.get())
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"ok":true}"#)
        XCTAssertEqual(server.requests.map(\.path), ["/old", "/new"])
    }

    // MARK: Foundation's URL cache

    func testNoURLCacheFolderIsMadeInTheCacheDirectory() throws {
        // Foundation makes `org.swift.foundation.URLCache` under the user cache directory when a
        // session uses the shared cache; the client's session uses none.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-xdg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let saved = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        setenv("XDG_CACHE_HOME", home.path, 1)
        defer { if let saved { setenv("XDG_CACHE_HOME", saved, 1) } else { unsetenv("XDG_CACHE_HOME") } }
        server.route("/n", .init(json: "{}"))
        client = URLSessionHTTPClient(connectTimeout: 2)
        XCTAssertNotNil(try? send(request("/n"))?.get())
        let made = (FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String]) ?? []
        XCTAssertFalse(made.contains { $0.contains("URLCache") }, "\(made)")
    }
}

final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    func set(_ v: T) { lock.lock(); stored = v; lock.unlock() }
    var value: T? { lock.lock(); defer { lock.unlock() }; return stored }
}

private extension Result where Failure == HTTPError {
    var failure: HTTPError? {
        if case .failure(let e) = self { return e }
        return nil
    }
}

/// The process's memory from /proc.
private enum ProcessMemory {
    static func peakResidentBytes() -> Int { field("VmHWM:") }
    static func residentBytes() -> Int { field("VmRSS:") }
    private static func field(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return digits * 1024
        }
        return 0
    }
}
