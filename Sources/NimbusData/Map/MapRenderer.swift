import Foundation
import NimbusDomain

/// Draws map snapshots from the land pyramid and the country borders.
///
/// Web Mercator around the view's centre, so shapes stay right at every zoom; one land lookup per
/// dot at the coarsest level that has a pixel per dot. Coast dots are land dots next to sea; border
/// dots are cut out of the land (but at world zoom), so borders read as gaps even without colour.
public struct MapRenderer: Sendable {
    private let land: LandMask
    private let borders: ProjectedBorders
    /// The catalogue city nearest a point (nil: no catalogue).
    private let nearestPlace: (@Sendable (GeoPoint) -> NearestPlace?)?

    /// With `nearestPlace`, world maps mark the land near the city that belongs to its country
    /// (`MapSnapshot.ownCountryCells`): borders only hold land borders, so islands need the catalogue.
    public init(land: LandMask, borders: CountryBorders, nearestPlace: (@Sendable (GeoPoint) -> NearestPlace?)? = nil) {
        self.land = land
        self.borders = ProjectedBorders(borders)
        self.nearestPlace = nearestPlace
    }

    static let maxLatitude = MapProjection.maxLatitude

    /// How far from the marker, in columns, a world map knows the city's own land: the longest label
    /// that far (30 columns of name) still finds it; past it land counts as another country's.
    public static let labelReach = 32

    static func mercator(_ latitude: Double) -> Double { MapProjection.mercator(latitude) }

    static func latitude(mercator y: Double) -> Double { MapProjection.latitude(mercator: y) }

    /// Renders `request`; nil when `cancel` is set while it runs.
    public func render(_ request: MapRequest, cancel: CancellationFlag = CancellationFlag()) -> MapSnapshot? {
        let key = request.key
        let cols = key.size.cols, rows = key.size.rows
        let across = key.style.dotsAcross, down = key.style.dotsDown
        let width = cols * across, height = rows * down
        let projection = MapProjection(request)
        let step = projection.step, vstep = projection.verticalStep
        let centreLon = projection.centreLongitude, centreY = projection.centreY
        let limit = Self.mercator(Self.maxLatitude)
        let centreLat = Self.latitude(mercator: centreY)
        let kmPerColumn = Double(across) * step * 111.32 * cos(centreLat * .pi / 180)

        guard cols > 0, rows > 0 else {
            return MapSnapshot(key: key, rows: Array(repeating: [], count: rows), marker: nil, kilometresPerColumn: kmPerColumn,
                               projection: projection)
        }

        // The pixel column of `level` under the point `f` of the way across grid column `i`, and the
        // pixel row under `f` of the way down grid row `j` (the grid has a one-dot margin).
        func pixelX(_ i: Int, _ f: Double, _ level: LandLevel) -> Int {
            let lon = centreLon + (Double(i - 1) + f - Double(width) / 2) * step
            return Int(((lon + 180) * Double(level.pixelsPerDegree)).rounded(.down))
        }
        func pixelY(_ j: Int, _ f: Double, _ level: LandLevel) -> Int {
            let y = centreY + (Double(height) / 2 - (Double(j - 1) + f)) * vstep
            return Int(((90 - Self.latitude(mercator: min(max(y, -limit), limit))) * Double(level.pixelsPerDegree)).rounded(.down))
        }

        let level = land.level(atLeast: 1 / step)
        // Land of every dot plus a one-dot margin, for the coast test.
        let gw = width + 2, gh = height + 2
        let xs = (0..<gw).map { pixelX($0, 0.5, level) }
        var grid = [UInt8](repeating: 0, count: gw * gh)  // bit 0 land, bit 1 border
        for j in 0..<gh {
            if j & 15 == 0, cancel.isCancelled { return nil }
            guard abs(centreY + (Double(height) / 2 - (Double(j - 1) + 0.5)) * vstep) <= limit else { continue }
            let py = pixelY(j, 0.5, level)
            let rowBase = j * gw
            for i in 0..<gw where level.isLand(x: xs[i], y: py) { grid[rowBase + i] = 1 }
        }
        if let lakes = land.lakeLevel(forDotsPerDegree: 1 / step, land: level) {
            // At country zoom a lake of 1,000 km² or more is water wherever a quarter of a dot falls on it.
            let left = (0..<gw).map { pixelX($0, 0.25, lakes) }, right = (0..<gw).map { pixelX($0, 0.75, lakes) }
            for j in 0..<gh {
                let rowBase = j * gw
                guard grid[rowBase..<(rowBase + gw)].contains(1) else { continue }
                let top = pixelY(j, 0.25, lakes), bottom = pixelY(j, 0.75, lakes)
                for i in 0..<gw where grid[rowBase + i] == 1 {
                    if lakes.isLand(x: left[i], y: top) || lakes.isLand(x: right[i], y: top)
                        || lakes.isLand(x: left[i], y: bottom) || lakes.isLand(x: right[i], y: bottom) {
                        grid[rowBase + i] = 0
                    }
                }
            }
        }
        if cancel.isCancelled { return nil }
        borders.draw(into: &grid, gridWidth: gw, gridHeight: gh, centreLon: centreLon, centreY: centreY,
                     step: step, vstep: vstep, width: width, height: height)

        // At world zoom a dot is ~150 km: cutting the borders out would leave Europe and Africa in
        // crumbs, so there the cells they cross are only marked (their colour, and the walls of
        // `MapSnapshotView.foreignLand`).
        let cutsBorders = key.zoom != .world
        var cells: [[MapCell]] = []
        cells.reserveCapacity(rows)
        for r in 0..<rows {
            var line: [MapCell] = []
            line.reserveCapacity(cols)
            for c in 0..<cols {
                var bits = 0
                var coast = false, border = false
                for dy in 0..<down {
                    for dx in 0..<across {
                        let gi = (r * down + dy + 1) * gw + (c * across + dx + 1)
                        let v = grid[gi]
                        guard v & 1 == 1 else { continue }
                        if v & 2 == 2 {
                            border = true
                            if cutsBorders { continue }
                        }
                        bits |= Self.bit(dx: dx, dy: dy, style: key.style)
                        if grid[gi - 1] & 1 == 0 || grid[gi + 1] & 1 == 0 || grid[gi - gw] & 1 == 0 || grid[gi + gw] & 1 == 0 {
                            coast = true
                        }
                    }
                }
                let kind: MapCellKind = border ? .border : coast ? .coast : bits != 0 ? .land : .sea
                line.append(MapCell(glyph: Self.glyph(bits, style: key.style), kind: kind))
            }
            cells.append(line)
        }

        // The city's cell.
        let marker = projection.cell(of: Coordinate(latitude: request.latitude, longitude: request.longitude))
        var own: Set<Int>?
        if key.zoom == .world, let marker, let nearestPlace, !request.countryCode.isEmpty {
            own = Set()
            // The nearest city of a grid point (`i` across, `j` down, both in dots from the top left).
            func place(i: Double, j: Double) -> NearestPlace? {
                let lon = centreLon + (i - Double(width) / 2) * step
                let lat = Self.latitude(mercator: centreY + (Double(height) / 2 - j) * vstep)
                var wrapped = (lon + 180).truncatingRemainder(dividingBy: 360)
                if wrapped < 0 { wrapped += 360 }
                return GeoPoint(latitude: lat, longitude: wrapped - 180).flatMap(nearestPlace)
            }
            var corners: [Int: NearestPlace?] = [:]
            func corner(_ c: Int, _ r: Int) -> NearestPlace? {
                if let known = corners[r * (cols + 1) + c] { return known }
                let found = place(i: Double(c * across), j: Double(r * down))
                corners[r * (cols + 1) + c] = found
                return found
            }
            // Only the row a label can take, the marker's. A city's Voronoi region is convex, so a cell
            // whose four corners have the same nearest city lies wholly in its region; other cells are
            // decided dot by dot.
            let reach = max(0, marker.x - Self.labelReach)..<min(cols, marker.x + Self.labelReach + 1)
            if cancel.isCancelled { return nil }
            let r = marker.y
            for c in reach where cells[r][c].kind != .sea {
                let a = corner(c, r)
                if let a, a == corner(c + 1, r), a == corner(c, r + 1), a == corner(c + 1, r + 1) {
                    if a.countryCode == request.countryCode { own?.insert(r * cols + c) }
                    continue
                }
                var ownDots = 0, otherDots = 0
                for dy in 0..<down {
                    for dx in 0..<across where grid[(r * down + dy + 1) * gw + c * across + dx + 1] & 1 == 1 {
                        if place(i: Double(c * across + dx) + 0.5, j: Double(r * down + dy) + 0.5)?.countryCode == request.countryCode {
                            ownDots += 1
                        } else {
                            otherDots += 1
                        }
                    }
                }
                if ownDots > 0 && otherDots == 0 { own?.insert(r * cols + c) }
            }
        }
        return MapSnapshot(key: key, rows: cells, marker: marker, kilometresPerColumn: kmPerColumn, projection: projection,
                           ownCountryCells: own)
    }

    @inline(__always)
    static func bit(dx: Int, dy: Int, style: MapStyle) -> Int {
        switch style {
        case .braille: return dy == 3 ? (dx == 0 ? 0x40 : 0x80) : (1 << (dy + 3 * dx))
        case .blocks: return 1 << (dy * 2 + dx)
        }
    }

    static let brailleGlyphs: [Character] = (0..<256).map { $0 == 0 ? " " : Character(Unicode.Scalar(0x2800 + $0)!) }
    static let blockGlyphs: [Character] = [" ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█"]

    @inline(__always)
    static func glyph(_ bits: Int, style: MapStyle) -> Character {
        style == .braille ? brailleGlyphs[bits] : blockGlyphs[bits]
    }
}

/// Border segments with their latitudes already in Mercator units.
struct ProjectedBorders: Sendable {
    private let segments: [(x0: Double, y0: Double, x1: Double, y1: Double)]

    init(_ borders: CountryBorders) {
        segments = borders.segments.map { s in
            (Double(s.0), MapRenderer.mercator(Double(s.1)), Double(s.2), MapRenderer.mercator(Double(s.3)))
        }
    }

    /// Marks border dots (bit 1) on land dots of the grid (which has a one-dot margin).
    func draw(into grid: inout [UInt8], gridWidth gw: Int, gridHeight gh: Int, centreLon: Double, centreY: Double,
              step: Double, vstep: Double, width: Int, height: Int) {
        let period = 360 / step
        let halfW = Double(width) / 2, halfH = Double(height) / 2
        for s in segments {
            // Dot coordinates (grid coordinates minus the margin).
            let ya = halfH - (s.y0 - centreY) / vstep, yb = halfH - (s.y1 - centreY) / vstep
            if max(ya, yb) < -1 || min(ya, yb) > Double(height) + 1 { continue }
            let xa = (s.x0 - centreLon) / step + halfW, xb = (s.x1 - centreLon) / step + halfW
            let lo = min(xa, xb), hi = max(xa, xb)
            let kLow = Int(((-1 - hi) / period).rounded(.up)), kHigh = Int(((Double(width) + 1 - lo) / period).rounded(.down))
            guard kLow <= kHigh else { continue }
            for k in kLow...kHigh {
                let shift = Double(k) * period
                line(&grid, gw: gw, gh: gh, xa + shift, ya, xb + shift, yb)
            }
        }
    }

    private func line(_ grid: inout [UInt8], gw: Int, gh: Int, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        // Clip to the grid (Liang–Barsky), then step one dot at a time.
        var t0 = 0.0, t1 = 1.0
        let dx = x1 - x0, dy = y1 - y0
        let minX = -1.0, maxX = Double(gw - 1) - 0.001, minY = -1.0, maxY = Double(gh - 1) - 0.001
        for (p, q) in [(-dx, x0 - minX), (dx, maxX - x0), (-dy, y0 - minY), (dy, maxY - y0)] {
            if p == 0 {
                if q < 0 { return }
            } else {
                let r = q / p
                if p < 0 { if r > t1 { return }; if r > t0 { t0 = r } }
                else { if r < t0 { return }; if r < t1 { t1 = r } }
            }
        }
        let ax = x0 + t0 * dx, ay = y0 + t0 * dy, bx = x0 + t1 * dx, by = y0 + t1 * dy
        let steps = Int(max(abs(bx - ax), abs(by - ay)).rounded(.up))
        guard steps < 1 << 20 else { return }
        for n in 0...steps {
            let t = steps == 0 ? 0 : Double(n) / Double(steps)
            let gx = Int((ax + t * (bx - ax)).rounded(.down)) + 1
            let gy = Int((ay + t * (by - ay)).rounded(.down)) + 1
            guard gx >= 0, gx < gw, gy >= 0, gy < gh else { continue }
            let i = gy * gw + gx
            if grid[i] & 1 == 1 { grid[i] |= 2 }
        }
    }
}
