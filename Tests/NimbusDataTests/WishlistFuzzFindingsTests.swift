import Foundation
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Wishlist files the fuzzer (scripts/fuzz.sh wishlist) found, kept as they were found, and the
/// property that would have found them.
@Suite struct WishlistFuzzFindingsTests {
    private func entries(_ titles: [String]) -> [WishlistEntry] {
        titles.enumerated().map { i, title in
            WishlistEntry(movie: MovieSummary(id: MovieID(source: .catalogue, value: i), title: title, year: nil, genres: [], directors: []),
                          addedAt: Date(timeIntervalSince1970: 1_700_000_000))
        }
    }

    /// A quote followed by a combining mark (`"` + U+0369) is one Character: the CSV writer tested
    /// and doubled quotes by Character, so it wrote that quote single and the title read back broken.
    @Test func aQuoteBeforeACombiningMarkIsDoubledInTheCSV() throws {
        let titles = ["ũ,D ũ\"\u{0369}l )e", "\"\u{0301}x", "a \u{0301}"].map(WishlistTransfer.sanitize)
        let csv = try WishlistTransfer.export(entries(titles), as: .csv)
        let back = try WishlistTransfer.parse(Data(csv.utf8), format: .csv).map(\.title)
        #expect(back == titles, "\(csv.debugDescription) read back as \(back.debugDescription)")
    }

    /// The file as the fuzzer found it: its films, exported as CSV and JSON, read back the same.
    @Test func theFoundFileRoundTripsInBothFormats() throws {
        let found = try #require(Data(base64Encoded: "VGl0bGUsYXIsDWENcixlRHINaQ1yLERpcmUNDS0KPWMKDQosDS1sDWINLWx0DQoNMkA6Mix0DUAKPWMKDWwNDS1sIj0BAAAFIiwNLWwNDS1MdA1ACg0wLUNTNjU3MjM3DS0yMg0NcmUNYQ1yLAAFIiwNLWwNYg0tbHQNCg0yQDoyLHQNQAo9YwoNbA0NLWx0DUAKDTAtQ1MAAAAFMy0NMjcyDXJlDWFZZWFyLA1hDXIsZURyDWkNcixEaXJlDQ0tCj1jASJ6aQAAdHMNCiJBbWV1bg0KIsWpSmUKIsWpCiLFqWIiAC1UUHUxbg0NAAoNCiI9AQAABSItQ1NsDQ0NcmUNYQ1yLBAFIiwNLWwNYg0tbHQNCg0yQDoyLHQNQAo9YwoNLWxbCiJBbWV1bg0KIsWpCiIKMMWpIsWpbAAAdCllcw0NcjM3DS0yMg0NcmUNYQ1yLAAFIiwNLWwNYg0tbHQNCg0yQDoyLHQNQAo9YwoNbA0NLWx0DUAKDTAtQ1MANjU3DTMtDTI3Mg1yZQ0KIkFtbHVuDQoixalKZQoixakKIsWpYiItVFB1MW4NDQphDXIiQW1ldW4NCiLFqSxECiLFqSLNqWwAACll"))
        let items = try WishlistTransfer.parse(found)
        #expect(items.count > 1)
        for format in WishlistTransfer.Format.allCases {
            let exported = try WishlistTransfer.export(entries(items.map(\.title)), as: format)
            #expect(try WishlistTransfer.parse(Data(exported.utf8), format: format) == items, "\(format)")
        }
    }

    /// A line holding only a byte order mark (two files joined) was a film titled U+FEFF in the CSV,
    /// and none in the JSON export read back: the mark is no title, and goes from every title.
    @Test func aByteOrderMarkIsNoTitle() throws {
        let found = try #require(Data(base64Encoded: "VGl0bGUsWWVhcixEaXYiLAAAAABhAAAAdnJzDQoNQW0iIiI9MsOpZmxpbHQNQAoNNAAAAAAADQ0NDQ0NDQ0NLWwNDS1sDQ10DUAKDTItQ1M2NTczNw0tMjINYQ1yLEQJDXJlDWENCiI9AQAABSIsDQ0NDQ0NDQ0NDQ0NDQ3vu78NDQ0NDQ0NDQ0NDT4NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NJQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0NDQ0DAAAADQ0NDQ0NDQ0NDS1sDSsNDQAAbA0NdA0NcjNE"))
        let items = try WishlistTransfer.parse(found)
        #expect(!items.contains { $0.title.unicodeScalars.contains { $0.value == 0xFEFF } })
        for format in WishlistTransfer.Format.allCases {
            let exported = try WishlistTransfer.export(entries(items.map(\.title)), as: format)
            #expect(try WishlistTransfer.parse(Data(exported.utf8), format: format) == items, "\(format)")
        }
        #expect(WishlistTransfer.sanitize("\u{FEFF}Alien") == "Alien")
        #expect(WishlistTransfer.sanitize("Ali\u{FEFF}en") == "Alien")
    }

    /// Any title made of what CSV quotes and what joins onto it (quotes, commas, line breaks, spaces,
    /// apostrophes, formula starts, combining marks) reads back as written, in both formats.
    @Test func everyTitleReadsBackAsWritten() async {
        let pieces = ["\"", ",", " ", "'", "=", "-", "\n", "a", "ũ", "\u{0301}", "\u{0369}", "가", "\r\n", "\u{FEFF}", "\u{200B}"]
        await propertyCheck(count: PropertyCount.scaled(default: 200),
                            input: Gen.int(in: 0...(pieces.count - 1)).array(of: 1...12).array(of: 1...4)) { shapes in
            let titles = shapes.map { WishlistTransfer.sanitize($0.map { pieces[$0] }.joined()) }.filter { !$0.isEmpty }
            guard !titles.isEmpty else { return }
            for format in WishlistTransfer.Format.allCases {
                let exported = try? WishlistTransfer.export(entries(titles), as: format)
                let back = exported.flatMap { try? WishlistTransfer.parse(Data($0.utf8), format: format) }
                #expect(back?.map(\.title) == titles, "\(format): \(titles.debugDescription)")
            }
        }
    }
}
