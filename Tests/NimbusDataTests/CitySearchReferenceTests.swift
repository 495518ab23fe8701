import Foundation
import XCTest
import NimbusDomain
@testable import NimbusData

/// Reference test of the city search's ranking against GeoNames itself: for each of the 300 most
/// populous cities, the first letters of the name a reader sees must list it no lower than one
/// place below the larger cities whose own name starts with those letters.
///
/// The cities, their populations and their names come from `Tests/Reference/largest-cities.tsv`,
/// written by `scripts/reference-cities.py` straight from the pinned GeoNames wheel (not from the
/// catalogue); "starts with" here is Foundation's case-, accent- and width-blind comparison of the
/// names as written, not the app's folding. Queries: in English the first three characters of the
/// GeoNames name; in Korean and Japanese the first one, then the first two, characters of the name
/// shown in that language (the first three of the GeoNames name where there is none).
final class CitySearchReferenceTests: XCTestCase {
    struct Row: Sendable {
        let id: Int
        let population: Int
        let name: String
        let korean: String?
        let japanese: String?
    }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reference/largest-cities.tsv")

    static func rows() throws -> [Row] {
        let text = try String(contentsOf: fixture, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        XCTAssertEqual(lines.removeFirst(), "geonameid\tpopulation\tname\tko\tja")
        return try lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let id = Int(fields[0]), let population = Int(fields[1]) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            return Row(id: id, population: population, name: fields[2],
                       korean: fields[3].isEmpty ? nil : fields[3], japanese: fields[4].isEmpty ? nil : fields[4])
        }
    }

    /// One way of typing a city's first letters.
    struct Case: CustomStringConvertible, Sendable {
        let language: CityNameLanguage
        /// How many characters of a shown name are typed.
        let characters: Int

        var description: String {
            switch language {
            case .geoNames: "en"
            case .korean: "ko, \(characters) character\(characters == 1 ? "" : "s")"
            case .japanese: "ja, \(characters) character\(characters == 1 ? "" : "s")"
            }
        }

        /// The name the reader sees in this language, nil where it is the GeoNames name. The Korean
        /// one as the app shows it: GeoNames' spaced city form 요코하마 시 is shown as 요코하마.
        func shown(_ row: Row) -> String? {
            CityLocalNames(japanese: row.japanese, korean: row.korean).shown(in: language)
        }

        /// The text typed for `row`, and the name it was cut from.
        func query(_ row: Row) -> (typed: String, from: String) {
            if let name = shown(row) { return (String(name.prefix(characters)), name) }
            return (String(row.name.prefix(3)), row.name)
        }

        /// The row's own names: its GeoNames name, and the name shown in this language.
        func ownNames(_ row: Row) -> [String] {
            [row.name] + (shown(row).map { [$0] } ?? [])
        }
    }

    static let cases: [Case] = [
        Case(language: .geoNames, characters: 3),
        Case(language: .korean, characters: 1), Case(language: .korean, characters: 2),
        Case(language: .japanese, characters: 1), Case(language: .japanese, characters: 2),
    ]

    static func startsWith(_ name: String, _ typed: String) -> Bool {
        name.range(of: typed, options: [.anchored, .caseInsensitive, .diacriticInsensitive, .widthInsensitive]) != nil
    }

    func testTheFixtureIsTheCataloguesLargestCities() throws {
        let rows = try Self.rows()
        XCTAssertEqual(rows.count, 300)
        XCTAssertEqual(rows.map(\.population), rows.map(\.population).sorted(by: >))
        let catalog = try CityCatalog.bundled()
        for (index, row) in rows.enumerated() {
            let city = catalog.summary(CityRef(Int32(index)))
            XCTAssertEqual(city.id, row.id, row.name)
            XCTAssertEqual(city.name, row.name)
            XCTAssertEqual(city.population, row.population, row.name)
            XCTAssertEqual(city.localNames.korean, row.korean, row.name)
            XCTAssertEqual(city.localNames.japanese, row.japanese, row.name)
        }
    }

    /// Cities the ranking lists lower than the bound on purpose, by case and city, with why.
    static let exceptions: [String: String] = [
        "en Ho Chi Minh City": "«Ho » ends in a space, so «ho» is a whole word, and Ho (Ghana) is that exact full name: exact names come first",
    ]

    /// Where the search lists each city, against the bound: how many passed, and the failures as lines keyed by case and city.
    static func check(_ test: Case, rows: [Row], catalog: CityCatalog) -> (passed: Int, failures: [(key: String, line: String)]) {
        var passed = 0
        var failures: [(key: String, line: String)] = []
        for (index, row) in rows.enumerated() {
            let (typed, from) = test.query(row)
            let larger = rows[..<index].filter { other in test.ownNames(other).contains { startsWith($0, typed) } }
            let bound = 1 + larger.count
            let matches = catalog.search(typed, in: test.language)
            let listed = (0..<min(matches.count, 200)).first { catalog.summary(matches[$0]).id == row.id }.map { $0 + 1 }
            if let listed, listed <= bound {
                passed += 1
            } else {
                let above = (0..<min(matches.count, 3)).map { catalog.summary(matches[$0]).name }
                failures.append((key: "\(test.language == .geoNames ? "en" : "\(test)") \(row.name)",
                                 line: "\(from) «\(typed)»: listed \(listed.map(String.init) ?? "below 200"), bound \(bound); first \(above)"))
            }
        }
        return (passed, failures)
    }

    func testTheFirstLettersOfALargeCityListItAmongTheLargerOnesThatStartSo() throws {
        let rows = try Self.rows()
        let catalog = try CityCatalog.bundled()
        var report: [String] = []
        var failed: Set<String> = []
        for test in Self.cases {
            let (passed, failures) = Self.check(test, rows: rows, catalog: catalog)
            report.append("\(test): \(passed) of \(rows.count)")
            report += failures.map { "  " + $0.line + (Self.exceptions[$0.key].map { " (expected: \($0))" } ?? "") }
            failed.formUnion(failures.map(\.key))
        }
        print("City search reference (first letters of the 300 largest cities):\n" + report.joined(separator: "\n"))
        XCTAssertEqual(failed, Set(Self.exceptions.keys), report.joined(separator: "\n"))
    }
}
