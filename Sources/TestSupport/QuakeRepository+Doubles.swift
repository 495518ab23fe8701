import Foundation
import NimbusDomain
import OpenCombineShim

/// A quake feed the test answers by hand.
public final class ScriptedQuakes: QuakeRepository, @unchecked Sendable { // unchecked: one thread
    public init() {}

    public private(set) var requests: [QuakeFeed] = []
    public var subject = PassthroughSubject<QuakeFeedUpdate, QuakeError>()
    public func feed(_ feed: QuakeFeed) -> AnyPublisher<QuakeFeedUpdate, QuakeError> {
        requests.append(feed)
        subject = PassthroughSubject()
        return subject.eraseToAnyPublisher()
    }
}
