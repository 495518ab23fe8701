import Foundation
import Synchronization
import NimbusDomain

/// A map repository that draws one-glyph maps and records every render and its cancellation flag.
public final class FakeMapRepository: MapRepository, Sendable {
    /// The settings the tests set, and what the renders made and recorded.
    private struct State {
        var cache: [MapSnapshotKey: MapSnapshot] = [:]
        var recorded: [(key: MapSnapshotKey, cancel: CancellationFlag)] = []
        var failure: MapError?
        var delay: TimeInterval = 0
        var projected = false
    }
    private let state = Mutex(State())
    public var renders: [(key: MapSnapshotKey, cancel: CancellationFlag)] { state.withLock { $0.recorded } }
    public var failure: MapError? {
        get { state.withLock { $0.failure } }
        set { state.withLock { $0.failure = newValue } }
    }
    /// Seconds each render takes (a slow render shows cancellation on real queues).
    public var delay: TimeInterval {
        get { state.withLock { $0.delay } }
        set { state.withLock { $0.delay = newValue } }
    }
    /// Whether snapshots say where places fall (for markers).
    public var projected: Bool {
        get { state.withLock { $0.projected } }
        set { state.withLock { $0.projected = newValue } }
    }

    public init() {}

    public func cachedSnapshot(_ key: MapSnapshotKey) -> MapSnapshot? {
        state.withLock { $0.cache[key] }
    }

    public func renderSnapshot(_ request: MapRequest, cancel: CancellationFlag) throws(MapError) -> MapSnapshot? {
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        let made: Result<MapSnapshot?, MapError> = state.withLock { state in
            state.recorded.append((request.key, cancel))
            if let failure = state.failure { return .failure(failure) }
            if cancel.isCancelled { return .success(nil) }
            let row = Array(repeating: MapCell(glyph: "⣿", kind: .land), count: request.key.size.cols)
            let snapshot = MapSnapshot(key: request.key, rows: Array(repeating: row, count: request.key.size.rows),
                                       marker: (x: request.key.size.cols / 2, y: request.key.size.rows / 2),
                                       kilometresPerColumn: 10, projection: state.projected ? MapProjection(request) : nil)
            state.cache[request.key] = snapshot
            return .success(snapshot)
        }
        return try made.get()
    }

    public var statistics: MapCacheStatistics { MapCacheStatistics(count: state.withLock { $0.cache.count }) }
}
