import Foundation
import Synchronization
import NimbusDomain
@preconcurrency import OpenCombineShim

/// A quake feed the test answers by hand.
public final class ScriptedQuakes: QuakeRepository, Sendable {
    /// What the tests set and read, and what the calls record.
    private struct State {
        var requests: [QuakeFeed] = []
        var subject: PassthroughSubject<QuakeFeedUpdate, QuakeError> = PassthroughSubject()
    }
    private let state = Mutex(State())
    public init() {}

    public private(set) var requests: [QuakeFeed] {
        get { state.withLock { $0.requests } }
        set { state.withLock { $0.requests = newValue } }
    }
    public var subject: PassthroughSubject<QuakeFeedUpdate, QuakeError> {
        get { state.withLock { $0.subject } }
        set { state.withLock { $0.subject = newValue } }
    }
    public func feed(_ feed: QuakeFeed) -> AnyPublisher<QuakeFeedUpdate, QuakeError> {
        requests.append(feed)
        subject = PassthroughSubject()
        return subject.eraseToAnyPublisher()
    }
}
