import XCTest
import NimbusDomain
@testable import NimbusPresentation

/// Which markers a map shows, where, and in which order they get room.
final class MapMarkerPlacementTests: XCTestCase {
    /// A 40 × 20 braille map of Korea at country zoom, centred on Pohang.
    private func map(marker: (x: Int, y: Int)? = (x: 20, y: 10)) -> MapSnapshot {
        let request = MapRequest(key: MapSnapshotKey(cityID: 1, zoom: .country, size: MapSize(cols: 40, rows: 20), style: .braille),
                                 latitude: 36.03, longitude: 129.37)
        let projection = MapProjection(request)
        return MapSnapshot(key: request.key, rows: [], marker: marker, kilometresPerColumn: 10, projection: projection)
    }

    private func quake(_ lat: Double, _ lon: Double, _ mag: Double) -> MapMarker {
        MapMarker(coordinate: Coordinate(latitude: lat, longitude: lon), label: .text("M\(mag)"), kind: .quake, weight: mag)
    }

    func testTheProjectionPutsTheCentreInTheMiddleAndLeavesOutWhatIsOutsideTheView() throws {
        let projection = try XCTUnwrap(map().projection)
        let centre = try XCTUnwrap(projection.cell(of: Coordinate(latitude: 36.03, longitude: 129.37)))
        XCTAssertEqual(centre.x, 20)
        XCTAssertEqual(centre.y, 10)
        let seoul = try XCTUnwrap(projection.cell(of: Coordinate(latitude: 37.57, longitude: 126.98)))
        XCTAssertLessThan(seoul.x, centre.x, "west")
        XCTAssertLessThan(seoul.y, centre.y, "north")
        XCTAssertNil(projection.cell(of: Coordinate(latitude: 34.05, longitude: -118.24)), "Los Angeles is not in view")
        XCTAssertNil(projection.cell(of: Coordinate(latitude: .nan, longitude: 0)))
        // Across the antimeridian: the copy nearest the centre.
        let east = MapProjection(MapRequest(key: MapSnapshotKey(cityID: 1, zoom: .country, size: MapSize(cols: 40, rows: 10),
                                                                style: .braille), latitude: -17, longitude: 179))
        XCTAssertNotNil(east.cell(of: Coordinate(latitude: -17, longitude: -179.5)))
    }

    func testPlacesComeFirstThenTheStrongestQuakesOneMarkerACellNoneOnTheCity() {
        let seoul = MapMarker(coordinate: Coordinate(latitude: 37.57, longitude: 126.98), label: .text("Seoul"), kind: .place)
        let placed = MapMarkerPlacement.place([
            quake(35.0, 128.0, 2.7),
            quake(36.03, 129.37, 6.0),           // on the city's own cell: left out
            quake(35.0, 128.0, 4.4),             // same cell as the M2.7: the stronger keeps it
            seoul,
            quake(34.05, -118.24, 7.0),          // not in view
        ], on: map(), language: .en)
        XCTAssertEqual(placed.map(\.label), ["Seoul", "M4.4"])
        XCTAssertEqual(placed.map(\.kind), [.place, .quake])
    }

    func testAtMostTheLimitAreShownAndNothingWithoutAProjection() {
        let many = (0..<100).map { i in quake(33 + Double(i % 10) * 0.4, 125 + Double(i / 10) * 0.8, Double(i) / 10) }
        let placed = MapMarkerPlacement.place(many, on: map(marker: nil), language: .en)
        XCTAssertLessThanOrEqual(placed.count, MapMarkerPlacement.limit)
        XCTAssertEqual(placed.first?.label, "M9.9", "the strongest first")
        let blind = MapSnapshot(key: map().key, rows: [], marker: nil, kilometresPerColumn: 10)
        XCTAssertEqual(MapMarkerPlacement.place(many, on: blind, language: .en), [])
    }

    func testMarkersForPlacesAndQuakesSpeakTheUILanguage() {
        let seoul = City(id: 1835848, name: "Seoul", countryCode: "KR", latitude: 37.566, longitude: 126.9784,
                         population: 10_349_312, timeZone: "Asia/Seoul", alternateNames: ["서울", "ソウル"],
                         localNames: CityLocalNames(japanese: "ソウル", korean: "서울"))
        XCTAssertEqual(MapMarker.place(seoul).label.said(in: .ko), "서울")
        XCTAssertEqual(MapMarker.place(seoul).label.said(in: .en), "Seoul")
        XCTAssertEqual(MapMarker.place(seoul).label.said(in: .ja), "ソウル")
        // Placed, a marker is named in the language asked for.
        let place = MapMarker(coordinate: Coordinate(latitude: 37.57, longitude: 126.98), label: .city(seoul), kind: .place)
        XCTAssertEqual(MapMarkerPlacement.place([place], on: map(), language: .ko).map(\.label), ["서울"])
        XCTAssertEqual(MapMarkerPlacement.place([place], on: map(), language: .en).map(\.label), ["Seoul"])
    }
}
