import Foundation
import XCTest
import NimbusData
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// Where an event is said to be: by its town nearby, by its seismic region far from towns (with the
/// town as a second line), in USGS's sixteen compass points, and at what time on the clocks there.
final class QuakePlaceTests: XCTestCase {
    private static let catalog = try! CityCatalog.bundled()
    private static let ushuaia = catalog.city(catalog.ref(forID: 3833367)!)
    private static let pohang = catalog.city(catalog.ref(forID: 1839071)!)

    private func formatter(_ language: Language) -> QuakeFormatter {
        QuakeFormatter(weather: WeatherFormatter(l10n: L10n.bundled(language), units: .metric, zones: SystemZoneDatabase.forTests))
    }

    private func quake(_ latitude: Double, _ longitude: Double) -> Quake {
        Quake(id: "q", magnitude: 5.1, place: "South Pole", time: Date(timeIntervalSince1970: 1_782_000_000),
              updated: Date(timeIntervalSince1970: 1_782_000_000), timeZoneOffsetMinutes: nil,
              coordinate: Coordinate(latitude: latitude, longitude: longitude), depthKilometres: 10, url: nil, felt: nil,
              alert: nil, tsunami: false, significance: nil, magnitudeType: nil, kind: nil, reviewed: true)
    }

    /// Every bearing names the point whose 22.5° sector holds it (the point's own bearing within
    /// 11.25°), in the order N, NNE, NE … NNW.
    func testSixteenCompassPointsEachAroundItsOwnBearing() {
        let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        let en = formatter(.en)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<PropertyCount.scaled(default: 5_000) {
            let bearing = Double.random(in: -720...720, using: &generator)
            let point = QuakeFormatter.compassPoint(bearing)
            let away = abs((bearing - Double(point) * 22.5).truncatingRemainder(dividingBy: 360))
            XCTAssertLessThanOrEqual(min(away, 360 - away), 11.25 + 1e-9, "\(bearing) → \(names[point])")
            XCTAssertEqual(en.direction(bearing), names[point])
        }
        XCTAssertEqual(en.direction(157.5), "SSE")
        XCTAssertEqual(formatter(.ko).direction(157.5), "남남동")
        XCTAssertEqual(formatter(.ja).direction(157.5), "南南東")
        XCTAssertEqual(en.direction(.nan), "")
    }

    /// The South Pole is 3,913 km from Ushuaia: it is "Antarctica", and Ushuaia is its second line.
    /// 24 km from Pohang, Pohang names it.
    func testFarEventsAreNamedByTheirRegionAndTheTownComesSecond() throws {
        let regions = try XCTUnwrap(FlinnEngdahlRegions.bundled())
        let cities = InMemoryCityRepository([Self.ushuaia, Self.pohang], search: .everything)
        let quakes = QuakesUseCase(repository: ScriptedQuakes(), locator: cities, cities: cities, regions: regions)
        let pole = quake(-90, 0)
        let far = try XCTUnwrap(quakes.place(of: pole))
        XCTAssertEqual(far.kilometres, 3_913, accuracy: 1)
        XCTAssertTrue(far.isNamedByRegion)
        for (language, title, town) in [(Language.en, "Antarctica", "3,913 km S of Ushuaia, Argentina"),
                                        (.ko, "남극 대륙", "우수아이아(아르헨티나) 남쪽 3,913 km"),
                                        (.ja, "南極大陸", "ウシュアイア（アルゼンチン）の南 3,913 km")] {
            let format = formatter(language)
            XCTAssertEqual(format.place(pole, far), title, "\(language)")
            XCTAssertEqual(format.nearestTown(far), town, "\(language)")
            let state = QuakeDetailViewModel.state(pole, far, liked: false, failed: false, format: format, now: pole.time)
            XCTAssertEqual(state.title, "M 5.1 · " + title)
            XCTAssertEqual(state.nearestTown, town)
        }
        let near = quake(35.88, 129.19)
        let place = try XCTUnwrap(quakes.place(of: near))
        XCTAssertFalse(place.isNamedByRegion)
        XCTAssertEqual(formatter(.en).place(near, place), "23 km SW of Pohang, South Korea")
        XCTAssertNil(formatter(.en).nearestTown(place))
        // Without the regions table the town names every event, however far.
        let plain = QuakesUseCase(repository: ScriptedQuakes(), locator: cities, cities: cities)
        XCTAssertEqual(formatter(.en).place(pole, plain.place(of: pole)), "3,913 km S of Ushuaia, Argentina")
    }

    /// The event's local time: near a town, on the town's clocks; far out, on the nautical zone of its
    /// longitude, said to be that, with its offset.
    func testTheEpicentresTimeIsTheTownsOrTheSeas() throws {
        XCTAssertEqual(QuakesUseCase.zone(at: Coordinate(latitude: 35.9, longitude: 129.2), nearest: Self.pohang, kilometres: 20), "Asia/Seoul")
        for (longitude, zone) in [(0.0, "Etc/GMT"), (-30.0, "Etc/GMT+2"), (-37.4, "Etc/GMT+2"), (-37.6, "Etc/GMT+3"), (172.6, "Etc/GMT-12"),
                                  (-179.9, "Etc/GMT+12"), (179.9, "Etc/GMT-12"), (97.0, "Etc/GMT-6")] {
            XCTAssertEqual(QuakesUseCase.zone(at: Coordinate(latitude: 0, longitude: longitude), nearest: Self.pohang, kilometres: 5_000),
                           zone, "\(longitude)")
            XCTAssertNotNil(SystemZoneDatabase.forTests.zone(named: zone), zone)
        }
        let atSea = quake(-25, -25)
        let place = QuakePlace(city: Self.ushuaia, kilometres: 4_000, bearing: 60, region: nil,
                               zone: QuakesUseCase.zone(at: atSea.coordinate, nearest: Self.ushuaia, kilometres: 4_000))
        let state = QuakeDetailViewModel.state(atSea, place, liked: false, failed: false, format: formatter(.en), now: atSea.time)
        // 2026-06-21 00:00 UTC is 22:00 the day before at UTC−2.
        XCTAssertEqual(state.facts.first, "Jun 21, 2026 00:00 UTC · Jun 20 22:00 at the epicentre (UTC−2, the nautical time of its longitude)")
        let nearPohang = QuakePlace(city: Self.pohang, kilometres: 20, bearing: 225, zone: "Asia/Seoul")
        let seoul = QuakeDetailViewModel.state(quake(35.9, 129.2), nearPohang, liked: false, failed: false,
                                               format: formatter(.en), now: atSea.time)
        XCTAssertEqual(seoul.facts.first, "Jun 21, 2026 00:00 UTC · Jun 21 09:00 at the epicentre")
    }
}
