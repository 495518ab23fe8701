import Foundation
import Testing
import PropertyBased
import TestSupport
@testable import NimbusData

/// Whether a cast or crew name is a query's whole name: the byte-by-byte comparison of ASCII names
/// answers exactly what folding the name into words does, and declines any other name.
@Suite struct PersonNamePropertyTests {
    /// Letters of both cases, digits, and what names hold between words (and one that is not ASCII).
    private static let pool = Array("aAbBkKmMoOtTzZ09 .-'\"()&,é")

    static func name(_ numbers: [Int]) -> String {
        String(numbers.map { pool[$0 % pool.count] })
    }

    @Test func asciiNamesCompareAsTheirFoldedWords() async {
        await propertyCheck(count: PropertyCount.scaled(default: 500), input: Gen.int(in: 0...9999).array(of: 0...14), Gen.int(in: 0...9999).array(of: 0...14), Gen.bool) { a, b, same in
            let name = Self.name(a)
            // Half the time the query is the name's own folded words, so that equal names are tried.
            let query = MovieCatalogue.packed(MovieCatalogue.words(same ? name : Self.name(b)))
            let expected = MovieCatalogue.packed(MovieCatalogue.words(name)) == query
            let bytes = Array(name.utf8)
            let ascii = bytes.allSatisfy { $0 < 0x80 }
            if let fast = MovieCatalogue.asciiName(bytes[...], folds: query) {
                #expect(ascii)
                #expect(fast == expected, "\(name) vs \(String(decoding: query, as: UTF8.self))")
            } else {
                #expect(!ascii)
            }
        }
    }

    @Test func knownNames() {
        let query = MovieCatalogue.packed(MovieCatalogue.words("tom hanks"))
        for (name, equal) in [("Tom Hanks", true), ("TOM  HANKS", true), ("Tom Hanks Jr.", false), ("Tom Hank", false),
                              ("Tom-Hanks", true), ("Tommy Hanks", false), (" Tom Hanks ", true)] {
            #expect(MovieCatalogue.asciiName(Array(name.utf8)[...], folds: query) == equal, "\(name)")
        }
        #expect(MovieCatalogue.asciiName(Array("Zoë Hanks".utf8)[...], folds: query) == nil)
    }
}
