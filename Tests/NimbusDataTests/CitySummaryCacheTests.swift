import NimbusDomain
import PropertyBased
import Testing
import TestSupport
@testable import NimbusData

/// `CityCatalog.summary` keeps what it decoded (the visible rows are asked for on every keystroke):
/// whatever the order of the asks, and across the times the store is emptied, each answer is the
/// city's own, read by the other path (`city(_:)`, the whole record).
@Suite struct CitySummaryCacheTests {
    static let catalog = try? CityCatalog.bundled()

    @Test func everySummaryIsTheCitysOwnWhateverTheOrderOfTheAsks() async throws {
        let catalog = try #require(Self.catalog, "the bundled catalogue failed to load")
        let count = catalog.cityCount
        // Runs long enough to pass `keptSummaries` a few times, so answers after an emptying are checked too.
        await propertyCheck(count: PropertyCount.scaled(default: 12),
                            input: Gen.int(in: 0...(count - 1)).array(of: 200...1_500)) { indices in
            for index in indices + indices.reversed() {
                let ref = CityRef(Int32(index))
                #expect(catalog.summary(ref) == CitySummary(catalog.city(ref)), "city \(index)")
            }
        }
    }

    @Test func theStoreIsEmptiedAtItsCapNotGrownPastIt() throws {
        let catalog = try CityCatalog.bundled()
        let asked = min(catalog.cityCount, CityCatalog.keptSummaries * 2 + 10)
        for index in 0..<asked { _ = catalog.summary(CityRef(Int32(index))) }
        #expect(catalog.keptSummaryCount <= CityCatalog.keptSummaries)
        #expect(catalog.keptSummaryCount > 0)
    }
}
