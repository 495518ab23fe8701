import Foundation
import Synchronization
import NimbusDomain

/// Nearest-city lookup over the catalogue: a balanced k-d tree over the cities' positions as points
/// on the unit sphere, so the nearest by straight-line distance is the nearest by great-circle
/// distance, with no special cases at the poles or the antimeridian.
///
/// The tree is an implicit one (a permutation of city indices, median at the middle of each range),
/// built once on first use: about 10 ms for 34k cities, 60 ms for 170k in a release build.
public final class CitySpatialIndex: @unchecked Sendable { // unchecked: its vars are written in init only (the tree is built in place)
    private var xs: [Double] = []
    private var ys: [Double] = []
    private var zs: [Double] = []
    /// City indices in tree order.
    private var order: [Int32] = []

    /// Builds the index over `count` positions given in catalogue order.
    public init(count: Int, position: (Int) -> GeoPoint) {
        xs.reserveCapacity(count); ys.reserveCapacity(count); zs.reserveCapacity(count)
        for i in 0..<count {
            let p = position(i)
            let (x, y, z) = Self.unitVector(p)
            xs.append(x); ys.append(y); zs.append(z)
        }
        order = (0..<Int32(count)).map { $0 }
        build(0, count, depth: 0)
    }

    public var count: Int { order.count }

    /// The catalogue index of the city nearest to `point`, or nil for an empty index.
    public func nearest(to point: GeoPoint) -> Int? {
        guard !order.isEmpty else { return nil }
        let q = Self.unitVector(point)
        var best = -1
        var bestDistance = Double.infinity
        search(0, order.count, depth: 0, q, &best, &bestDistance)
        return best >= 0 ? best : nil
    }

    // MARK: Tree

    private static func unitVector(_ p: GeoPoint) -> (Double, Double, Double) {
        let φ = p.latitude * .pi / 180, λ = p.longitude * .pi / 180
        return (cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
    }

    @inline(__always)
    private func coordinate(_ city: Int32, _ axis: Int) -> Double {
        let i = Int(city)
        switch axis {
        case 0: return xs[i]
        case 1: return ys[i]
        default: return zs[i]
        }
    }

    /// Puts the median of `order[lo..<hi]` (along the depth's axis) at the middle, smaller ones before it.
    private func build(_ lo: Int, _ hi: Int, depth: Int) {
        guard hi - lo > 1 else { return }
        let mid = (lo + hi) / 2
        select(lo, hi, mid, axis: depth % 3)
        build(lo, mid, depth: depth + 1)
        build(mid + 1, hi, depth: depth + 1)
    }

    /// Quickselect (Hoare partition, median-of-three pivot) so `order[k]` is in its sorted place.
    private func select(_ lo: Int, _ hi: Int, _ k: Int, axis: Int) {
        var lo = lo, hi = hi - 1
        while lo < hi {
            let m = (lo + hi) / 2
            let a = coordinate(order[lo], axis), b = coordinate(order[m], axis), c = coordinate(order[hi], axis)
            let pivot = max(min(a, b), min(max(a, b), c))
            var i = lo, j = hi
            while i <= j {
                while coordinate(order[i], axis) < pivot { i += 1 }
                while coordinate(order[j], axis) > pivot { j -= 1 }
                if i <= j {
                    order.swapAt(i, j)
                    i += 1; j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }

    private func search(_ lo: Int, _ hi: Int, depth: Int, _ q: (Double, Double, Double),
                        _ best: inout Int, _ bestDistance: inout Double) {
        guard lo < hi else { return }
        let mid = (lo + hi) / 2
        let city = order[mid]
        let i = Int(city)
        let dx = xs[i] - q.0, dy = ys[i] - q.1, dz = zs[i] - q.2
        let d = dx * dx + dy * dy + dz * dz
        // Ties go to the lower index: the more populous city.
        if d < bestDistance || (d == bestDistance && i < best) {
            bestDistance = d
            best = i
        }
        let axis = depth % 3
        let qa = axis == 0 ? q.0 : axis == 1 ? q.1 : q.2
        let diff = qa - coordinate(city, axis)
        let (near, far) = diff < 0 ? ((lo, mid), (mid + 1, hi)) : ((mid + 1, hi), (lo, mid))
        search(near.0, near.1, depth: depth + 1, q, &best, &bestDistance)
        if diff * diff <= bestDistance {
            search(far.0, far.1, depth: depth + 1, q, &best, &bestDistance)
        }
    }
}

/// `CityLocating` over a catalogue: the k-d tree for positions (built lazily, once, thread-safe),
/// the catalogue's own time-zone column for zones.
public final class CatalogCityLocator: CityLocating, Sendable {
    private let catalog: CityCatalog
    private let index = Mutex<CitySpatialIndex?>(nil)

    public init(catalog: CityCatalog) { self.catalog = catalog }

    /// The index, built on first use.
    public var spatialIndex: CitySpatialIndex {
        let catalog = self.catalog
        return index.withLock { index in
            if let index { return index }
            let built = CitySpatialIndex(count: catalog.cityCount) { catalog.position(at: $0) }
            index = built
            return built
        }
    }

    public func nearestCity(to point: GeoPoint) -> CityRef? {
        spatialIndex.nearest(to: point).map { CityRef(Int32($0)) }
    }

    /// The city nearest `point` and its country (for maps: whose land a point is likely on).
    public func nearestPlace(to point: GeoPoint) -> NearestPlace? {
        spatialIndex.nearest(to: point).map { NearestPlace(index: $0, countryCode: catalog.countryCode(at: $0)) }
    }

    public func largestCity(inTimeZone zone: String) -> CityRef? {
        catalog.largestCity(inTimeZone: zone)
    }
}

/// A catalogue city nearest some point: its catalogue index and ISO country code.
public struct NearestPlace: Equatable, Sendable {
    public let index: Int
    public let countryCode: String
    public init(index: Int, countryCode: String) {
        self.index = index
        self.countryCode = countryCode
    }
}
