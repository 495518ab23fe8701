import XCTest
@testable import NimbusDomain
import TestSupport

/// One city, Seoul, also called 서울.
private func seoulOnly() -> InMemoryCityRepository {
    InMemoryCityRepository([City(id: 1, name: "Seoul", countryCode: "KR", latitude: 37.5, longitude: 127, population: 10,
                                 timeZone: "Asia/Seoul", alternateNames: ["서울"])])
}

final class SearchCitiesUseCaseTests: XCTestCase {
    /// Leading white space goes; trailing white space is kept as one space, which says the last word is whole.
    func testQueriesAreTrimmedBeforeSearchingKeepingOneSpaceAfterAWholeWord() {
        let repository = seoulOnly()
        let useCase = SearchCitiesUseCase(repository: repository, language: .korean)
        XCTAssertEqual(useCase.execute(query: "  서울 \n").query, "서울 ")
        XCTAssertEqual(useCase.execute(query: "   ").query, "")
        XCTAssertEqual(useCase.execute(query: "la ").query, "la ")
        XCTAssertEqual(repository.searches, ["서울 ", "", "la "])
        XCTAssertEqual(repository.languages, [.korean, .korean, .korean])
        for query in ["", "seoul", " new york", "new york\t", "\u{3000}東京\u{3000}", "\u{A0}são paulo\u{2003}", "a  b", "la ", "la  "] {
            let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
            let endsInSpace = !trimmed.isEmpty && query.unicodeScalars.last?.properties.isWhitespace == true
            XCTAssertEqual(SearchCitiesUseCase.trimmed(query), trimmed + (endsInSpace ? " " : ""), query)
        }
    }

    func testAHitCarriesTheNameThatMatched() {
        let useCase = SearchCitiesUseCase(repository: seoulOnly())
        XCTAssertEqual(useCase.hit(CityRef(0), query: "서울").matchedName, "서울")
        XCTAssertNil(useCase.hit(CityRef(0), query: "seoul").matchedName)
        XCTAssertEqual(useCase.hit(CityRef(0), query: "seoul").city.name, "Seoul")
    }
}

final class CityMatchesTests: XCTestCase {
    func testABitSetListsItsMembersInOrderByIndex() {
        var words = [UInt64](repeating: 0, count: 5)
        let members: [Int] = [0, 3, 63, 64, 65, 130, 255, 319]
        for m in members { words[m / 64] |= 1 << UInt64(m % 64) }
        let set = CitySet(words: words)
        XCTAssertEqual(set.count, members.count)
        XCTAssertEqual((0..<set.count).map { Int(set.member($0).index) }, members)
        let matches = CityMatches(query: "s", set: set)
        XCTAssertEqual(matches.refs, members.map { CityRef(Int32($0)) })
        XCTAssertEqual(matches, CityMatches(query: "s", refs: members.map { CityRef(Int32($0)) }), "equal whatever the storage")
        XCTAssertNotEqual(matches, CityMatches(query: "s", refs: [CityRef(0)]))
        XCTAssertEqual(CityMatches(query: "", allOf: 3), CityMatches(query: "", refs: [CityRef(0), CityRef(1), CityRef(2)]))
        XCTAssertEqual(CityMatches(query: "", allOf: 3)[2], CityRef(2))
        XCTAssertNil(CityMatches(query: "x", set: CitySet(words: [0, 0])).first)
    }

    func testRankedSetsListTheFirstSetsMembersFirstEachInOrder() {
        func set(_ members: [Int]) -> CitySet {
            var words = [UInt64](repeating: 0, count: 3)
            for m in members { words[m / 64] |= 1 << UInt64(m % 64) }
            return CitySet(words: words)
        }
        let matches = CityMatches(query: "s", ranked: [set([70, 3]), set([]), set([150, 0, 64]), set([5])])
        XCTAssertEqual(matches.refs.map(\.index), [3, 70, 0, 64, 150, 5])
        XCTAssertEqual(matches.count, 6)
        XCTAssertEqual(matches.classCounts, [2, 3, 1], "empty sets are left out")
        XCTAssertEqual(matches[4], CityRef(150))
        XCTAssertEqual(matches, CityMatches(query: "s", refs: [3, 70, 0, 64, 150, 5].map { CityRef(Int32($0)) }))
        XCTAssertEqual(matches, CityMatches(query: "s", ranked: [set([3, 70]), set([0, 64, 150]), set([5])]))
        XCTAssertEqual(CityMatches(query: "s", ranked: [set([3]), set([70])]), CityMatches(query: "s", ranked: [set([3, 70])]),
                       "the same order from other classes")
        XCTAssertNotEqual(CityMatches(query: "s", ranked: [set([70]), set([3])]), CityMatches(query: "s", ranked: [set([3, 70])]))
        XCTAssertNil(CityMatches(query: "s", ranked: [set([]), set([])]).first)
        XCTAssertEqual(CityMatches(query: "s", ranked: []).count, 0)
    }
}
