import Foundation

/// How close a map is: 0 shows the whole world across the view, each step doubles the scale.
public struct MapZoom: Hashable, Comparable, Sendable {
    public static let range = 0...12
    public static let world = MapZoom(0)
    public static let country = MapZoom(4)
    public static let city = MapZoom(8)

    public let level: Int
    /// Clamped to `range`.
    public init(_ level: Int) { self.level = min(max(level, Self.range.lowerBound), Self.range.upperBound) }

    public static func < (l: MapZoom, r: MapZoom) -> Bool { l.level < r.level }

    /// Degrees of longitude one map dot spans: the world's 360° over 256 dots at zoom 0.
    public var degreesPerDot: Double { 360.0 / 256.0 / Double(1 << level) }
}

/// How the dots are drawn: braille (2×4 dots a cell) or quadrant blocks (2×2) for fonts without braille.
public enum MapStyle: String, CaseIterable, Sendable {
    case braille, blocks

    public var dotsAcross: Int { 2 }
    public var dotsDown: Int { self == .braille ? 4 : 2 }
    public var toggled: MapStyle { self == .braille ? .blocks : .braille }
}

/// A map size in terminal cells.
public struct MapSize: Hashable, Sendable {
    public let cols: Int
    public let rows: Int
    public init(cols: Int, rows: Int) {
        self.cols = max(0, cols)
        self.rows = max(0, rows)
    }
    public var cells: Int { cols * rows }
}

/// A pan away from the city, in steps of a quarter of the view.
public struct MapOffset: Hashable, Sendable {
    public let x: Int
    public let y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
    public static let zero = MapOffset(x: 0, y: 0)
}

/// Everything that decides what a map snapshot shows: the cache key.
public struct MapSnapshotKey: Hashable, Sendable {
    public let cityID: Int
    public let zoom: MapZoom
    public let size: MapSize
    public let style: MapStyle
    public let offset: MapOffset
    public init(cityID: Int, zoom: MapZoom, size: MapSize, style: MapStyle, offset: MapOffset = .zero) {
        self.cityID = cityID
        self.zoom = zoom
        self.size = size
        self.style = style
        self.offset = offset
    }
}

/// A map to draw: where, how close, how large.
public struct MapRequest: Hashable, Sendable {
    public let key: MapSnapshotKey
    public let latitude: Double
    public let longitude: Double
    /// The city's ISO country code ("" when not known): a world map marks the land near the city
    /// that belongs to it, so the city's label may lie over its own islands.
    public let countryCode: String

    public init(city: City, zoom: MapZoom, size: MapSize, style: MapStyle, offset: MapOffset = .zero) {
        key = MapSnapshotKey(cityID: city.id, zoom: zoom, size: size, style: style, offset: offset)
        latitude = city.latitude
        longitude = city.longitude
        countryCode = city.countryCode
    }

    public init(key: MapSnapshotKey, latitude: Double, longitude: Double, countryCode: String = "") {
        self.key = key
        self.latitude = latitude
        self.longitude = longitude
        self.countryCode = countryCode
    }
}

/// What a map cell mostly shows; the screen picks a style for each.
public enum MapCellKind: UInt8, Sendable {
    case sea, land, coast, border
}

/// One cell of a map: its glyph (a braille or block character, or a space) and what it shows.
public struct MapCell: Equatable, Sendable {
    public let glyph: Character
    public let kind: MapCellKind
    public init(glyph: Character, kind: MapCellKind) {
        self.glyph = glyph
        self.kind = kind
    }
}

/// Where places fall on a map: Web Mercator around the view's centre, in dots of the map's style.
public struct MapProjection: Equatable, Sendable {
    /// The highest latitude shown (Web Mercator's limit).
    public static let maxLatitude = 85.05112878

    /// Degrees of longitude at the view's centre.
    public let centreLongitude: Double
    /// The centre's latitude in Mercator units (degrees of `mercator(_:)`).
    public let centreY: Double
    /// Degrees of longitude, and Mercator units of latitude, one dot spans.
    public let step: Double
    public let verticalStep: Double
    public let size: MapSize
    public let style: MapStyle

    public init(centreLongitude: Double, centreY: Double, step: Double, verticalStep: Double, size: MapSize, style: MapStyle) {
        self.centreLongitude = centreLongitude
        self.centreY = centreY
        self.step = step
        self.verticalStep = verticalStep
        self.size = size
        self.style = style
    }

    /// The world zoom's centre: 10° E (the seam in the Bering Strait) and the Mercator height of 12° N
    /// (from the Antarctic Peninsula to the Arctic coasts on an 80 × 22 view).
    public static let worldCentreLongitude = 10.0
    public static let worldCentreY = 12.0

    /// The view of `request`: its centre moved by the pan, in quarters of the view.
    public init(_ request: MapRequest) {
        let key = request.key
        let across = key.style.dotsAcross, down = key.style.dotsDown
        let width = key.size.cols * across, height = key.size.rows * down
        // The world zoom shows the whole world however narrow the view: at least 360° across.
        step = key.zoom == .world ? max(key.zoom.degreesPerDot, 360 / Double(max(width, 1))) : key.zoom.degreesPerDot
        // A cell is about twice as tall as wide: braille dots are square, block dots twice as tall.
        verticalStep = step * 2 * Double(across) / Double(down)
        let limit = Self.mercator(Self.maxLatitude)
        let cityY = Self.mercator(request.latitude)
        var longitude = request.longitude, y = cityY
        if key.zoom == .world {
            // The world as atlases draw it (the seam in the Pacific, the inhabited latitudes in view),
            // moved only as far as it takes to keep the city inside.
            longitude = Self.worldCentreLongitude
            let half = Double(height) / 2 * verticalStep
            let margin = min(half, 2 * verticalStep)
            y = min(max(Self.worldCentreY, cityY - half + margin), cityY + half - margin)
        }
        centreLongitude = longitude + Double(key.offset.x) * Double(width) / 4 * step
        centreY = min(max(y - Double(key.offset.y) * Double(height) / 4 * verticalStep, -limit), limit)
        size = key.size
        style = key.style
    }

    public static func mercator(_ latitude: Double) -> Double {
        let phi = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        return log(tan(.pi / 4 + phi / 2)) * 180 / .pi
    }

    public static func latitude(mercator y: Double) -> Double {
        atan(sinh(y * .pi / 180)) * 180 / .pi
    }

    /// The cell `coordinate` falls in, nil outside the view; the longitude is taken to the copy of
    /// the place nearest the centre.
    public func cell(of coordinate: Coordinate) -> (x: Int, y: Int)? {
        dot(of: coordinate).map { (x: $0.x / style.dotsAcross, y: $0.y / style.dotsDown) }
    }

    /// The dot `coordinate` falls in (across and down from the top left), nil outside the view.
    public func dot(of coordinate: Coordinate) -> (x: Int, y: Int)? {
        guard coordinate.isValid else { return nil }
        let width = Double(size.cols * style.dotsAcross), height = Double(size.rows * style.dotsDown)
        var dLon = (coordinate.longitude - centreLongitude).truncatingRemainder(dividingBy: 360)
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        // (A hair added against rounding: a city panned by whole quarters sits exactly on a cell edge.)
        let x = dLon / step + width / 2 + 1e-9
        let y = height / 2 - (Self.mercator(coordinate.latitude) - centreY) / verticalStep + 1e-9
        guard x >= 0, x < width, y >= 0, y < height else { return nil }
        return (x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
    }
}

/// A rendered map: rows of cells, the city's cell, and the scale.
public struct MapSnapshot: Equatable, Sendable {
    public let key: MapSnapshotKey
    /// `size.rows` rows of `size.cols` cells.
    public let rows: [[MapCell]]
    /// The city's cell, when it is inside the view.
    public let marker: (x: Int, y: Int)?
    /// Kilometres one column spans at the centre of the view.
    public let kilometresPerColumn: Double
    /// Where other places fall on this map (for markers); nil when the view is not known.
    public let projection: MapProjection?
    /// At world zoom, the land cells of the marker's row (where the city's label goes), up to 32
    /// columns either side of the marker, whose every land dot lies
    /// nearest a catalogue city of the city's own country (cell `y * cols + x`); nil when not known
    /// (other zooms, no catalogue, no country).
    public let ownCountryCells: Set<Int>?

    public init(key: MapSnapshotKey, rows: [[MapCell]], marker: (x: Int, y: Int)?, kilometresPerColumn: Double,
                projection: MapProjection? = nil, ownCountryCells: Set<Int>? = nil) {
        self.key = key
        self.rows = rows
        self.marker = marker
        self.kilometresPerColumn = kilometresPerColumn
        self.projection = projection
        self.ownCountryCells = ownCountryCells
    }

    /// What the snapshot costs in a cache: its cells.
    public var cost: Int { key.size.cells }

    /// The glyphs only, one line a row (for the command line and tests).
    public var text: String { rows.map { String($0.map(\.glyph)) }.joined(separator: "\n") }

    public static func == (l: MapSnapshot, r: MapSnapshot) -> Bool {
        l.key == r.key && l.rows == r.rows && l.marker?.x == r.marker?.x && l.marker?.y == r.marker?.y
            && l.kilometresPerColumn == r.kilometresPerColumn && l.projection == r.projection
            && l.ownCountryCells == r.ownCountryCells
    }
}

/// Counters of a snapshot cache.
public struct MapCacheStatistics: Equatable, Sendable {
    public var hits: Int
    public var misses: Int
    public var evictions: Int
    public var count: Int
    public var totalCost: Int
    public var countLimit: Int
    public var totalCostLimit: Int

    public init(hits: Int = 0, misses: Int = 0, evictions: Int = 0, count: Int = 0, totalCost: Int = 0,
                countLimit: Int = 0, totalCostLimit: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
        self.count = count
        self.totalCost = totalCost
        self.countLimit = countLimit
        self.totalCostLimit = totalCostLimit
    }

    /// Hits over lookups, 0 before the first lookup.
    public var hitRatio: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
}
