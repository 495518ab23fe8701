import XCTest
import Synchronization
import CombineSchedulers
import NimbusData
import TestSupport

/// The HTTP double the other tests stand on: it answers what it is told, keeps what was sent and
/// answered, answers late on the test's clock, and a cancelled request never hears back.
final class HTTPClientDoubleTests: XCTestCase {
    private final class Answers: Sendable {
        let value = Mutex<[HTTPExchange]>([])
        var all: [HTTPExchange] { value.withLock { $0 } }
    }

    private func request(_ path: String) -> HTTPRequest {
        HTTPRequest(base: "https://api.example.test", path: path)!
    }

    private func send(_ client: HTTPClient, _ path: String, to answers: Answers) -> HTTPCancellable {
        client.exchange(request(path)) { exchange in answers.value.withLock { $0.append(exchange) } }
    }

    func testRoutesAnswerByTheEndOfThePathAndTheRestGetTheirOwnReply() throws {
        let client = HTTPClientDouble(routes: ["/forecast": .json("{}"), "/air-quality": .failure(.server(status: 503))])
        let answers = Answers()
        _ = send(client, "/v1/forecast", to: answers)
        _ = send(client, "/v1/air-quality", to: answers)
        _ = send(client, "/v1/elsewhere", to: answers)
        XCTAssertEqual(answers.all.map(\.result), [
            .success(HTTPResponse(status: 200, headers: [:], body: Data("{}".utf8))),
            .failure(.server(status: 503)),
            .failure(.server(status: 404)),
        ])
        XCTAssertEqual(answers.all.map(\.reply?.status), [200, 503, 404], "a server failure tells its status")
        XCTAssertEqual(client.urls.map(\.path), ["/v1/forecast", "/v1/air-quality", "/v1/elsewhere"])
        XCTAssertEqual(client.exchanges, answers.all)
        XCTAssertEqual(client.failures, [.server(status: 503), .server(status: 404)])
    }

    func testTheAnswerCanChangeAndCanReadTheRequest() {
        let client = HTTPClientDouble { request in .json(request.url.queryValues("latitude").joined(separator: "|")) }
        let answers = Answers()
        _ = client.exchange(HTTPRequest(url: URL(string: "https://x.test/f?latitude=1.5,-2&longitude=3,4")!)) { exchange in
            answers.value.withLock { $0.append(exchange) }
        }
        client.answer = { _ in .exchange(HTTPExchange(result: .failure(.server(status: 429)),
                                                      reply: HTTPReplyHead(status: 429, headers: ["retry-after": "7"]))) }
        _ = send(client, "/f", to: answers)
        XCTAssertEqual(try answers.all[0].result.get().body, Data("1.5|-2".utf8))
        XCTAssertEqual(answers.all[1].reply?.headers["retry-after"], "7")
        XCTAssertEqual(URL(string: "https://x.test/f")!.queryValues("latitude"), [])
    }

    func testADelayedAnswerComesOnTheSchedulersClockAndACancelledOneNever() {
        let scheduler = DispatchQueue.test
        let client = HTTPClientDouble(delay: .init(.seconds(2), on: scheduler.eraseToAnyScheduler()), .json("{}"))
        let answers = Answers()
        _ = send(client, "/kept", to: answers)
        let cancelled = send(client, "/dropped", to: answers)
        scheduler.advance(by: .milliseconds(1999))
        XCTAssertEqual(answers.all.count, 0, "nothing before its time")
        cancelled.cancel()
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(answers.all.count, 1, "the kept one answered, the cancelled one not")
        XCTAssertEqual(client.requests.count, 2, "both were sent")
        XCTAssertEqual(client.exchanges.count, 1)
        client.delay = nil
        _ = send(client, "/now", to: answers)
        XCTAssertEqual(answers.all.count, 2, "without a delay the answer comes at once")
    }

    func testForwardingPassesTheRequestOnRecordsTheAnswerAndCancelsTheInnerRequest() {
        let scheduler = DispatchQueue.test
        let inner = HTTPClientDouble(delay: .init(.seconds(1), on: scheduler.eraseToAnyScheduler()), .json("{}"))
        let client = HTTPClientDouble(.forward(inner))
        let answers = Answers()
        let slow = send(client, "/slow", to: answers)
        XCTAssertEqual(inner.urls.map(\.path), ["/slow"])
        slow.cancel()
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(inner.exchanges.count, 0, "the inner request was cancelled with the outer one")
        XCTAssertEqual(answers.all.count, 0)

        let live = HTTPClientDouble(routes: ["/ok": .json("[]")])
        let recording = HTTPClientDouble(.forward(live))
        _ = send(recording, "/ok", to: answers)
        _ = send(recording, "/missing", to: answers)
        XCTAssertEqual(answers.all.map(\.reply?.status), [200, 404])
        XCTAssertEqual(recording.failures, [.server(status: 404)])
        XCTAssertEqual(live.requests, recording.requests)
    }

    func testNoopTakesEveryRequestAndNeverAnswers() {
        let client = HTTPClientDouble.noop
        let answers = Answers()
        _ = send(client, "/a", to: answers)
        _ = send(client, "/b", to: answers)
        XCTAssertEqual(client.urls.map(\.path), ["/a", "/b"])
        XCTAssertEqual(answers.all.count, 0)
        XCTAssertEqual(client.exchanges.count, 0)
    }
}
