import Foundation
import Testing
import NimbusData
import NimbusDomain
import NimbusTerminal
import TestSupport
@testable import NimbusUI
@testable import NimbusApp

/// The city label at world zoom over the 200 largest cities, on the app's own maps (100 × 30 braille):
/// every label sits on its marker's row, on the side covering less of other countries' land, so it
/// covers none whenever one side is clean; judged by looking every land dot under it up in the
/// catalogue.
@Suite @MainActor struct WorldLabelCoverageTests {
    private static let size = MapSize(cols: 100, rows: 30)

    /// Whether a label `width` columns wide at (`x`, `y`) covers another country's land: a cell a
    /// border runs through, or a land dot whose nearest catalogue city is in another country.
    /// Independent of the placement's own reckoning (no land walk, no renderer's cells).
    private static func coversForeignLand(x: Int, y: Int, width: Int, snapshot: MapSnapshot, projection: MapProjection,
                                          country: String, locator: CatalogCityLocator) -> Bool {
        (x..<(x + width)).contains { x in
            let cell = snapshot.rows[y][x]
            if cell.kind == .border { return true }
            return landDots(of: cell, x: x, y: y, projection: projection).contains { locator.nearestPlace(to: $0)?.countryCode != country }
        }
    }

    /// The positions of the land dots a cell shows.
    private static func landDots(of cell: MapCell, x: Int, y: Int, projection: MapProjection) -> [GeoPoint] {
        let style = projection.style
        let bits = MapSnapshotView.dotBits(cell.glyph, style: style)
        let width = Double(projection.size.cols * style.dotsAcross), height = Double(projection.size.rows * style.dotsDown)
        var points: [GeoPoint] = []
        for dy in 0..<style.dotsDown {
            for dx in 0..<style.dotsAcross where bits & MapSnapshotView.dotBit(dx: dx, dy: dy, style: style) != 0 {
                let i = Double(x * style.dotsAcross + dx), j = Double(y * style.dotsDown + dy)
                let lon = projection.centreLongitude + (i + 0.5 - width / 2) * projection.step
                let mercatorY = projection.centreY + (height / 2 - (j + 0.5)) * projection.verticalStep
                var wrapped = (lon + 180).truncatingRemainder(dividingBy: 360)
                if wrapped < 0 { wrapped += 360 }
                if let point = GeoPoint(latitude: MapProjection.latitude(mercator: mercatorY), longitude: wrapped - 180) {
                    points.append(point)
                }
            }
        }
        return points
    }

    /// Measured on the bundled data (GSHHG land, labels on the marker's row): none of the 200 labels
    /// is left out (each fits on one side); 126 cover another country's land, all of them cities with
    /// foreign land within a label's width on both sides at 3.6° a column (London, Beijing, Delhi, ...).
    @Test func testEveryLabelIsOnItsRowOnTheSideCoveringLessForeignLand() throws {
        let container = try MapGoldenTests.container()
        let catalog = container.catalog, locator = container.locator, repository = container.map.repository
        var dropped: [String] = [], worseSide: [String] = [], offRow: [String] = [], foreign: [String] = []
        for index in 0..<200 {
            let city = catalog.city(CityRef(Int32(index)))
            let request = MapRequest(city: city, zoom: .world, size: Self.size, style: .braille)
            let snapshot = try #require(try repository.renderSnapshot(request, cancel: CancellationFlag()))
            let marker = try #require(snapshot.marker), projection = try #require(snapshot.projection)
            var layout = MapSnapshotView.LabelLayout(width: Self.size.cols)
            layout.reserve(x: marker.x, width: 1, row: marker.y)
            let name = "\(city.name) (\(city.countryCode))"
            let w = DisplayWidth.of(" " + DisplayWidth.sanitize(city.name) + " ")
            // The places on the marker's row inside the map, and whether each covers foreign land.
            let sides = [marker.x + 1, marker.x - w].filter { $0 >= 0 && $0 + w <= Self.size.cols }.map { x in
                (x: x, dirty: Self.coversForeignLand(x: x, y: marker.y, width: w, snapshot: snapshot, projection: projection,
                                                     country: city.countryCode, locator: locator))
            }
            guard let placed = MapSnapshotView.worldLabelPlacement(city.name, in: snapshot, marker: marker,
                                                                   height: Self.size.rows, layout: &layout) else {
                dropped.append(name)
                #expect(sides.isEmpty, "\(name) left out though it fits")
                continue
            }
            if placed.y != marker.y { offRow.append(name) }
            let dirty = Self.coversForeignLand(x: placed.x, y: placed.y, width: DisplayWidth.of(placed.text), snapshot: snapshot,
                                               projection: projection, country: city.countryCode, locator: locator)
            if dirty { foreign.append(name) }
            if dirty && sides.contains(where: { !$0.dirty }) { worseSide.append(name) }
        }
        print("world labels of the 200 largest cities at 100×30: \(dropped.count) left out, \(foreign.count) over foreign land")
        #expect(offRow == [], "labels off their marker's row")
        #expect(worseSide == [], "labels over another country's land where the other side was clean")
        #expect(dropped.count <= 8, "\(dropped)")
        for city in ["London (GB)", "Tokyo (JP)", "Beijing (CN)", "Jakarta (ID)", "Manila (PH)", "Osaka (JP)"] {
            #expect(!dropped.contains(city), "\(city)")
        }
    }
}
