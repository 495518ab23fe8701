import Foundation
import NimbusData

/// The network of a tape: fixture files served per path, in process and at once, or no network at all.
/// Nothing leaves the process, so tapes never touch the internet and stay deterministic.
final class TapeHTTPClient: HTTPClient, @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [String: Data] = [:]
    /// Requests made so far (paths with queries), for diagnosing tapes.
    private(set) var log: [String] = []

    func serve(_ path: String, body: Data) {
        lock.lock()
        routes[path] = body
        lock.unlock()
    }

    func goOffline() {
        lock.lock()
        routes = [:]
        lock.unlock()
    }

    func send(_ request: HTTPRequest,
              completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        lock.lock()
        log.append(request.url.path + "?" + (request.url.query ?? ""))
        let offline = routes.isEmpty
        let body = routes[request.url.path]
        lock.unlock()
        if offline {
            completion(.failure(.transport(.notConnected)))
        } else if let body, body.count <= request.maxBytes {
            completion(.success(HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body)))
        } else {
            completion(.failure(body == nil ? .server(status: 404) : .transport(.tooLarge(limit: request.maxBytes))))
        }
        return Done()
    }

    private final class Done: HTTPCancellable {
        func cancel() {}
    }
}
