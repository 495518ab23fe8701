import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim

/// A labelled point to mark on a map, over land and sea: one of my places, an earthquake, or a
/// catalogue city near by.
public struct MapMarker: Equatable, Sendable {
    /// In the order markers are given room (and labels), first to last.
    public enum Kind: Int, Comparable, Sendable {
        /// A place of mine: where I am, a liked city.
        case place
        /// A recent earthquake.
        case quake
        /// A catalogue city in view (the largest get room first), for bearings.
        case town

        public static func < (l: Kind, r: Kind) -> Bool { l.rawValue < r.rawValue }
    }

    /// What a marker is called: a text the same in every language ("M5.1"), or a city, named in the
    /// language of the state that shows it (서울 in Korean).
    public enum Label: Equatable, Sendable {
        case text(String)
        case city(City)

        public func said(in language: Language) -> String {
            switch self {
            case .text(let text): text
            case .city(let city): CityNameChoice.name(city, language: language)
            }
        }
    }

    public let coordinate: Coordinate
    public let label: Label
    public let kind: Kind
    /// Among markers of a kind, the heavier goes first (an earthquake's magnitude).
    public let weight: Double

    public init(coordinate: Coordinate, label: Label, kind: Kind, weight: Double = 0) {
        self.coordinate = coordinate
        self.label = label
        self.kind = kind
        self.weight = weight
    }
}

/// A marker in a map's cells; labels are laid out where they are drawn (they need display widths).
public struct PlacedMapMarker: Equatable, Sendable {
    public let x: Int
    public let y: Int
    public let label: String
    public let kind: MapMarker.Kind

    public init(x: Int, y: Int, label: String, kind: MapMarker.Kind) {
        self.x = x
        self.y = y
        self.label = label
        self.kind = kind
    }
}

public enum MapMarkerPlacement {
    /// Markers past this many in a view are left out: more would be noise.
    public static let limit = 40

    /// The markers inside `snapshot`'s view, in the order they are given room: by kind, then weight
    /// (heaviest first), then as given. One marker a cell (the first), none on the city's own cell;
    /// their labels said in `language`.
    public static func place(_ markers: [MapMarker], on snapshot: MapSnapshot, language: Language) -> [PlacedMapMarker] {
        guard let projection = snapshot.projection, !markers.isEmpty else { return [] }
        let ordered = markers.enumerated().sorted { a, b in
            if a.element.kind != b.element.kind { return a.element.kind < b.element.kind }
            if a.element.weight != b.element.weight { return a.element.weight > b.element.weight }
            return a.offset < b.offset
        }
        var taken = Set<Int>()
        let cols = projection.size.cols
        if let city = snapshot.marker { taken.insert(city.y * cols + city.x) }
        var placed: [PlacedMapMarker] = []
        for (_, marker) in ordered {
            guard placed.count < limit else { break }
            guard let cell = projection.cell(of: marker.coordinate), taken.insert(cell.y * cols + cell.x).inserted else { continue }
            placed.append(PlacedMapMarker(x: cell.x, y: cell.y, label: marker.label.said(in: language), kind: marker.kind))
        }
        return placed
    }
}

extension MapMarker {
    /// My places as markers, as they change.
    public static func places(_ cities: AnyPublisher<[City], Never>) -> AnyPublisher<[MapMarker], Never> {
        cities.map { $0.map(MapMarker.place) }.eraseToAnyPublisher()
    }

    /// A place of mine, named in the shown language's script when the catalogue has it (서울 in Korean).
    public static func place(_ city: City) -> MapMarker {
        MapMarker(coordinate: city.coordinate, label: .city(city), kind: .place)
    }

    /// An earthquake, labelled with its magnitude ("M5.1"); the stronger get room first.
    public static func quake(_ quake: Quake) -> MapMarker {
        MapMarker(coordinate: quake.coordinate, label: .text("M" + QuakeFormatter.magnitude(quake.magnitude)), kind: .quake,
                  weight: quake.magnitude)
    }
}
