import Foundation
@testable import NimbusData
import NimbusDomain

/// The land mask and border files (NMBL, NMBB) as the app opens them, from a file: a damaged or
/// hostile file is refused with `MapDataError.corrupt` (or opens), never a crash, a read outside the
/// file (AddressSanitizer sees one: a file this small is read into memory) or a hang. What opens is
/// looked up at every level, on a grid over the whole globe and at points the input picks, and drawn
/// by the map renderer at every zoom in both styles.
func fuzzLandMask(_ data: Data) {
    var input = Input(data)
    let lookups = (0..<8).map { _ in (Int(input.byte()) << 8 | Int(input.byte())) }
    let url = scratchFile("landmask.bin")
    guard (try? Data(input.bytes).write(to: url)) != nil else { return }
    guard let land = openedOrCorrupt({ try LandMask(contentsOf: url) }) else { return }
    require(!land.levels.isEmpty, "opened with no land level")
    for level in land.levels + land.lakeLevels {
        require(level.width == 360 * level.pixelsPerDegree && level.height == 180 * level.pixelsPerDegree,
                "a level of \(level.width)×\(level.height) at \(level.pixelsPerDegree) px/°")
        // One pixel in each 8×8 block's corner across a grid of at most 64×32 points, plus the input's.
        let stepX = max(1, level.width / 64), stepY = max(1, level.height / 32)
        for y in stride(from: -1, through: level.height, by: stepY) {
            for x in stride(from: -level.width, through: 2 * level.width, by: stepX) { _ = level.isLand(x: x, y: y) }
        }
        for (i, v) in lookups.enumerated() {
            _ = level.isLand(x: i.isMultiple(of: 2) ? v : -v, y: v % (level.height + 2) - 1)
        }
    }
    for lat in stride(from: -90.0, through: 90.0, by: 7.5) {
        for lon in stride(from: -180.0, through: 180.0, by: 7.5) { _ = land.isLand(latitude: lat, longitude: lon) }
    }
    guard let borders = twoBorders else { return }
    renderEverywhere(MapRenderer(land: land, borders: borders), lookups)
}

/// The border file: refused as corrupt or opened with the segment count its size says, and drawn.
func fuzzBorders(_ data: Data) {
    let url = scratchFile("borders.bin")
    guard (try? data.write(to: url)) != nil else { return }
    guard let borders = openedOrCorrupt({ try CountryBorders(contentsOf: url) }) else { return }
    require(12 + 8 * borders.segments.count == data.count, "\(borders.segments.count) segments in \(data.count) bytes")
    require(borders.segments.allSatisfy { [$0.0, $0.1, $0.2, $0.3].allSatisfy { abs($0) <= 327.68 } }, "a segment off the scale")
    guard borders.segments.count <= 2_000, let land = fuzzLand else { return }
    renderEverywhere(MapRenderer(land: land, borders: borders), [0, 1 << 15, 1 << 16 - 1])
}

/// A map of a few places at every zoom and both styles, small and odd sizes.
private func renderEverywhere(_ renderer: MapRenderer, _ picks: [Int]) {
    let places = [(37.57, 126.98), (90, 180), (-90, -180), (0, 0)]
        + picks.prefix(2).map { (Double($0 % 181) - 90, Double($0 % 361) - 180) }
    for (lat, lon) in places {
        let city = City(id: 1, name: "X", countryCode: "KR", latitude: lat, longitude: lon, population: 1,
                        timeZone: "UTC", alternateNames: [])
        for zoom in stride(from: MapZoom.range.lowerBound, through: MapZoom.range.upperBound, by: 4) {
            for style in MapStyle.allCases {
                let size = MapSize(cols: 9 + zoom, rows: 3 + zoom / 4)
                if let snapshot = renderer.render(MapRequest(city: city, zoom: MapZoom(zoom), size: size, style: style)) {
                    require(snapshot.rows.count <= size.rows, "\(snapshot.rows.count) rows for \(size.rows)")
                }
            }
        }
    }
}

/// The smallest land mask the renderer takes (one level at 1 px/°, all water), for the border target.
private let fuzzLand: LandMask? = {
    var bytes = Data("NMBL".utf8) + le(UInt16(2)) + le(UInt16(1))
    // ppd, width, height, across, down, groups, group offset, mixed tiles, tile offset, block offset, blocks, kind
    for v: UInt32 in [1, 360, 180, 6, 3, 1, 56, 0, 80, 80, 0, 0] { bytes += le(v) }
    bytes += Data(count: 24)
    let url = scratchFile("land-for-borders.bin")
    guard (try? bytes.write(to: url)) != nil else { return nil }
    return try? LandMask(contentsOf: url)
}()

/// Two border segments (near Seoul, and across the Channel), for the land mask target.
private let twoBorders: CountryBorders? = {
    var bytes = Data("NMBB".utf8) + le(UInt16(1)) + le(UInt16(0)) + le(UInt32(2))
    for v: Int16 in [12600, 3700, 12700, 3800, -1000, 5000, 1000, 5000] { bytes += le(v) }
    let url = scratchFile("borders-for-land.bin")
    guard (try? bytes.write(to: url)) != nil else { return nil }
    return try? CountryBorders(contentsOf: url)
}()

private func le<T: FixedWidthInteger>(_ v: T) -> Data { withUnsafeBytes(of: v.littleEndian) { Data($0) } }
