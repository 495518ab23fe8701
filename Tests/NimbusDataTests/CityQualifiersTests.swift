import Foundation
import XCTest
import NimbusDomain
@testable import NimbusData

/// Queries that name a region or a country after the city ("springfield, il", "paris france"), and
/// queries that match nothing ("pariss"): what people type, as the README's examples and against
/// GeoNames itself.
final class CityQualifiersTests: XCTestCase {
    static let catalog = try? CityCatalog.bundled()

    private func first(_ query: String, _ language: CityNameLanguage = .geoNames) throws -> (City?, CityMatches) {
        let catalog = try XCTUnwrap(Self.catalog)
        let matches = SearchCitiesUseCase(repository: catalog, language: language).execute(query: query)
        return (matches.first.map(catalog.city), matches)
    }

    /// The examples, in each form: after a comma, or as the last words; by code and by name.
    func testARegionOrCountryAfterTheNameNarrowsToIt() throws {
        let cases: [(String, CityNameLanguage, String, String, String?)] = [
            ("springfield, il", .geoNames, "Springfield", "US", "Illinois"),
            ("springfield il", .geoNames, "Springfield", "US", "Illinois"),
            ("Springfield, Illinois", .geoNames, "Springfield", "US", "Illinois"),
            ("portland, me", .geoNames, "Portland", "US", "Maine"),
            ("Portland,ME", .geoNames, "Portland", "US", "Maine"),
            ("portland me", .geoNames, "Portland", "US", "Maine"),
            ("paris, fr", .geoNames, "Paris", "FR", nil),
            ("paris france", .geoNames, "Paris", "FR", nil),
            ("paris, texas", .geoNames, "Paris", "US", "Texas"),
            ("london ontario", .geoNames, "London", "CA", "Ontario"),
            ("london, on", .geoNames, "London", "CA", "Ontario"),
            ("london, uk", .geoNames, "London", "GB", nil),
            ("san jose, cr", .geoNames, "San José", "CR", nil),
            ("san jose ca", .geoNames, "San Jose", "US", "California"),
            ("파리, 프랑스", .korean, "Paris", "FR", nil),
            ("스프링필드, 일리노이", .korean, "Springfield", "US", "Illinois"),
            ("横浜, 神奈川", .japanese, "Yokohama", "JP", "Kanagawa"),
        ]
        for (query, language, name, country, region) in cases {
            let (city, matches) = try first(query, language)
            XCTAssertEqual(city?.name, name, query)
            XCTAssertEqual(city?.countryCode, country, query)
            if let region { XCTAssertEqual(city?.region?.english, region, query) }
            guard case .places? = matches.qualifier else { return XCTFail("\(query): not narrowed (\(String(describing: matches.qualifier)))") }
        }
    }

    /// A qualifier after a comma that names nothing lists nothing, and says so; it is never dropped.
    func testAnUnknownQualifierListsNothingAndSaysWhy() throws {
        let (city, matches) = try first("paris, xx")
        XCTAssertNil(city)
        XCTAssertEqual(matches.qualifier, .unknown("xx"))
        XCTAssertTrue(matches.suggestions.isEmpty, "no suggestions for a place that does not exist")
        // A comma with nothing after it only ends the word.
        XCTAssertEqual(try first("paris,").0?.name, "Paris")
    }

    /// Last words that name a place do not take over a query that is itself a name, or one being typed.
    func testTheWholeQueryAsANameStaysItself() throws {
        XCTAssertEqual(try first("port of spain").0?.name, "Port of Spain")
        XCTAssertNil(try first("port of spain").1.qualifier)
        XCTAssertEqual(try first("santa cr").0?.name, "Santa Cruz de la Sierra", "typing, not naming Costa Rica")
        XCTAssertEqual(try first("rio de").0?.name, "Rio de Janeiro", "typing, not naming Germany")
    }

    /// Typos get the cities they may have meant, larger first; a word that starts some name gets none.
    func testAQueryThatMatchesNothingSuggestsTheLikeliestCities() throws {
        for (typo, meant, language) in [("pariss", "Paris", CityNameLanguage.geoNames), ("mumbia", "Mumbai", .geoNames),
                                         ("seuol", "Seoul", .geoNames), ("lodnon", "London", .geoNames),
                                         ("new yrok", "New York City", .geoNames), ("셔울", "Seoul", .korean)] {
            let (city, matches) = try first(typo, language)
            XCTAssertNil(city, typo)
            let catalog = try XCTUnwrap(Self.catalog)
            XCTAssertEqual(matches.suggestions.first.map { catalog.city($0).name }, meant, typo)
            XCTAssertLessThanOrEqual(matches.suggestions.count, SearchCitiesUseCase.suggestionLimit)
        }
        XCTAssertEqual(try first("zqxjkw").1.suggestions, [], "nothing within two edits")
        XCTAssertEqual(try first("qx").1.suggestions, [], "too short to correct")
    }

    /// Damerau–Levenshtein with its bound, against the plain definition over random words.
    func testNearWordsDistanceIsTheBoundedEditDistance() {
        var generator = SystemRandomNumberGenerator()
        let letters: [UInt32] = Array("abcde".unicodeScalars.map(\.value))
        func plain(_ a: [UInt32], _ b: [UInt32]) -> Int {
            var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { d[i][0] = i }
            for j in 0...b.count { d[0][j] = j }
            for i in stride(from: 1, through: a.count, by: 1) {
                for j in stride(from: 1, through: b.count, by: 1) {
                    d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
                }
            }
            return d[a.count][b.count]
        }
        for _ in 0..<2000 {
            let a = (0..<Int.random(in: 0...6, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...6, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
            let limit = Int.random(in: 0...3, using: &generator)
            let expected = plain(a, b)
            XCTAssertEqual(NearWords.distance(a, b, atMost: limit), expected <= limit ? expected : nil, "\(a) \(b) \(limit)")
            // Words within `limit` edits differ in at most 2 × limit signature bits.
            if expected <= limit {
                XCTAssertLessThanOrEqual((NearWords.signature(a) ^ NearWords.signature(b)).nonzeroBitCount, 2 * limit)
            }
        }
    }

    /// Whole names read in place without folding (`CityNameMatcher.asciiNameEquals`) agree with folding them.
    func testAnASCIINameEqualsTheQueryExactlyWhenItFoldsToIt() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aAbB1 -.,'")
        for _ in 0..<5000 {
            let name = String((0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            // The query: the name's own folding half of the time, else another random string's.
            let other = String((0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            var query = FoldedTokens()
            NameFolding.fold(Bool.random(using: &generator) ? name : other, into: &query)
            var folded = FoldedTokens()
            NameFolding.fold(name, into: &folded)
            let expected = folded.bytes == query.bytes && folded.ends == query.ends
            let got = Array(name.utf8).withUnsafeBytes { CityNameMatcher.asciiNameEquals($0, query) }
            XCTAssertEqual(got, expected, "«\(name)» against «\(NameFolding.tokens(other))»")
        }
    }

    /// The distance kept between calls (`NearWords.Distance`) is the plain one.
    func testTheReusedDistanceIsTheDistance() {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcé서")
        var distance = NearWords.Distance()
        for _ in 0..<3000 {
            let a = String((0..<Int.random(in: 0...7, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
            let b = String((0..<Int.random(in: 0...7, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
            let limit = Int.random(in: 0...3, using: &generator)
            let scalarsA = a.unicodeScalars.map(\.value), scalarsB = b.unicodeScalars.map(\.value)
            let got = Array(b.utf8).withUnsafeBytes { distance.between(scalarsA, $0, atMost: limit) }
            XCTAssertEqual(got, NearWords.distance(scalarsA, scalarsB, atMost: limit), "\(a) \(b) \(limit)")
        }
    }

    /// One typo in the name of each of the 300 largest cities (a letter dropped, doubled, two swapped),
    /// where the typo matches nothing: the city is suggested, or `suggestionLimit` cities as near
    /// to the typo (by the plain edit distance of their GeoNames names) are suggested before it.
    func testOneTypoInALargeCitysNameSuggestsIt() throws {
        let catalog = try XCTUnwrap(Self.catalog)
        let rows = try CitySearchReferenceTests.rows()
        let search = SearchCitiesUseCase(repository: catalog)
        var tried = 0, suggested = 0
        var failures: [String] = []
        for row in rows {
            let word = row.name.lowercased()
            guard word.count >= 5, word.allSatisfy({ $0.isASCII && $0.isLetter }) else { continue }
            let letters = Array(word)
            let middle = letters.count / 2
            var typos = [String(letters[..<middle] + letters[(middle + 1)...]),                       // dropped
                         String(letters[...middle] + letters[middle...])]                             // doubled
            var swapped = letters
            swapped.swapAt(middle - 1, middle)
            if swapped != letters { typos.append(String(swapped)) }                                   // swapped
            for typo in typos {
                let matches = search.execute(query: typo)
                guard matches.count == 0 else { continue }
                tried += 1
                let names = matches.suggestions.map { catalog.city($0) }
                if names.contains(where: { $0.id == row.id }) {
                    suggested += 1
                } else if names.count < SearchCitiesUseCase.suggestionLimit {
                    failures.append("\(typo) → \(names.map(\.name)) (not \(row.name))")
                }
            }
        }
        print("One typo in the 300 largest cities' names: \(suggested) of \(tried) suggest the city; others filled by nearer places")
        XCTAssertGreaterThan(tried, 300)
        XCTAssertEqual(failures, [])
    }
}
