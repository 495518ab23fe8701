import XCTest
import NimbusDomain
@testable import NimbusData

/// Ranking as people expect it: 30 queries and the film they mean, each checked against the bundled
/// catalogue's data (title and year). Popularity (review count, weighted for age, Metacritic and
/// Oscars) decides within a title tier; a person's whole name ranks their own films by it.
final class MovieRankingTests: XCTestCase {
    static let expectedFirst: [(query: String, title: String, year: Int)] = [
        ("matrix", "The Matrix", 1999),
        ("star wars", "Star Wars: Episode IV – A New Hope", 1977),
        ("tom hanks", "Forrest Gump", 1994),
        ("godfather", "The Godfather", 1972),
        ("alien", "Alien", 1979),
        ("jaws", "Jaws", 1975),
        ("casablanca", "Casablanca", 1942),
        ("toy story", "Toy Story", 1995),
        ("inception", "Inception", 2010),
        ("avatar", "Avatar", 2009),
        ("titanic", "Titanic", 1997),
        ("pulp fiction", "Pulp Fiction", 1994),
        ("the dark knight", "The Dark Knight", 2008),
        ("forrest gump", "Forrest Gump", 1994),
        ("gladiator", "Gladiator", 2000),
        ("jurassic park", "Jurassic Park", 1993),
        ("back to the future", "Back to the Future", 1985),
        ("terminator", "The Terminator", 1984),
        ("psycho", "Psycho", 1960),
        ("citizen kane", "Citizen Kane", 1941),
        ("goodfellas", "Goodfellas", 1990),
        ("taxi driver", "Taxi Driver", 1976),
        ("the shining", "The Shining", 1980),
        ("shrek", "Shrek", 2001),
        ("finding nemo", "Finding Nemo", 2003),
        ("the lion king", "The Lion King", 1994),
        ("heat", "Heat", 1995),
        ("rocky", "Rocky", 1976),
        ("die hard", "Die Hard", 1988),
        ("amelie", "Amélie", 2001),
    ]

    private func check(_ catalogue: MovieCatalogue, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(Self.expectedFirst.count, 30)
        for (query, title, year) in Self.expectedFirst {
            let first = try catalogue.page(query: query, page: 1).movies.first
            XCTAssertEqual(first?.title, title, "first for “\(query)”", file: file, line: line)
            XCTAssertEqual(first?.year, year, "first for “\(query)”", file: file, line: line)
        }
    }

    func testThirtyQueriesFindTheFilmPeopleMeanFirst() throws {
        try check(MovieCatalogue.bundled())
    }

    func testTheSameWithTheWholeRankingTableBuilt() throws {
        let catalogue = try MovieCatalogue.bundled()
        catalogue.warmUp()
        try check(catalogue)
    }

    func testAPersonsNameRanksTheirBestKnownFilmsFirst() throws {
        let catalogue = try MovieCatalogue.bundled()
        let hanks = try catalogue.page(query: "tom hanks", page: 1).movies.prefix(5).map(\.title)
        XCTAssertTrue(hanks.contains("Saving Private Ryan"), "\(hanks)")
        XCTAssertFalse(hanks.prefix(2).contains("Larry Crowne"), "the film he directed is not first for being directed: \(hanks)")
        // A documentary whose title holds the name comes after the person's own films.
        let scorsese = try catalogue.page(query: "martin scorsese", page: 1).movies
        XCTAssertTrue(scorsese.first?.directors.contains("Martin Scorsese") == true, "\(scorsese.prefix(3).map(\.title))")
        // A part of a name is not a person's name: titles still come first.
        XCTAssertEqual(try catalogue.page(query: "alien", page: 1).movies.first?.title, "Alien")
    }

    func testAnEmptyQueryListsTheMostPopularFilmsAndOneWithoutWordsNothing() throws {
        let catalogue = try MovieCatalogue.bundled()
        let popular = try catalogue.page(query: "", page: 1)
        XCTAssertEqual(popular.totalResults, 17_472)
        XCTAssertEqual(popular.movies.first?.title, "Skyfall", "the most reviewed film")
        XCTAssertEqual(try catalogue.page(query: "  ", page: 2).movies.count, 20)
        XCTAssertEqual(try catalogue.page(query: "!!", page: 1).totalResults, 0)
    }
}
