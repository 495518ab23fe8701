import Foundation
import NimbusDomain
import OpenCombineShim

/// Likes in memory; `failWrites` makes every write throw.
public final class InMemoryLikes: LikesRepository, @unchecked Sendable { // unchecked: one thread
    public init() {}

    private let subject = CurrentValueSubject<[Int], Never>([])
    public var ids: [Int] {
        get { subject.value }
        set { subject.send(newValue) }
    }
    public var failWrites = false
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
