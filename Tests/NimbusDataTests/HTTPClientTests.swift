import XCTest
import OpenCombineShim
@testable import NimbusData
import TestSupport

/// The live URLSession client against the loopback fixture server.
final class HTTPClientTests: XCTestCase {
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

    private func request(_ path: String, query: [URLQueryItem] = [], timeout: TimeInterval = 3,
                         maxBytes: Int = 1 << 20) -> HTTPRequest {
        HTTPRequest(base: server.baseURL.absoluteString, path: path, query: query, timeout: timeout, maxBytes: maxBytes)!
    }

    /// Sends and waits for the one completion.
    private func send(_ request: HTTPRequest, file: StaticString = #filePath, line: UInt = #line)
        -> Result<HTTPResponse, HTTPError>? {
        let done = expectation(description: "completion")
        let box = ResultBox()
        _ = client.send(request) { result in
            box.set(result)
            done.fulfill()
        }
        // Each attempt may take its whole deadline, and a broken connection is tried twice.
        wait(for: [done], timeout: max(10, 2 * request.timeout + 2))
        return box.value
    }

    func testA200BodyComesBackWithItsHeaders() throws {
        server.route("/v1/forecast", .init(json: #"{"ok":true}"#))
        let result = send(request("/v1/forecast", query: [URLQueryItem(name: "latitude", value: "37.5")]))
        let response = try XCTUnwrap(try? result?.get())
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"ok":true}"#)
        XCTAssertEqual(response.headers["content-type"], "application/json")
        XCTAssertEqual(server.requests.map(\.target), ["/v1/forecast?latitude=37.5"])
        XCTAssertEqual(server.requests.first?.query, ["latitude": "37.5"])
    }

    func testStatusesOutside2xxAreServerErrors() {
        server.route("/500", .init(status: 500, json: #"{"error":true}"#))
        server.route("/429", .init(status: 429, json: #"{"error":true}"#))
        XCTAssertEqual(send(request("/500"))?.failure, .server(status: 500))
        XCTAssertEqual(send(request("/429"))?.failure, .server(status: 429))
        XCTAssertEqual(send(request("/nowhere"))?.failure, .server(status: 404))
    }

    func testAnEmptyBodyIsMissingData() {
        server.route("/empty", .init(status: 200, body: Data()))
        XCTAssertEqual(send(request("/empty"))?.failure, .missingData)
    }

    func testAServerThatNeverAnswersTimesOut() {
        server.route("/hang", .init(json: "{}", behaviour: .hang))
        let start = Date()
        XCTAssertEqual(send(request("/hang", timeout: 0.5))?.failure, .transport(.timedOut))
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    func testASlowDripEndsAtTheDeadline() {
        let body = Data(String(repeating: "a", count: 400).utf8)
        server.route("/drip", .init(body: body, behaviour: .drip(chunk: 1, interval: 0.05)))
        let start = Date()
        XCTAssertEqual(send(request("/drip", timeout: 0.6))?.failure, .transport(.timedOut))
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    func testAHugeAnnouncedBodyIsRefusedAtOnce() {
        server.route("/huge", .init(behaviour: .huge(bytes: 200 << 20, announced: true)))
        XCTAssertEqual(send(request("/huge", maxBytes: 1 << 20))?.failure, .transport(.tooLarge(limit: 1 << 20)))
    }

    func testAHugeUnannouncedBodyIsCutAtTheCap() {
        server.route("/huge", .init(behaviour: .huge(bytes: 200 << 20, announced: false)))
        let start = Date()
        XCTAssertEqual(send(request("/huge", maxBytes: 256 << 10))?.failure, .transport(.tooLarge(limit: 256 << 10)))
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testATruncatedBodyIsAConnectionLost() {
        server.route("/cut", .init(json: #"{"latitude":37.5,"longitude":127.0}"#, behaviour: .truncate(bytes: 10)))
        let done = expectation(description: "decoded")
        let box = ResultBox()
        let cancellable = client.decode([String: Double].self, from: request("/cut")).sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { box.set(.failure(error)) }
                done.fulfill()
            },
            receiveValue: { _ in })
        wait(for: [done], timeout: 10)
        cancellable.cancel()
        XCTAssertEqual(box.value?.failure, .transport(.connectionLost))
    }

    func testAClosedConnectionIsATransportError() {
        server.route("/close", .init(behaviour: .close))
        guard case .transport = send(request("/close"))?.failure else {
            return XCTFail("expected a transport error")
        }
    }

    func testOnlyABrokenConnectionIsTriedASecondTime() {
        server.route("/close", .init(behaviour: .close))
        // A generous deadline: on two busy cores a 3 s one could end the first attempt as a timeout
        // (which is not retried) before the server had read it and hung up.
        let closed = send(request("/close", timeout: 15))?.failure
        XCTAssertEqual(server.requests.filter { $0.path == "/close" }.count, 2, "a dropped connection is retried once (\(String(describing: closed)))")
        server.route("/fail", .init(status: 500, json: "{}"))
        XCTAssertEqual(send(request("/fail"))?.failure, .server(status: 500))
        XCTAssertEqual(server.requests.filter { $0.path == "/fail" }.count, 1, "an HTTP error is an answer, not retried")
        server.route("/hang", .init(behaviour: .hang))
        XCTAssertEqual(send(request("/hang", timeout: 0.5))?.failure, .transport(.timedOut))
        XCTAssertEqual(server.requests.filter { $0.path == "/hang" }.count, 1, "a timeout is not retried")
    }

    func testNoServerIsCannotConnect() throws {
        let port = server.port
        server.stop()
        let request = HTTPRequest(base: "http://127.0.0.1:\(port)", path: "/x", timeout: 3)!
        guard case .transport = send(request)?.failure else { return XCTFail("expected a transport error") }
    }

    func testDecodingFailuresAreTyped() {
        struct Shape: Decodable { let latitude: Double }
        server.route("/wrong", .init(json: #"{"latitude":"north"}"#))
        server.route("/missing", .init(json: #"{"longitude":1}"#))
        func decode(_ path: String) -> HTTPError? {
            let done = expectation(description: path)
            let box = ResultBox()
            let c = client.decode(Shape.self, from: request(path)).sink(
                receiveCompletion: { if case .failure(let e) = $0 { box.set(.failure(e)) }; done.fulfill() },
                receiveValue: { _ in })
            wait(for: [done], timeout: 10)
            c.cancel()
            return box.value?.failure
        }
        XCTAssertEqual(decode("/wrong"), .decoding("type mismatch (Double) at .latitude"))
        XCTAssertEqual(decode("/missing"), .decoding("missing key latitude at "))
    }

    func testCancellingThePublisherCancelsTheRequest() {
        server.route("/slow", .init(json: "{}", behaviour: .delay(0.5)))
        let box = ResultBox()
        let cancellable = client.publisher(for: request("/slow")).sink(
            receiveCompletion: { if case .failure(let e) = $0 { box.set(.failure(e)) } },
            receiveValue: { box.set(.success($0)) })
        waitUntil("the request to reach the server") { !server.requests.isEmpty }
        cancellable.cancel()
        // Past the point where an answer would be delivered: the server has answered (after its half
        // second) and closed, libcurl has ended the transfer, and a later request through the same
        // client (whose callbacks run one after another) has had its answer.
        waitUntil("the server to answer and close") { server.openConnections == 0 }
        waitUntil("the transfer to end") { client.unfinishedTasks == 0 }
        server.route("/after", .init(json: "{}"))
        XCTAssertNotNil(try? send(request("/after"))?.get())
        XCTAssertNil(box.value, "a cancelled request delivers nothing")
    }

    func testManyConcurrentRequestsAllComplete() {
        server.route("/n", .init(json: #"{"n":1}"#))
        let all = expectation(description: "all")
        all.expectedFulfillmentCount = 12
        let tasks = (0..<12).map { _ in
            client.send(request("/n")) { result in
                if case .success = result { all.fulfill() }
            }
        }
        wait(for: [all], timeout: 10)
        XCTAssertEqual(tasks.count, 12)
    }

    func testSecretsNeverShowInDescriptions() {
        let request = HTTPRequest(base: "https://api.example.org/3", path: "search/movie",
                                  query: [URLQueryItem(name: "api_key", value: "s3cr3t"),
                                          URLQueryItem(name: "query", value: "alien")])!
        XCTAssertEqual(request.description, "GET https://api.example.org/3/search/movie?api_key=***&query=alien")
        XCTAssertFalse("\(request)".contains("s3cr3t"))
        XCTAssertFalse(HTTPError.invalidURL("http://x/?token=abc&b=1").description.contains("abc"))
        XCTAssertEqual(Redaction.redact("a=1&access_token=xyz&password=p w"), "a=1&access_token=***&password=*** w")
    }

    func testBadBaseURLsAreRejected() {
        XCTAssertNil(HTTPRequest(base: "not a url"))
        XCTAssertNil(HTTPRequest(base: "ftp://example.org"))
        XCTAssertNil(HTTPRequest(base: "http://"))
        XCTAssertEqual(HTTPRequest(base: "http://127.0.0.1:8080/", path: "v1/forecast")?.url.absoluteString,
                       "http://127.0.0.1:8080/v1/forecast")
    }

    func testTheLiveClientLoadsLibcurl() {
        XCTAssertNil(Libcurl.load())
        XCTAssertNil(Libcurl.load(), "a second load answers the same")
    }

    func testTheServerStopsWhenDropped() throws {
        var dropped: FixtureServer? = try FixtureServer()
        dropped?.route("/hang", .init(behaviour: .hang))
        let port = try XCTUnwrap(dropped?.port)
        let hanging = expectation(description: "hanging request ends")
        _ = client.send(HTTPRequest(base: "http://127.0.0.1:\(port)", path: "/hang", timeout: 8)!) { _ in
            hanging.fulfill()
        }
        waitUntil("the hanging request to reach the server") { dropped?.requests.isEmpty == false }
        dropped = nil
        wait(for: [hanging], timeout: 5)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<HTTPResponse, HTTPError>?
    func set(_ r: Result<HTTPResponse, HTTPError>) { lock.lock(); result = r; lock.unlock() }
    var value: Result<HTTPResponse, HTTPError>? { lock.lock(); defer { lock.unlock() }; return result }
}

private extension Result where Failure == HTTPError {
    var failure: HTTPError? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
