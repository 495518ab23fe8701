import Foundation
import OpenCombineShim

/// What a server said identifies a body (`ETag`, `Last-Modified`): kept beside the body, sent back
/// (`If-None-Match`, `If-Modified-Since`) so the server can answer "not modified" (304) instead of
/// sending it again.
public struct HTTPValidators: Equatable, Sendable {
    public let etag: String?
    public let lastModified: String?

    /// Blank values count as absent.
    public init(etag: String?, lastModified: String?) {
        self.etag = etag.flatMap { $0.isEmpty ? nil : $0 }
        self.lastModified = lastModified.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The validators of a response (its headers, names lower-cased as `HTTPResponse` has them),
    /// sanitised and capped: they are a server's text, kept on disk and sent back.
    public init(response: HTTPResponse) {
        self.init(etag: response.headers["etag"].map { RemoteText.clean($0, maxScalars: 200) },
                  lastModified: response.headers["last-modified"].map { RemoteText.clean($0, maxScalars: 64) })
    }

    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// The headers that make a request conditional on these validators.
    public var requestHeaders: [String: String] {
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }
}

/// A kept value with the validators of the body it was made from.
public struct HTTPCached<Value: Sendable>: Sendable {
    public let value: Value
    public let validators: HTTPValidators

    public init(value: Value, validators: HTTPValidators) {
        self.value = value
        self.validators = validators
    }
}

/// The answer to a conditional GET.
public enum ConditionalResponse<Value: Sendable>: Sendable {
    /// 200: a new body, with the validators to keep beside what is made of it.
    case modified(HTTPResponse, HTTPValidators)
    /// 304: the kept value is still current (and nothing was downloaded or decoded).
    case notModified(Value)
}

/// Why a conditional GET failed.
public enum ConditionalGetError: Error, Equatable, Sendable {
    case http(HTTPError)
    /// The server answered 304 to a request that had nothing kept to fall back on.
    case notModifiedWithoutCache
}

extension HTTPClient {
    /// GETs `request` conditionally on `cached`: its validators go out as `If-None-Match` /
    /// `If-Modified-Since` (nothing kept, or kept without validators: a plain GET). A 200 gives the
    /// body and its validators; a 304 gives the kept value back; a 304 with nothing kept is
    /// `.notModifiedWithoutCache`. Any other failure is the client's, as `.http`.
    public func conditionalGet<Value: Sendable>(_ request: HTTPRequest, cached: HTTPCached<Value>?)
        -> AnyPublisher<ConditionalResponse<Value>, ConditionalGetError> {
        var request = request
        // Only validators of something kept go out: a 304 must have something to fall back on.
        if let cached {
            for (name, value) in cached.validators.requestHeaders { request.headers[name] = value }
        }
        return publisher(for: request)
            .map { ConditionalResponse<Value>.modified($0, HTTPValidators(response: $0)) }
            .catch { error -> AnyPublisher<ConditionalResponse<Value>, ConditionalGetError> in
                guard case .server(status: 304) = error else {
                    return Fail(error: .http(error)).eraseToAnyPublisher()
                }
                guard let cached else { return Fail(error: .notModifiedWithoutCache).eraseToAnyPublisher() }
                return Just(.notModified(cached.value)).setFailureType(to: ConditionalGetError.self).eraseToAnyPublisher()
            }
            .eraseToAnyPublisher()
    }
}
