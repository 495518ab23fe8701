import Foundation
import XCTest
import NimbusDomain
@testable import NimbusData

/// The map's water and land against GSHHG itself: `Fixtures/map-reference.json` holds points that
/// `scripts/map_reference.py` found inside every lake and inland sea of at least 1,000 km², on the
/// ocean side of 21 coastal cities' shores, in the lake or sea by 5 cities on lakes and inland seas,
/// and on the land of all 26, by point-in-polygon on the polygons (not through the land mask). Each
/// water point must fall on a water dot of the map the app draws, each land point on a land dot: the
/// lakes at country zoom, the rest at city zoom (a 100×30 braille map of the city).
final class MapReferenceTests: XCTestCase {
    private struct Point: Decodable {
        let latitude: Double
        let longitude: Double
        let shore_km: Double
    }
    private struct Lake: Decodable {
        let id: String
        let area_km2: Int
        let points: [Point]
    }
    private struct Coast: Decodable {
        let city: String
        let latitude: Double
        let longitude: Double
        let points: [Point]
    }
    private struct Reference: Decodable {
        let lakes: [Lake]
        let coasts: [Coast]
        let lake_shores: [Coast]
        let land: [Coast]
    }

    private static let reference: Reference = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/map-reference.json")
        return try! JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
    }()

    /// Borders are cut out of land dots; without them a dot's glyph says land or water alone.
    private static let renderer: MapRenderer = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-reference-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let none = dir.appendingPathComponent("borders.bin")
        try! (Data("NMBB".utf8) + Data([1, 0, 0, 0, 0, 0, 0, 0])).write(to: none)
        return MapRenderer(land: try! LandMask.bundled(), borders: try! CountryBorders(contentsOf: none))
    }()

    /// Whether the dot of `point` is water on the map of `request`; nil when the point is outside it.
    private func isWater(_ point: Point, on request: MapRequest) throws -> Bool? {
        let snapshot = try XCTUnwrap(Self.renderer.render(request))
        let projection = try XCTUnwrap(snapshot.projection)
        guard let dot = projection.dot(of: Coordinate(latitude: point.latitude, longitude: point.longitude)) else { return nil }
        let style = request.key.style
        let cell = snapshot.rows[dot.y / style.dotsDown][dot.x / style.dotsAcross]
        let bit = MapRenderer.bit(dx: dot.x % style.dotsAcross, dy: dot.y % style.dotsDown, style: style)
        guard let scalar = cell.glyph.unicodeScalars.first, (0x2801...0x28FF).contains(scalar.value) else { return true }
        return Int(scalar.value - 0x2800) & bit == 0
    }

    func testFixtureCoversEveryLakeOfAThousandSquareKilometresAndTwentyCities() {
        XCTAssertEqual(Self.reference.lakes.count, 156, "GSHHG 2.3.6 has 156 level-2 polygons of 1,000 km² or more")
        XCTAssertTrue(Self.reference.lakes.contains { $0.area_km2 > 390_000 }, "the Caspian Sea")
        XCTAssertTrue(Self.reference.lakes.allSatisfy { !$0.points.isEmpty })
        XCTAssertEqual(Self.reference.coasts.count, 21)
        XCTAssertTrue(Self.reference.coasts.allSatisfy { $0.points.count >= 3 })
        XCTAssertEqual(Self.reference.lake_shores.map(\.city), ["Chicago", "Toronto", "Baku", "Geneva", "Stockholm"])
        XCTAssertTrue(Self.reference.lake_shores.allSatisfy { $0.points.count >= 3 })
        XCTAssertEqual(Self.reference.land.map(\.city), Self.reference.coasts.map(\.city) + Self.reference.lake_shores.map(\.city))
        XCTAssertTrue(Self.reference.land.allSatisfy { $0.points.count >= 3 })
    }

    /// Every sample point of every lake is water at country zoom (the map centred on the point).
    func testLakesAndInlandSeasAreWaterAtCountryZoom() throws {
        var dry: [String] = []
        var total = 0
        for lake in Self.reference.lakes {
            for point in lake.points {
                total += 1
                let request = MapRequest(key: MapSnapshotKey(cityID: 0, zoom: .country, size: MapSize(cols: 8, rows: 4), style: .braille),
                                         latitude: point.latitude, longitude: point.longitude)
                if try isWater(point, on: request) != true {
                    dry.append("lake \(lake.id) (\(lake.area_km2) km²) at \(point.latitude), \(point.longitude), \(point.shore_km) km from shore")
                }
            }
        }
        XCTAssertEqual(dry, [], "\(total - dry.count) of \(total) lake points are water")
    }

    /// Every ocean point near a coastal city is water on the city's map at city zoom, 100×30.
    func testTheOceanOffTwentyOneCoastalCitiesIsWaterAtCityZoom() throws {
        let wrong = try pointsNotDrawn(Self.reference.coasts, water: true)
        XCTAssertEqual(wrong.missed, [], "\(wrong.total - wrong.missed.count) of \(wrong.total) coast points are water")
    }

    /// The lake or sea beside Chicago, Toronto, Baku, Geneva and Stockholm is water at city zoom.
    func testTheLakesAndInlandSeasBesideFiveCitiesAreWaterAtCityZoom() throws {
        let wrong = try pointsNotDrawn(Self.reference.lake_shores, water: true)
        XCTAssertEqual(wrong.missed, [], "\(wrong.total - wrong.missed.count) of \(wrong.total) lake shore points are water")
    }

    /// The land of all 26 cities, 2 km or more from any shore, is land at city zoom.
    func testTheLandOfTwentySixShoreCitiesIsLandAtCityZoom() throws {
        let wrong = try pointsNotDrawn(Self.reference.land, water: false)
        XCTAssertEqual(wrong.missed, [], "\(wrong.total - wrong.missed.count) of \(wrong.total) land points are land")
    }

    /// The points of `places` that are not drawn as water (or as land) on their city's map at city zoom, 100×30.
    private func pointsNotDrawn(_ places: [Coast], water: Bool) throws -> (missed: [String], total: Int) {
        var missed: [String] = []
        var total = 0
        for place in places {
            let request = MapRequest(key: MapSnapshotKey(cityID: 0, zoom: .city, size: MapSize(cols: 100, rows: 30), style: .braille),
                                     latitude: place.latitude, longitude: place.longitude)
            for point in place.points {
                total += 1
                guard let isWater = try isWater(point, on: request) else {
                    missed.append("\(place.city): \(point.latitude), \(point.longitude) is outside the map")
                    continue
                }
                if isWater != water {
                    missed.append("\(place.city): \(point.latitude), \(point.longitude), \(point.shore_km) km from shore")
                }
            }
        }
        return (missed, total)
    }
}
