import Foundation
import Synchronization
import NimbusDomain

/// Each feed's events as last shown, with the validators the server sent (`Last-Modified`, `ETag`),
/// under `$XDG_CACHE_HOME/nimbus/quakes`: one file per feed (at most twenty feeds exist), 0600,
/// written atomically, never through a link. What is kept is the checked events, never the raw
/// answer: nothing is cached that would not be drawn.
public final class QuakeFeedCache: Sendable {
    /// What is kept for a feed.
    public struct Entry: Equatable, Sendable {
        public let snapshot: QuakeFeedSnapshot
        public let fetchedAt: Date
        /// What the server sent with the body the events came from.
        public let validators: HTTPValidators

        public init(snapshot: QuakeFeedSnapshot, fetchedAt: Date, validators: HTTPValidators) {
            self.snapshot = snapshot
            self.fetchedAt = fetchedAt
            self.validators = validators
        }
    }

    public let directory: URL
    /// Serialises file access: one reader or writer at a time.
    private let lock = Mutex(())
    /// A feed file larger than this is not ours: 500 events take about 200 kB.
    static let maxBytes = 4 << 20

    /// `directory` is the app's cache directory (`$XDG_CACHE_HOME/nimbus`).
    public init(directory: URL) {
        self.directory = directory.appendingPathComponent("quakes")
    }

    private func url(_ feed: QuakeFeed) -> URL {
        directory.appendingPathComponent("\(feed).json")
    }

    public func read(_ feed: QuakeFeed) -> Entry? {
        let data = lock.withLock { _ in SafeFile.read(url(feed), maxBytes: Self.maxBytes) }
        guard let data,
              let stored = try? JSONDecoder().decode(StoredFeed.self, from: data) else { return nil }
        return stored.entry
    }

    /// Keeps `entry` for `feed`; failures are ignored (the cache is only a convenience).
    public func write(_ entry: Entry, for feed: QuakeFeed) {
        guard let data = try? JSONEncoder().encode(StoredFeed(entry)) else { return }
        lock.withLock { _ in
            _ = SafeFile.makeDirectory(directory)
            SafeFile.write(data, to: url(feed))
        }
    }
}

/// The file's shape; read back through the same checks as a server's answer.
private struct StoredFeed: Codable {
    struct Event: Codable {
        let id: String, mag: Double, place: String, time: Double, updated: Double, tz: Int?
        let lat: Double, lon: Double, depth: Double, url: String?, felt: Int?, alert: String?
        let tsunami: Bool, sig: Int?, magType: String?, type: String?, reviewed: Bool
    }

    let fetchedAt: Double
    let lastModified: String?
    let etag: String?
    let generated: Double?
    let dropped: Int
    let events: [Event]

    init(_ entry: QuakeFeedCache.Entry) {
        fetchedAt = entry.fetchedAt.timeIntervalSince1970
        lastModified = entry.validators.lastModified
        etag = entry.validators.etag
        generated = entry.snapshot.generated?.timeIntervalSince1970
        dropped = entry.snapshot.dropped
        events = entry.snapshot.quakes.map { q in
            Event(id: q.id, mag: q.magnitude, place: q.place, time: q.time.timeIntervalSince1970 * 1000,
                  updated: q.updated.timeIntervalSince1970 * 1000, tz: q.timeZoneOffsetMinutes,
                  lat: q.coordinate.latitude, lon: q.coordinate.longitude, depth: q.depthKilometres, url: q.url,
                  felt: q.felt, alert: q.alert?.rawValue, tsunami: q.tsunami, sig: q.significance,
                  magType: q.magnitudeType, type: q.kind, reviewed: q.reviewed)
        }
    }

    /// The entry, with every event checked again as if it came from the server.
    var entry: QuakeFeedCache.Entry? {
        guard fetchedAt.isFinite, dropped >= 0 else { return nil }
        let quakes = events.compactMap { e -> Quake? in
            USGSFeedDTO.Feature(
                id: e.id,
                properties: .init(mag: e.mag, place: e.place, time: e.time, updated: e.updated, tz: e.tz, url: e.url,
                                  felt: e.felt, alert: e.alert, status: e.reviewed ? "reviewed" : "automatic",
                                  tsunami: e.tsunami ? 1 : 0, sig: e.sig, magType: e.magType, type: e.type, title: nil),
                geometry: .init(coordinates: [e.lon, e.lat, e.depth])).toDomain()
        }
        return QuakeFeedCache.Entry(
            snapshot: QuakeFeedSnapshot(quakes: QuakeFeedSnapshot.merging([], quakes), dropped: dropped,
                                        generated: generated.flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }),
            fetchedAt: Date(timeIntervalSince1970: fetchedAt),
            validators: HTTPValidators(etag: etag.map { RemoteText.clean($0, maxScalars: 200) },
                                       lastModified: lastModified.map { RemoteText.clean($0, maxScalars: 64) }))
    }
}
