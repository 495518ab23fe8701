import Foundation
import NimbusDomain

/// Maps rendered from the land data, kept in a `MapSnapshotCache`.
///
/// The land data is opened on the first render (a few microseconds: the files are memory-mapped),
/// never at start-up.
public final class RenderedMapRepository: MapRepository, @unchecked Sendable {
    public let cache: MapSnapshotCache
    private let load: @Sendable () throws -> MapRenderer
    private let lock = NSLock()
    private var renderer: Result<MapRenderer, MapError>?

    public init(cache: MapSnapshotCache, load: @escaping @Sendable () throws -> MapRenderer) {
        self.cache = cache
        self.load = load
    }

    /// The bundled land data, plus the 1 km levels under `$XDG_DATA_HOME/nimbus` when present.
    public static func bundled(cache: MapSnapshotCache, environment: [String: String]?) -> RenderedMapRepository {
        RenderedMapRepository(cache: cache) {
            MapRenderer(land: try LandMask.bundled(fineLevelsFrom: environment), borders: try CountryBorders.bundled())
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
        lock.lock(); defer { lock.unlock() }
        if renderer == nil {
            do {
                renderer = .success(try load())
            } catch let error as MapDataError {
                switch error {
                case .missing(let path): renderer = .failure(.dataMissing(path))
                case .unreadable(let why), .corrupt(let why): renderer = .failure(.dataDamaged(why))
                }
            } catch {
                renderer = .failure(.dataDamaged(String(describing: error)))
            }
        }
        return try renderer!.get()
    }
}
