import XCTest
import GRDB
import NimbusData
import NimbusPresentation

/// Every country the bundled catalogue names has a Korean and a Japanese name
/// (`MovieCountries.swift`, generated from CLDR by `scripts/movie_countries.py`).
final class MovieCountryNamesTests: XCTestCase {
    func testEveryCatalogueCountryHasKoreanAndJapaneseNames() throws {
        let catalogue = try MovieCatalogue.bundled()
        let lists = try catalogue.allCountryLists()
        let countries = Set(lists.flatMap { $0 })
        XCTAssertGreaterThan(countries.count, 130)
        let ko = L10n.bundled(.ko), ja = L10n.bundled(.ja), en = L10n.bundled(.en)
        let hangul = { (s: String) in s.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } }
        let japanese = { (s: String) in
            s.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) }
        }
        for country in countries.sorted() {
            XCTAssertEqual(en.country(country), country)
            XCTAssertTrue(hangul(ko.country(country)), "\(country) in Korean: \(ko.country(country))")
            XCTAssertTrue(japanese(ja.country(country)), "\(country) in Japanese: \(ja.country(country))")
        }
        XCTAssertEqual(ko.country("Soviet Union"), "소련")
        XCTAssertEqual(ja.country("West Germany"), "西ドイツ")
        XCTAssertEqual(ko.country("South Korea"), "대한민국")
        XCTAssertEqual(ja.countries(["United Kingdom", "United States"]), "イギリス、アメリカ合衆国")
        XCTAssertEqual(ko.country("United States of America"), "United States of America", "a name not in the table stays")
    }
}
