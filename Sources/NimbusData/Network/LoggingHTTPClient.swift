import Foundation
import Logging
import Synchronization

/// A client that logs every request it sends: at `info` one line when the answer comes (method,
/// URL, conditional headers, status, bytes, time taken, tries), at `debug` also a curl command that
/// repeats it. Secrets (query items named like keys, `Authorization` values) are replaced by
/// `REDACTED` before anything is formatted.
///
/// Only made when logging is on: with logging off the app's requests don't pass through it at all.
public final class LoggingHTTPClient: HTTPClient {
    private let inner: HTTPClient
    private let logger: Logger

    /// - Parameter subsystem: who asks (`weather`, `tmdb`, `quakes`), put on each line as `for=`.
    public init(_ inner: HTTPClient, logger: Logger, subsystem: String? = nil) {
        self.inner = inner
        var logger = logger
        if let subsystem { logger[metadataKey: "for"] = .string(subsystem) }
        self.logger = logger
    }

    public func prepare() { inner.prepare() }

    public func send(_ request: HTTPRequest,
                     completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        exchange(request) { completion($0.result) }
    }

    public func exchange(_ request: HTTPRequest,
                         completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
        guard logger.logLevel <= .info else { return inner.exchange(request, completion: completion) }
        let logger = self.logger
        let start = DispatchTime.now().uptimeNanoseconds
        let line = RequestLine(request)
        logger.debug("\(line.curl)")
        let task = LoggedTask {
            let ms = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            logger.info("\(line.text) → cancelled, \(ms) ms")
        }
        task.inner = inner.exchange(request) { exchange in
            if task.answered() {
                let ms = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                logger.info("\(line.text) → \(RequestLine.outcome(exchange)), \(ms) ms, \(RequestLine.tries(exchange.tries))")
            }
            completion(exchange)
        }
        return task
    }

    /// The inner task, and whether the request ended (answered or cancelled), to log it once.
    private final class LoggedTask: HTTPCancellable, Sendable {
        private struct State {
            var inner: HTTPCancellable?
            var ended = false
        }
        private let state = Mutex(State())
        private let onCancel: @Sendable () -> Void

        init(onCancel: @escaping @Sendable () -> Void) {
            self.onCancel = onCancel
        }

        var inner: HTTPCancellable? {
            get { state.withLock { $0.inner } }
            set { state.withLock { $0.inner = newValue } }
        }

        /// True the first time the request ends.
        func answered() -> Bool {
            state.withLock { state in
                defer { state.ended = true }
                return !state.ended
            }
        }

        func cancel() {
            let (inner, wasRunning) = state.withLock { state in
                defer { state.ended = true }
                return (state.inner, !state.ended)
            }
            inner?.cancel()
            if wasRunning { onCancel() }
        }
    }
}

/// A request as the log shows it, its secrets already replaced.
struct RequestLine: Sendable {
    /// `GET url If-None-Match: "…"`.
    let text: String
    /// A curl command that sends the same request.
    let curl: String

    init(_ request: HTTPRequest) {
        let url = LogRedaction.url(request.url)
        let headers = request.headers.keys.sorted().map { name in (name, LogRedaction.header(name, request.headers[name]!)) }
        let conditional = headers.filter { ["if-none-match", "if-modified-since"].contains($0.0.lowercased()) }
        text = (["GET", url] + conditional.map { "\($0.0): \($0.1)" }).joined(separator: " ")
        curl = (["curl -sS --compressed"] + headers.map { "-H " + Self.quoted("\($0.0): \($0.1)") } + [Self.quoted(url)])
            .joined(separator: " ")
    }

    /// `text` in single quotes for a POSIX shell.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    static func outcome(_ exchange: HTTPExchange) -> String {
        switch exchange.result {
        case .success(let response):
            return "\(response.status), \(response.body.count) B"
        case .failure(let error):
            if let reply = exchange.reply {
                let what = reply.status == 304 ? "304 not modified" : "\(reply.status)"
                return "\(what), \(reply.bytes) B" + (reply.status < 300 ? " (\(error))" : "")
            }
            return error.description
        }
    }

    static func tries(_ tries: Int) -> String {
        tries > 1 ? "retried (\(tries) tries)" : "not retried"
    }
}

/// Secrets out of what is logged: done to a request's parts before they are put in a line.
public enum LogRedaction {
    public static let mark = "REDACTED"

    /// The URL with the value of each query item named like a secret (`api_key`, `token`, …) and
    /// any user or password replaced by `REDACTED`.
    public static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return Redaction.redact(url.absoluteString).replacingOccurrences(of: "=***", with: "=" + mark)
        }
        if components.user != nil { components.user = mark }
        if components.password != nil { components.password = mark }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                Redaction.isSecret(item.name) && item.value != nil ? URLQueryItem(name: item.name, value: mark) : item
            }
        }
        return components.string ?? mark
    }

    /// `url(_:)` for a URL given as text (a configured base URL).
    public static func url(_ text: String) -> String {
        URL(string: text).map { url($0) } ?? Redaction.redact(text).replacingOccurrences(of: "=***", with: "=" + mark)
    }

    /// The header's value, or `REDACTED` for a secret one; an `Authorization` keeps its scheme
    /// (`Bearer REDACTED`).
    public static func header(_ name: String, _ value: String) -> String {
        let lower = name.lowercased()
        if lower == "authorization" || lower == "proxy-authorization" {
            let parts = value.split(separator: " ", maxSplits: 1)
            return parts.count == 2 ? "\(parts[0]) \(mark)" : mark
        }
        if lower == "cookie" || Redaction.isSecret(lower) { return mark }
        return value
    }
}
