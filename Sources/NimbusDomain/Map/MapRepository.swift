import Foundation
import Synchronization

/// A flag a caller sets to stop work that is already running on another queue.
public final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)
    public init() {}
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    public func cancel() { cancelled.store(true, ordering: .releasing) }
}

/// Why a map could not be drawn.
public enum MapError: Error, Equatable, Sendable {
    /// The land data is not installed (the file named).
    case dataMissing(String)
    /// The land data could not be read or is damaged (the reason).
    case dataDamaged(String)
}

/// Draws maps from land data and keeps the snapshots it drew.
public protocol MapRepository: Sendable {
    /// The cached snapshot for `key`, counted as a hit or a miss.
    func cachedSnapshot(_ key: MapSnapshotKey) -> MapSnapshot?
    /// Renders `request` and caches the result; nil when `cancel` was set before it finished.
    func renderSnapshot(_ request: MapRequest, cancel: CancellationFlag) throws(MapError) -> MapSnapshot?
    /// The cache's counters.
    var statistics: MapCacheStatistics { get }
}

/// Shows the map of a city: from the cache at once when it was drawn before, otherwise rendered.
public struct ShowCityMapUseCase: Sendable {
    private let repository: MapRepository
    public init(repository: MapRepository) { self.repository = repository }

    /// The snapshot when it is cached; cheap, for the main queue.
    public func cached(_ request: MapRequest) -> MapSnapshot? {
        repository.cachedSnapshot(request.key)
    }

    /// Renders the snapshot (slow: call it off the main queue); nil when cancelled.
    public func render(_ request: MapRequest, cancel: CancellationFlag = CancellationFlag()) throws(MapError) -> MapSnapshot? {
        try repository.renderSnapshot(request, cancel: cancel)
    }

    /// The cached snapshot, or one rendered now (for thumbnails and the command line).
    public func snapshot(_ request: MapRequest, cancel: CancellationFlag = CancellationFlag()) throws(MapError) -> MapSnapshot? {
        if let hit = cached(request) { return hit }
        return try render(request, cancel: cancel)
    }

    public var statistics: MapCacheStatistics { repository.statistics }
}
