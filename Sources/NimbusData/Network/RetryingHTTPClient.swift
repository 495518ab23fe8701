import Foundation
import Synchronization
import CombineSchedulers
import Logging
import OpenCombineShim

/// A client that sends a GET again when the answer says to wait: a 429 (too many requests) or a 503
/// (unavailable), or a connection that failed. It waits what `Retry-After` says (seconds or an HTTP
/// date), else an exponential backoff with full jitter, never longer than `Policy.maxDelay`; at most
/// `Policy.maxTries` tries, then the last answer is the request's. Cancelling the request cancels
/// a waiting retry. The waits are timed by `scheduler`, so tests (and tapes) are deterministic, and
/// `status` says what is being waited for.
///
/// Every request is a GET (`HTTPRequest` has no other method), so every request is idempotent.
public final class RetryingHTTPClient: HTTPClient {
    public struct Policy: Sendable, Equatable {
        /// Tries in all, the first one included.
        public var maxTries: Int
        /// The backoff's first ceiling: a retry waits up to `baseDelay · 2^tries` (full jitter).
        public var baseDelay: TimeInterval
        /// The longest wait, whatever `Retry-After` says.
        public var maxDelay: TimeInterval

        public init(maxTries: Int = 3, baseDelay: TimeInterval = 1, maxDelay: TimeInterval = 60) {
            self.maxTries = maxTries
            self.baseDelay = baseDelay
            self.maxDelay = maxDelay
        }
    }

    private let inner: HTTPClient
    public let policy: Policy
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    /// The retries waiting now.
    public let status: HTTPRetryStatus
    /// Where each wait is said (the `http` logger), if anywhere.
    private let logger: Logger?

    /// - Parameters:
    ///   - scheduler: times the waits (and is the clock of `HTTPRetryWait.retryAt`).
    ///   - now: the wall clock, for a `Retry-After` that is a date.
    ///   - jitter: a number in 0..<1 that scales each backoff (a random one, but for tests and tapes).
    public init(_ inner: HTTPClient, policy: Policy = Policy(), scheduler: AnySchedulerOf<DispatchQueue>,
                now: @escaping @Sendable () -> Date = { Date() },
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                status: HTTPRetryStatus = HTTPRetryStatus(), logger: Logger? = nil) {
        self.logger = logger
        self.inner = inner
        self.policy = policy
        self.scheduler = scheduler
        self.now = now
        self.jitter = jitter
        self.status = status
    }

    public func prepare() { inner.prepare() }

    public func send(_ request: HTTPRequest,
                     completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        exchange(request) { completion($0.result) }
    }

    public func exchange(_ request: HTTPRequest,
                         completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
        exchange(request, for: nil, completion: completion)
    }

    /// This client as one service uses it: its waits say what they are for (the status bar's
    /// "forecast: rate limited, retrying in 12 s").
    public func client(for subject: RequestSubject) -> HTTPClient {
        Subjected(client: self, subject: subject)
    }

    private func exchange(_ request: HTTPRequest, for subject: RequestSubject?,
                          completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
        let attempt = Attempt(client: self, request: request, subject: subject, completion: completion)
        attempt.go(try: 1)
        return attempt
    }

    private struct Subjected: HTTPClient {
        let client: RetryingHTTPClient
        let subject: RequestSubject

        func prepare() { client.prepare() }

        func send(_ request: HTTPRequest,
                  completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
            client.exchange(request, for: subject) { completion($0.result) }
        }

        func exchange(_ request: HTTPRequest, completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
            client.exchange(request, for: subject, completion: completion)
        }
    }

    /// How long to wait before try `tries + 1` after `exchange`, and why; nil when it is the answer.
    func retry(after exchange: HTTPExchange, tries: Int) -> (delay: TimeInterval, reason: HTTPRetryWait.Reason)? {
        guard tries < policy.maxTries, case .failure(let error) = exchange.result else { return nil }
        let reason: HTTPRetryWait.Reason
        switch error {
        case .server(status: 429): reason = .rateLimited
        case .server(status: 503): reason = .unavailable
        case .transport(let transport) where Self.isTransient(transport): reason = .connectionFailed
        default: return nil
        }
        if let header = exchange.reply?.headers["retry-after"], let wait = RetryAfter.seconds(header, now: now()) {
            return (min(wait, policy.maxDelay), reason)
        }
        let ceiling = min(policy.maxDelay, policy.baseDelay * pow(2, Double(tries)))
        return (ceiling * min(max(jitter(), 0), 1), reason)
    }

    /// Connections that failed in a way that may pass. Not: no network at all (nothing to wait for),
    /// a timeout (the request already waited its whole deadline), a body too large, a refused
    /// redirect or a redirect loop, a reply that can't be read, a cancel.
    static func isTransient(_ transport: HTTPError.Transport) -> Bool {
        switch transport {
        case .cannotConnect, .connectionLost, .other: return true
        case .timedOut, .notConnected, .tooLarge, .badReply, .redirectRefused, .redirectLoop, .cancelled: return false
        }
    }

    /// One request through its tries: the current try's task, or the wait before the next.
    private final class Attempt: HTTPCancellable, Sendable {
        private struct State {
            var task: HTTPCancellable?
            var wait: Int?
            var cancelled = false
        }
        private let state = Mutex(State())
        private let client: RetryingHTTPClient
        private let request: HTTPRequest
        private let subject: RequestSubject?
        private let completion: @Sendable (HTTPExchange) -> Void

        init(client: RetryingHTTPClient, request: HTTPRequest, subject: RequestSubject?,
             completion: @escaping @Sendable (HTTPExchange) -> Void) {
            self.client = client
            self.request = request
            self.subject = subject
            self.completion = completion
        }

        func go(try number: Int) {
            let task = client.inner.exchange(request) { [self] exchange in
                self.answered(exchange, tries: number)
            }
            let cancelled = state.withLock { state in
                if !state.cancelled { state.task = task }
                return state.cancelled
            }
            if cancelled { task.cancel() }
        }

        private func answered(_ exchange: HTTPExchange, tries: Int) {
            guard let (delay, reason) = client.retry(after: exchange, tries: tries) else {
                let cancelled = state.withLock { state in
                    state.task = nil
                    return state.cancelled
                }
                if !cancelled { completion(exchange.with(tries: tries)) }
                return
            }
            let scheduler = client.scheduler
            let due = scheduler.now.advanced(by: .seconds(delay))
            let wait = HTTPRetryWait(reason: reason, retryAt: due, nextTry: tries + 1, url: request.url, subject: subject)
            let id: Int? = state.withLock { state in
                guard !state.cancelled else { return nil }
                state.task = nil
                state.wait = client.status.add(wait)
                return state.wait
            }
            guard let id else { return }
            client.status.changed()
            client.logger?.info("\(RequestLine(request).text) → \(RequestLine.outcome(exchange)), retrying in \(String(format: "%.1f", delay)) s\(exchange.reply?.headers["retry-after"] == nil ? "" : " (Retry-After)"), try \(tries + 1) of \(client.policy.maxTries)")
            // A cancelled request's wait ends in nothing (a delayed action can't be unscheduled); one
            // whose task was merely dropped goes on, as a request in flight does.
            scheduler.schedule(after: due) { [self] in
                let current = self.state.withLock { state -> Bool in
                    guard !state.cancelled, state.wait == id else { return false }
                    state.wait = nil
                    return true
                }
                guard current else { return }
                self.client.status.remove(id)
                self.go(try: tries + 1)
            }
        }

        func cancel() {
            let (task, wait) = state.withLock { state in
                state.cancelled = true
                defer { state.task = nil; state.wait = nil }
                return (state.task, state.wait)
            }
            task?.cancel()
            if let wait { client.status.remove(wait) }
        }
    }
}

/// What a request is for, as the user knows the services: what a retry's countdown names.
public enum RequestSubject: String, Sendable, CaseIterable {
    case forecast, airQuality, earthquakes, films, warnings, normals
}

/// A retry being waited for: why, and when it goes out.
public struct HTTPRetryWait: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// 429 Too Many Requests.
        case rateLimited
        /// 503 Service Unavailable.
        case unavailable
        /// The connection failed.
        case connectionFailed
    }

    public let reason: Reason
    /// What the request is for, when the service that made it said.
    public let subject: RequestSubject?
    /// On the retrying client's scheduler, as `DispatchTime` nanoseconds (a plain number: Sendable).
    private let retryAtNanoseconds: UInt64
    /// The try that goes out then (2 or 3).
    public let nextTry: Int
    public let url: URL

    public init(reason: Reason, retryAt: DispatchQueue.SchedulerTimeType, nextTry: Int, url: URL,
                subject: RequestSubject? = nil) {
        self.reason = reason
        self.subject = subject
        self.retryAtNanoseconds = retryAt.dispatchTime.uptimeNanoseconds
        self.nextTry = nextTry
        self.url = url
    }

    /// When the retry goes out, on the retrying client's scheduler.
    public var retryAt: DispatchQueue.SchedulerTimeType {
        DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: retryAtNanoseconds))
    }

    /// Whole seconds left at `now` (on the same clock), rounded up; 0 once due.
    public func secondsLeft(at now: DispatchQueue.SchedulerTimeType) -> Int {
        let left = Double(Int64(retryAtNanoseconds) - Int64(now.dispatchTime.uptimeNanoseconds)) / 1e9
        return left <= 0 ? 0 : Int(left.rounded(.up))
    }
}

/// The retries waiting now, for the status bar: observers hear of every change, on any thread.
public final class HTTPRetryStatus: Sendable {
    private struct State {
        var next = 0
        var waits: [Int: HTTPRetryWait] = [:]
        var observers: [Int: @Sendable () -> Void] = [:]
    }
    private let state = Mutex(State())

    public init() {}

    /// Every retry being waited for, soonest first.
    public var waits: [HTTPRetryWait] {
        state.withLock { $0.waits.values.sorted { $0.retryAt < $1.retryAt } }
    }

    /// The wait the status bar speaks of: the one that goes out last (everything waiting has gone
    /// out by then).
    public var latest: HTTPRetryWait? {
        state.withLock { $0.waits.values.max { $0.retryAt < $1.retryAt } }
    }

    /// Calls `observer` after each change until the returned token is cancelled.
    public func observe(_ observer: @escaping @Sendable () -> Void) -> AnyCancellable {
        let id = state.withLock { state in
            state.next += 1
            state.observers[state.next] = observer
            return state.next
        }
        return AnyCancellable { [weak self] in _ = self?.state.withLock { $0.observers.removeValue(forKey: id) } }
    }

    func add(_ wait: HTTPRetryWait) -> Int {
        state.withLock { state in
            state.next += 1
            state.waits[state.next] = wait
            return state.next
        }
    }

    func remove(_ id: Int) {
        let removed = state.withLock { $0.waits.removeValue(forKey: id) != nil }
        if removed { changed() }
    }

    func changed() {
        for observer in state.withLock({ Array($0.observers.values) }) { observer() }
    }
}

/// The `Retry-After` header: a number of seconds, or an HTTP date.
public enum RetryAfter {
    /// Seconds to wait from `now`; nil when the value is neither (a date in the past is 0).
    public static func seconds(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // A huge number is simply long: it is capped by the caller.
            return Double(text.prefix(12))
        }
        guard let date = date(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// The three date forms HTTP allows (RFC 9110 §5.6.7): IMF-fixdate, RFC 850 and asctime.
    static func date(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
