import Foundation
import Testing
import CombineSchedulers
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI
import TestSupport
@testable import NimbusApp

/// Golden text maps (what `nimbus map` prints), recorded with NIMBUS_RECORD=1.
@Suite @MainActor struct MapGoldenTests {
    private static let snapshots = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("__snapshots__")

    /// Bundled land data only (an empty data directory), English, metric.
    static func container(language: String = "en", units: String = "metric") throws -> AppDIContainer {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-map-\(UUID().uuidString)")
        return try AppDIContainer(configuration: .init(
            environment: ["NIMBUS_LANG": language, "NIMBUS_UNITS": units, "XDG_DATA_HOME": empty.path, "HOME": empty.path],
            scheduler: DispatchQueue.test.eraseToAnyScheduler()))
    }

    private func assertGolden(_ query: String, _ name: String, zoom: String, style: MapStyle = .braille,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let container = try Self.container()
        let text = try MapText.render(query: query, zoom: try #require(MapText.zoom(zoom)),
                                      size: MapSize(cols: 80, rows: 22), style: style, container: container) + "\n"
        assertSnapshot(of: text, named: "map-\(name)-\(zoom)\(style == .blocks ? "-blocks" : "")", in: Self.snapshots,
                       sourceLocation: sourceLocation)
    }

    @Test func testSeoul() throws {
        for zoom in ["world", "country", "city"] { try assertGolden("seoul", "seoul", zoom: zoom) }
    }

    @Test func testSaoPaulo() throws {
        for zoom in ["world", "country", "city"] { try assertGolden("são paulo", "sao-paulo", zoom: zoom) }
    }

    @Test func testReykjavik() throws {
        for zoom in ["world", "country", "city"] { try assertGolden("reykjavik", "reykjavik", zoom: zoom) }
    }

    @Test func testWellington() throws {
        for zoom in ["world", "country", "city"] { try assertGolden("wellington", "wellington", zoom: zoom) }
    }

    @Test func testBlocks() throws {
        try assertGolden("wellington", "wellington", zoom: "country", style: .blocks)
    }

    @Test func testCommandLineArguments() throws {
        #expect(MapText.zoom("World") == .world)
        // The names are the detail screen's levels: it opens at country zoom, "zoom 4/12".
        #expect(MapText.zoom("world") == MapZoom(0))
        #expect(MapText.zoom("country") == MapZoom(4))
        #expect(MapText.zoom("city") == MapZoom(8))
        for n in MapZoom.range { #expect(MapText.zoom(String(n))?.level == n) }
        // The world zoom shows the whole world across, however narrow the map.
        for cols in [1, 10, 40, 80, 127, 128, 300] {
            let projection = MapProjection(MapRequest(key: MapSnapshotKey(cityID: 1, zoom: .world, size: MapSize(cols: cols, rows: 10),
                                                                          style: .braille), latitude: 37.5, longitude: 127))
            #expect((projection.step * Double(cols * 2)) >= (360 - 1e-9), "\(cols)")
            #expect(projection.cell(of: Coordinate(latitude: 37.5, longitude: 127)) != nil, "\(cols)")
        }
        #expect(MapText.zoom("7") == MapZoom(7))
        #expect(MapText.zoom("13") == nil)
        #expect(MapText.zoom("near") == nil)
        #expect(MapText.size("100x30") == MapSize(cols: 100, rows: 30))
        #expect(MapText.size("0x10") == nil)
        #expect(MapText.size("501x10") == nil)
        #expect(MapText.size("80") == nil)
        if let error = #expect(throws: (any Error).self, performing: { try MapText.render(query: "qqzx", zoom: .world, size: MapSize(cols: 10, rows: 3),
                                                style: .braille, container: try Self.container()) }) {
            #expect("\(error)".hasPrefix("no city matches \"qqzx\". The catalogue lists places of 15,000"), "\(error)")
        }
    }
}

/// The map panel drawn into a canvas, as the city detail screen will host it.
@Suite @MainActor final class CityMapPanelTests {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var container: AppDIContainer!

    private func makePanel(language: String = "en", units: String = "metric") throws -> CityMapPanel {
        scheduler = DispatchQueue.test
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-map-\(UUID().uuidString)")
        container = try AppDIContainer(configuration: .init(
            environment: ["NIMBUS_LANG": language, "NIMBUS_UNITS": units, "XDG_DATA_HOME": empty.path, "XDG_CONFIG_HOME": empty.path],
            scheduler: scheduler.eraseToAnyScheduler()))
        let seoul = container.cityRepository.city(container.cityRepository.search("seoul").refs[0])
        return try #require(container.map.makeCityMapPanel(city: seoul) as? CityMapPanel)
    }

    private func draw(_ panel: CityMapPanel, cols: Int = 40, rows: Int = 12, theme: Theme = .monochrome) -> ScreenBuffer {
        let canvas = Canvas(size: Size(cols: cols, rows: rows))
        panel.draw(canvas.painter(), theme: theme)
        return canvas.buffer
    }

    private func lines(_ buffer: ScreenBuffer) -> [String] { trimmedScreen(buffer.text()).components(separatedBy: "\n") }

    /// A key as the host dispatches it: the command of the panel's binding for it, if any, to the panel.
    private func press(_ panel: CityMapPanel, _ key: Key) -> Bool { panel.press(key) == .ran }

    @Test func testLoadingThenMapWithLabelScaleAndStatus() throws {
        let panel = try makePanel()
        var redraws = 0
        let changes = panel.changes.sink { redraws += 1 }
        defer { changes.cancel() }
        let loading = lines(draw(panel))
        #expect(loading[5].contains("Drawing the map…"), "\(loading.joined(separator: "\n"))")
        scheduler.advance()
        #expect(redraws >= 2)
        let shown = lines(draw(panel))
        #expect(shown.count == 12)
        #expect(shown[5].contains("● Seoul "), "\(shown.joined(separator: "\n"))")
        #expect((shown[5].firstIndex(of: "●").map { shown[5].distance(from: shown[5].startIndex, to: $0) }) == 20)
        #expect(shown[11].hasPrefix("├"), "\(shown[11])")
        #expect(shown[11].contains(" km"), "\(shown[11])")
        #expect(shown[11].hasSuffix("zoom 4/12 · braille"), "\(shown[11])")
        #expect(!shown.joined().contains("Drawing"))
    }

    @Test func testKeysZoomPanResetAndStyle() throws {
        let panel = try makePanel()
        _ = draw(panel)
        scheduler.advance()
        #expect(press(panel, .char("+")))
        scheduler.advance()
        #expect(panel.state?.zoom == MapZoom(5))
        #expect(press(panel, .char("l")))
        scheduler.advance()
        #expect(panel.state?.snapshot?.key.offset == MapOffset(x: 1, y: 0))
        #expect(panel.state?.snapshot?.marker?.x == 10, "the city moved a quarter to the left")
        #expect(press(panel, .char("c")))
        scheduler.advance()
        #expect(lines(draw(panel))[11].hasSuffix("zoom 5/12 · blocks"))
        #expect(press(panel, .char("0")))
        scheduler.advance()
        #expect(panel.state?.zoom == .country)
        #expect(panel.state?.snapshot?.key.offset == .zero)
        #expect(!press(panel, .char("x")))
        #expect(!press(panel, .enter))
        let stats = container.map.statistics
        #expect(stats.misses == 5, "zoom 4, zoom 5, panned, panned in blocks, zoom 4 in blocks")
        #expect(stats.count == 5)
        #expect(press(panel, .char("c")))  // zoom 4 in braille again: from the cache
        #expect(container.map.statistics.hits == 1)
    }

    @Test func testReopeningACityIsServedFromTheCacheWithoutWaiting() throws {
        let first = try makePanel()
        _ = draw(first)
        scheduler.advance()
        first.cancel()
        let seoul = container.cityRepository.city(container.cityRepository.search("seoul").refs[0])
        let again = try #require(container.map.makeCityMapPanel(city: seoul) as? CityMapPanel)
        let shown = lines(draw(again))  // no scheduler step: the cached map is there in the first frame
        #expect(shown[5].contains("● Seoul"), "\(shown.joined(separator: "\n"))")
        #expect(container.map.statistics.hits == 1)
    }

    @Test func testKoreanLabelsAndEveryTinySize() throws {
        let panel = try makePanel(language: "ko")
        _ = draw(panel, cols: 30, rows: 8)
        scheduler.advance()
        let shown = lines(draw(panel, cols: 30, rows: 8))
        #expect(shown[7].hasSuffix("확대 4/12 · 도트"), "\(shown[7])")
        #expect(shown[7].contains("km"), "\(shown[7])")
        for cols in [0, 1, 2, 3, 5, 9] {
            for rows in [0, 1, 2, 3, 4] {
                _ = draw(panel, cols: cols, rows: rows, theme: .color)
                scheduler.advance()
                _ = draw(panel, cols: cols, rows: rows, theme: .color)
            }
        }
        _ = draw(panel, cols: 500, rows: 200)
        scheduler.advance()
        #expect(draw(panel, cols: 500, rows: 200).size == Size(cols: 500, rows: 200))
    }

    @Test func testLabelPlacementNeverCoversTheMarkerOrCrossesTheEdge() {
        #expect(MapSnapshotView.labelPlacement("Seoul", markerX: 5, width: 20)?.x == 6)
        #expect(MapSnapshotView.labelPlacement("Seoul", markerX: 16, width: 20)?.x == 9)  // " Seoul " ends at 15
        let korean = MapSnapshotView.labelPlacement("서울특별시", markerX: 6, width: 14)
        #expect(korean?.x == 7)
        #expect((korean.map { DisplayWidth.of($0.text) }) == 7)  // " 서울… " fits the 7 columns right of the marker
        #expect(MapSnapshotView.labelPlacement("Seoul", markerX: 1, width: 3) == nil)
        for width in 1...30 {
            for x in 0..<width {
                guard let p = MapSnapshotView.labelPlacement("São Paulo 상파울루", markerX: x, width: width) else { continue }
                let end = p.x + DisplayWidth.of(p.text)
                #expect(end <= x || p.x > x, "covers the marker at \(x) in \(width)")
                #expect(p.x >= 0 && end <= width, "crosses the edge at \(x) in \(width)")
            }
        }
    }
}

/// Several labelled markers on one map: every marker drawn, labels never over a marker or each other.
@Suite @MainActor struct MapMarkerDrawingTests {
    /// A blank sea map of `cols` × `rows` with the city at `city`.
    private func snapshot(cols: Int, rows: Int, city: (x: Int, y: Int)?) -> MapSnapshot {
        let key = MapSnapshotKey(cityID: 1, zoom: .country, size: MapSize(cols: cols, rows: rows), style: .braille)
        return MapSnapshot(key: key, rows: Array(repeating: Array(repeating: MapCell(glyph: " ", kind: .sea), count: cols), count: rows),
                           marker: city, kilometresPerColumn: 10)
    }

    @Test func testLabelsNeverOverlapAndALabelWithoutRoomIsLeftOutButItsMarkerStays() {
        let map = snapshot(cols: 30, rows: 3, city: (x: 2, y: 0))
        let markers = [
            PlacedMapMarker(x: 12, y: 0, label: "Seoul", kind: .place),  // right of the city's label
            PlacedMapMarker(x: 10, y: 1, label: "Busan", kind: .place),  // its right would cover M5.1's marker: left
            PlacedMapMarker(x: 16, y: 1, label: "M5.1", kind: .quake),
            PlacedMapMarker(x: 28, y: 2, label: "M4.4", kind: .quake),   // no room right of it: left
        ]
        let canvas = Canvas(size: Size(cols: 30, rows: 3))
        MapSnapshotView.draw(map, in: canvas.painter(), palette: .monochrome, label: "Pohang", markers: markers)
        let lines = canvas.buffer.text().split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
        #expect(lines[0] == "  ● Pohang  ◆ Seoul")
        #expect(lines[1] == "    Busan ◆     ✱ M5.1")
        #expect(lines[2] == "                       M4.4 ✱")

        // Crowded: two markers a column apart; the second's label has no room on either side.
        let crowded = [PlacedMapMarker(x: 1, y: 0, label: "Seoul", kind: .place),
                       PlacedMapMarker(x: 2, y: 0, label: "Incheon", kind: .place)]
        let small = Canvas(size: Size(cols: 10, rows: 1))
        MapSnapshotView.draw(snapshot(cols: 10, rows: 1, city: nil), in: small.painter(), palette: .monochrome,
                             markers: crowded)
        let line = small.buffer.text()
        #expect(line.contains("◆◆"), "\(line)")
        #expect(!line.contains("Seoul"), "Seoul's label would cover Incheon's marker: left out\n\(line)")
        #expect(!line.contains("Incheon"), "\(line)")

        // Any markers anywhere: labels stay whole, inside the map, off every marker and each other.
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 1...12, using: &random)
            let ms = (0..<count).map { i in
                PlacedMapMarker(x: Int.random(in: 0..<10, using: &random) * 2 + (i % 2), y: Int.random(in: 0..<2, using: &random) * 3,
                                label: ["Seoul", "M5.1", "서울", "Tōkyō"][i % 4], kind: i % 2 == 0 ? .place : .quake)
            }
            let c = Canvas(size: Size(cols: 20, rows: 4))
            MapSnapshotView.draw(snapshot(cols: 20, rows: 4, city: (x: 10, y: 2)), in: c.painter(), palette: .monochrome,
                                 label: "Busan", markers: ms)
            let text = c.buffer.text()
            for m in ms {
                #expect(["◆", "✱"].contains(c.buffer[x: m.x, y: m.y].text), "marker at \(m.x),\(m.y) covered\n\(text)")
            }
            #expect(c.buffer[x: 10, y: 2].text == "●", "\(text)")
        }
    }
}

/// F12: the map cache's counters over any screen.
@Suite @MainActor struct MapCacheOverlayTests {
    @Test func testF12ShowsTheCountersAndEscClosesIt() throws {
        let container = try MapGoldenTests.container(language: "ko")
        let seoul = container.cityRepository.city(container.cityRepository.search("seoul").refs[0])
        _ = try container.map.makeShowCityMapUseCase().snapshot(MapRequest(city: seoul, zoom: .country, size: MapSize(cols: 12, rows: 4), style: .braille))
        _ = try container.map.makeShowCityMapUseCase().snapshot(MapRequest(city: seoul, zoom: .country, size: MapSize(cols: 12, rows: 4), style: .braille))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        coordinator.handle(.function(12))
        let text = coordinator.render(size: Size(cols: 60, rows: 20)).text()
        for expected in ["지도 캐시", "적중: 1", "실패: 1", "제거: 0", "적중률: 50%", "지도: 1 / 64", "셀: 48 / 200,000"] {
            #expect(text.contains(expected), "\(expected) missing from\n\(text)")
        }
        coordinator.handle(.escape)
        #expect(!coordinator.render(size: Size(cols: 60, rows: 20)).text().contains("지도 캐시"))
        coordinator.handle(.function(12))
        coordinator.handle(.function(12))
        #expect(!coordinator.render(size: Size(cols: 60, rows: 20)).text().contains("지도 캐시"))
    }

    @Test func testThumbnailDrawsIntoAPainter() throws {
        let container = try MapGoldenTests.container()
        let wellington = container.cityRepository.city(container.cityRepository.search("wellington").refs[0])
        let thumbnail = try #require(try container.map.makeShowCityMapUseCase()
            .snapshot(MapRequest(city: wellington, zoom: .country, size: MapSize(cols: 12, rows: 4), style: .braille)))
        let canvas = Canvas(size: Size(cols: 14, rows: 4))
        MapSnapshotView.draw(thumbnail, in: canvas.painter().sub(Rect(x: 1, y: 0, width: 12, height: 4)), palette: .monochrome)
        let text = canvas.buffer.text()
        #expect(text.contains("●"))
        #expect(text.contains("⣿"))
        #expect(canvas.buffer[x: 0, y: 0] == .blank)
    }
}

/// The scale bar's text: the distance is shown whenever a bar with its distance fits at all.
@Suite @MainActor struct MapScaleBarTextTests {
    @Test func testTheDistanceIsShownWheneverItFitsAtAllAndTheBarShortensFirst() {
        var checked = 0, shortened = 0
        for language in [Language.en, .ko] {
            let l10n = L10n.bundled(language)
            for units in [UnitSystem.metric, .imperial] {
                for e in -24...40 {
                    let perColumn = pow(10, Double(e) / 8)
                    for maxColumns in [24, 10, 2] {
                        guard let bar = MapScaleBar.make(kilometresPerColumn: perColumn, maxColumns: maxColumns,
                                                         units: units, l10n: l10n) else { continue }
                        #expect(bar.steps.first == MapScaleBar.Step(columns: bar.columns, label: bar.label))
                        #expect(bar.steps.map(\.columns) == bar.steps.map(\.columns).sorted(by: >))
                        for width in 1...200 {
                            let text = MapSnapshotView.scaleText(bar, maxWidth: width)
                            let fitting = bar.steps.filter { $0.columns + 1 + DisplayWidth.of($0.label) <= width }
                            if let text { #expect(DisplayWidth.of(text) <= width, "\(text)") }
                            guard let best = fitting.first else {
                                #expect(!(text?.contains(" ") ?? false), "\(text ?? "") in \(width)")
                                continue
                            }
                            let bars = String(repeating: "─", count: best.columns - 2)
                            #expect(text == ("├" + bars + "┤ " + best.label), "\(perColumn) km in \(width)")
                            if best != bar.steps[0] { shortened += 1 }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 10_000)
        #expect(shortened > 100)
    }
}

/// At world zoom the city's label never covers another country's land.
@Suite @MainActor struct WorldLabelTests {
    /// A map from `picture`: "." sea, "#" land, "|" a border; the city at `city`.
    private func snapshot(_ picture: [String], city: (x: Int, y: Int)) -> MapSnapshot {
        let rows = picture.map { line in
            line.map { c -> MapCell in
                // A border cell shows no dots: it is the gap between two countries' land.
                MapCell(glyph: c == "#" ? "⣿" : " ", kind: c == "." ? .sea : c == "|" ? .border : .land)
            }
        }
        let size = MapSize(cols: picture[0].count, rows: picture.count)
        return MapSnapshot(key: MapSnapshotKey(cityID: 1, zoom: .world, size: size, style: .braille), rows: rows,
                           marker: city, kilometresPerColumn: 500, projection: nil)
    }

    private func draw(_ s: MapSnapshot, label: String) -> Canvas {
        let c = Canvas(size: Size(cols: s.key.size.cols, rows: s.key.size.rows))
        MapSnapshotView.draw(s, in: c.painter(), palette: .monochrome, label: label)
        return c
    }

    @Test func testTheLabelGoesOnItsRowWhereItCoversLessOfOtherCountries() {
        // Home on the left of the border, a neighbour on the right: right of the marker is foreign, so
        // the label goes to the left (over home land).
        let map = ["...............",
                   "..#####|######.",
                   "..#####|######.",
                   "..#####|######.",
                   "..............."]
        let s = snapshot(map, city: (x: 6, y: 2))
        #expect(Set(MapSnapshotView.foreignLand(in: s, marker: (6, 2))).count == (3 * 7))  // the border's cells too
        let c = draw(s, label: "Ab")
        #expect(c.buffer[x: 6, y: 2].text == "●")
        #expect(c.buffer[x: 3, y: 2].text == "A")  // " Ab " at 2..<6
        // Foreign land all round: the label still sits on the marker's row, on the side covering less
        // of it.
        let crowded = ["###|###|###",
                       "###|#|#|###",
                       "###|###|###"]
        let t = draw(snapshot(crowded, city: (x: 5, y: 1)), label: "Ab")
        #expect(t.buffer[x: 5, y: 1].text == "●")
        #expect(t.buffer.text().components(separatedBy: "\n")[1].contains("Ab") == true, "\(t.buffer.text())")
        // Every position, every map: a label shown is on the marker's row, on a side covering no more
        // foreign cells than the other side would.
        var placed = 0
        for seed in 0..<300 {
            var rng = SplitMix(seed: UInt64(seed))
            let picture = (0..<6).map { _ in String((0..<16).map { _ in [".", "#", "#", "|"][Int(rng.next() % 4)] }) }
            let city = (x: Int(rng.next() % 16), y: Int(rng.next() % 6))
            let s = snapshot(picture, city: city)
            let foreign = MapSnapshotView.foreignLand(in: s, marker: city)
            let c = draw(s, label: "Xy")
            #expect(c.buffer[x: city.x, y: city.y].text == "●")
            func covered(_ x: Int) -> Int { (x..<(x + 4)).filter { foreign.contains(city.y * 16 + $0) }.count }
            let sides = [city.x + 1, city.x - 4].filter { $0 >= 0 && $0 + 4 <= 16 }
            for y in 0..<6 {
                for x in 0..<16 where c.buffer[x: x, y: y].text == "X" {
                    placed += 1
                    #expect(y == city.y, "\(picture) \(city)")
                    #expect(covered(x - 1) == sides.map(covered).min(), "\(picture) \(city)")
                }
            }
            if sides.isEmpty { #expect(!c.buffer.text().contains("X")) }
        }
        #expect(placed > 50)
    }
}

private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Catalogue cities as labelled dots at country and city zoom.
@Suite @MainActor struct MapTownTests {
    @Test func testTheLargestCitiesInViewOneACellNoneAtWorldZoomNoneOverTheCity() throws {
        let container = try MapGoldenTests.container()
        let seoul = container.cityRepository.city(container.cityRepository.search("seoul").refs[0])
        let finder = container.mapTowns
        let showMap = container.map.makeShowCityMapUseCase()
        for zoom in [MapZoom.world, MapZoom(2), .country, MapZoom(6), .city, MapZoom(12)] {
            let snapshot = try #require(try showMap.snapshot(MapRequest(city: seoul, zoom: zoom, size: MapSize(cols: 80, rows: 22),
                                                                         style: .braille)))
            let towns = finder.towns(on: snapshot, language: .en)
            if zoom < .country { #expect(towns == [], "\(zoom.level)"); continue }
            if zoom <= .city { #expect(!towns.isEmpty, "\(zoom.level)") }
            #expect(towns.count <= MapTownFinder.limit)
            #expect(towns.map(\.weight) == towns.map(\.weight).sorted(by: >), "largest first")
            #expect(!(towns.contains { $0.label.said(in: .en) == "Seoul" }))
            let cells = towns.compactMap { snapshot.projection?.cell(of: $0.coordinate) }
            #expect(cells.count == towns.count, "all in view")
            #expect(Set(cells.map { $0.y * 80 + $0.x }).count == cells.count, "one a cell")
            let city = try #require(snapshot.marker)
            #expect(!(cells.contains { abs($0.x - city.x) <= 1 && abs($0.y - city.y) <= 1 }), "clear of the city")
            // Drawn: the city's marker and whole label stay, every town dot shown has its label.
            let canvas = Canvas(size: Size(cols: 80, rows: 22))
            MapSnapshotView.draw(snapshot, in: canvas.painter(), palette: .monochrome, label: "Seoul",
                                 markers: MapMarkerPlacement.place(towns, on: snapshot, language: .en))
            let text = canvas.buffer.text()
            #expect(text.contains("● Seoul ") || text.contains(" Seoul ●"), "\(text)")
            for line in text.components(separatedBy: "\n") {
                for (i, c) in Array(line).enumerated() where c == "•" {
                    let chars = Array(line)
                    #expect((i + 2 < chars.count && chars[i + 1] == " " && chars[i + 2] != " ")
                                  || (i >= 2 && chars[i - 1] == " " && chars[i - 2] != " "), "a dot without its label:\n\(text)")
                }
            }
        }
        // In Korean the dots are named in Hangul.
        let ko = try MapGoldenTests.container(language: "ko")
        let koSeoul = ko.cityRepository.city(ko.cityRepository.search("seoul").refs[0])
        let snapshot = try #require(try ko.map.makeShowCityMapUseCase().snapshot(
            MapRequest(city: koSeoul, zoom: .country, size: MapSize(cols: 80, rows: 22), style: .braille)))
        let koTowns = ko.mapTowns.towns(on: snapshot, language: .ko).map { $0.label.said(in: .ko) }
        #expect(koTowns.contains { $0 == "부산" || $0 == "부산광역시" }, "\(koTowns)")
    }

    /// Tokyo's maps in Korean and Japanese: every town is named as the lists name it, in the
    /// language's own script (Tokyo's Korean map mixed "Sendai" and "Toyama" with 니가타).
    @Test func testKoreanAndJapaneseTownLabelsShareTheLanguagesScript() throws {
        for (code, language) in [("ko", Language.ko), ("ja", Language.ja)] {
            let container = try MapGoldenTests.container(language: code)
            let tokyo = container.cityRepository.city(container.cityRepository.search("tokyo").refs[0])
            for zoom in [MapZoom.country, MapZoom(6), .city] {
                let snapshot = try #require(try container.map.makeShowCityMapUseCase().snapshot(
                    MapRequest(city: tokyo, zoom: zoom, size: MapSize(cols: 100, rows: 30), style: .braille)))
                let towns = container.mapTowns.towns(on: snapshot, language: language).map { $0.label.said(in: language) }
                #expect(towns.count > 3, "\(code) zoom \(zoom.level)")
                for town in towns {
                    #expect(!(town.unicodeScalars.contains { $0.isASCII && $0.properties.isAlphabetic }), "\(code) zoom \(zoom.level): \(town) among \(towns)")
                    // The list finds the town by that name and shows it so.
                    #expect(container.catalog.search(town).refs.prefix(20).contains {
                        CityNameChoice.name(container.catalog.city($0), language: language) == town
                    }, "\(code): \(town)")
                }
            }
        }
    }
}
