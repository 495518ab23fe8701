import Foundation
import Synchronization
import NimbusData
import CombineSchedulers

/// The network of a tape: answers scripted per path (status, headers, body, delay), given in
/// process, or no network at all. Nothing leaves the process, so tapes never touch the internet and
/// stay deterministic; delays and timeouts run on the tape's virtual clock.
final class TapeHTTPClient: HTTPClient, Sendable {
    /// What a path is answered with.
    struct Answer: Sendable {
        var status = 200
        /// Names lower-cased, as the live client hands them over.
        var headers: [String: String] = [:]
        var body = Data()
        var delay: TimeInterval = 0
    }

    private struct State {
        var routes: [String: Answer] = [:]
        /// Requests made so far (paths with queries), for diagnosing tapes.
        var log: [String] = []
        /// The headers of the last request for each path.
        var lastHeaders: [String: [String: String]] = [:]
    }
    private let state = Mutex(State())
    /// The clock delays and timeouts are timed by; without one, every answer comes at once.
    private let clock: TestSchedulerOf<DispatchQueue>?

    init(clock: TestSchedulerOf<DispatchQueue>? = nil) {
        self.clock = clock
    }

    /// Requests made so far (paths with queries), for diagnosing tapes.
    var log: [String] { state.withLock { $0.log } }

    /// Answers `path` with a 200 and `body`.
    func serve(_ path: String, body: Data) {
        serve(path, answer: Answer(headers: ["content-type": "application/json"], body: body))
    }

    /// Answers `path` with `answer` from now on, replacing what it was answered with.
    func serve(_ path: String, answer: Answer) {
        state.withLock { $0.routes[path] = answer }
    }

    func goOffline() {
        state.withLock { $0.routes = [:] }
    }

    /// The headers (names lower-cased) of the last request for `path`; nil when none was made.
    func lastRequestHeaders(_ path: String) -> [String: String]? {
        state.withLock { $0.lastHeaders[path] }
    }

    func send(_ request: HTTPRequest,
              completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        exchange(request) { completion($0.result) }
    }

    /// The answer with its head (status and headers, 2xx or not), as the live client tells it: a
    /// scripted `Retry-After` reaches the retrying layer above.
    func exchange(_ request: HTTPRequest,
                  completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
        let (offline, answer) = state.withLock { state in
            state.log.append(request.url.path + "?" + (request.url.query ?? ""))
            state.lastHeaders[request.url.path] = Dictionary(
                request.headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
            return (state.routes.isEmpty, state.routes[request.url.path])
        }
        let exchange: HTTPExchange
        if offline {
            exchange = HTTPExchange(result: .failure(.transport(.notConnected)))
        } else if let answer {
            exchange = HTTPExchange(result: Self.result(answer, maxBytes: request.maxBytes),
                                    reply: HTTPReplyHead(status: answer.status, headers: answer.headers, bytes: answer.body.count))
        } else {
            exchange = HTTPExchange(result: .failure(.server(status: 404)))
        }
        let delay = answer?.delay ?? 0
        guard let clock, delay > 0 else {
            completion(exchange)
            return Pending()
        }
        // The live client's deadline: an answer slower than the request's timeout never comes.
        let pending = Pending()
        let timedOut = delay > request.timeout
        clock.schedule(after: clock.now.advanced(by: .seconds(timedOut ? request.timeout : delay))) {
            if pending.finish() {
                completion(timedOut ? HTTPExchange(result: .failure(.transport(.timedOut))) : exchange)
            }
        }
        return pending
    }

    /// What the live client makes of an answer: a 2xx with a body is a response, any other status a
    /// `.server` failure, an empty 2xx `.missingData`, a body past the cap `.tooLarge`.
    private static func result(_ answer: Answer, maxBytes: Int) -> Result<HTTPResponse, HTTPError> {
        guard (200..<300).contains(answer.status) else { return .failure(.server(status: answer.status)) }
        guard answer.body.count <= maxBytes else { return .failure(.transport(.tooLarge(limit: maxBytes))) }
        guard !answer.body.isEmpty else { return .failure(.missingData) }
        return .success(HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body))
    }

    /// An answer on its way; cancelled, it never comes.
    private final class Pending: HTTPCancellable, Sendable {
        private let done = Mutex(false)

        /// True the first time: the answer may be delivered.
        func finish() -> Bool {
            done.withLock { done in
                defer { done = true }
                return !done
            }
        }

        func cancel() { _ = finish() }
    }
}
