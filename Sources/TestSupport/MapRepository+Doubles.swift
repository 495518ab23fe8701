import Foundation
import NimbusDomain

/// A map repository that draws one-glyph maps and records every render and its cancellation flag.
public final class FakeMapRepository: MapRepository, @unchecked Sendable { // unchecked: renders under the lock, settings set before use
    private let lock = NSLock()
    private var cache: [MapSnapshotKey: MapSnapshot] = [:]
    private var recorded: [(key: MapSnapshotKey, cancel: CancellationFlag)] = []
    public var renders: [(key: MapSnapshotKey, cancel: CancellationFlag)] {
        lock.lock(); defer { lock.unlock() }
        return recorded
    }
    public var failure: MapError?
    /// Seconds each render takes (a slow render shows cancellation on real queues).
    public var delay: TimeInterval = 0
    /// Whether snapshots say where places fall (for markers).
    public var projected = false

    public init() {}

    public func cachedSnapshot(_ key: MapSnapshotKey) -> MapSnapshot? {
        lock.lock(); defer { lock.unlock() }
        return cache[key]
    }

    public func renderSnapshot(_ request: MapRequest, cancel: CancellationFlag) throws(MapError) -> MapSnapshot? {
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        lock.lock(); defer { lock.unlock() }
        recorded.append((request.key, cancel))
        if let failure { throw failure }
        if cancel.isCancelled { return nil }
        let row = Array(repeating: MapCell(glyph: "⣿", kind: .land), count: request.key.size.cols)
        let snapshot = MapSnapshot(key: request.key, rows: Array(repeating: row, count: request.key.size.rows),
                                   marker: (x: request.key.size.cols / 2, y: request.key.size.rows / 2),
                                   kilometresPerColumn: 10, projection: projected ? MapProjection(request) : nil)
        cache[request.key] = snapshot
        return snapshot
    }

    public var statistics: MapCacheStatistics { MapCacheStatistics(count: cache.count) }
}
