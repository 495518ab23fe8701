import Foundation

/// A GET request with its limits.
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible {
    public var url: URL
    public var headers: [String: String]
    /// Longest wait for the whole response, first byte to last (a slow drip ends here too).
    public var timeout: TimeInterval
    /// Largest body accepted; a longer one is cut off with `HTTPError.transport(.tooLarge)`.
    public var maxBytes: Int

    public init(url: URL, headers: [String: String] = [:], timeout: TimeInterval = 10, maxBytes: Int = 4 << 20) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxBytes = maxBytes
    }

    /// Builds a request from a base URL, a path and query items; nil when they don't make a URL.
    public init?(base: String, path: String = "", query: [URLQueryItem] = [], headers: [String: String] = [:],
                 timeout: TimeInterval = 10, maxBytes: Int = 4 << 20) {
        guard var components = URLComponents(string: base),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              components.host?.isEmpty == false else { return nil }
        if !path.isEmpty {
            let trimmed = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            components.path = trimmed + (path.hasPrefix("/") ? path : "/" + path)
        }
        if !query.isEmpty { components.queryItems = (components.queryItems ?? []) + query }
        guard let url = components.url else { return nil }
        self.init(url: url, headers: headers, timeout: timeout, maxBytes: maxBytes)
    }

    /// The URL with secret query items replaced by `***`; safe for logs.
    public var description: String { "GET \(Redaction.redact(url.absoluteString))" }
}

/// A response with a 2xx status and a non-empty body.
public struct HTTPResponse: Sendable, Equatable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a request failed; every failure of the network layer is one of these.
public enum HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// How the connection failed.
    public enum Transport: Equatable, Sendable {
        case timedOut
        case cannotConnect
        case notConnected
        /// The body grew past the request's `maxBytes`.
        case tooLarge(limit: Int)
        /// The connection closed before the whole body came.
        case connectionLost
        /// What came back was not a readable HTTP reply (HTTP/0.9, a body that does not decompress).
        case badReply
        /// The server redirected to another origin (scheme, host or port) or to a non-HTTP URL;
        /// such redirects are not followed, so credentials never leave the configured origin.
        case redirectRefused
        /// The server redirected within its origin round in a loop (libcurl gives up after 30).
        case redirectLoop
        case cancelled
        /// Another URL-loading error, by its code.
        case other(code: Int)
    }

    /// The URL could not be built (the text is redacted).
    case invalidURL(String)
    case transport(Transport)
    /// A status outside 2xx (429 too many requests, 500, ...).
    case server(status: Int)
    /// A 2xx response with no body.
    case missingData
    /// The body was not what was expected (truncated JSON, wrong types, missing fields); the detail is for logs.
    case decoding(String)

    public var description: String {
        switch self {
        case .invalidURL(let text): return "invalid URL \(Redaction.redact(text))"
        case .transport(let t): return "transport error: \(t)"
        case .server(let status): return "server error: HTTP \(status)"
        case .missingData: return "missing data"
        case .decoding(let detail): return "decoding error: \(Redaction.redact(detail))"
        }
    }
}

/// Hides secrets (query items named like keys, tokens, passwords) in text meant for logs.
public enum Redaction {
    static let secretNames = ["key", "token", "secret", "password", "passwd", "auth", "signature", "session"]

    public static func isSecret(_ name: String) -> Bool {
        let lower = name.lowercased()
        return secretNames.contains { lower.contains($0) }
    }

    /// `text` with the value of every `name=value` whose name looks secret replaced by `***`.
    public static func redact(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        // name=value pairs end at &, whitespace, # or a quote.
        let stops: Set<Character> = ["&", " ", "#", "\"", "'", "\n", "\t", ")"]
        while let eq = rest.firstIndex(of: "=") {
            let before = rest[..<eq]
            let nameStart = before.lastIndex(where: { $0 == "?" || $0 == "&" || stops.contains($0) })
                .map { before.index(after: $0) } ?? before.startIndex
            let name = before[nameStart...]
            out += before
            out += "="
            let afterEq = rest.index(after: eq)
            let valueEnd = rest[afterEq...].firstIndex(where: { stops.contains($0) }) ?? rest.endIndex
            out += isSecret(String(name)) && valueEnd > afterEq ? "***" : String(rest[afterEq..<valueEnd])
            rest = rest[valueEnd...]
        }
        return out + rest
    }
}

extension HTTPRequest {
    /// A server's base URL given by an environment variable (`NIMBUS_WEATHER_URL`…), else `fallback`:
    /// surrounding spaces are ignored, and an empty value counts as none.
    public static func base(_ value: String?, else fallback: String) -> String {
        let value = value?.trimmingCharacters(in: .whitespaces) ?? ""
        return value.isEmpty ? fallback : value
    }
}
