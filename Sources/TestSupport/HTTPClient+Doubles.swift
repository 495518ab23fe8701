import Foundation
import Synchronization
import CombineSchedulers
import OpenCombineShim
import NimbusData

/// The one HTTP double: answers each request with what its `answer` says for it (by route, by what the
/// request asks, or by passing it on to another client), keeps every request and every answer it gave,
/// and answers at once or, with a `delay`, later on a scheduler. A cancelled request is never answered.
public final class HTTPClientDouble: HTTPClient, Sendable {
    /// What one request gets.
    public enum Reply: Sendable {
        /// A 2xx response with this body.
        case body(Data, status: Int = 200, headers: [String: String] = [:])
        /// A failure; a `.server` one comes with its status as the reply's head, as from the network.
        case failure(HTTPError)
        /// A whole exchange, when the reply's head matters (a 429's `Retry-After`).
        case exchange(HTTPExchange)
        /// What another client answers: the live one against a loopback server, to see what is sent.
        case forward(any HTTPClient)
        /// No answer: the request stays in flight until it is cancelled.
        case pending

        /// A 2xx response with this text as its body.
        public static func json(_ text: String) -> Reply { .body(Data(text.utf8)) }
    }

    /// Answers later: each reply waits `interval` on `scheduler` (a test scheduler, so on its virtual clock).
    public struct Delay: Sendable {
        public let scheduler: AnySchedulerOf<DispatchQueue>
        /// The wait in nanoseconds (the scheduler's stride is not `Sendable`).
        private let nanoseconds: Int

        public init(_ interval: DispatchQueue.SchedulerTimeType.Stride, on scheduler: AnySchedulerOf<DispatchQueue>) {
            self.scheduler = scheduler
            self.nanoseconds = interval.magnitude
        }

        public var interval: DispatchQueue.SchedulerTimeType.Stride { .nanoseconds(nanoseconds) }
    }

    public typealias Answer = @Sendable (HTTPRequest) -> Reply

    private struct State {
        var answer: Answer
        var delay: Delay?
        var requests: [HTTPRequest] = []
        var exchanges: [HTTPExchange] = []
    }

    private let state: Mutex<State>

    /// Answers each request with `answer(request)`.
    public init(delay: Delay? = nil, _ answer: @escaping Answer) {
        state = Mutex(State(answer: answer, delay: delay))
    }

    /// Answers every request with `reply`.
    public convenience init(delay: Delay? = nil, _ reply: Reply) {
        self.init(delay: delay) { _ in reply }
    }

    /// Answers by the end of the request's path, the first route that matches; `otherwise` for the rest.
    public convenience init(delay: Delay? = nil, routes: KeyValuePairs<String, Reply>,
                            otherwise: Reply = .failure(.server(status: 404))) {
        let routes = Array(routes)
        self.init(delay: delay) { request in
            routes.first { request.url.path.hasSuffix($0.key) }?.value ?? otherwise
        }
    }

    /// A network that must not be used: every request fails the test, and fails as unreachable.
    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> HTTPClientDouble {
        HTTPClientDouble { request in
            recordFailure("no request expected, but the code sent \(request)", file: file, line: line)
            return .failure(.transport(.notConnected))
        }
    }

    /// A network that takes every request and never answers.
    public static var noop: HTTPClientDouble { HTTPClientDouble(.pending) }

    /// What the next requests get.
    public var answer: Answer {
        get { state.withLock { $0.answer } }
        set { state.withLock { $0.answer = newValue } }
    }

    /// How late the next answers come; nil for at once.
    public var delay: Delay? {
        get { state.withLock { $0.delay } }
        set { state.withLock { $0.delay = newValue } }
    }

    /// Every request sent, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// The URLs of every request sent, in order.
    public var urls: [URL] { requests.map(\.url) }

    /// Every answer given, in the order they were given (a cancelled or pending request has none).
    public var exchanges: [HTTPExchange] { state.withLock { $0.exchanges } }

    /// The failures among the answers given.
    public var failures: [HTTPError] {
        exchanges.compactMap { if case .failure(let error) = $0.result { error } else { nil } }
    }

    public func send(_ request: HTTPRequest,
                     completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        exchange(request) { completion($0.result) }
    }

    public func exchange(_ request: HTTPRequest,
                         completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
        let (reply, delay) = state.withLock { state in
            state.requests.append(request)
            return (state.answer(request), state.delay)
        }
        let task = Task()
        let deliver: @Sendable (HTTPExchange) -> Void = { [weak self] exchange in
            guard !task.isCancelled else { return }
            self?.state.withLock { $0.exchanges.append(exchange) }
            completion(exchange)
        }
        let answer: @Sendable (HTTPExchange) -> Void = { exchange in
            guard let delay else { return deliver(exchange) }
            delay.scheduler.schedule(after: delay.scheduler.now.advanced(by: delay.interval)) { deliver(exchange) }
        }
        switch reply {
        case .body(let body, let status, let headers):
            answer(HTTPExchange(result: .success(HTTPResponse(status: status, headers: headers, body: body))))
        case .failure(let error):
            answer(HTTPExchange(result: .failure(error)))
        case .exchange(let exchange):
            answer(exchange)
        case .forward(let client):
            task.inner = client.exchange(request) { answer($0) }
        case .pending:
            break
        }
        return task
    }

    private final class Task: HTTPCancellable, Sendable {
        private let state = Mutex<(cancelled: Bool, inner: HTTPCancellable?)>((false, nil))
        var isCancelled: Bool { state.withLock { $0.cancelled } }
        var inner: HTTPCancellable? {
            get { state.withLock { $0.inner } }
            set {
                let cancelled = state.withLock { state in
                    state.inner = newValue
                    return state.cancelled
                }
                if cancelled { newValue?.cancel() }
            }
        }

        func cancel() {
            let inner = state.withLock { state in
                state.cancelled = true
                return state.inner
            }
            inner?.cancel()
        }
    }
}

extension URL {
    /// The comma-separated values of the query item `name` (Open-Meteo's `latitude=1,2,3`); empty when absent.
    public func queryValues(_ name: String) -> [Substring] {
        let items = URLComponents(url: self, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.first { $0.name == name }?.value?.split(separator: ",") ?? []
    }
}
