import Foundation

/// A client with no network: every request fails at once as unreachable.
public final class OfflineHTTPClient: HTTPClient {
    public init() {}

    public func send(_ request: HTTPRequest,
                     completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        completion(.failure(.transport(.notConnected)))
        return Done()
    }

    private final class Done: HTTPCancellable {
        func cancel() {}
    }
}
