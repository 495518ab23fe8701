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
            let unknown = Set(table.keys).subtracting(L10nKey.allCases.map(\.rawValue))
            XCTAssertEqual(unknown, [], "\(language.rawValue).lproj has keys no code uses")
        }
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
