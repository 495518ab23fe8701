import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// Map numbers: cold renders per zoom, cached fetches, and the hit ratio of a scripted browsing session.
enum MapBenchmark {
    static func run(catalog: CityCatalog, into table: inout Table) {
        let size = MapSize(cols: 100, rows: 30)
        let opened = NimbusBenchmark.now()
        let land: LandMask
        let borders: CountryBorders
        do {
            land = try LandMask.bundled()
            borders = try CountryBorders.bundled()
        } catch {
            table.row("map data", "error: \(error)")
            return
        }
        let openTime = NimbusBenchmark.now() - opened
        // As the app makes it: world maps look up the catalogue for the city's own islands (the
        // spatial index is built here, before the timing, as the app builds it on first use).
        let locator = CatalogCityLocator(catalog: catalog)
        _ = locator.spatialIndex
        let renderer = MapRenderer(land: land, borders: borders, nearestPlace: { locator.nearestPlace(to: $0) })
        let levels = land.resolutions.map(String.init).joined(separator: ", ")
        table.section("City map, \(size.cols)×\(size.rows) braille (land levels \(levels) px/deg)")
        table.header("", "median", "p95", "target")
        table.row("open land data + borders (once)", NimbusBenchmark.ms(openTime), "", "")

        // Forty of the largest cities, so that every render is of a different place.
        let cities = (0..<40).map { catalog.city(CityRef(Int32($0 * 7))) }
        for (name, zoom) in [("world", MapZoom.world), ("country", .country), ("city", .city)] {
            var times: [Double] = []
            for round in 0..<5 {
                for city in cities {
                    let request = MapRequest(city: city, zoom: zoom, size: size, style: .braille,
                                             offset: MapOffset(x: round, y: 0))
                    let t = NimbusBenchmark.now()
                    _ = renderer.render(request)
                    times.append(NimbusBenchmark.now() - t)
                }
            }
            table.row("cold render, \(name) zoom (z\(zoom.level))", NimbusBenchmark.ms(NimbusBenchmark.pct(times, 50)),
                      NimbusBenchmark.ms(NimbusBenchmark.pct(times, 95)), "≤ 5 ms")
        }

        // Drawing a world map with the city's label (on the main queue, each frame the map is on):
        // the label's place is chosen among 8 by the land of other countries it would cover.
        for (name, knowsIslands) in [("land joined to the city's only", false), ("own-country cells known", true)] {
            var times: [Double] = []
            for city in cities {
                guard let rendered = renderer.render(MapRequest(city: city, zoom: .world, size: size, style: .braille)) else { continue }
                let snapshot = knowsIslands ? rendered
                    : MapSnapshot(key: rendered.key, rows: rendered.rows, marker: rendered.marker,
                                  kilometresPerColumn: rendered.kilometresPerColumn, projection: rendered.projection)
                for _ in 0..<5 {
                    let canvas = Canvas(size: Size(cols: size.cols, rows: size.rows))
                    let t = NimbusBenchmark.now()
                    MapSnapshotView.draw(snapshot, in: canvas.painter(), palette: .monochrome, label: city.name)
                    times.append(NimbusBenchmark.now() - t)
                }
            }
            table.row("draw with label, world zoom (\(name))", NimbusBenchmark.ms(NimbusBenchmark.pct(times, 50)),
                      NimbusBenchmark.ms(NimbusBenchmark.pct(times, 95)), "≤ 5 ms")
        }

        // The towns in view (a scan of the catalogue, off the main queue like the render); in Korean
        // only those with a Korean name are kept, so more of the catalogue is looked at.
        let finder = MapTownFinder(count: catalog.cityCount, position: { catalog.position(at: $0) },
                                   city: { catalog.city(CityRef(Int32($0))) })
        for language in [Language.en, .ko] {
            for (name, zoom) in [("country", MapZoom.country), ("city", .city)] {
                var times: [Double] = []
                for city in cities {
                    guard let snapshot = renderer.render(MapRequest(city: city, zoom: zoom, size: size, style: .braille)) else { continue }
                    let t = NimbusBenchmark.now()
                    _ = finder.towns(on: snapshot, language: language)
                    times.append(NimbusBenchmark.now() - t)
                }
                table.row("towns in view, \(name) zoom (z\(zoom.level)), \(language.rawValue)",
                          NimbusBenchmark.ms(NimbusBenchmark.pct(times, 50)), NimbusBenchmark.ms(NimbusBenchmark.pct(times, 95)), "≤ 5 ms")
            }
        }

        let cache = MapSnapshotCache(countLimit: 64, totalCostLimit: 200_000)
        let repository = RenderedMapRepository(cache: cache) { renderer }
        let showMap = ShowCityMapUseCase(repository: repository)
        let warm = MapRequest(city: cities[0], zoom: .country, size: size, style: .braille)
        _ = try? showMap.snapshot(warm)
        var cached: [Double] = []
        for _ in 0..<20_000 {
            let t = NimbusBenchmark.now()
            _ = showMap.cached(warm)
            cached.append(NimbusBenchmark.now() - t)
        }
        table.row("cached fetch (use case → cache)", us(NimbusBenchmark.pct(cached, 50)), us(NimbusBenchmark.pct(cached, 95)), "≤ 20 µs")

        // 50 detail visits: mostly the cities just seen (back and forth between results), some new
        // ones; every third visit also zooms in once and back out.
        cache.removeAllObjects()
        let session = MapSnapshotCache(countLimit: 64, totalCostLimit: 200_000)
        let sessionMap = ShowCityMapUseCase(repository: RenderedMapRepository(cache: session) { renderer })
        var seed: UInt64 = 42
        var recent: [City] = []
        var fetches = 0
        for visit in 0..<50 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let revisit = !recent.isEmpty && (seed >> 33) % 10 < 6
            let city = revisit ? recent[Int((seed >> 40) % UInt64(recent.count))] : cities[Int((seed >> 45) % UInt64(cities.count))]
            if !revisit { recent.append(city); if recent.count > 8 { recent.removeFirst() } }
            var zooms = [MapZoom.country]
            if visit % 3 == 0 { zooms += [MapZoom(MapZoom.country.level + 1), .country] }
            for zoom in zooms {
                _ = try? sessionMap.snapshot(MapRequest(city: city, zoom: zoom, size: size, style: .braille))
                fetches += 1
            }
        }
        let s = session.statistics
        table.row("hit ratio, 50 detail visits (\(fetches) maps)", String(format: "%.0f%%", s.hitRatio * 100),
                  "\(s.hits) hits, \(s.misses) misses, \(s.evictions) evictions", "")
    }

    static func us(_ s: Double) -> String { s.isNaN ? "n/a" : String(format: "%.2f µs", s * 1_000_000) }
}
