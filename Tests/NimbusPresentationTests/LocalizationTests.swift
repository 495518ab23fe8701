import XCTest
@testable import NimbusPresentation

final class LocalizationTests: XCTestCase {
    func testEveryKeyExistsInEveryLanguageWithTheSamePlaceholders() throws {
        let english = try StringsFile.load(language: .en)
        for language in Language.allCases {
            let table = try StringsFile.load(language: language)
            for key in L10nKey.allCases {
                guard let value = table[key.rawValue] else {
                    XCTFail("\(language.rawValue).lproj is missing \"\(key.rawValue)\"")
                    continue
                }
                XCTAssertFalse(value.isEmpty, "\(language.rawValue): \(key.rawValue) is empty")
                XCTAssertEqual(StringsFile.placeholders(value).sorted(),
                               StringsFile.placeholders(english[key.rawValue] ?? "").sorted(),
                               "\(language.rawValue): placeholders of \(key.rawValue) differ from English")
            }
            // A plural form (`<key>.one`) belongs to a key, with its placeholders.
            let known = Set(L10nKey.allCases.map(\.rawValue))
            for (name, value) in table where name.hasSuffix(".one") && known.contains(String(name.dropLast(4))) {
                XCTAssertEqual(StringsFile.placeholders(value).sorted(), StringsFile.placeholders(table[String(name.dropLast(4))] ?? "").sorted(),
                               "\(language.rawValue): placeholders of \(name) differ from its key's")
            }
            let unknown = Set(table.keys).filter { !known.contains($0) && !($0.hasSuffix(".one") && known.contains(String($0.dropLast(4)))) }
            XCTAssertEqual(unknown, [], "\(language.rawValue).lproj has keys no code uses")
        }
    }

    /// Every English text that puts a number before a plural noun has its singular (`<key>.one`), so
    /// no screen says "1 unreadable events"; the few that never count one thing say why.
    func testEveryEnglishCountHasItsSingular() throws {
        let english = try StringsFile.load(language: .en)
        let notCounts: [String: String] = [
            "cities.summary.matches": "“1 of 34,006 cities”: the noun is the catalogue's",
            "status.source.cities": "the catalogue's size", "status.source.movies.catalogue": "the catalogue's size",
            "movies.idle.catalogue": "the catalogue's size", "movies.popular": "the catalogue's size",
            "weather.map.no.room": "columns and rows the map needs, never 1",
            "current.no.city.in.zone": "not a count", "config.home.unknown": "not a count",
            "wishlist.import.too.many.rows": "the import's cap (20,000 rows), never 1",
        ]
        let counting = try NSRegularExpression(pattern: "%(@|[0-9]\\$@) [a-z]+s\\b")
        for (key, value) in english where !key.hasSuffix(".one") && notCounts[key] == nil {
            guard counting.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil else { continue }
            XCTAssertNotNil(english[key + ".one"], "\(key) = \"\(value)\" counts: give it \(key).one, and format it with L10n.count")
        }
        let en = L10n.bundled(.en), ko = L10n.bundled(.ko)
        XCTAssertEqual(en.count(.quakesDropped, 1, "1"), "1 unreadable event left out")
        XCTAssertEqual(en.count(.quakesDropped, 2, "2"), "2 unreadable events left out")
        XCTAssertEqual(en.count(.quakesDropped, 0, "0"), "0 unreadable events left out")
        XCTAssertEqual(ko.count(.quakesDropped, 1, "1"), ko.format(.quakesDropped, "1"), "Korean counts do not change")
    }

    func testLanguageFollowsPOSIXOrder() {
        XCTAssertEqual(Language.resolve(environment: [:]), .en)
        XCTAssertEqual(Language.resolve(environment: ["LANG": "ko_KR.UTF-8"]), .ko)
        XCTAssertEqual(Language.resolve(environment: ["LANG": "ko_KR.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"]), .ja)
        XCTAssertEqual(Language.resolve(environment: ["LC_MESSAGES": "ja_JP", "LC_ALL": "ko"]), .ko)
        XCTAssertEqual(Language.resolve(environment: ["LC_ALL": "C", "NIMBUS_LANG": "ko"]), .ko)
        XCTAssertEqual(Language.resolve(environment: ["LANG": "", "LC_MESSAGES": "ja_JP.eucJP"]), .ja)
    }

    func testCPosixUnknownAndGarbageMeanEnglish() {
        for value in ["C", "POSIX", "C.UTF-8", "xx_YY", "klingon", "\u{1B}[31m", "ko\u{0}", "_", "."] {
            XCTAssertEqual(Language.resolve(environment: ["LANG": value]), .en, value)
        }
        XCTAssertEqual(Language.resolve(environment: ["LANG": "ko_KR", "LC_ALL": "C"]), .en,
                       "the first variable that is set decides, even when it says C")
        XCTAssertEqual(Language(localeValue: "KO-kr"), .ko)
    }

    func testFormatSubstitutesPlaceholdersInOrderAndByPosition() {
        XCTAssertEqual(StringsFile.substitute("%@ of %@", ["3", "4"]), "3 of 4")
        XCTAssertEqual(StringsFile.substitute("%2$@ / %1$@ 100%%", ["a", "b"]), "b / a 100%")
        XCTAssertEqual(StringsFile.substitute("%@ %@", ["only"]), "only ")
        XCTAssertEqual(L10n.bundled(.ja).format(.tooSmallDetail, "40", "10", "30", "8"), "必要 40×10、現在 30×8")
    }

    func testStringsParserHandlesEscapesAndCommentsAndRejectsBrokenFiles() throws {
        let table = try StringsFile.parse("""
        /* comment */
        "a" = "say \\"hi\\"\\n"; // trailing
        "b"="x";
        """)
        XCTAssertEqual(table, ["a": "say \"hi\"\n", "b": "x"])
        XCTAssertThrowsError(try StringsFile.parse("\"a\" = \"x\"")) { error in
            XCTAssertEqual(error as? StringsFile.ParseError, .syntax(line: 1))
        }
    }

    func testNumbersAreGroupedAsEachLanguagesLocaleGroupsThem() {
        for language in Language.allCases {
            XCTAssertEqual(language.groupingSeparator, language.locale.groupingSeparator, "\(language)")
            let formatter = NumberFormatter()
            formatter.locale = language.locale
            formatter.numberStyle = .decimal
            XCTAssertEqual(L10n(language: language, table: [:]).number(10_349_312), formatter.string(from: 10_349_312))
        }
    }

    func testAByteOrderMarkIsSkipped() throws {
        let table = try StringsFile.parse(utf8: [0xEF, 0xBB, 0xBF] + Array(#""a" = "x";"#.utf8))
        XCTAssertEqual(table, ["a": "x"])
    }
}
