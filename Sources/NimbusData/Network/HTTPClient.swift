import Foundation
import OpenCombineShim

/// Something in flight that can be stopped.
public protocol HTTPCancellable: AnyObject, Sendable {
    func cancel()
}

/// Sends GET requests. The live client is `URLSessionHTTPClient`; tests point it at a loopback fixture server.
public protocol HTTPClient: Sendable {
    /// Starts `request`; `completion` runs exactly once, on any queue, unless the returned task is cancelled first.
    func send(_ request: HTTPRequest,
              completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable

    /// Does ahead of time, on the calling queue, the one-off set-up the first request would pay for.
    func prepare()

    /// Starts `request` like `send`, and tells besides the result what the reply said (its status and
    /// headers, 2xx or not: a 429's `Retry-After`) and how many tries it took. The default makes do
    /// with what `send` gives.
    func exchange(_ request: HTTPRequest,
                  completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable
}

extension HTTPClient {
    public func prepare() {}

    public func exchange(_ request: HTTPRequest,
                         completion: @escaping @Sendable (HTTPExchange) -> Void) -> HTTPCancellable {
        send(request) { completion(HTTPExchange(result: $0)) }
    }

    /// The response as a publisher: the request starts on subscription and is cancelled with it.
    public func publisher(for request: HTTPRequest) -> AnyPublisher<HTTPResponse, HTTPError> {
        HTTPPublisher(client: self, request: request).eraseToAnyPublisher()
    }

    /// The body decoded as JSON into `T`; a body that does not decode fails with `.decoding`.
    public func decode<T: Decodable>(_ type: T.Type, from request: HTTPRequest,
                                     decoder: JSONDecoder = JSONDecoder()) -> AnyPublisher<T, HTTPError> {
        publisher(for: request)
            .tryMap { try decoder.decode(T.self, from: $0.body) }
            .mapError { error in
                if let http = error as? HTTPError { return http }
                return .decoding(HTTPDecoding.describe(error))
            }
            .eraseToAnyPublisher()
    }
}

/// Short descriptions of decoding errors: the coding path and the reason, never the body.
public enum HTTPDecoding {
    public static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: type(of: error)) }
        func path(_ keys: [CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        }
        switch error {
        case .typeMismatch(let type, let context): return "type mismatch (\(type)) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context): return "missing value (\(type)) at \(path(context.codingPath))"
        case .keyNotFound(let key, let context): return "missing key \(key.stringValue) at \(path(context.codingPath))"
        case .dataCorrupted(let context): return "corrupt data at \(path(context.codingPath))"
        @unknown default: return "decoding failed"
        }
    }
}
