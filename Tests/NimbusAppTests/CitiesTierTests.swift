import XCTest
import NimbusData
import NimbusPresentation
@testable import NimbusApp

/// What a city list is told about its catalogue comes from the file it was loaded from: the tier's
/// threshold as the GeoNames file names it, never a number written into the words.
final class CitiesTierTests: XCTestCase {
    func testTheThresholdIsReadOffTheTierFilesName() {
        let cases: [(String, Int?)] = [
            ("cities15000.bin", 15000), ("cities1000.bin", 1000), ("cities500.bin", 500),
            ("cities.bin", nil), ("citiesX.bin", nil), ("cities15000.json", nil), ("towns1000.bin", nil),
        ]
        for (name, least) in cases {
            XCTAssertEqual(CitiesSceneDIContainer.least(name), least, name)
        }
    }

    func testTheBundledCatalogueIsTheStandardTierWithTheLargeTiersThresholdBesideIt() throws {
        let catalog = try CityCatalog.bundled()
        XCTAssertEqual(CitiesSceneDIContainer.tier(of: catalog), .standard(least: 15000, large: 1000))
    }
}
