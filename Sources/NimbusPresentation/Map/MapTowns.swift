import Foundation
import NimbusDomain

/// Catalogue cities inside a map's view, marked as labelled dots at country zoom and closer so a
/// map can be read without knowing the coastline. The catalogue is ordered by population, so the
/// scan meets the largest first and stops at `limit` cells.
public struct MapTownFinder: Sendable {
    /// Towns are marked from this zoom in (country and city zoom).
    public static let minimumZoom = MapZoom.country
    /// At most this many towns a map (their labels still need room to be drawn).
    public static let limit = 24

    private let count: Int
    private let position: @Sendable (Int) -> GeoPoint
    private let city: @Sendable (Int) -> City

    /// `count` catalogue cities, largest first; `position` and `city` at an index.
    public init(count: Int, position: @escaping @Sendable (Int) -> GeoPoint, city: @escaping @Sendable (Int) -> City) {
        self.count = count
        self.position = position
        self.city = city
    }

    /// The largest catalogue cities in `snapshot`'s view, one a cell, none on or next to the city's cell,
    /// largest first (their weight), named as every screen names them (`CityNameChoice`); for Korean
    /// and Japanese only those with a name in `language`, so a map's labels share one script; none
    /// below `minimumZoom`. Scans the catalogue: call it off the main queue.
    public func towns(on snapshot: MapSnapshot, language: Language) -> [MapMarker] {
        guard snapshot.key.zoom >= Self.minimumZoom, let projection = snapshot.projection else { return [] }
        let cols = projection.size.cols
        var taken = Set<Int>()
        // Not on the city's cell nor next to it: its marker and label stay clear.
        if let city = snapshot.marker {
            for dy in -1...1 { for dx in -1...1 { taken.insert((city.y + dy) * cols + city.x + dx) } }
        }
        var found: [MapMarker] = []
        for index in 0..<count {
            let p = position(index)
            let coordinate = Coordinate(latitude: p.latitude, longitude: p.longitude)
            guard let cell = projection.cell(of: coordinate), !taken.contains(cell.y * cols + cell.x) else { continue }
            let town = city(index)
            // In Korean and Japanese only towns the language names: one script on the map, not
            // 니가타 beside Sendai (GeoNames has no Korean name for Sendai).
            guard language == .en || CityNameChoice.local(town.localNames, language: language) != nil else { continue }
            taken.insert(cell.y * cols + cell.x)
            found.append(MapMarker(coordinate: coordinate, label: .city(town), kind: .town,
                                   weight: Double(count - index)))
            if found.count == Self.limit { break }
        }
        return found
    }
}
