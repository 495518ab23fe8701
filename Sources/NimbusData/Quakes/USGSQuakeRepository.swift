import Foundation
import Logging
import Synchronization
import NimbusDomain
import OpenCombineShim

/// The USGS real-time feeds (keyless, public domain, updated every minute): the kept copy first,
/// then a conditional GET (`HTTPClient.conditionalGet`) with its validators; a 304 keeps the copy
/// and costs no decoding.
public final class USGSQuakeRepository: QuakeRepository, Sendable {
    public static let defaultBaseURL = "https://earthquake.usgs.gov"
    /// The largest answer taken: `all_month` is about 10 MB; a 20 MB answer is refused.
    public static let maxBytes = 16 << 20

    private let client: HTTPClient
    private let baseURL: String
    private let cache: QuakeFeedCache?
    private let timeout: TimeInterval
    private let now: @Sendable () -> Date
    private let decode: @Sendable (Data) throws -> QuakeFeedSnapshot
    /// Says when the kept copy is shown (nil: logging is off, and nothing is formatted).
    private let logger: Logger?
    /// The last entry of each feed this run, so a 304 needs no trip to the disk either.
    private let latest = Mutex<[QuakeFeed: QuakeFeedCache.Entry]>([:])

    /// `decode` turns a feed's body into events (`decodeFeed`; the benchmark counts its calls).
    public init(client: HTTPClient, baseURL: String = defaultBaseURL, cache: QuakeFeedCache?,
                timeout: TimeInterval = 20, now: @escaping @Sendable () -> Date = Date.init,
                decode: @escaping @Sendable (Data) throws -> QuakeFeedSnapshot = USGSQuakeRepository.decodeFeed,
                logger: Logger? = nil) {
        self.logger = logger
        self.client = client
        self.baseURL = baseURL
        self.cache = cache
        self.timeout = timeout
        self.now = now
        self.decode = decode
    }

    /// A feed's body as events, each checked on its own (a bad one dropped and counted); a body that
    /// is not a feature collection is `QuakeError.badResponse`.
    public static func decodeFeed(_ body: Data) throws -> QuakeFeedSnapshot {
        try USGSFeedDTO.decode(body)
    }

    /// `NIMBUS_QUAKES_URL`, else USGS's.
    public static func baseURL(environment: [String: String]) -> String {
        HTTPRequest.base(environment["NIMBUS_QUAKES_URL"], else: defaultBaseURL)
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

    public func feed(_ feed: QuakeFeed) -> AnyPublisher<QuakeFeedUpdate, QuakeError> {
        Deferred { [self] () -> AnyPublisher<QuakeFeedUpdate, QuakeError> in
            let kept = stored(feed)
            guard let request = HTTPRequest(base: baseURL, path: feed.path, timeout: timeout, maxBytes: Self.maxBytes) else {
                return Fail(error: .badConfiguration).eraseToAnyPublisher()
            }
            if let kept, let logger {
                logger.info("\(feed) from the kept copy: \(kept.snapshot.quakes.count) events, checked \(Int(now().timeIntervalSince(kept.fetchedAt))) s ago")
            }
            let cached = kept.map {
                Just(QuakeFeedUpdate(snapshot: $0.snapshot, origin: .cache, checkedAt: $0.fetchedAt))
                    .setFailureType(to: QuakeError.self).eraseToAnyPublisher()
            } ?? Empty().eraseToAnyPublisher()
            let fresh = client.conditionalGet(request, cached: kept.map { HTTPCached(value: $0, validators: $0.validators) })
                .map { answer -> Result<QuakeFeedUpdate, QuakeError> in
                    switch answer {
                    case .modified(let response, let validators):
                        return self.fresh(response.body, validators: validators, feed: feed, kept: kept)
                    case .notModified(let kept):
                        return .success(self.unchanged(kept, feed: feed))
                    }
                }
                .catch { error in Just(.failure(Self.map(error))) }
                .setFailureType(to: QuakeError.self)
                .flatMap { $0.publisher }
            return cached.append(fresh).eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// A 200: decoded (on the client's queue, never the main one), merged with what was kept, kept.
    private func fresh(_ body: Data, validators: HTTPValidators, feed: QuakeFeed, kept: QuakeFeedCache.Entry?)
        -> Result<QuakeFeedUpdate, QuakeError> {
        let decoded: QuakeFeedSnapshot
        do {
            decoded = try decode(body)
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
        let entry = QuakeFeedCache.Entry(snapshot: snapshot, fetchedAt: time, validators: validators)
        remember(entry, for: feed)
        cache?.write(entry, for: feed)
        return .success(QuakeFeedUpdate(snapshot: snapshot, origin: .fresh, checkedAt: time))
    }

    /// A 304: the kept events stand, checked now.
    private func unchanged(_ kept: QuakeFeedCache.Entry, feed: QuakeFeed) -> QuakeFeedUpdate {
        let checked = QuakeFeedCache.Entry(snapshot: kept.snapshot, fetchedAt: now(), validators: kept.validators)
        remember(checked, for: feed)
        return QuakeFeedUpdate(snapshot: kept.snapshot, origin: .notModified, checkedAt: checked.fetchedAt)
    }

    static func map(_ error: ConditionalGetError) -> QuakeError {
        switch error {
        case .notModifiedWithoutCache: return .notModifiedWithoutCache
        case .http(let error): return map(error)
        }
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
