import Foundation
import Synchronization
import NimbusDomain
import OpenCombineShim

/// The USGS real-time feeds (keyless, public domain, updated every minute): the kept copy first,
/// then a conditional request with its validators; a 304 keeps the copy and costs no decoding.
public final class USGSQuakeRepository: QuakeRepository, Sendable {
    public static let defaultBaseURL = "https://earthquake.usgs.gov"
    /// The largest answer taken: `all_month` is about 10 MB; a 20 MB answer is refused.
    public static let maxBytes = 16 << 20

    private let client: HTTPClient
    private let baseURL: String
    private let cache: QuakeFeedCache?
    private let timeout: TimeInterval
    private let now: @Sendable () -> Date
    /// The last entry of each feed this run, so a 304 needs no trip to the disk either.
    private let latest = Mutex<[QuakeFeed: QuakeFeedCache.Entry]>([:])

    public init(client: HTTPClient, baseURL: String = defaultBaseURL, cache: QuakeFeedCache?,
                timeout: TimeInterval = 20, now: @escaping @Sendable () -> Date = Date.init) {
        self.client = client
        self.baseURL = baseURL
        self.cache = cache
        self.timeout = timeout
        self.now = now
    }

    /// `NIMBUS_QUAKES_URL`, else USGS's.
    public static func baseURL(environment: [String: String]) -> String {
        let value = environment["NIMBUS_QUAKES_URL"]?.trimmingCharacters(in: .whitespaces) ?? ""
        return value.isEmpty ? defaultBaseURL : value
    }

    private func stored(_ feed: QuakeFeed) -> QuakeFeedCache.Entry? {
        if let known = latest.withLock({ $0[feed] }) { return known }
        guard let entry = cache?.read(feed) else { return nil }
        remember(entry, for: feed)
        return entry
    }

    private func remember(_ entry: QuakeFeedCache.Entry, for feed: QuakeFeed) {
        latest.withLock { $0[feed] = entry }
    }

    /// The headers that make a request conditional on what is kept.
    static func validators(_ entry: QuakeFeedCache.Entry?) -> [String: String] {
        var headers: [String: String] = [:]
        if let etag = entry?.etag, !etag.isEmpty { headers["If-None-Match"] = etag }
        if let date = entry?.lastModified, !date.isEmpty { headers["If-Modified-Since"] = date }
        return headers
    }

    public func feed(_ feed: QuakeFeed) -> AnyPublisher<QuakeFeedUpdate, QuakeError> {
        Deferred { [self] () -> AnyPublisher<QuakeFeedUpdate, QuakeError> in
            let kept = stored(feed)
            guard let request = HTTPRequest(base: baseURL, path: feed.path, headers: Self.validators(kept),
                                            timeout: timeout, maxBytes: Self.maxBytes) else {
                return Fail(error: .badConfiguration).eraseToAnyPublisher()
            }
            let cached = kept.map {
                Just(QuakeFeedUpdate(snapshot: $0.snapshot, origin: .cache, checkedAt: $0.fetchedAt))
                    .setFailureType(to: QuakeError.self).eraseToAnyPublisher()
            } ?? Empty().eraseToAnyPublisher()
            let fresh = client.publisher(for: request)
                .map { response -> Result<QuakeFeedUpdate, QuakeError> in self.fresh(response, feed: feed, kept: kept) }
                .catch { error -> Just<Result<QuakeFeedUpdate, QuakeError>> in Just(self.failed(error, feed: feed, kept: kept)) }
                .setFailureType(to: QuakeError.self)
                .flatMap { $0.publisher }
            return cached.append(fresh).eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// A 200: decoded (on the client's queue, never the main one), merged with what was kept, kept.
    private func fresh(_ response: HTTPResponse, feed: QuakeFeed, kept: QuakeFeedCache.Entry?)
        -> Result<QuakeFeedUpdate, QuakeError> {
        let decoded: QuakeFeedSnapshot
        do {
            decoded = try USGSFeedDTO.decode(response.body)
        } catch {
            return .failure((error as? QuakeError) ?? .badResponse)
        }
        // Events seen before stay while they are within the feed's period (the newest `limit` of them);
        // one the server changed replaces the kept one.
        let time = now()
        let since = time.addingTimeInterval(-feed.period.duration)
        let snapshot = QuakeFeedSnapshot(
            quakes: QuakeFeedSnapshot.merging(kept?.snapshot.quakes ?? [], decoded.quakes).filter { $0.time >= since },
            dropped: decoded.dropped, generated: decoded.generated)
        let entry = QuakeFeedCache.Entry(
            snapshot: snapshot, fetchedAt: time,
            lastModified: response.headers["last-modified"].map { RemoteText.clean($0, maxScalars: 64) },
            etag: response.headers["etag"].map { RemoteText.clean($0, maxScalars: 200) })
        remember(entry, for: feed)
        cache?.write(entry, for: feed)
        return .success(QuakeFeedUpdate(snapshot: snapshot, origin: .fresh, checkedAt: time))
    }

    /// A failure; a 304 is not one: the kept events stand, checked now.
    private func failed(_ error: HTTPError, feed: QuakeFeed, kept: QuakeFeedCache.Entry?) -> Result<QuakeFeedUpdate, QuakeError> {
        if case .server(status: 304) = error {
            guard let kept else { return .failure(.notModifiedWithoutCache) }
            let checked = QuakeFeedCache.Entry(snapshot: kept.snapshot, fetchedAt: now(),
                                               lastModified: kept.lastModified, etag: kept.etag)
            remember(checked, for: feed)
            return .success(QuakeFeedUpdate(snapshot: kept.snapshot, origin: .notModified, checkedAt: checked.fetchedAt))
        }
        return .failure(Self.map(error))
    }

    static func map(_ error: HTTPError) -> QuakeError {
        switch error {
        case .invalidURL: return .badConfiguration
        case .transport(.timedOut): return .timedOut
        case .transport(.tooLarge): return .tooLarge
        case .transport: return .offline
        case .server(status: 429): return .rateLimited
        case .server(let status): return .server(status: status)
        case .missingData, .decoding: return .badResponse
        }
    }
}
