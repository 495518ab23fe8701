import Foundation
import FoundationNetworking

/// What a reply's head said: its status and headers (names lower-cased), and the body bytes that came.
public struct HTTPReplyHead: Sendable, Equatable {
    public let status: Int
    public let headers: [String: String]
    /// Body bytes received (decoded), whether or not they were kept.
    public let bytes: Int

    public init(status: Int, headers: [String: String] = [:], bytes: Int = 0) {
        self.status = status
        self.headers = headers
        self.bytes = bytes
    }

    init(_ response: HTTPURLResponse) {
        var headers: [String: String] = [:]
        for (k, v) in response.allHeaderFields {
            if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
        }
        self.init(status: response.statusCode, headers: headers)
    }

    func with(bytes: Int) -> HTTPReplyHead { HTTPReplyHead(status: status, headers: headers, bytes: bytes) }
}

/// One request's outcome with what the reply said besides: the status and headers of a reply
/// outside 2xx are lost in `HTTPError.server`, and a retry needs a 429's `Retry-After`.
public struct HTTPExchange: Sendable, Equatable {
    public let result: Result<HTTPResponse, HTTPError>
    /// The reply's head; nil when no reply came (a transport error).
    public let reply: HTTPReplyHead?
    /// Tries it took: 1, more when a retrying client sent it again.
    public let tries: Int

    public init(result: Result<HTTPResponse, HTTPError>, reply: HTTPReplyHead?, tries: Int = 1) {
        self.result = result
        self.reply = reply
        self.tries = tries
    }

    /// The exchange a plain result tells: the status and headers of a response, the status of a
    /// server error.
    public init(result: Result<HTTPResponse, HTTPError>) {
        switch result {
        case .success(let response):
            self.init(result: result, reply: HTTPReplyHead(status: response.status, headers: response.headers,
                                                           bytes: response.body.count))
        case .failure(.server(let status)):
            self.init(result: result, reply: HTTPReplyHead(status: status))
        case .failure:
            self.init(result: result, reply: nil)
        }
    }

    func with(tries: Int) -> HTTPExchange { HTTPExchange(result: result, reply: reply, tries: tries) }
}
