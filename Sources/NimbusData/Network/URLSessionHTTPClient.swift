import Foundation
import Synchronization
import FoundationNetworking
import OpenCombineShim

/// the size cap while the body arrives, and a deadline per request for the whole exchange.
public final class URLSessionHTTPClient: HTTPClient, Sendable {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// - Parameter connectTimeout: longest silence while connecting or between two packets.
    public init(connectTimeout: TimeInterval = 8, userAgent: String = "nimbus") {
        _ = Self.noSharedURLCache
        // Not `.ephemeral`: on Linux it makes a URL cache of its own, which creates the folder.
        let configuration = URLSessionConfiguration.default
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = connectTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpAdditionalHeaders = ["User-Agent": userAgent]
        delegate = SessionDelegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "nimbus.http"
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Foundation's shared URL cache, made on first use by any session configuration, creates an
    /// `org.swift.foundation.URLCache` folder under the user's cache directory. Nimbus caches what it
    /// chooses itself, so the shared cache is replaced, once, by one that holds nothing: its disk path
    /// is one that always exists (it creates the folder it is given) and it never writes there.
    private static let noSharedURLCache: Void = {
        URLCache.shared = URLCache(memoryCapacity: 0, diskCapacity: 0, diskPath: "/")
    }()

    /// Decoded body bytes the session has handed over so far, including those dropped past a cap.
    var bytesReceived: Int { delegate.bytesReceived }

    /// Tasks whose transfer has not ended yet, cancelled ones included.
    var unfinishedTasks: Int { delegate.unfinished }

    /// Sends `request`; a GET whose connection broke before a whole response came (lost, or a reply
    /// libcurl could not read) is sent once more, as browsers do for a connection the server had
    /// already dropped. Timeouts, refusals and HTTP statuses are never retried.
    public func send(_ request: HTTPRequest,
                     completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        exchange(request) { completion($0.result) }
    }

    public func exchange(_ request: HTTPRequest,
                         completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
        let handle = RetryHandle()
        @Sendable func attempt(_ retriesLeft: Int) {
            let task = sendOnce(request) { exchange in
                if retriesLeft > 0, case .failure(.transport(let reason)) = exchange.result,
                   Self.isBrokenConnection(reason), !handle.isCancelled {
                    attempt(retriesLeft - 1)
                } else {
                    completion(exchange)
                }
            }
            handle.set(task)
        }
        attempt(1)
        return handle
    }

    static func isBrokenConnection(_ reason: HTTPError.Transport) -> Bool {
        reason == .connectionLost || reason == .other(code: NSURLErrorBadServerResponse)
    }

    /// The cancellable of whichever attempt is current.
    final class RetryHandle: HTTPCancellable, Sendable {
        private struct State {
            var current: HTTPCancellable?
            var cancelled = false
        }
        private let state = Mutex(State())

        var isCancelled: Bool { state.withLock { $0.cancelled } }

        func set(_ task: HTTPCancellable) {
            let cancelled = state.withLock { state in
                if !state.cancelled { state.current = task }
                return state.cancelled
            }
            if cancelled { task.cancel() }
        }

        func cancel() {
            let task = state.withLock { state in
                state.cancelled = true
                defer { state.current = nil }
                return state.current
            }
            task?.cancel()
        }
    }

    private func sendOnce(_ request: HTTPRequest,
                          completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        // Whole seconds: FoundationNetworking hands libcurl a truncated integer, and 0 there means "at once".
        // A second later than the deadline below when that is the shorter: FoundationNetworking traps
        // ("a task that is not in the registry") when a task is cancelled just as libcurl ends it,
        // so the two must not fire together.
        let idle = min(request.timeout + 1, session.configuration.timeoutIntervalForRequest)
        urlRequest.timeoutInterval = max(1, idle.rounded(.up))
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: urlRequest)
        let state = TaskState(limit: request.maxBytes, timeout: request.timeout, task: task, origin: Origin(request.url),
                              completion: completion)
        delegate.register(state, for: task.taskIdentifier)
        // The whole exchange is bounded, however slowly the bytes drip.
        let deadline = DispatchWorkItem { [weak state] in state?.fail(.transport(.timedOut)) }
        state.deadline = deadline
        DispatchQueue.global().asyncAfter(deadline: .now() + request.timeout, execute: deadline)
        task.resume()
        return state
    }

    /// Scheme, host and port: what a redirect must keep for the request's headers and query to follow it.
    struct Origin: Equatable {
        let scheme: String
        let host: String
        let port: Int

        init?(_ url: URL?) {
            guard let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host?.lowercased(), !host.isEmpty else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = url.port ?? (scheme == "https" ? 443 : 80)
        }
    }

    /// Per-task buffers and the single completion.
    final class TaskState: HTTPCancellable, @unchecked Sendable { // unchecked: `lock` guards the vars; `deadline` is set before the task starts
        private let lock = NSLock()
        private let limit: Int
        private let task: URLSessionTask
        private var completion: (@Sendable (HTTPExchange) -> Void)?
        private var data = Data()
        private var response: HTTPURLResponse?
        var deadline: DispatchWorkItem?

        /// Where the request went first; redirects may only stay there.
        let origin: Origin?

        /// The request's deadline, also the longest a body past the cap may go on arriving.
        let timeout: TimeInterval

        init(limit: Int, timeout: TimeInterval, task: URLSessionTask, origin: Origin?,
             completion: @escaping @Sendable (HTTPExchange) -> Void) {
            self.limit = limit
            self.timeout = timeout
            self.origin = origin
            self.task = task
            self.completion = completion
        }

        /// Returns false when the response must be dropped (too large already).
        func received(response: URLResponse) -> Bool {
            lock.lock()
            self.response = response as? HTTPURLResponse
            lock.unlock()
            if response.expectedContentLength > Int64(limit) {
                // The `.cancel` disposition ends the task; a cancel of our own could race it.
                fail(.transport(.tooLarge(limit: limit)), stop: .never)
                return false
            }
            return true
        }

        func received(data chunk: Data) {
            lock.lock()
            guard completion != nil else { lock.unlock(); return }
            if data.count + chunk.count > limit {
                lock.unlock()
                fail(.transport(.tooLarge(limit: limit)), stop: .later(after: timeout))
                return
            }
            data.append(chunk)
            lock.unlock()
        }

        func completed(error: Error?) {
            lock.lock()
            ended = true
            lock.unlock()
            if let error {
                lock.lock()
                let expected = response?.expectedContentLength ?? -1
                let got = Int64(data.count)
                lock.unlock()
                let unknown = (error as NSError).code == NSURLErrorUnknown
                let text = (error as NSError).localizedDescription.lowercased()
                // libcurl's content-decoding failure and its "partial file" have no URL error code of their own.
                if unknown && (text.contains("unencoding") || text.contains("decoding")) {
                    fail(.transport(.badReply))
                } else {
                    fail(expected > got && unknown ? .transport(.connectionLost) : Self.map(error))
                }
                return
            }
            lock.lock()
            let response = self.response
            let body = data
            lock.unlock()
            guard let response else { fail(.transport(.other(code: 0))); return }
            guard (200..<300).contains(response.statusCode) else { fail(.server(status: response.statusCode)); return }
            guard !body.isEmpty else { fail(.missingData); return }
            var headers: [String: String] = [:]
            for (k, v) in response.allHeaderFields {
                if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
            }
            deliver(.success(HTTPResponse(status: response.statusCode, headers: headers, body: body)))
        }

        /// When a failed transfer is stopped.
        enum Stop {
            /// At once: the transfer is still running (a deadline passed).
            case now
            /// After `after` seconds if it is still running then: a body past the cap is dropped as it
            /// comes, and one that ends by itself needs no cancel.
            case later(after: TimeInterval)
            /// Never: the session ends the task itself (a refused redirect, a `.cancel` disposition).
            case never
        }

        /// Delivers `error` and stops the transfer as `stop` says. FoundationNetworking traps ("a task
        /// that is not in the registry") when a cancel meets the task's own end, so cancels are kept
        /// to transfers that are not about to end, and never made once the session has ended the task.
        func fail(_ error: HTTPError, stop: Stop = .now) {
            deliver(.failure(error))
            let delay: TimeInterval
            switch stop {
            case .never: return
            case .now: delay = 0
            case .later(let after): delay = after
            }
            // Not on the delegate queue: `cancel` waits for the session's work queue, which can be busy
            // inflating a compressed body while the chunks it makes pile up behind this one.
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
                lock.lock()
                let done = ended
                lock.unlock()
                if !done { task.cancel() }
            }
        }

        /// The session has reported the task complete; cancelling it now could trap in Foundation.
        private var ended = false

        func cancel() {
            lock.lock()
            // Once the answer is delivered the transfer is over or being stopped by `fail`.
            let delivered = completion == nil
            completion = nil
            let deadline = self.deadline
            self.deadline = nil
            let done = ended
            lock.unlock()
            deadline?.cancel()
            if !done && !delivered { task.cancel() }
        }

        private func deliver(_ result: Result<HTTPResponse, HTTPError>) {
            lock.lock()
            let completion = self.completion
            self.completion = nil
            let deadline = self.deadline
            self.deadline = nil
            let bytes = data.count
            let reply = completion == nil ? nil : response.map(HTTPReplyHead.init)
            data = Data()
            lock.unlock()
            deadline?.cancel()
            completion?(HTTPExchange(result: result, reply: reply.map { $0.with(bytes: bytes) }))
        }

        static func map(_ error: Error) -> HTTPError {
            let code = (error as NSError).code
            guard (error as NSError).domain == NSURLErrorDomain else { return .transport(.other(code: code)) }
            switch code {
            // The URL was checked when the request was made, so an "unsupported URL" from libcurl
            // is a reply it could not read (an HTTP/0.9 answer, for one).
            case NSURLErrorUnsupportedURL, NSURLErrorCannotDecodeContentData, NSURLErrorCannotDecodeRawData,
                 NSURLErrorCannotParseResponse:
                return .transport(.badReply)
            case NSURLErrorTimedOut: return .transport(.timedOut)
            case NSURLErrorHTTPTooManyRedirects: return .transport(.redirectLoop)
            case NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
                return .transport(.cannotConnect)
            case NSURLErrorNotConnectedToInternet: return .transport(.notConnected)
            case NSURLErrorNetworkConnectionLost: return .transport(.connectionLost)
            case NSURLErrorCancelled: return .transport(.cancelled)
            case NSURLErrorBadURL: return .invalidURL("")
            default: return .transport(.other(code: code))
            }
        }
    }

    /// Routes session callbacks to each task's state.
    final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
        private struct Tasks {
            var states: [Int: TaskState] = [:]
            /// Decoded body bytes handed over by the session so far, kept or not (for tests).
            var bytes = 0
        }
        private let tasks = Mutex(Tasks())

        func register(_ state: TaskState, for id: Int) {
            tasks.withLock { $0.states[id] = state }
        }

        private func state(_ id: Int, remove: Bool = false) -> TaskState? {
            tasks.withLock { remove ? $0.states.removeValue(forKey: id) : $0.states[id] }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            let keep = state(dataTask.taskIdentifier)?.received(response: response) ?? false
            completionHandler(keep ? .allow : .cancel)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            tasks.withLock { $0.bytes += data.count }
            state(dataTask.taskIdentifier)?.received(data: data)
        }

        /// Tasks the session has not finished yet (for tests).
        var unfinished: Int { tasks.withLock { $0.states.count } }

        /// Decoded body bytes handed over by the session so far, kept or not (for tests).
        var bytesReceived: Int { tasks.withLock { $0.bytes } }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            state(task.taskIdentifier, remove: true)?.completed(error: error)
        }

        /// Follows a redirect only within the request's origin: the request's headers (a bearer
        /// token) and query (an API key) would otherwise go to a host nobody configured.
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            guard let state = state(task.taskIdentifier) else { completionHandler(nil); return }
            // Foundation resolves some targets (`file:///…`) against the current URL; judge the
            // Location header as sent, too.
            let location = (response.allHeaderFields.first { ($0.key as? String)?.lowercased() == "location" }?.value as? String)
                .flatMap { URL(string: $0.trimmingCharacters(in: .whitespaces), relativeTo: response.url)?.absoluteURL }
            if let origin = state.origin, Origin(request.url) == origin, location.map({ Origin($0) == origin }) ?? true {
                completionHandler(request)
            } else {
                // Refused, the session ends the task with the 3xx answer itself: no cancel to race it
                // (and the session must hear back before anyone can cancel).
                completionHandler(nil)
                state.fail(.transport(.redirectRefused), stop: .never)
            }
        }
    }
}
