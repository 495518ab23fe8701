import XCTest
import Synchronization
import OpenCombineShim
@testable import NimbusData
import TestSupport

/// Conditional GET over the live client against the loopback fixture server: what goes out, and what
/// each answer becomes.
final class ConditionalGetTests: XCTestCase {
    private var server: FixtureServer!
    private let client = URLSessionHTTPClient(connectTimeout: 2)

    override func setUpWithError() throws {
        server = try FixtureServer()
    }

    override func tearDown() {
        server.stop()
    }

    private var request: HTTPRequest { HTTPRequest(url: server.baseURL.appendingPathComponent("feed"), timeout: 5) }

    private func get(_ cached: HTTPCached<String>?) -> Result<ConditionalResponse<String>, ConditionalGetError>? {
        let done = expectation(description: "answer")
        let result = Mutex<Result<ConditionalResponse<String>, ConditionalGetError>?>(nil)
        let c = client.conditionalGet(request, cached: cached).sink(receiveCompletion: { completion in
            if case .failure(let error) = completion { result.withLock { $0 = .failure(error) } }
            done.fulfill()
        }, receiveValue: { value in result.withLock { $0 = .success(value) } })
        wait(for: [done], timeout: 10)
        c.cancel()
        return result.withLock { $0 }
    }

    private func error(_ result: Result<ConditionalResponse<String>, ConditionalGetError>?) -> ConditionalGetError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    func testA200GivesTheBodyAndItsNewValidators() throws {
        server.route("/feed", .init(headers: ["ETag": "\"v2\"", "Last-Modified": "Sun, 21 Jun 2026 00:00:00 GMT"],
                                    body: Data("new".utf8)))
        let kept = HTTPCached(value: "old", validators: HTTPValidators(etag: "\"v1\"", lastModified: nil))
        guard case .success(.modified(let response, let validators)) = get(kept) else { return XCTFail("expected a body") }
        XCTAssertEqual(response.body, Data("new".utf8))
        XCTAssertEqual(validators, HTTPValidators(etag: "\"v2\"", lastModified: "Sun, 21 Jun 2026 00:00:00 GMT"))
        XCTAssertEqual(server.requests.last?.headers["if-none-match"], "\"v1\"", "the kept validator went out")
        XCTAssertNil(server.requests.last?.headers["if-modified-since"], "only the validators kept")
    }

    func testA304GivesTheKeptValueBack() throws {
        server.route("/feed", .init(status: 304, headers: [:]))
        let kept = HTTPCached(value: "old", validators: HTTPValidators(etag: "\"v1\"",
                                                                      lastModified: "Sun, 21 Jun 2026 00:00:00 GMT"))
        guard case .success(.notModified(let value)) = get(kept) else { return XCTFail("expected the kept value") }
        XCTAssertEqual(value, "old")
        let sent = try XCTUnwrap(server.requests.last?.headers)
        XCTAssertEqual(sent["if-none-match"], "\"v1\"")
        XCTAssertEqual(sent["if-modified-since"], "Sun, 21 Jun 2026 00:00:00 GMT")
    }

    func testWithoutValidatorsItIsAPlainGet() throws {
        server.route("/feed", .init(body: Data("body".utf8)))
        // Nothing kept; and something kept without validators: neither can make the request conditional.
        for kept in [nil, HTTPCached(value: "old", validators: HTTPValidators(etag: "", lastModified: nil))] {
            guard case .success(.modified(let response, let validators)) = get(kept) else { return XCTFail("expected a body") }
            XCTAssertEqual(response.body, Data("body".utf8))
            XCTAssertTrue(validators.isEmpty, "the server sent none")
            let sent = try XCTUnwrap(server.requests.last?.headers)
            XCTAssertNil(sent["if-none-match"])
            XCTAssertNil(sent["if-modified-since"])
        }
    }

    func testA304WithNothingKeptIsATypedError() {
        server.route("/feed", .init(status: 304, headers: [:]))
        XCTAssertEqual(error(get(nil)), .notModifiedWithoutCache)
        // Other failures stay the client's.
        server.route("/feed", .init(status: 503, headers: [:]))
        XCTAssertEqual(error(get(nil)), .http(.server(status: 503)))
    }

    func testValidatorsFromAServerAreSanitisedAndCapped() {
        let response = HTTPResponse(status: 200, headers: ["etag": "\"a\u{1B}[2J\"" + String(repeating: "x", count: 500),
                                                           "last-modified": ""], body: Data("x".utf8))
        let validators = HTTPValidators(response: response)
        XCTAssertFalse(validators.etag?.unicodeScalars.contains { $0.value == 0x1B } ?? true)
        XCTAssertLessThanOrEqual(validators.etag?.unicodeScalars.count ?? 0, 200)
        XCTAssertNil(validators.lastModified, "blank is absent")
        XCTAssertEqual(validators.requestHeaders.keys.sorted(), ["If-None-Match"])
    }
}
