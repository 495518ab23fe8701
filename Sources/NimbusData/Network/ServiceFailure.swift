import Foundation
import NimbusDomain

/// A keyless service's failure, named alike whichever service it is: the warnings sources and the
/// climate archive turn the network's errors into their own with this one mapping.
protocol ServiceFailure {
    static var offline: Self { get }
    static var timedOut: Self { get }
    static var rateLimited: Self { get }
    static var badResponse: Self { get }
    static var tooLarge: Self { get }
    static var badConfiguration: Self { get }
    static var redirected: Self { get }
    static var connectionLost: Self { get }
    static func server(status: Int) -> Self
}

extension ServiceFailure {
    /// The network layer's error as the domain sees it.
    static func from(_ error: HTTPError) -> Self {
        switch error {
        case .invalidURL: return .badConfiguration
        case .transport(.timedOut): return .timedOut
        case .transport(.tooLarge): return .tooLarge
        // A redirect elsewhere, or round in a loop: the server answered, and not with the answer.
        case .transport(.redirectRefused), .transport(.redirectLoop): return .redirected
        case .transport(.badReply): return .badResponse
        // The server sent less than it announced, or the connection broke off in the answer.
        case .transport(.connectionLost), .transport(.other(code: NSURLErrorBadServerResponse)): return .connectionLost
        case .transport: return .offline
        case .server(status: 429): return .rateLimited
        case .server(let status): return .server(status: status)
        case .missingData, .decoding: return .badResponse
        }
    }
}

extension ClimateError: ServiceFailure {}
extension WarningsError: ServiceFailure {}
