import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import Synchronization

/// Likes in memory; `failWrites` makes every write throw.
public final class InMemoryLikes: LikesRepository, Sendable {
    public init() {}

    private let subject = CurrentValueSubject<[Int], Never>([])
    public var ids: [Int] {
        get { subject.value }
        set { subject.send(newValue) }
    }
    private let failing = Mutex(false)
    public var failWrites: Bool {
        get { failing.withLock { $0 } }
        set { failing.withLock { $0 = newValue } }
    }
    public func likedCityIDs() throws -> [Int] { ids }
    public func isLiked(_ cityID: Int) throws -> Bool { ids.contains(cityID) }
    public func setLiked(_ cityID: Int, _ liked: Bool) throws {
        if failWrites { throw LikesError.storage("disk I/O error") }
        var new = ids
        new.removeAll { $0 == cityID }
        if liked { new.insert(cityID, at: 0) }
        ids = new
    }
    public var contents: AnyPublisher<[Int], Never> { subject.eraseToAnyPublisher() }
}
