import Foundation
import Testing
import PropertyBased
@testable import NimbusDomain
import TestSupport

/// One view of a set of places (the Liked tab's map): every place inside it, at the closest zoom that
/// holds them from its centre, whatever the order of the places.
@Suite struct MapOverviewTests {
    private static func city(_ id: Int, _ latitude: Double, _ longitude: Double) -> City {
        City(id: id, name: "Place \(id)", countryCode: "ZZ", latitude: latitude, longitude: longitude,
             population: 1000, timeZone: "UTC", alternateNames: [])
    }

    /// Random places anywhere people live (to 80° N and S) in random rooms: every place lies inside
    /// the view (not on its edge cells) unless only the world view is left; the view is the same for
    /// the places in any order; one level closer from the same centre leaves a place out.
    @Test func everyPlaceIsInsideTheClosestViewInAnyOrder() async {
        await propertyCheck(count: PropertyCount.scaled(default: 300),
                            input: Gen.int(in: 0...Int.max).array(of: 1...30), Gen.int(in: 3...80), Gen.int(in: 2...40)) {
            seeds, cols, rows in
            // Places near each other as often as far apart: a cluster's spread is 0.1° to 180°.
            let spread = pow(10, Double(seeds[0] % 1000) / 1000 * 3.26 - 1)
            let centreLat = Double(seeds[0] / 1000 % 140) - 70, centreLon = Double(seeds[0] / 140_000 % 360) - 180
            let places = seeds.enumerated().map { i, seed in
                let dLat = (Double(seed % 10_007) / 10_007 - 0.5) * spread
                let dLon = (Double(seed / 10_007 % 10_009) / 10_009 - 0.5) * spread * 2
                return Self.city(i + 1, min(80, max(-80, centreLat + dLat)), MapOverview.normalised(centreLon + dLon))
            }
            let size = MapSize(cols: cols, rows: rows)
            guard let request = MapOverview.request(for: places, size: size) else {
                Issue.record("no view for \(places.count) places at \(cols)×\(rows)")
                return
            }
            #expect(request.key.size == size)
            #expect(request.key.zoom <= .country)
            #expect(places.contains { $0.id == request.key.cityID }, "centred on one of the places")
            if request.key.zoom > .world {
                #expect(MapOverview.fits(places, request), "a place outside the view at zoom \(request.key.zoom.level)")
            }
            if request.key.zoom < .country {
                // Counted here without the view code: the places' extent in dots one level closer (the
                // shortest arc of longitudes, tried from each place). Had it fitted the inner view with
                // a quarter of the view to spare (what the pans cannot centre), that level was due.
                let closer = MapZoom(request.key.zoom.level + 1)
                let step = 360.0 / 256.0 / Double(1 << closer.level), verticalStep = step // braille: square dots
                let arc = places.map { start in
                    places.map { ((($0.longitude - start.longitude).truncatingRemainder(dividingBy: 360)) + 360)
                        .truncatingRemainder(dividingBy: 360) }.max()!
                }.min()!
                let ys = places.map { log(tan(.pi / 4 + $0.latitude * .pi / 360)) * 180 / .pi }
                let wide = arc / step, tall = (ys.max()! - ys.min()!) / verticalStep
                let innerWidth = Double((cols - 2) * 2), innerHeight = Double((rows - 2) * 4)
                let fitted = cols > 2 && rows > 2 && wide + 1 <= innerWidth - Double(cols * 2) / 4
                    && tall + 1 <= innerHeight - Double(rows * 4) / 4
                #expect(!fitted, "zoom \(closer.level) would have held them (\(wide)×\(tall) dots in \(innerWidth)×\(innerHeight))")
            }
            #expect(MapOverview.request(for: places.reversed(), size: size) == request, "the order changed the view")
            #expect(MapOverview.request(for: places.shuffled(), size: size) == request, "the order changed the view")
        }
    }

    @Test func onePlaceIsCentredAtTheCountryZoomAndNoneOrNoRoomHasNoView() {
        let seoul = Self.city(1, 37.566, 126.978)
        let one = MapOverview.request(for: [seoul], size: MapSize(cols: 28, rows: 12))
        #expect(one?.key.cityID == 1)
        #expect(one?.key.zoom == .country)
        #expect(MapOverview.request(for: [], size: MapSize(cols: 28, rows: 12)) == nil)
        #expect(MapOverview.request(for: [seoul], size: MapSize(cols: 0, rows: 12)) == nil)
        #expect(MapOverview.request(for: [Self.city(2, .nan, 10)], size: MapSize(cols: 28, rows: 12)) == nil, "no valid place")
    }

    /// Fiji and Samoa, 10° apart across the 180th meridian: a close view over the Pacific, not the
    /// world (the arc between them is the short one, not the 350° the other way).
    @Test func placesEitherSideOfTheDateLineGetTheShortArc() throws {
        let suva = Self.city(1, -18.14, 178.44), apia = Self.city(2, -13.83, -171.76)
        let request = try #require(MapOverview.request(for: [suva, apia], size: MapSize(cols: 40, rows: 20)))
        #expect(request.key.zoom >= MapZoom(3), "zoom \(request.key.zoom.level)")
        #expect(MapOverview.fits([suva, apia], request))
    }

    /// Cities on every inhabited continent need the world view; Seoul and Busan, the country's.
    @Test func theWorldForTheWorldAndACountryForACountry() throws {
        let world = [Self.city(1, 31.2, 121.5), Self.city(2, -23.5, -46.6), Self.city(3, 40.7, -74.0), Self.city(4, 51.5, -0.1),
                     Self.city(5, -33.9, 151.2), Self.city(6, 6.5, 3.4)]
        #expect(MapOverview.request(for: world, size: MapSize(cols: 44, rows: 26))?.key.zoom == .world)
        let korea = [Self.city(1, 37.566, 126.978), Self.city(2, 35.18, 129.08)]
        #expect(MapOverview.request(for: korea, size: MapSize(cols: 28, rows: 20))?.key.zoom == .country)
    }
}
