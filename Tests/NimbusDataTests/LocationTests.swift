import XCTest
import NimbusDomain
@testable import NimbusData

final class LocationTests: XCTestCase {
    private static let catalog = try! CityCatalog.bundled()

    func testSpatialIndexAgreesWithBruteForce() {
        let catalog = Self.catalog
        let index = CitySpatialIndex(count: catalog.cityCount) { catalog.position(at: $0) }
        var rng = SystemRandomNumberGenerator()
        var probes = (0..<60).map { _ in
            GeoPoint(latitude: Double.random(in: -90...90, using: &rng), longitude: Double.random(in: -180...180, using: &rng))!
        }
        probes += [GeoPoint(latitude: 90, longitude: 0)!, GeoPoint(latitude: -90, longitude: 0)!,
                   GeoPoint(latitude: -41.3, longitude: 180)!, GeoPoint(latitude: 64.1, longitude: -180)!]
        for p in probes {
            let found = index.nearest(to: p)!
            let best = (0..<catalog.cityCount).min { p.distance(to: catalog.position(at: $0)) < p.distance(to: catalog.position(at: $1)) }!
            XCTAssertEqual(p.distance(to: catalog.position(at: found)), p.distance(to: catalog.position(at: best)),
                           accuracy: 1e-6, "probe \(p)")
        }
    }

    func testNearestCityIsTheOneAPersonExpects() {
        let locator = CatalogCityLocator(catalog: Self.catalog)
        func nearest(_ lat: Double, _ lon: Double) -> String {
            Self.catalog.city(locator.nearestCity(to: GeoPoint(latitude: lat, longitude: lon)!)!).name
        }
        XCTAssertEqual(nearest(37.5665, 126.9780), "Seoul")
        XCTAssertEqual(nearest(-41.29, 174.78), "Wellington")
        XCTAssertEqual(nearest(64.1466, -21.9426), "Reykjavík")
    }

    func testLargestCityInATimeZone() {
        let locator = CatalogCityLocator(catalog: Self.catalog)
        func largest(_ zone: String) -> String? { locator.largestCity(inTimeZone: zone).map { Self.catalog.city($0).name } }
        XCTAssertEqual(largest("Asia/Seoul"), "Seoul")
        XCTAssertEqual(largest("Asia/Tokyo"), "Tokyo")
        XCTAssertEqual(largest("America/Sao_Paulo"), "São Paulo")
        XCTAssertNil(largest("Mars/Olympus_Mons"))
    }

    func testProviderOrderArgumentEnvironmentTimeZone() {
        let here = GeoPoint(latitude: 1, longitude: 2)!
        func provider(_ arg: GeoPoint?, _ env: [String: String], link: String? = nil, file: String? = nil) -> SystemLocationProvider {
            SystemLocationProvider(argument: arg, environment: env, localtimeLink: { link }, timezoneFile: { file })
        }
        XCTAssertEqual(provider(here, ["NIMBUS_LOCATION": "3,4", "TZ": "Asia/Seoul"]).currentLocation().location, .argument(here))
        XCTAssertEqual(provider(nil, ["NIMBUS_LOCATION": "3,4", "TZ": "Asia/Seoul"]).currentLocation().location,
                       .environment(GeoPoint(latitude: 3, longitude: 4)!))
        XCTAssertEqual(provider(nil, ["TZ": ":Asia/Seoul"]).currentLocation().location, .timeZone("Asia/Seoul"))
        XCTAssertEqual(provider(nil, ["TZ": "/usr/share/zoneinfo/Europe/Oslo"]).currentLocation().location, .timeZone("Europe/Oslo"))
        XCTAssertEqual(provider(nil, [:], link: "../usr/share/zoneinfo/posix/Asia/Tokyo").currentLocation().location, .timeZone("Asia/Tokyo"))
        XCTAssertEqual(provider(nil, [:], file: "Europe/Paris\n").currentLocation().location, .timeZone("Europe/Paris"))
        XCTAssertEqual(provider(nil, [:], link: "/usr/share/zoneinfo/Etc/UTC").currentLocation().location, .unknown)
        XCTAssertEqual(provider(nil, ["TZ": "UTC"], link: "/usr/share/zoneinfo/Asia/Seoul").currentLocation().location, .unknown,
                       "TZ wins over /etc/localtime even when it names no place")
        XCTAssertEqual(provider(nil, [:]).currentLocation().location, .unknown)
    }

    func testAnUnreadableEnvironmentValueIsReportedAndSkipped() {
        let provider = SystemLocationProvider(argument: nil, environment: ["NIMBUS_LOCATION": "north pole", "TZ": "Asia/Seoul"],
                                              localtimeLink: { nil }, timezoneFile: { nil })
        let (location, ignored) = provider.currentLocation()
        XCTAssertEqual(location, .timeZone("Asia/Seoul"))
        XCTAssertEqual(ignored, [IgnoredLocationSetting(name: "NIMBUS_LOCATION", value: "north pole", error: .notTwoNumbers("north pole"))])
    }

    func testLocateCurrentCity() throws {
        let catalog = Self.catalog
        let locator = CatalogCityLocator(catalog: catalog)
        func locate(_ location: DeviceLocation) -> Result<CurrentCity, LocateCityError> {
            struct Fixed: DeviceLocationProviding {
                let location: DeviceLocation
                func currentLocation() -> (location: DeviceLocation, ignored: [IgnoredLocationSetting]) { (location, []) }
            }
            return LocateCurrentCityUseCase(provider: Fixed(location: location), locator: locator, cities: catalog).execute()
        }
        let exact = try locate(.argument(GeoPoint(latitude: 37.60, longitude: 126.98)!)).get()
        XCTAssertEqual(exact.city.name, "Seoul")
        XCTAssertFalse(exact.isApproximate)
        XCTAssertEqual(try XCTUnwrap(exact.distance) / 1000, 3.7, accuracy: 1.5)
        let zone = try locate(.timeZone("Asia/Tokyo")).get()
        XCTAssertEqual(zone.city.name, "Tokyo")
        XCTAssertTrue(zone.isApproximate)
        XCTAssertEqual(locate(.timeZone("Nowhere/Else")), .failure(.noLocation(zone: "Nowhere/Else", ignored: [])))
        XCTAssertEqual(locate(.unknown), .failure(.noLocation(zone: nil, ignored: [])))
    }
}
