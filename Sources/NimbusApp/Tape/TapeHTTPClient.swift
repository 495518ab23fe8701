import Foundation
import Synchronization
import NimbusData

/// The network of a tape: fixture files served per path, in process and at once, or no network at all.
/// Nothing leaves the process, so tapes never touch the internet and stay deterministic.
final class TapeHTTPClient: HTTPClient, Sendable {
    private struct State {
        var routes: [String: Data] = [:]
        /// Requests made so far (paths with queries), for diagnosing tapes.
        var log: [String] = []
    }
    private let state = Mutex(State())

    /// Requests made so far (paths with queries), for diagnosing tapes.
    var log: [String] { state.withLock { $0.log } }

    func serve(_ path: String, body: Data) {
        state.withLock { $0.routes[path] = body }
    }

    func goOffline() {
        state.withLock { $0.routes = [:] }
    }

    func send(_ request: HTTPRequest,
              completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        let (offline, body) = state.withLock { state in
            state.log.append(request.url.path + "?" + (request.url.query ?? ""))
            return (state.routes.isEmpty, state.routes[request.url.path])
        }
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
