import XCTest
import NimbusDomain
@testable import NimbusData

/// The bundled region table against the catalogue, read on its own: every placed city is a
/// catalogue city of a MeteoAlarm country, each of its regions is of that country (GeoNames' country
/// against MeteoAlarm's codes), and nearly every city of those countries has a region.
final class MeteoAlarmRegionsTests: XCTestCase {
    func testEveryRegionOfEveryCityIsOfTheCitysCountry() throws {
        let regions = try XCTUnwrap(MeteoAlarmRegions.bundled(), "Resources/meteoalarm-regions.tsv is bundled")
        let catalog = try CityCatalog.bundled()
        let geocodeCountries = Set(regions.countries.filter { $0.value.matching == .geocode }.keys)
        XCTAssertEqual(geocodeCountries.count, 35)
        XCTAssertEqual(regions.countries["GB"]?.matching, .polygon)
        XCTAssertNil(regions.countries["CH"])
        XCTAssertNil(regions.countries["UA"])

        var checked = 0, agree = 0
        for (id, codes) in regions.allCities {
            let ref = try XCTUnwrap(catalog.ref(forID: id), "city \(id) is in the catalogue")
            let city = catalog.city(ref)
            XCTAssertTrue(geocodeCountries.contains(city.countryCode), "\(city.name) \(city.countryCode)")
            for code in codes {
                checked += 1
                if code.hasPrefix(city.countryCode) { agree += 1 } else { XCTFail("\(city.name) (\(city.countryCode)) in \(code)") }
            }
        }
        print("meteoalarm regions: \(agree) of \(checked) regions of \(regions.cityCount) cities agree with GeoNames' country")
        XCTAssertEqual(agree, checked)

        // Coverage: the catalogue's cities of those countries that have a region.
        let all = catalog.search("")
        var inCountries = 0, placed = 0
        for i in 0..<all.count {
            let city = catalog.city(all[i])
            guard geocodeCountries.contains(city.countryCode) else { continue }
            inCountries += 1
            if !regions.regions(of: city.id).isEmpty { placed += 1 }
        }
        print("meteoalarm regions: \(placed) of \(inCountries) cities placed (\(String(format: "%.2f", 100 * Double(placed) / Double(max(inCountries, 1))))%)")
        XCTAssertGreaterThan(Double(placed) / Double(inCountries), 0.99)
    }

    func testTheBigCitiesAreWhereTheyShouldBe() throws {
        let regions = try XCTUnwrap(MeteoAlarmRegions.bundled())
        // GeoNames ids of Berlin, Madrid, Rome, Warsaw, Vienna, Amsterdam.
        for (id, country) in [(2950159, "DE"), (3117735, "ES"), (3169070, "IT"), (756135, "PL"), (2761369, "AT"), (2759794, "NL")] {
            let codes = regions.regions(of: id)
            XCTAssertFalse(codes.isEmpty, "\(id)")
            XCTAssertTrue(codes.allSatisfy { $0.hasPrefix(country) }, "\(id) \(codes)")
        }
        XCTAssertEqual(regions.regions(of: 2950159), ["DE202"])
    }

    func testLinesThatDoNotParseAreSkipped() {
        let table = MeteoAlarmRegions(text: """
        # comment
        C\tDE\tgermany\tgeocode
        C\tXX\t../../etc\tgeocode
        C\tFR\tfrance\tsomething
        12\tDE202,\u{1B}[2J,DE203
        x\tDE1
        13\t
        """)
        XCTAssertEqual(Set(table.countries.keys), ["DE"])
        XCTAssertEqual(table.regions(of: 12), ["DE202", "DE203"])
        XCTAssertEqual(table.cityCount, 1)
    }
}
