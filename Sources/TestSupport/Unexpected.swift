import Foundation
@preconcurrency import OpenCombineShim

/// What a double does with a call, as isowords' dependencies do: `.failing` reports every call as one
/// the test did not expect (naming it, at the line that made the double) and answers empty, so the
/// code under test carries on to what the test checks; `.noop` takes every call and never answers
/// (its publishers never end), for a dependency the test does not look at.
///
/// Every dependency has a double with both (`WeatherRepositoryDouble.failing()`, `.noop`, …): a test
/// says of each collaborator whether it may be asked.
public struct Unexpected: Sendable {
    private let file: StaticString?
    private let line: UInt

    public static func failing(file: StaticString = #filePath, line: UInt = #line) -> Unexpected {
        Unexpected(file: file, line: line)
    }

    public static let noop = Unexpected(file: nil, line: 0)

    /// Whether calls are reported.
    public var fails: Bool { file != nil }

    /// Reports `call` when failing.
    public func call(_ call: String) {
        if let file { recordFailure("unexpected call to \(call)", file: file, line: line) }
    }

    /// Reports `call` when failing, and answers with a publisher that ends at once without a value
    /// (failing) or never answers (noop).
    public func publisher<Output, Failure: Error>(_ call: String) -> AnyPublisher<Output, Failure> {
        self.call(call)
        return Empty(completeImmediately: fails).eraseToAnyPublisher()
    }
}
