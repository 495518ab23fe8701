import Foundation
import Synchronization
import Logging
import NimbusDomain
import OpenCombineShim

/// Raw forecast responses on disk under `$XDG_CACHE_HOME/nimbus/weather`, with when they were fetched.
///
/// Files are written atomically with mode 0600 (`SafeFile`: links are never followed); an unreadable or
/// oversized file, or anything but a plain file, counts as no cache.
public final class WeatherCache: Sendable {
    public let directory: URL
    private let maxBytes: Int
    /// The folder under `directory`: "weather" for forecasts, "today" for the Today tab's places.
    private let folder: String
    /// Serialises file access: one reader or writer at a time.
    private let lock = Mutex(())

    public init(directory: URL, folder: String = "weather", maxBytes: Int = 4 << 20) {
        self.directory = directory
        self.folder = folder
        self.maxBytes = maxBytes
    }

    /// `$XDG_CACHE_HOME/nimbus`, else `~/.cache/nimbus`.
    public static func defaultDirectory(environment: [String: String]) -> URL {
        NimbusDirectories(environment: environment).cache
    }

    struct Entry: Codable {
        let fetchedAt: Double
        let body: Data
    }

    static func key(_ coordinate: Coordinate) -> String {
        String(format: "forecast_%.4f_%.4f.json", coordinate.latitude, coordinate.longitude)
    }

    private func url(_ coordinate: Coordinate) -> URL {
        directory.appendingPathComponent(folder).appendingPathComponent(Self.key(coordinate))
    }

    /// The cached body for `coordinate` and when it was fetched, or nil.
    public func read(_ coordinate: Coordinate) -> (body: Data, fetchedAt: Date)? {
        let url = url(coordinate)
        let data = lock.withLock { _ in SafeFile.read(url, maxBytes: maxBytes * 2) }
        guard let data,
              let entry = try? JSONDecoder().decode(Entry.self, from: data),
              entry.fetchedAt.isFinite else { return nil }
        return (entry.body, Date(timeIntervalSince1970: entry.fetchedAt))
    }

    /// Stores `body` for `coordinate`; failures are ignored (the cache is only a convenience).
    public func write(_ body: Data, for coordinate: Coordinate, fetchedAt: Date) {
        guard body.count <= maxBytes,
              let data = try? JSONEncoder().encode(Entry(fetchedAt: fetchedAt.timeIntervalSince1970, body: body))
        else { return }
        let url = url(coordinate)
        _ = lock.withLock { _ in SafeFile.write(data, to: url) }
    }
}

extension WeatherCache {
    /// The kept answer for `coordinate` first, when there is one that still decodes (`isCached`), then
    /// the server's: `decode` believes a body or throws, and only a body it believed is kept, so a
    /// poisoned answer is neither shown nor cached. Cancelling the subscription cancels the request.
    static func keptThenFresh<Value: Equatable & Sendable>(
        _ cache: WeatherCache?, coordinate: Coordinate, client: HTTPClient, request: HTTPRequest,
        now: @escaping @Sendable () -> Date, logger: Logger?, what: String,
        decode: @escaping (Data) throws -> Value
    ) -> AnyPublisher<Fetched<Value>, WeatherError> {
        let fresh = client.publisher(for: request)
            .mapError(OpenMeteoWeatherRepository.map)
            .tryMap { response -> Fetched<Value> in
                let value = try decode(response.body)
                let fetchedAt = now()
                cache?.write(response.body, for: coordinate, fetchedAt: fetchedAt)
                return Fetched(value: value, fetchedAt: fetchedAt, isCached: false)
            }
            .mapError { ($0 as? WeatherError) ?? .badResponse }
        let kept = Deferred { () -> AnyPublisher<Fetched<Value>, WeatherError> in
            guard let entry = cache?.read(coordinate), let value = try? decode(entry.body) else {
                return Empty().eraseToAnyPublisher()
            }
            logger?.info("\(what) for \(WeatherCache.key(coordinate)) from the kept copy, fetched \(Int(now().timeIntervalSince(entry.fetchedAt))) s ago")
            return Just(Fetched(value: value, fetchedAt: entry.fetchedAt, isCached: true))
                .setFailureType(to: WeatherError.self).eraseToAnyPublisher()
        }
        return kept.append(fresh).eraseToAnyPublisher()
    }
}
