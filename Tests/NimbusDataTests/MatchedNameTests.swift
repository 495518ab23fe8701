import Foundation
import NimbusDomain
import XCTest
@testable import NimbusData

/// The fast paths of `matchedName` (ASCII names compared in place, scripts skipped by their bytes)
/// must give what folding every name would give.
final class MatchedNameTests: XCTestCase {
    private static let catalog = try? CityCatalog.bundled()

    /// The reference: fold each name, keep those matching every query word by prefix, pick the
    /// shortest; none when the canonical name or the one shown in `language` matches.
    private func slowMatchedName(_ city: City, query: String, language: CityNameLanguage = .geoNames) -> String? {
        let words = NameFolding.tokens(query)
        func matches(_ name: String) -> Bool {
            let tokens = NameFolding.tokens(name)
            return words.allSatisfy { w in tokens.contains { $0.hasPrefix(w) } }
        }
        if words.isEmpty || matches(city.name) { return nil }
        let shown: String? = switch language {
        case .geoNames: nil
        case .japanese: city.localNames.japanese
        case .korean: city.localNames.korean
        }
        if let shown, matches(shown) { return nil }
        return city.alternateNames.filter(matches).min { $0.unicodeScalars.count < $1.unicodeScalars.count }
    }

    func testFastPathsAgreeWithFoldingEveryName() throws {
        let catalog = try XCTUnwrap(Self.catalog)
        var compared = 0, shownMatched = 0
        for language in CityNameLanguage.allCases {
            for query in ["se", "sao", "new york", "york", "mo", "서", "서울", "ソウ", "東", "san jo", "rio", "파", "パ"] {
                for ref in catalog.search(query, in: language).refs.prefix(60) {
                    let city = catalog.city(ref)
                    let fast = catalog.matchedName(ref, query: query, in: language)
                    let slow = slowMatchedName(city, query: query, language: language)
                    // Ties in length may pick different names; both must then match and be as short.
                    if fast != slow {
                        XCTAssertEqual(fast?.unicodeScalars.count, slow?.unicodeScalars.count, "\(query) \(language): \(city.name)")
                    }
                    if slow == nil && slowMatchedName(city, query: query) != nil { shownMatched += 1 }
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 1000)
        XCTAssertGreaterThan(shownMatched, 100, "rows whose shown name matched get no name beside it")
    }

    /// 파나마시티 is shown in Korean; «파» matches it, so no other name («파나마 시») goes beside it.
    func testNoNameGoesBesideAShownNameThatMatched() throws {
        let catalog = try XCTUnwrap(Self.catalog)
        let panama = try XCTUnwrap(catalog.ref(forID: 3_703_443))
        XCTAssertEqual(catalog.city(panama).localNames.korean, "파나마시티")
        XCTAssertNil(catalog.matchedName(panama, query: "파", in: .korean))
        XCTAssertNotNil(catalog.matchedName(panama, query: "파", in: .geoNames))
        XCTAssertEqual(catalog.matchedName(panama, query: "パナマ", in: .korean), "パナマ", "another script's name still goes beside it")
    }

    /// The byte pre-check may let through names that fold to no ASCII, never drop one that does.
    func testEveryScalarThatFoldsToASCIIPassesTheBytePreCheck() {
        var checked = 0
        for v in UInt32(0x80)...0x1FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            let folded = NameFolding.foldScalar(scalar)
            guard folded.contains(where: { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }) else { continue }
            checked += 1
            let bytes = Array(String(scalar).utf8)
            XCTAssertTrue(bytes.withUnsafeBytes(CityNameMatcher.mayFoldToASCII), "U+\(String(v, radix: 16)) folds to \(folded)")
        }
        XCTAssertGreaterThan(checked, 1000)
        for name in ["Москва", "東京", "ソウル", "서울", "القاهرة", "ათენი"] {
            XCTAssertFalse(Array(name.utf8).withUnsafeBytes(CityNameMatcher.mayFoldToASCII), name)
        }
    }

    func testSummaryAgreesWithTheWholeCity() throws {
        let catalog = try XCTUnwrap(Self.catalog)
        var local = 0
        for i in stride(from: 0, to: catalog.cityCount, by: 97) {
            let ref = CityRef(Int32(i))
            let city = catalog.city(ref)
            XCTAssertEqual(catalog.summary(ref), CitySummary(city))
            for name in [city.localNames.japanese, city.localNames.korean].compactMap({ $0 }) {
                XCTAssertTrue(city.alternateNames.contains(name), "\(name) is one of \(city.name)'s names")
                local += 1
            }
        }
        XCTAssertGreaterThan(local, 100, "the catalogue names cities in Japanese and Korean")
    }

    func testFoldedNamesMatchEveryQueryWordAtTheStartOfAWordOfOneName() {
        func matched(_ names: [String], _ query: String) -> String? {
            var scratch = FoldedTokens()
            var tokens = FoldedTokens()
            NameFolding.fold(query, into: &tokens)
            let blob = Array(names.joined(separator: "\u{1F}").utf8)
            return blob.withUnsafeBytes { bytes in
                let folded = FoldedNames(blob: bytes, scratch: &scratch)
                return folded.matchedAlternate(tokens).map { String(decoding: bytes[folded.names[$0].bytes], as: UTF8.self) }
            }
        }
        let saoPaulo = ["São Paulo", "Sao Paulo", "sea pea lu", "상파울루"]
        XCTAssertNil(matched(saoPaulo, "pau sao"), "the canonical name matched")
        XCTAssertEqual(matched(saoPaulo, "sea"), "sea pea lu")
        XCTAssertEqual(matched(saoPaulo, "상파"), "상파울루")
        XCTAssertNil(matched(saoPaulo, "aul"), "a query word must start a name word")
        XCTAssertNil(matched(["York", "Eboracum"], "new york"), "every word of the query, in one name")
        XCTAssertEqual(matched(["Seoul", "서울특별시", "서울"], "서울"), "서울", "the shortest matching alternate")
        XCTAssertEqual(matched(["Saint-Denis", "St. Denis"], "st den"), "St. Denis")
        XCTAssertNil(matched(["Oslo", ""], "o"))
        XCTAssertNil(matched(["Oslo"], "x"))
    }

    func testASCIINameMatchingFollowsWordPrefixes() {
        func match(_ name: String, _ query: String) -> Bool? {
            var tokens = FoldedTokens()
            NameFolding.fold(query, into: &tokens)
            return Array(name.utf8).withUnsafeBytes { CityNameMatcher.asciiNameMatches($0, tokens) }
        }
        XCTAssertEqual(match("Sao Paulo", "pau sao"), true)
        XCTAssertEqual(match("Sao Paulo", "aul"), false, "a query word must start a name word")
        XCTAssertEqual(match("Saint-Denis", "DEN"), true)
        XCTAssertEqual(match("St. John's", "john"), true)
        XCTAssertEqual(match("York", "new york"), false)
        XCTAssertNil(match("São Paulo", "sao"), "non-ASCII names take the folding path")
        XCTAssertNil(match("São Paulo", "paulo"), "…unless every word matched before the first non-ASCII byte")
        XCTAssertEqual(match("Paulo São", "pau"), true, "folding the rest can only add words")
        XCTAssertNil(match("Sa\u{E3}o", "sao"), "a word that goes on past ASCII is not judged on its ASCII part")
        XCTAssertNil(match("ñs", "s"), "nor is a word that starts after a non-ASCII letter")
    }
}
