import Foundation
import Synchronization

/// The app's network: a `URLSessionHTTPClient`, made on the first request (or `prepare`) because a
/// URLSession on Linux loads and sets up libcurl, which start-up should not pay for. When libcurl
/// can't be loaded the client stays offline, and says why in `unavailableReason`.
///
/// This is the one layer of laziness between the app and the network.
public final class LiveHTTPClient: HTTPClient {
    private enum State {
        case notMade
        case made(HTTPClient)
        case unavailable(String)
    }

    private let state = Mutex(State.notMade)
    private let offline = OfflineHTTPClient()
    private let make: @Sendable () -> HTTPClient

    /// - Parameter make: the client to use once libcurl is loaded.
    public init(_ make: @escaping @Sendable () -> HTTPClient = { URLSessionHTTPClient() }) {
        self.make = make
    }

    private var resolved: HTTPClient {
        state.withLock { state in
            switch state {
            case .made(let client): return client
            case .unavailable: return offline
            case .notMade:
                if let reason = Libcurl.load() {
                    state = .unavailable(reason)
                    return offline
                }
                let client = make()
                state = .made(client)
                return client
            }
        }
    }

    /// Why the app went without the network: libcurl could not be used. Nil while it is fine or
    /// hasn't been tried. Said on the way out, after the terminal is restored.
    public var unavailableReason: String? {
        state.withLock { state in
            if case .unavailable(let reason) = state { return reason }
            return nil
        }
    }

    public func send(_ request: HTTPRequest,
                     completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        resolved.send(request, completion: completion)
    }

    public func exchange(_ request: HTTPRequest,
                         completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
        resolved.exchange(request, completion: completion)
    }

    /// Loads libcurl and makes the client now.
    public func prepare() {
        _ = resolved
    }
}
