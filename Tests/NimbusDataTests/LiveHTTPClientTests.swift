import XCTest
import Synchronization
@testable import NimbusData
import TestSupport

/// The app's one HTTP client: made on first use, once, and it knows whether libcurl could be used.
final class LiveHTTPClientTests: XCTestCase {
    private final class Count: Sendable {
        let value = Mutex(0)
    }

    func testTheClientIsMadeOnItsFirstRequestOnlyAndAnswers() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/n", .init(json: "{}"))
        let count = Count()
        let client = LiveHTTPClient { count.value.withLock { $0 += 1 }; return URLSessionHTTPClient(connectTimeout: 2) }
        XCTAssertEqual(count.value.withLock { $0 }, 0, "nothing is made before it is needed")
        let request = HTTPRequest(base: server.baseURL.absoluteString, path: "/n", query: [], timeout: 3, maxBytes: 1 << 20)!
        for _ in 0..<2 {
            let done = expectation(description: "sent")
            let status = Mutex<Int?>(nil)
            _ = client.send(request) { result in
                status.withLock { $0 = try? result.get().status }
                done.fulfill()
            }
            wait(for: [done], timeout: 10)
            XCTAssertEqual(status.withLock { $0 }, 200)
        }
        XCTAssertEqual(count.value.withLock { $0 }, 1)
        XCTAssertNil(client.unavailableReason, "libcurl loads here")
    }

    func testPreparingMakesTheClientBeforeTheFirstRequest() {
        let count = Count()
        // Preparing makes the client and sends nothing.
        let client = LiveHTTPClient { count.value.withLock { $0 += 1 }; return HTTPClientDouble.failing() }
        XCTAssertNil(client.unavailableReason, "not tried yet")
        client.prepare()
        client.prepare()
        XCTAssertEqual(count.value.withLock { $0 }, 1)
    }
}
