import Foundation
import XCTest
import NimbusDomain
@testable import NimbusData

final class MapRendererTests: XCTestCase {
    private static let land = try! LandMask.bundled()
    private static let renderer = MapRenderer(land: land, borders: try! CountryBorders.bundled())

    private func city(_ lat: Double, _ lon: Double, id: Int = 1) -> City {
        City(id: id, name: "X", countryCode: "KR", latitude: lat, longitude: lon, population: 1, timeZone: "UTC",
             alternateNames: [])
    }

    func testBundledPyramidGoesDownToAboutOneKilometre() {
        XCTAssertEqual(Self.land.resolutions, [1, 2, 4, 8, 15, 30, 60, 120])
    }

    func testLandAndSeaAtKnownPlaces() {
        XCTAssertTrue(Self.land.isLand(latitude: 37.57, longitude: 126.98))     // Seoul
        XCTAssertTrue(Self.land.isLand(latitude: -23.55, longitude: -46.63))    // São Paulo
        XCTAssertTrue(Self.land.isLand(latitude: 48.85, longitude: 2.35))       // Paris
        XCTAssertFalse(Self.land.isLand(latitude: 0, longitude: -150))          // Pacific
        XCTAssertFalse(Self.land.isLand(latitude: 36.0, longitude: 125.0))      // Yellow Sea
        XCTAssertFalse(Self.land.isLand(latitude: 30, longitude: -40))          // Atlantic
        XCTAssertTrue(Self.land.isLand(latitude: -80, longitude: 0))            // Antarctica
    }

    func testSnapshotHasTheRequestedSizeAndTheMarkerInTheCentre() throws {
        for style in MapStyle.allCases {
            for zoom in [MapZoom.world, .country, .city] {
                let request = MapRequest(city: city(37.57, 126.98), zoom: zoom, size: MapSize(cols: 41, rows: 13), style: style)
                let snapshot = try XCTUnwrap(Self.renderer.render(request))
                XCTAssertEqual(snapshot.rows.count, 13)
                XCTAssertTrue(snapshot.rows.allSatisfy { $0.count == 41 })
                if zoom == .world {
                    // The world is drawn whole, the seam in the Pacific: Seoul is right of the centre.
                    XCTAssertNotNil(snapshot.marker)
                    XCTAssertGreaterThan(snapshot.marker?.x ?? 0, 20)
                } else {
                    XCTAssertEqual(snapshot.marker?.x, 20)
                    XCTAssertEqual(snapshot.marker?.y, 6)
                }
                XCTAssertEqual(snapshot.cost, 41 * 13)
            }
        }
    }

    func testCountryZoomAroundSeoulShowsLandEastAndSeaWest() throws {
        let request = MapRequest(city: city(37.57, 126.98), zoom: .country, size: MapSize(cols: 60, rows: 20), style: .braille)
        let snapshot = try XCTUnwrap(Self.renderer.render(request))
        let middle = snapshot.rows[10]
        XCTAssertEqual(middle[5].kind, .sea, "the Yellow Sea is west of Seoul")
        XCTAssertNotEqual(middle[35].kind, .sea, "Korea is east of Seoul")
        XCTAssertTrue(snapshot.rows.joined().contains { $0.kind == .coast })
    }

    func testWorldZoomHasBordersAndCoasts() throws {
        let request = MapRequest(city: city(48.85, 2.35), zoom: .world, size: MapSize(cols: 100, rows: 30), style: .braille)
        let kinds = Set(try XCTUnwrap(Self.renderer.render(request)).rows.joined().map(\.kind))
        XCTAssertEqual(kinds, [.sea, .land, .coast, .border])
    }

    func testPanningMovesTheMarkerByAQuarterOfTheView() throws {
        let request = MapRequest(city: city(37.57, 126.98), zoom: .country, size: MapSize(cols: 40, rows: 12), style: .braille,
                                 offset: MapOffset(x: 1, y: -1))
        let snapshot = try XCTUnwrap(Self.renderer.render(request))
        XCTAssertEqual(snapshot.marker?.x, 10)
        XCTAssertEqual(snapshot.marker?.y, 9)
        let away = MapRequest(city: city(37.57, 126.98), zoom: .country, size: MapSize(cols: 40, rows: 12), style: .braille,
                              offset: MapOffset(x: 3, y: 0))
        XCTAssertNil(try XCTUnwrap(Self.renderer.render(away)).marker)
    }

    func testTinyHugeAndPolarRequestsDoNotCrash() throws {
        for (cols, rows) in [(0, 0), (1, 1), (0, 5), (5, 0), (500, 200)] {
            let request = MapRequest(city: city(89.9, 179.99), zoom: .world, size: MapSize(cols: cols, rows: rows), style: .blocks)
            let snapshot = try XCTUnwrap(Self.renderer.render(request))
            XCTAssertEqual(snapshot.rows.count, rows)
        }
        let deep = MapRequest(city: city(-89.9, -180), zoom: MapZoom(12), size: MapSize(cols: 20, rows: 5), style: .braille,
                              offset: MapOffset(x: -1_000, y: 1_000))
        XCTAssertNotNil(Self.renderer.render(deep))
    }

    func testACancelledRenderReturnsNothing() {
        let flag = CancellationFlag()
        flag.cancel()
        let request = MapRequest(city: city(37.57, 126.98), zoom: .country, size: MapSize(cols: 40, rows: 12), style: .braille)
        XCTAssertNil(Self.renderer.render(request, cancel: flag))
    }

    func testBrailleAndBlockGlyphs() {
        XCTAssertEqual(MapRenderer.glyph(0, style: .braille), " ")
        XCTAssertEqual(MapRenderer.glyph(0xFF, style: .braille), "⣿")
        let allBraille = (0..<2).reduce(0) { acc, dx in (0..<4).reduce(acc) { $0 | MapRenderer.bit(dx: dx, dy: $1, style: .braille) } }
        XCTAssertEqual(allBraille, 0xFF)
        XCTAssertEqual(MapRenderer.glyph(MapRenderer.bit(dx: 0, dy: 3, style: .braille), style: .braille), "⡀")
        XCTAssertEqual(MapRenderer.glyph(MapRenderer.bit(dx: 1, dy: 0, style: .blocks), style: .blocks), "▝")
        XCTAssertEqual(MapRenderer.glyph(15, style: .blocks), "█")
    }

    func testDamagedFilesAreTypedErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("landmask.bin")
        try Data("NMBL\u{1}\u{0}\u{1}\u{0}".utf8).write(to: bad)
        XCTAssertThrowsError(try LandMask(contentsOf: bad)) { error in
            guard case MapDataError.corrupt = error else { return XCTFail("\(error)") }
        }
        let truncated = dir.appendingPathComponent("cut.bin")
        let whole = try Data(contentsOf: try XCTUnwrap(NimbusResourcesURL.landmask))
        try whole.prefix(4_000).write(to: truncated)
        XCTAssertThrowsError(try LandMask(contentsOf: truncated))
        XCTAssertThrowsError(try LandMask(contentsOf: dir.appendingPathComponent("none.bin"))) { error in
            guard case MapDataError.missing = error else { return XCTFail("\(error)") }
        }
        let repository = RenderedMapRepository(cache: MapSnapshotCache()) { MapRenderer(land: try LandMask(contentsOf: bad), borders: try CountryBorders.bundled()) }
        let request = MapRequest(city: city(0, 0), zoom: .world, size: MapSize(cols: 4, rows: 2), style: .braille)
        XCTAssertThrowsError(try repository.renderSnapshot(request, cancel: CancellationFlag())) { error in
            guard case MapError.dataDamaged = error else { return XCTFail("\(error)") }
        }
    }

    /// A count in the tables that does not add up (a tile or block rank past the end) is refused
    /// when the file is opened, never read past at a lookup.
    func testCountsThatDoNotAddUpAreRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Data(contentsOf: try XCTUnwrap(NimbusResourcesURL.landmask))
        func u32(_ data: Data, _ o: Int) -> Int { data.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: o, as: UInt32.self)) } }
        let finest = 8 + 48 * (u32(whole, 4) >> 16 - 1)
        let groups = u32(whole, finest + 24), tiles = u32(whole, finest + 32)
        // The second group's count of mixed tiles before it, the second tile's first block, the block count.
        for offset in [groups + 24 + 16, tiles + 24 + 16, finest + 40] {
            var damaged = whole
            damaged[offset] &+= 1
            let file = dir.appendingPathComponent("damaged.bin")
            try damaged.write(to: file)
            XCTAssertThrowsError(try LandMask(contentsOf: file), "offset \(offset)") { error in
                guard case MapDataError.corrupt = error else { return XCTFail("\(error)") }
            }
        }
    }

    /// A table offset moved along by whole words (still aligned, still inside the file) opened, and its
    /// level read another level's words as its own: tables may not overlap each other or the header.
    func testTablesThatOverlapAreRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Data(contentsOf: try XCTUnwrap(NimbusResourcesURL.landmask))
        func u32(_ o: Int) -> Int { whole.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: o, as: UInt32.self)) } }
        let count = u32(4) >> 16
        // Each level's group, tile and block offsets (fields 6, 8 and 9) of the second level, and its
        // block offset moved back over its own tiles, and the first level's groups onto the records.
        var cases: [(field: Int, level: Int, to: Int)] = [(9, 1, u32(8 + 48 + 36) + 16), (8, 1, u32(8 + 48 + 32) + 8),
                                                          (9, 1, u32(8 + 48 + 36) - 8), (6, 0, 8)]
        cases.append((6, count - 1, u32(8 + 48 * (count - 1) + 24) - 24))
        for (field, level, to) in cases {
            var damaged = whole
            let at = 8 + 48 * level + 4 * field
            damaged.replaceSubrange(at..<(at + 4), with: withUnsafeBytes(of: UInt32(to).littleEndian) { Data($0) })
            let file = dir.appendingPathComponent("damaged.bin")
            try damaged.write(to: file)
            XCTAssertThrowsError(try LandMask(contentsOf: file), "field \(field) of level \(level) set to \(to)") { error in
                guard case MapDataError.corrupt = error else { return XCTFail("\(error)") }
            }
        }
    }

    func testRepositoryCachesWhatItRenders() throws {
        let repository = RenderedMapRepository(cache: MapSnapshotCache()) { Self.renderer }
        let request = MapRequest(city: city(37.57, 126.98), zoom: .country, size: MapSize(cols: 20, rows: 6), style: .braille)
        XCTAssertNil(repository.cachedSnapshot(request.key))
        let drawn = try XCTUnwrap(try repository.renderSnapshot(request, cancel: CancellationFlag()))
        XCTAssertEqual(repository.cachedSnapshot(request.key), drawn)
        XCTAssertEqual(repository.statistics.hits, 1)
        XCTAssertEqual(repository.statistics.misses, 1)
        XCTAssertEqual(repository.statistics.count, 1)
    }
}

import NimbusResources
private enum NimbusResourcesURL {
    static var landmask: URL? { NimbusResources.url(forResource: "landmask", withExtension: "bin") }
}
