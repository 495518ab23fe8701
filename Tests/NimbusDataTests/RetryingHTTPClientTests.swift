import XCTest
import Synchronization
import CombineSchedulers
import OpenCombineShim
@testable import NimbusData
import TestSupport

/// The retrying client over the live client, against the loopback fixture server; its waits are
/// timed by a test scheduler, so each test says exactly when a retry goes out.
final class RetryingHTTPClientTests: XCTestCase {
    private var server: FixtureServer!
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    /// The scheduler as the client has it, counting the retries put on the clock.
    private var counting: CountingScheduler!
    private var live: URLSessionHTTPClient!
    private var client: RetryingHTTPClient!
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    override func setUpWithError() throws {
        server = try FixtureServer()
        counting = CountingScheduler()
        scheduler = counting.base
        makeClient(jitter: 0.5)
    }

    override func tearDown() {
        server.stop()
        server = nil
        client = nil
        scheduler = nil
    }

    private func makeClient(jitter: Double) {
        let now = self.now
        live = URLSessionHTTPClient(connectTimeout: 2)
        client = RetryingHTTPClient(live, scheduler: counting.eraseToAnyScheduler(), now: { now }, jitter: { jitter })
    }

    private func request(_ path: String) -> HTTPRequest {
        HTTPRequest(base: server.baseURL.absoluteString, path: path, timeout: 3)!
    }

    /// Answers `path` with `first` for the first `times` requests, then with a 200.
    private func route(_ path: String, _ first: FixtureServer.Response, times: Int = 1) {
        let count = Mutex(0)
        server.route(path) { _ in
            let n = count.withLock { $0 += 1; return $0 }
            return n <= times ? first : .init(json: #"{"ok":true}"#)
        }
    }

    private static func status(_ status: Int, _ headers: [String: String] = [:]) -> FixtureServer.Response {
        .init(status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a },
              body: Data(#"{"error":true}"#.utf8))
    }

    private final class Box: Sendable {
        let exchanges = Mutex<[HTTPExchange]>([])
        var last: HTTPExchange? { exchanges.withLock { $0.last } }
        var count: Int { exchanges.withLock { $0.count } }
    }

    private func start(_ path: String) -> (Box, HTTPCancellable) {
        let box = Box()
        let task = client.exchange(request(path)) { exchange in box.exchanges.withLock { $0.append(exchange) } }
        return (box, task)
    }

    /// The wait now pending, once it is, and its retry is on the clock: the wait is announced just
    /// before the retry is scheduled, on the network's thread, and the test's first step of the clock
    /// must not come between the two.
    private func pendingWait(file: StaticString = #filePath, line: UInt = #line) -> HTTPRetryWait? {
        waitForRetry("a retry to wait", file: file, line: line) { !$0.isEmpty }
        return client.status.waits.first
    }

    /// Waits until the waits announced satisfy `condition` and each has its retry on the clock.
    private func waitForRetry(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                              _ condition: @escaping ([HTTPRetryWait]) -> Bool) {
        waitUntil(what + ", its retry on the clock", file: file, line: line) {
            let waits = client.status.waits
            return condition(waits) && counting.pending >= waits.count
        }
    }

    func testA429WithRetryAfterSecondsIsRetriedWhenItSaysAndThenLoads() throws {
        route("/r", Self.status(429, ["Retry-After": "12"]))
        let (box, _) = start("/r")
        let wait = try XCTUnwrap(pendingWait())
        XCTAssertEqual(wait.reason, .rateLimited)
        XCTAssertEqual(wait.nextTry, 2)
        XCTAssertEqual(wait.secondsLeft(at: scheduler.now), 12)
        scheduler.advance(by: .milliseconds(11_900))
        XCTAssertEqual(server.requests.count, 1, "nothing goes out before Retry-After")
        XCTAssertEqual(box.count, 0)
        scheduler.advance(by: .milliseconds(100))
        XCTAssertTrue(client.status.waits.isEmpty, "the wait ends as the retry goes out")
        waitUntil("the answer", { box.count == 1 })
        let exchange = try XCTUnwrap(box.last)
        XCTAssertEqual(try exchange.result.get().body, Data(#"{"ok":true}"#.utf8))
        XCTAssertEqual(exchange.tries, 2)
        XCTAssertEqual(server.requests.count, 2)
    }

    func testARetryAfterDateIsWaitedUntil() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        route("/d", Self.status(503, ["Retry-After": formatter.string(from: now.addingTimeInterval(30))]))
        let (box, _) = start("/d")
        let wait = try XCTUnwrap(pendingWait())
        XCTAssertEqual(wait.reason, .unavailable)
        XCTAssertEqual(wait.secondsLeft(at: scheduler.now), 30)
        scheduler.advance(by: .seconds(29))
        XCTAssertEqual(server.requests.count, 1)
        scheduler.advance(by: .seconds(1))
        waitUntil("the answer", { box.count == 1 })
        XCTAssertEqual(box.last?.tries, 2)
        XCTAssertNotNil(try? box.last?.result.get())
    }

    func testAHugeRetryAfterIsCappedAtSixtySeconds() throws {
        route("/huge", Self.status(429, ["Retry-After": "999999"]))
        let (box, _) = start("/huge")
        let wait = try XCTUnwrap(pendingWait())
        XCTAssertEqual(wait.secondsLeft(at: scheduler.now), 60)
        scheduler.advance(by: .seconds(60))
        waitUntil("the answer", { box.count == 1 })
        XCTAssertEqual(box.last?.tries, 2)
        XCTAssertEqual(server.requests.count, 2)
    }

    func testThreeTriesThenTheErrorWithBackoffAndJitter() throws {
        makeClient(jitter: 1)
        route("/down", Self.status(503), times: 99)
        let (box, _) = start("/down")
        // No Retry-After: full jitter up to 1 s · 2^tries (the jitter is pinned at its top here).
        XCTAssertEqual(pendingWait()?.secondsLeft(at: scheduler.now), 2)
        scheduler.advance(by: .seconds(2))
        waitForRetry("the second try's wait") { $0.first?.nextTry == 3 }
        XCTAssertEqual(client.status.waits.first?.secondsLeft(at: scheduler.now), 4)
        scheduler.advance(by: .seconds(4))
        waitUntil("the answer", { box.count == 1 })
        XCTAssertEqual(box.last?.result.failure, .server(status: 503))
        XCTAssertEqual(box.last?.tries, 3)
        XCTAssertEqual(box.last?.reply?.status, 503)
        XCTAssertEqual(server.requests.count, 3)
        XCTAssertTrue(client.status.waits.isEmpty)
        scheduler.advance(by: .seconds(120))
        XCTAssertEqual(server.requests.count, 3, "no fourth try")
    }

    func testJitterScalesTheBackoff() throws {
        makeClient(jitter: 0.25)
        route("/j", Self.status(429))
        _ = start("/j")
        let wait = try XCTUnwrap(pendingWait())
        XCTAssertEqual(Double(wait.retryAt.dispatchTime.uptimeNanoseconds - scheduler.now.dispatchTime.uptimeNanoseconds) / 1e9,
                       0.5, accuracy: 0.001)
    }

    func testCancellingDuringTheWaitStopsTheRetry() throws {
        route("/c", Self.status(429, ["Retry-After": "5"]))
        let received = Mutex(0)
        let subscription = client.publisher(for: request("/c")).sink(
            receiveCompletion: { _ in received.withLock { $0 += 1 } }, receiveValue: { _ in received.withLock { $0 += 1 } })
        XCTAssertNotNil(pendingWait())
        subscription.cancel()
        XCTAssertTrue(client.status.waits.isEmpty, "the status bar's wait goes with the request")
        scheduler.advance(by: .seconds(120))
        // A retry would have been sent from inside `advance`: once every transfer has ended, it would be
        // at the server.
        waitUntil("every transfer to end") { live.unfinishedTasks == 0 }
        XCTAssertEqual(server.requestsSoFar().count, 1, "no retry after the subscriber went away")
        XCTAssertEqual(received.withLock { $0 }, 0)
    }

    func testA404IsNotRetried() throws {
        let (box, _) = start("/nowhere")
        waitUntil("the answer", { box.count == 1 })
        XCTAssertEqual(box.last?.result.failure, .server(status: 404))
        XCTAssertEqual(box.last?.tries, 1)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertTrue(client.status.waits.isEmpty)
    }

    func testAConnectionThatFailsIsRetriedTwiceWithBackoff() throws {
        server.stop() // nothing listens on its port any more: connections are refused
        let (box, _) = start("/refused")
        let first = try XCTUnwrap(pendingWait())
        XCTAssertEqual(first.reason, .connectionFailed)
        XCTAssertEqual(first.secondsLeft(at: scheduler.now), 1) // 0.5 × 2 s
        scheduler.advance(by: .seconds(1))
        waitForRetry("the second wait") { $0.first?.nextTry == 3 }
        scheduler.advance(by: .seconds(2))
        waitUntil("the answer", { box.count == 1 })
        XCTAssertEqual(box.last?.result.failure, .transport(.cannotConnect))
        XCTAssertEqual(box.last?.tries, 3)
    }

    func testOfflineIsNotRetried() {
        let client = RetryingHTTPClient(OfflineHTTPClient(), scheduler: scheduler.eraseToAnyScheduler())
        let box = Box()
        _ = client.exchange(request("/x")) { exchange in box.exchanges.withLock { $0.append(exchange) } }
        XCTAssertEqual(box.last?.result.failure, .transport(.notConnected))
        XCTAssertTrue(client.status.waits.isEmpty)
    }

    func testObserversHearEachChange() throws {
        route("/o", Self.status(429, ["Retry-After": "3"]))
        let changes = Mutex(0)
        let token = client.status.observe { changes.withLock { $0 += 1 } }
        let (box, _) = start("/o")
        _ = pendingWait()
        XCTAssertEqual(changes.withLock { $0 }, 1)
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(changes.withLock { $0 }, 2)
        waitUntil("the answer", { box.count == 1 })
        token.cancel()
    }

    func testRetryAfterValues() {
        let now = Date(timeIntervalSince1970: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(RetryAfter.seconds("120", now: now), 120)
        XCTAssertEqual(RetryAfter.seconds(" 0 ", now: now), 0)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:50:37 GMT", now: now), 60)
        XCTAssertEqual(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:47 GMT", now: now), 10)
        XCTAssertEqual(RetryAfter.seconds("Sun Nov  6 08:49:57 1994", now: now), 20)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now), 0, "a date past is now")
        XCTAssertNil(RetryAfter.seconds("soon", now: now))
        XCTAssertNil(RetryAfter.seconds("-5", now: now))
        XCTAssertNil(RetryAfter.seconds("", now: now))
        XCTAssertEqual(RetryAfter.seconds("99999999999999999999", now: now), 999_999_999_999)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
