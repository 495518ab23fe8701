import Foundation
import Synchronization
import NimbusDomain

/// Rendered maps by (city, zoom, size, style, pan), with `NSCache` semantics: a count limit, a total
/// cost limit (cost = cells), least-recently-used eviction, safe from any thread, and counters.
///
/// Not `NSCache` itself: on Linux, swift-corelibs-foundation's `NSCache` evicts the cheapest entry
/// rather than the least recently used one and keeps no counters (see `MapSnapshotCacheTests`).
public final class MapSnapshotCache: Sendable {
    private let list: Mutex<LRUList>

    /// A limit of 0 means no limit, as with `NSCache`.
    public init(countLimit: Int = 64, totalCostLimit: Int = 200_000) {
        list = Mutex(LRUList(countLimit: countLimit, totalCostLimit: totalCostLimit))
    }

    /// The snapshot for `key`, which becomes the most recently used; counts a hit or a miss.
    public func object(forKey key: MapSnapshotKey) -> MapSnapshot? {
        list.withLock { $0.object(forKey: key) }
    }

    /// Stores `value` as the most recently used entry, then evicts the least recently used entries
    /// until both limits hold (an entry costlier than the whole limit is not kept).
    public func setObject(_ value: MapSnapshot, forKey key: MapSnapshotKey, cost: Int? = nil) {
        let cost = max(0, cost ?? value.cost)
        list.withLock { $0.setObject(value, forKey: key, cost: cost) }
    }

    /// Removes one entry (not counted as an eviction).
    public func removeObject(forKey key: MapSnapshotKey) {
        list.withLock { $0.removeObject(forKey: key) }
    }

    public func removeAllObjects() {
        list.withLock { $0.removeAllObjects() }
    }

    /// Keys from least to most recently used.
    public var keysByRecency: [MapSnapshotKey] { list.withLock { $0.keysByRecency } }

    public var statistics: MapCacheStatistics { list.withLock { $0.stats } }
}

/// The cache's entries in a doubly linked list by recency, with an index by key; guarded by the
/// cache's mutex.
private struct LRUList {
    final class Node {
        let key: MapSnapshotKey
        var value: MapSnapshot
        var cost: Int
        var newer: Node?
        weak var older: Node?
        init(key: MapSnapshotKey, value: MapSnapshot, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    var nodes: [MapSnapshotKey: Node] = [:]
    /// Least recently used end; `newest` is the other.
    var oldest: Node?
    var newest: Node?
    var stats: MapCacheStatistics

    init(countLimit: Int, totalCostLimit: Int) {
        stats = MapCacheStatistics(countLimit: max(0, countLimit), totalCostLimit: max(0, totalCostLimit))
    }

    /// The snapshot for `key`, which becomes the most recently used; counts a hit or a miss.
    mutating func object(forKey key: MapSnapshotKey) -> MapSnapshot? {
        guard let node = nodes[key] else {
            stats.misses += 1
            return nil
        }
        stats.hits += 1
        unlink(node)
        append(node)
        return node.value
    }

    /// Stores `value` as the most recently used entry, then evicts the least recently used entries
    /// until both limits hold (an entry costlier than the whole limit is not kept).
    mutating func setObject(_ value: MapSnapshot, forKey key: MapSnapshotKey, cost: Int) {
        if let node = nodes[key] {
            stats.totalCost += cost - node.cost
            node.value = value
            node.cost = cost
            unlink(node)
            append(node)
        } else {
            let node = Node(key: key, value: value, cost: cost)
            nodes[key] = node
            append(node)
            stats.totalCost += cost
        }
        while let victim = oldest,
              (stats.countLimit > 0 && nodes.count > stats.countLimit)
                || (stats.totalCostLimit > 0 && stats.totalCost > stats.totalCostLimit) {
            remove(victim)
            stats.evictions += 1
        }
        stats.count = nodes.count
    }

    /// Removes one entry (not counted as an eviction).
    mutating func removeObject(forKey key: MapSnapshotKey) {
        if let node = nodes[key] { remove(node) }
        stats.count = nodes.count
    }

    mutating func removeAllObjects() {
        while let node = oldest { remove(node) }
        stats.count = 0
    }

    /// Keys from least to most recently used.
    var keysByRecency: [MapSnapshotKey] {
        var keys: [MapSnapshotKey] = []
        var node = oldest
        while let n = node { keys.append(n.key); node = n.newer }
        return keys
    }

    // MARK: List

    private mutating func append(_ node: Node) {
        node.older = newest
        node.newer = nil
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }

    private mutating func unlink(_ node: Node) {
        let older = node.older, newer = node.newer
        if let older { older.newer = newer } else { oldest = newer }
        if let newer { newer.older = older } else { newest = older }
        node.older = nil
        node.newer = nil
    }

    private mutating func remove(_ node: Node) {
        unlink(node)
        nodes[node.key] = nil
        stats.totalCost -= node.cost
    }
}
