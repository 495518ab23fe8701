import Foundation
import NimbusDomain
import XCTest
@testable import NimbusData

final class CityCatalogTests: XCTestCase {
    private static let shared: CityCatalog? = try? CityCatalog.bundled()

    private func catalog(file: StaticString = #filePath, line: UInt = #line) throws -> CityCatalog {
        try XCTUnwrap(Self.shared, "the bundled catalogue failed to load", file: file, line: line)
    }

    private func names(_ query: String, limit: Int = 5) throws -> [String] {
        let catalog = try catalog()
        return catalog.search(query).refs.prefix(limit).map { catalog.city($0).name }
    }

    private func ids(_ query: String) throws -> [Int] {
        let catalog = try catalog()
        return catalog.search(query).refs.map { catalog.city($0).id }
    }

    // MARK: - Search

    /// One-character answers are kept: asked again, with the languages interleaved, each lists the
    /// same cities in the same order as a catalogue that was only ever asked in that language.
    func testKeptOneCharacterAnswersAreTheAnswers() throws {
        let shared = try catalog()
        var characters = Set<String>()
        for index in 0..<min(300, shared.cityCount) {
            let city = shared.city(CityRef(Int32(index)))
            for name in [city.name, city.localNames.korean, city.localNames.japanese].compactMap({ $0 }) {
                if let first = name.first { characters.insert(String(first)) }
            }
        }
        characters.formUnion(["-", " ", "1", "é", "ß"])
        let languages: [CityNameLanguage] = [.geoNames, .korean, .japanese]
        var reference: [CityNameLanguage: [String: [CityRef]]] = [:]
        for language in languages {
            let alone = try CityCatalog(contentsOf: shared.url)
            for character in characters { reference[language, default: [:]][character] = alone.search(character, in: language).refs }
        }
        // The test can tell the languages apart: some characters rank differently in each.
        XCTAssertTrue(characters.contains { reference[.geoNames]![$0] != reference[.korean]![$0] })
        XCTAssertTrue(characters.contains { reference[.geoNames]![$0] != reference[.japanese]![$0] })
        for character in characters.sorted() {
            for language in languages + languages.reversed() {
                let answer = shared.search(character, in: language)
                let expected = reference[language]![character]!
                XCTAssertTrue(answer.refs == expected, "\(character) in \(language): \(answer.refs.prefix(5)) is not \(expected.prefix(5))")
                XCTAssertEqual(answer.query, character)
            }
        }
    }

    func testHangulFindsSeoulFirst() throws {
        XCTAssertEqual(try names("서울").first, "Seoul")
    }

    func testKatakanaFindsSeoul() throws {
        XCTAssertEqual(try names("ソウル").first, "Seoul")
    }

    /// Readings of kanji names are in the index, and katakana folds to hiragana: とうきょう, トウキョウ
    /// and ｵｵｻｶ find the city though none of its names is written so.
    func testHiraganaAndKatakanaReadingsFindJapaneseCities() throws {
        XCTAssertEqual(try names("とうきょう").first, "Tokyo")
        XCTAssertEqual(try names("トウキョウ").first, "Tokyo")
        XCTAssertEqual(try names("おおさか").first, "Osaka")
        XCTAssertEqual(try names("ｵｵｻｶ").first, "Osaka")
        XCTAssertEqual(try names("なごや").first, "Nagoya")
        XCTAssertEqual(try names("さっぽろ").first, "Sapporo")
        XCTAssertEqual(try names("きょうと").first, "Kyoto")
        XCTAssertEqual(try names("ふくおか").first, "Fukuoka")
        XCTAssertEqual(try names("とう").prefix(1), ["Tokyo"], "a reading is matched by its prefix, like any token")
        // A reading is a search token only: no name of Tokyo is とうきょう, so none is shown as matched.
        let catalog = try catalog()
        let tokyo = try XCTUnwrap(catalog.search("とうきょう").first)
        XCTAssertNil(catalog.matchedName(tokyo, query: "とうきょう"))
        XCTAssertFalse(catalog.city(tokyo).alternateNames.contains("とうきょう"))
    }

    func testLocalNamesAreDecoded() throws {
        let catalog = try catalog()
        let tokyo = catalog.city(try XCTUnwrap(catalog.search("tokyo").first))
        XCTAssertEqual(tokyo.localNames, CityLocalNames(japanese: "東京", korean: "도쿄"))
        let paris = catalog.city(try XCTUnwrap(catalog.search("paris").first))
        XCTAssertEqual(paris.localNames.japanese, "パリ")
        XCTAssertEqual(paris.localNames.korean, "파리")
    }

    func testLatinIsCaseInsensitive() throws {
        XCTAssertEqual(try names("seoul").first, "Seoul")
        XCTAssertEqual(try names("SEOUL").first, "Seoul")
        XCTAssertEqual(try ids("seoul"), try ids("SEOUL"))
    }

    func testAccentsAreIgnoredBothWays() throws {
        XCTAssertEqual(try names("sao paulo").first, "São Paulo")
        XCTAssertEqual(try names("São").first, "São Paulo")
        XCTAssertEqual(try names("reykjavik").first, "Reykjavík")
    }

    func testEveryWordMustMatch() throws {
        XCTAssertEqual(try names("new york").first, "New York City")
        let york = try ids("york")
        XCTAssertTrue(york.contains(5_128_581), "New York City")
        XCTAssertTrue(york.contains(2_633_352), "York, England")
        // Word order does not matter, and a word prefix is enough.
        XCTAssertEqual(try ids("york new"), try ids("new york"))
        XCTAssertEqual(try names("ne yor").first, "New York City")
    }

    func testResultsAreInPopulationOrderWithinEachRankingClass() throws {
        let catalog = try catalog()
        let matches = catalog.search("s")
        let refs = matches.refs
        XCTAssertGreaterThan(refs.count, 1_000)
        XCTAssertEqual(Set(refs).count, refs.count)
        XCTAssertGreaterThan(matches.classCounts.count, 1)
        var start = 0
        for count in matches.classCounts {
            let members = Array(refs[start..<(start + count)])
            XCTAssertEqual(members, members.sorted())
            let populations = members.prefix(200).map { catalog.city($0).population }
            XCTAssertEqual(populations, populations.sorted(by: >))
            start += count
        }
    }

    /// The examples: the first row is the city people mean, not a larger one matched
    /// through an alternate name (Perth "part", New York City "York Berri", Shenzhen "seonjeon si").
    func testTheFirstLettersListTheCityWhoseOwnNameStartsSo() throws {
        XCTAssertEqual(try names("par").first, "Paris")
        XCTAssertEqual(try names("ber").first, "Berlin")
        XCTAssertEqual(try names("seo").first, "Seoul")
        XCTAssertEqual(try names("del").first, "Delhi")
        XCTAssertEqual(try names("kin").first, "Kinshasa")
        XCTAssertEqual(try names("new").first, "New York City")
    }

    /// A space or punctuation after a word says it is whole: whole words and exact names come first.
    func testAWholeWordRanksBeforeAPrefix() throws {
        XCTAssertEqual(try names("la ").first, "La Paz", "not Lagos")
        XCTAssertEqual(try names("xi’").first, "Xi’an")
        let york = try names("york ", limit: 50)
        XCTAssertEqual(Array(york.prefix(2)), ["York", "York"], "the exact name (England, Pennsylvania)")
        let newYork = try XCTUnwrap(york.firstIndex(of: "New York City"))
        let yorkton = try XCTUnwrap(york.firstIndex(of: "Yorkton"))
        XCTAssertLessThan(newYork, yorkton, "an own name's whole word before a word it merely starts")
        let started = try names("york", limit: 50)
        XCTAssertLessThan(try XCTUnwrap(started.firstIndex(of: "Yorkton")), try XCTUnwrap(started.firstIndex(of: "New York City")),
                          "without the space, \"york\" may be the start of Yorkton")
        XCTAssertEqual(try names("san").first, "Santiago", "a prefix: the most populous")
        let catalog = try catalog()
        let san = catalog.city(try XCTUnwrap(catalog.search("san ").first))
        XCTAssertEqual(san.name, "San", "the exact full name, however small")
        XCTAssertEqual(try names("san jose ").prefix(2).sorted(), ["San Jose", "San José"])
    }

    /// In Korean and Japanese the name shown ranks as GeoNames' own does.
    func testTheNameShownInTheLanguageRanksAsAnOwnName() throws {
        let catalog = try catalog()
        func first(_ query: String, _ language: CityNameLanguage) throws -> String {
            catalog.city(try XCTUnwrap(catalog.search(query, in: language).first)).name
        }
        XCTAssertEqual(try first("서", .korean), "Seoul")
        XCTAssertEqual(try first("베를", .korean), "Berlin")
        XCTAssertEqual(try first("파", .korean), "Paris")
        XCTAssertEqual(try first("パリ", .japanese), "Paris")
        XCTAssertEqual(try first("ソ", .japanese), "Seoul")
        XCTAssertEqual(try first("東", .japanese), "Tokyo")
        XCTAssertEqual(try first("요코하마", .korean), "Yokohama", "shown without GeoNames' spaced 시")
    }

    func testEmptyQueryReturnsEveryCityMostPopulousFirst() throws {
        let catalog = try catalog()
        XCTAssertGreaterThan(catalog.cityCount, 30_000)
        for query in ["", "   ", "!?"] {
            let all = catalog.search(query)
            XCTAssertEqual(all.count, catalog.cityCount, query)
            XCTAssertEqual(all.query, query)
            XCTAssertEqual(all.refs.first, CityRef(0))
            XCTAssertEqual(all.refs.last, CityRef(Int32(catalog.cityCount - 1)))
        }
        XCTAssertEqual(catalog.city(CityRef(0)).name, "Shanghai")
        XCTAssertGreaterThanOrEqual(catalog.city(CityRef(0)).population, catalog.city(CityRef(1)).population)
    }

    func testNonsenseFindsNothing() throws {
        XCTAssertEqual(try ids("xqzvwq"), [])
        XCTAssertEqual(try ids("seoul xqzvwq"), [])
    }

    func testSearchGivesTheSameAnswerFromManyThreads() throws {
        let catalog = try catalog()
        let queries = ["서울", "new york", "s", "paris", "lon", "sao paulo"]
        let expected = queries.map { catalog.search($0) }
        let mismatches = Mismatches()
        DispatchQueue.concurrentPerform(iterations: 48) { iteration in
            let index = iteration % queries.count
            if catalog.search(queries[index]) != expected[index] { mismatches.increment() }
        }
        XCTAssertEqual(mismatches.count, 0)
    }

    // MARK: - Records and matched names

    func testCityDecodesEveryField() throws {
        let catalog = try catalog()
        let ref = try XCTUnwrap(catalog.ref(forID: 1_835_848))
        let seoul = catalog.city(ref)
        XCTAssertEqual(seoul.id, 1_835_848)
        XCTAssertEqual(seoul.name, "Seoul")
        XCTAssertEqual(seoul.countryCode, "KR")
        XCTAssertEqual(seoul.timeZone, "Asia/Seoul")
        XCTAssertEqual(seoul.latitude, 37.566, accuracy: 1e-9)
        XCTAssertEqual(seoul.longitude, 126.9784, accuracy: 1e-9)
        XCTAssertEqual(seoul.population, 10_349_312)
        XCTAssertTrue(seoul.alternateNames.contains("서울특별시"))
        XCTAssertTrue(seoul.alternateNames.contains("ソウル"))
        XCTAssertFalse(seoul.alternateNames.contains("Seoul"), "the canonical name is not repeated")
        XCTAssertNil(catalog.ref(forID: 1))
    }

    func testMatchedName() throws {
        let catalog = try catalog()
        let seoul = try XCTUnwrap(catalog.search("서울").refs.first)
        XCTAssertEqual(catalog.matchedName(seoul, query: "서울"), "서울")
        XCTAssertEqual(catalog.matchedName(seoul, query: "서울특"), "서울특별시")
        XCTAssertEqual(catalog.matchedName(seoul, query: "ソウル"), "ソウル")
        XCTAssertNil(catalog.matchedName(seoul, query: "seoul"))
        XCTAssertNil(catalog.matchedName(seoul, query: "SEO"))
        XCTAssertNil(catalog.matchedName(seoul, query: "paris"))
        let saoPaulo = try XCTUnwrap(catalog.search("sao paulo").refs.first)
        XCTAssertNil(catalog.matchedName(saoPaulo, query: "sao paulo"))
    }

    // MARK: - Folding

    func testFoldingExamples() {
        XCTAssertEqual(NameFolding.tokens("São Paulo"), ["sao", "paulo"])
        XCTAssertEqual(NameFolding.tokens("Straße"), ["strasse"])
        XCTAssertEqual(NameFolding.tokens("Łódź, Øresund; Đà Nẵng"), ["lodz", "oresund", "da", "nang"])
        XCTAssertEqual(NameFolding.tokens("Æbeltoft Œuvre İstanbul ıspir"), ["aebeltoft", "oeuvre", "istanbul", "ispir"])
        XCTAssertEqual(NameFolding.tokens("ΑΘΗΝΑΣ αθηνας"), ["αθηνασ", "αθηνασ"])
        XCTAssertEqual(NameFolding.tokens("서울특별시"), ["서울특별시"])
        XCTAssertEqual(NameFolding.tokens("アンドラ・ラ・ヴェリャ"), ["あんどら", "ら", "ゔぇりゃ"], "katakana folds to hiragana")
        XCTAssertEqual(NameFolding.tokens("ﾄｳｷｮｳ トウキョウ とうきょう"), ["とうきょう", "とうきょう", "とうきょう"])
        XCTAssertEqual(NameFolding.tokens("ヶ丘 ヽヾ ヷヸヹヺ ー"), ["ゖ丘", "ゝゞ", "ヷヸヹヺ", "ー"], "ヷ–ヺ have no hiragana")
        XCTAssertEqual(NameFolding.tokens("ｓｅｏｕｌ"), ["seoul"], "full-width letters fold by NFKD")
        XCTAssertEqual(NameFolding.tokens("Saint-Denis d'Oléron"), ["saint", "denis", "d", "oleron"])
        XCTAssertEqual(NameFolding.tokens(" \t—"), [])
        XCTAssertEqual(NameFolding.tokens("½ ㎞ ①"), ["1", "2", "km", "1"], "a separator inside a folded scalar ends the token")
    }

    func testFoldingBytesEndsATokenAtEveryInvalidSequence() {
        var tokens = FoldedTokens()
        // A stray continuation byte, an impossible byte, a sequence cut short at the end.
        let bytes: [UInt8] = [0x61, 0x80, 0x62, 0xFF, 0xC3, 0xA9, 0x74, 0xE3, 0x81]
        bytes.withUnsafeBytes { NameFolding.fold(utf8: $0, into: &tokens) }
        XCTAssertEqual((0..<tokens.count).map { String(decoding: tokens.token($0), as: UTF8.self) }, ["a", "b", "et"])
        // Overlong forms and bytes no UTF-8 uses are separators too, as String(decoding:) makes them U+FFFD.
        let overlong: [UInt8] = [0x78, 0xC1, 0xA1, 0x79, 0xE0, 0x80, 0x80, 0x7A, 0xF8, 0x88, 0x80, 0x80, 0x77,
                                 0xF0, 0x80, 0x80, 0x81, 0x76]
        overlong.withUnsafeBytes { NameFolding.fold(utf8: $0, into: &tokens) }
        XCTAssertEqual((0..<tokens.count).map { String(decoding: tokens.token($0), as: UTF8.self) },
                       NameFolding.tokens(String(decoding: overlong, as: UTF8.self)))
        XCTAssertEqual(tokens.count, 5)
    }

    /// Swift folding must agree with the script's: every token of every name is indexed for its city.
    func testFoldingMatchesTheIndexForEveryNameInTheCatalogue() throws {
        let catalog = try catalog()
        var checked = 0
        var failures: [String] = []
        for index in 0..<catalog.cityCount {
            for name in catalog.names(at: index) {
                for token in NameFolding.tokens(name) {
                    checked += 1
                    if !catalog.indexContains(token: Array(token.utf8), cityIndex: index), failures.count < 20 {
                        failures.append("city \(index) name \(name.debugDescription) token \(token.debugDescription)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 500_000)
        XCTAssertEqual(failures, [])
    }

    // MARK: - Damaged and missing files

    func testMissingFile() {
        let path = NSTemporaryDirectory() + "/no-such-catalogue-\(UUID().uuidString).bin"
        XCTAssertThrowsError(try CityCatalog(contentsOf: URL(fileURLWithPath: path))) { error in
            XCTAssertEqual(error as? CityCatalogError, .missing(path))
        }
    }

    func testDamagedFilesAreReportedAsCorrupt() throws {
        let original = try Data(contentsOf: try catalog().url)
        var badMagic = original
        badMagic[0] = UInt8(ascii: "X")
        var badSection = original
        badSection.replaceSubrange(60..<64, with: [0xF0, 0xFF, 0xFF, 0x00])  // token blob offset past the end
        var badTable = original
        badTable.replaceSubrange(16..<20, with: [0x05, 0x00, 0x00, 0x00])  // token count disagrees with its tables
        var versionOne = original
        versionOne.replaceSubrange(4..<6, with: [0x01, 0x00])  // the format before the Japanese and Korean names
        let cases: [(String, Data)] = [
            ("empty", Data()),
            ("tiny", Data([0x4E, 0x4D])),
            ("garbage", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })),
            ("truncated", original.prefix(original.count / 2)),
            ("header only", original.prefix(72)),
            ("bad magic", badMagic),
            ("bad section", badSection),
            ("bad table", badTable),
            ("version 1", versionOne),
        ]
        for (label, bytes) in cases {
            let url = try temporaryFile(bytes)
            defer { try? FileManager.default.removeItem(at: url) }
            XCTAssertThrowsError(try CityCatalog(contentsOf: url), label) { error in
                guard case .corrupt = error as? CityCatalogError else {
                    return XCTFail("\(label): expected .corrupt, got \(error)")
                }
            }
        }
    }

    func testAnOlderVersionIsNamedInTheMessage() throws {
        var data = try Data(contentsOf: try catalog().url)
        data.replaceSubrange(4..<6, with: [0x01, 0x00])
        let url = try temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try CityCatalog(contentsOf: url)) { error in
            XCTAssertEqual((error as? CityCatalogError)?.message,
                           "city catalogue is damaged: version 1 where this Nimbus reads versions 2–3 "
                           + "(rebuild it with scripts/build-resources.py)")
        }
    }

    /// A local-name number past the city's names (a damaged record) gives no local name, never a crash
    /// or another city's name.
    func testALocalNameNumberPastTheNamesIsIgnored() throws {
        let original = try catalog()
        let tokyo = try XCTUnwrap(original.search("tokyo").first)
        var data = try Data(contentsOf: original.url)
        let cities = data[24..<28].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let record = cities + Int(tokyo.index) * (data[4] >= 3 ? 40 : 36)
        data.replaceSubrange((record + 32)..<(record + 36), with: [0xFF, 0xFF, 0xFE, 0x7F])
        let url = try temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let damaged = try CityCatalog(contentsOf: url)
        XCTAssertEqual(damaged.city(tokyo).localNames, .none)
        XCTAssertEqual(damaged.summary(tokyo).localNames, .none)
        XCTAssertEqual(damaged.city(tokyo).name, "Tokyo")
    }

    func testAnIntactCopyLoadsFromAnyPath() throws {
        let original = try Data(contentsOf: try catalog().url)
        let url = try temporaryFile(original)
        defer { try? FileManager.default.removeItem(at: url) }
        let copy = try CityCatalog(contentsOf: url)
        XCTAssertEqual(copy.cityCount, try catalog().cityCount)
        XCTAssertEqual(copy.search("서울").refs.first.map { copy.city($0).name }, "Seoul")
    }

    func testLargeTierURL() {
        XCTAssertEqual(CityCatalog.largeTierURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]).path,
                       "/data/nimbus/cities1000.bin")
        XCTAssertEqual(CityCatalog.largeTierURL(environment: ["HOME": "/home/u"]).path,
                       "/home/u/.local/share/nimbus/cities1000.bin")
        XCTAssertEqual(CityCatalog.largeTierURL(environment: ["XDG_DATA_HOME": "", "HOME": "/home/u"]).path,
                       "/home/u/.local/share/nimbus/cities1000.bin")
    }

    private func temporaryFile(_ data: Data) throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("nimbus-catalog-test-\(UUID().uuidString).bin")
        try data.write(to: url)
        return url
    }
}

/// A counter that threads may bump concurrently.
private final class Mismatches: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}
