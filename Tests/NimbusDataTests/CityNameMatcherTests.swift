import Foundation
import NimbusDomain
import XCTest
@testable import NimbusData

/// `CityNameMatcher`'s two fast paths (names read in place, names kept folded) must give what
/// folding every name gives, and the same name as each other.
final class CityNameMatcherTests: XCTestCase {
    private static let catalog = try? CityCatalog.bundled()

    /// The plain way: fold each name, keep those matching every query word by prefix, pick the shortest.
    private func plainMatchedName(_ names: [String], query: String) -> String? {
        let words = NameFolding.tokens(query)
        func matches(_ name: String) -> Bool {
            let tokens = NameFolding.tokens(name)
            return words.allSatisfy { w in tokens.contains { $0.hasPrefix(w) } }
        }
        guard let canonical = names.first, !words.isEmpty, !matches(canonical) else { return nil }
        return names.dropFirst().filter(matches).min { $0.unicodeScalars.count < $1.unicodeScalars.count }
    }

    /// Both fast paths on one names blob: (read in place, kept folded).
    private func fastMatchedNames(_ names: [String], query: String) -> (inPlace: String?, folded: String?) {
        var tokens = FoldedTokens()
        NameFolding.fold(query, into: &tokens)
        let blob = Array(names.joined(separator: "\u{1F}").utf8)
        return blob.withUnsafeBytes { bytes in
            func text(_ range: Range<Int>?) -> String? {
                range.map { String(decoding: bytes[$0], as: UTF8.self) }
            }
            var scratch = FoldedTokens()
            let folded = FoldedNames(blob: bytes, scratch: &scratch)
            return (text(CityNameMatcher.matchedAlternateInPlace(bytes, tokens)),
                    text(folded.matchedAlternate(tokens).map { folded.names[$0].bytes }))
        }
    }

    func testBothFastPathsAgreeWithThePlainWayOnCatalogueCities() throws {
        let catalog = try XCTUnwrap(Self.catalog)
        var compared = 0, alternates = 0
        for query in ["se", "서울", "ソウ", "東京", "san jo", "mo", "st", "new", "københavn", "são", "ber", "москва", "peking", "bombay", "saigon", "york"] {
            for ref in catalog.search(query).refs.prefix(60) {
                let city = catalog.city(ref)
                let names = [city.name] + city.alternateNames
                let fast = fastMatchedNames(names, query: query)
                XCTAssertEqual(fast.inPlace, fast.folded, "\(query): \(city.name)")
                let plain = plainMatchedName(names, query: query)
                // Ties in length may pick different names; both must then match and be as short.
                if fast.inPlace != plain {
                    XCTAssertEqual(fast.inPlace?.unicodeScalars.count, plain?.unicodeScalars.count, "\(query): \(city.name)")
                    XCTAssertNotNil(fast.inPlace, "\(query): \(city.name)")
                }
                compared += 1
                if plain != nil { alternates += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 300)
        XCTAssertGreaterThan(alternates, 20, "some rows match on an alternate")
    }

    func testTheCatalogueAnswersAsTheMatcherDoesForKeptAndOtherCities() throws {
        let catalog = try XCTUnwrap(Self.catalog)
        let query = "s"
        var checked = Set<Bool>()
        for ref in catalog.search(query).refs where Int(ref.index) % 37 == 0 {
            let city = catalog.city(ref)
            XCTAssertEqual(catalog.matchedName(ref, query: query),
                           fastMatchedNames([city.name] + city.alternateNames, query: query).inPlace, city.name)
            checked.insert(Int(ref.index) < CityNameMatcher.keptCities)
        }
        XCTAssertEqual(checked, [true, false], "cities with kept names and cities read in place")
    }

    func testTheShortestMatchingAlternateIsTheFirstOfTheShortest() {
        let names = ["Seoul", "서울특별시", "서울", "서울시", "서울"]
        XCTAssertEqual(CityNameMatcher.shortestMatching(names.indices.dropFirst(), scalars: { names[$0].count },
                                                        matches: { names[$0].hasPrefix("서울") }), 2)
        XCTAssertNil(CityNameMatcher.shortestMatching(names.indices.dropFirst(), scalars: { names[$0].count },
                                                      matches: { _ in false }))
        var measured: [Int] = []
        _ = CityNameMatcher.shortestMatching(names.indices, scalars: { measured.append($0); return names[$0].count },
                                             matches: { names[$0].hasPrefix("서울") })
        XCTAssertEqual(measured, [1, 2, 3, 4], "lengths are measured only once a name matched")
    }

    func testUTF8LeadBytes() {
        XCTAssertEqual(UTF8Lead.sequenceLength(UInt8(ascii: "a")), 1)
        XCTAssertEqual(UTF8Lead.sequenceLength(0xC1), 0, "overlong")
        XCTAssertEqual(UTF8Lead.sequenceLength(0x80), 0, "continuation")
        XCTAssertEqual(UTF8Lead.sequenceLength(0xF8), 0)
        for (text, length) in [("é", 2), ("서", 3), ("😀", 4)] {
            XCTAssertEqual(UTF8Lead.sequenceLength(Array(text.utf8)[0]), length, text)
        }
        for (lead, scalar) in [(UTF8Lead.u0080, "\u{80}"), (UTF8Lead.u02C0, "\u{2C0}"), (UTF8Lead.u1000, "\u{1000}"),
                               (UTF8Lead.u2000, "\u{2000}"), (UTF8Lead.u3000, "\u{3000}"), (UTF8Lead.uA000, "\u{A000}"),
                               (UTF8Lead.uD000, "\u{D000}"), (UTF8Lead.uF000, "\u{F000}"), (UTF8Lead.u10000, "\u{10000}")] {
            XCTAssertEqual(Array(scalar.utf8)[0], lead, "U+\(String(scalar.unicodeScalars.first!.value, radix: 16))")
        }
        // Every Hangul or kana scalar starts with a byte the pre-check lets through, and no other does.
        for v in UInt32(0x80)...0xFFFF {
            guard let scalar = Unicode.Scalar(v), NameFolding.isKept(v) else { continue }
            XCTAssertTrue(UTF8Lead.mayStartHangulOrKana(Array(String(scalar).utf8)[0]), "U+\(String(v, radix: 16))")
        }
        XCTAssertFalse("Москва東京é".utf8.contains(where: UTF8Lead.mayStartHangulOrKana))
        XCTAssertEqual(Array("a서😀".utf8).withUnsafeBytes(CityNameMatcher.scalarCount), 3)
    }
}
