import Foundation
import Synchronization
import NimbusDomain

/// Maps rendered from the land data, kept in a `MapSnapshotCache`.
///
/// The land data is opened on the first render (a few microseconds: the files are memory-mapped),
/// never at start-up.
public final class RenderedMapRepository: MapRepository, Sendable {
    public let cache: MapSnapshotCache
    private let load: @Sendable () throws -> MapRenderer
    private let renderer = Mutex<Result<MapRenderer, MapError>?>(nil)

    public init(cache: MapSnapshotCache, load: @escaping @Sendable () throws -> MapRenderer) {
        self.cache = cache
        self.load = load
    }

    /// The bundled land data; with `nearestPlace`, world maps know the city's own islands (see
    /// `MapRenderer.init`).
    public static func bundled(cache: MapSnapshotCache,
                               nearestPlace: (@Sendable (GeoPoint) -> NearestPlace?)? = nil) -> RenderedMapRepository {
        RenderedMapRepository(cache: cache) {
            MapRenderer(land: try LandMask.bundled(), borders: try CountryBorders.bundled(),
                        nearestPlace: nearestPlace)
        }
    }

    public func cachedSnapshot(_ key: MapSnapshotKey) -> MapSnapshot? {
        cache.object(forKey: key)
    }

    public func renderSnapshot(_ request: MapRequest, cancel: CancellationFlag) throws(MapError) -> MapSnapshot? {
        let renderer = try loadedRenderer()
        guard let snapshot = renderer.render(request, cancel: cancel) else { return nil }
        cache.setObject(snapshot, forKey: request.key)
        return snapshot
    }

    public var statistics: MapCacheStatistics { cache.statistics }

    /// Opens the land data once; a failure is remembered and reported on every render.
    public func loadedRenderer() throws(MapError) -> MapRenderer {
        let load = self.load
        let result = renderer.withLock { renderer -> Result<MapRenderer, MapError> in
            if let renderer { return renderer }
            let made: Result<MapRenderer, MapError>
            do {
                made = .success(try load())
            } catch let error as MapDataError {
                switch error {
                case .missing(let path): made = .failure(.dataMissing(path))
                case .unreadable(let why), .corrupt(let why): made = .failure(.dataDamaged(why))
                }
            } catch {
                made = .failure(.dataDamaged(String(describing: error)))
            }
            renderer = made
            return made
        }
        return try result.get()
    }
}
