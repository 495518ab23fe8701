import Foundation
import Testing
import PropertyBased
import NimbusDomain
import TestSupport
@testable import NimbusData

/// Search by kana on the bundled catalogue: a query typed in hiragana and the same query in katakana
/// (full- or half-width) are one query, and folding what folding gave changes nothing.
@Suite struct KanaSearchPropertyTests {
    private static let catalog: CityCatalog? = try? CityCatalog.bundled()

    /// Hiragana, with the long-vowel mark and a few neighbours a query may hold.
    private static let pool: [Unicode.Scalar] = (0x3041...0x3096).compactMap(Unicode.Scalar.init) + "ー ・aé東".unicodeScalars
    /// Readings and names that are in the index, so many queries find something.
    private static let seeds = ["とうきょう", "おおさか", "なごや", "さっぽろ", "きょうと", "ふくおか", "そうる", "ぱり", "ろんどん", "にゅーよーく"]

    /// Random hiragana, or a prefix of a seed, by the first number.
    static func query(_ numbers: [Int]) -> String {
        guard let first = numbers.first else { return "" }
        if first % 2 == 0 {
            let seed = seeds[first / 2 % seeds.count]
            return String(seed.prefix(1 + numbers.count % seed.count))
        }
        return String(String.UnicodeScalarView(numbers.dropFirst().map { pool[$0 % pool.count] }))
    }

    static func katakana(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { s in
            (0x3041...0x3096).contains(s.value) || (0x309D...0x309E).contains(s.value) ? Unicode.Scalar(s.value + 0x60)! : s
        }))
    }

    @Test func hiraganaAndKatakanaQueriesFindTheSameCitiesAndShowTheSameNames() async throws {
        let catalog = try #require(Self.catalog)
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Gen.int(in: 0...9999).array(of: 2...7)) { numbers in
            let hiragana = Self.query(numbers)
            let forms = [Self.katakana(hiragana), Self.katakana(hiragana).applyingTransform(.fullwidthToHalfwidth, reverse: false) ?? ""]
            let expected = catalog.search(hiragana).refs
            for form in forms where !form.isEmpty {
                let found = catalog.search(form).refs
                #expect(found == expected, "\(hiragana) / \(form)")
                for ref in found.prefix(20) {
                    #expect(catalog.matchedName(ref, query: form) == catalog.matchedName(ref, query: hiragana), "\(hiragana) / \(form)")
                }
            }
        }
    }

    /// Half-width katakana spell ド as ﾄ and ﾞ: the two are one voiced kana, as full-width ド is.
    @Test func halfWidthVoicedKanaFindWhatFullWidthOnesFind() throws {
        let catalog = try #require(Self.catalog)
        #expect(NameFolding.tokens("ﾅｺﾞﾔ ﾛﾝﾄﾞﾝ ﾊﾟﾘ か\u{3099}") == ["なごや", "ろんどん", "ぱり", "が"])
        for (half, full) in [("ﾅｺﾞﾔ", "ナゴヤ"), ("ﾛﾝﾄﾞﾝ", "ロンドン"), ("ﾊﾟﾘ", "パリ")] {
            #expect(!catalog.search(full).refs.isEmpty, "\(full)")
            #expect(catalog.search(half).refs == catalog.search(full).refs, "\(half)")
        }
    }

    @Test func foldingIsIdempotent() async {
        let kana = Gen.int(in: 0x3000...0x30FF).array(of: 1...8)
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: kana) { values in
            let text = String(String.UnicodeScalarView(values.compactMap(Unicode.Scalar.init)))
            let once = NameFolding.tokens(text)
            #expect(NameFolding.tokens(once.joined(separator: " ")) == once, "\(values.map { String($0, radix: 16) })")
        }
    }
}
