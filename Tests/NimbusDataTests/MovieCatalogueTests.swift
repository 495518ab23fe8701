import XCTest
import TestSupport
import NimbusDomain
@testable import NimbusData

/// The bundled film catalogue: matching, ranking, paging and records.
final class MovieCatalogueTests: XCTestCase {
    private static let catalogue = try! MovieCatalogue.bundled()
    private var catalogue: MovieCatalogue { Self.catalogue }

    func testTheBundledCatalogueHasEveryFilm() {
        XCTAssertEqual(catalogue.movieCount, 17_472)
    }

    /// The span the empty state and `nimbus movies --help` name, checked by the year filter's own
    /// search: films at both ends, none before the first year or after the last, and every film inside.
    func testTheYearSpanIsTheCataloguesFirstAndLastYear() throws {
        let span = try XCTUnwrap(catalogue.yearSpan)
        func count(_ years: ClosedRange<Int>) throws -> Int {
            try catalogue.page(query: "", page: 1, filter: MovieFilter(genre: nil, years: years, sort: .relevance)).totalResults
        }
        XCTAssertGreaterThan(try count(span.lowerBound...span.lowerBound), 0)
        XCTAssertGreaterThan(try count(span.upperBound...span.upperBound), 0)
        XCTAssertEqual(try count(1000...(span.lowerBound - 1)), 0)
        XCTAssertEqual(try count((span.upperBound + 1)...3000), 0)
        XCTAssertEqual(try count(span), catalogue.movieCount)
        XCTAssertEqual(catalogue.yearSpan, span, "read once, the same after")
    }

    func testBatmanBeginsComesFirstForItsTitle() throws {
        let page = try catalogue.page(query: "Batman Begins", page: 1)
        XCTAssertEqual(page.movies.first?.title, "Batman Begins")
        XCTAssertEqual(page.movies.first?.year, 2005)
        XCTAssertEqual(page.movies.first?.directors, ["Christopher Nolan"])
        XCTAssertEqual(page.movies.first?.id, MovieID(source: .catalogue, value: 166262), "Wikidata Q166262")
    }

    func testTitleMatchesComeBeforeDirectorsAndDirectorsBeforeCast() throws {
        let ids = try catalogue.rankedIDs("nolan")
        let movies = try catalogue.summaries(Array(ids))
        func tier(_ m: MovieSummary) -> Int {
            if m.title.lowercased().contains("nolan") { return 0 }
            if m.directors.contains(where: { $0.lowercased().contains("nolan") }) { return 1 }
            return 2
        }
        let tiers = movies.map(tier)
        XCTAssertEqual(tiers, tiers.sorted(), "title matches, then director matches, then cast matches")
        XCTAssertTrue(tiers.contains(1) && tiers.contains(2))
        XCTAssertTrue(movies.contains { $0.title == "Inception" })
    }

    /// A name's words must be one person's: two people's words in one cast are no one's name.
    func testAPersonsNameIsOnePersonsWordsInAnyOrderAndTitlesStillMatch() throws {
        func titles(_ query: String) throws -> [String] { try catalogue.summaries(catalogue.rankedIDs(query)).map(\.title) }
        let hanks = try titles("tom hanks")
        XCTAssertTrue(hanks.contains("Forrest Gump") && hanks.contains("Larry Crowne"), "\(hanks)")
        XCTAssertFalse(hanks.contains("King Kong"), "Colin Hanks and Tom Hobbs are not Tom Hanks")
        XCTAssertEqual(Set(try catalogue.rankedIDs("hanks tom")), Set(try catalogue.rankedIDs("tom hanks")), "in any order")
        // While the name is typed, anyone whose name holds the words so far.
        let typing = try titles("tom hank")
        XCTAssertTrue(typing.contains("Forrest Gump"), "\(typing)")
        XCTAssertFalse(typing.contains("King Kong"), "\(typing)")
        // Words that are no one's name still match across title, cast and directors.
        XCTAssertEqual(try titles("hanks gump").first, "Forrest Gump")
        XCTAssertTrue(try titles("spielberg hanks").contains("Saving Private Ryan"))
        // A title holding the name stays, first when it is the name; then the person's own films.
        let wood = try catalogue.summaries(catalogue.rankedIDs("ed wood"))
        XCTAssertEqual(wood.first?.title, "Ed Wood")
        XCTAssertTrue(wood.contains { $0.title == "Plan 9 from Outer Space" }, "\(wood.map(\.title))")
        XCTAssertFalse(wood.contains { $0.title == "Apollo 13" }, "Ed Harris and a Wood are not Ed Wood")
        // A short last word after others is a whole word of the cast: Jet Li acted, and directed nothing here.
        let li = try catalogue.summaries(catalogue.rankedIDs("jet li"))
        XCTAssertGreaterThan(li.count, 10, "\(li.map(\.title))")
        for film in li { XCTAssertTrue(try catalogue.movie(film.id).cast.contains("Jet Li"), film.title) }
        // A capital İ lowercases to i and a combining dot: one word still (the dot is not a separator).
        XCTAssertEqual(try titles("İbrahim Çelikkol"), ["Conquest 1453"])
        XCTAssertEqual(try titles("ibrahim celikkol"), ["Conquest 1453"])
    }

    func testTheExactTitleThenTitlesStartingWithTheQueryComeFirst() throws {
        let movies = try catalogue.page(query: "heat", page: 1).movies
        XCTAssertEqual(movies.first?.title, "Heat")
        XCTAssertEqual(movies.first?.year, 1995, "of the films called Heat (and The Heat), the best known")
        // A leading article aside: "The Heat" is called Heat too.
        let titles = movies.map { $0.title.lowercased() }.map { $0.hasPrefix("the ") ? String($0.dropFirst(4)) : $0 }
        let lastStart = try XCTUnwrap(titles.lastIndex { $0.hasPrefix("heat") })
        let firstOther = try XCTUnwrap(titles.firstIndex { !$0.hasPrefix("heat") })
        XCTAssertLessThan(lastStart, firstOther, "\(titles)")
    }

    /// The two- and three-letter queries with the most matches are ranked by the warm-up, and what a
    /// keystroke then gets from that memo is what ranking them now gives.
    func testWarmUpRanksTheHeavyPrefixesAsRankingWould() throws {
        let fresh = try MovieCatalogue.bundled()
        fresh.warmUp()
        let keys = fresh.heavyPrefixKeys
        XCTAssertTrue((10...100).contains(keys.count), "\(keys.count) heavy prefixes")
        for query in ["th", "the", "joh", "john", "mar"] {
            let key = try XCTUnwrap(MovieCatalogue.matchExpression(query))
            XCTAssertTrue(keys.contains(key), query)
            XCTAssertEqual(try fresh.rankedIDs(query), try fresh.rank(query).ids, query)
        }
        XCTAssertFalse(keys.contains(try XCTUnwrap(MovieCatalogue.matchExpression("zq"))))
    }

    func testTheMemoIgnoresCaseAndSpacingAndWarmUpRanksFirstKeystrokes() throws {
        let fresh = try MovieCatalogue.bundled()
        fresh.warmUp()
        XCTAssertEqual(try fresh.rankedIDs("The  "), try fresh.rankedIDs("the"))
        // The memo's order is what ranking gives once the ranking table is there (the shared
        // catalogue's own may still be provisional when this test runs first or alone).
        XCTAssertEqual(try fresh.rankedIDs("B"), try fresh.rank("b").ids)
        XCTAssertEqual(MovieCatalogue.words("Amélie: L'Été, 2001"), ["amelie", "l", "ete", "2001"])
        let title = MovieCatalogue.packed(MovieCatalogue.words("The Heat of the Night"))
        func q(_ text: String) -> [[UInt8]] { MovieCatalogue.words(text).map { Array($0.utf8) } }
        XCTAssertTrue(MovieCatalogue.holds(title, q("night he")))
        XCTAssertFalse(MovieCatalogue.holds(title, q("he night")), "only the last word is a prefix")
        XCTAssertFalse(MovieCatalogue.holds(title, q("nights")))
        XCTAssertEqual(MovieCatalogue.begins(title, Array("the heat of".utf8)).begins, true)
        XCTAssertEqual(MovieCatalogue.begins(title, Array("the heat of the night".utf8)).equal, true)
        XCTAssertEqual(MovieCatalogue.begins(title, Array("heat".utf8)).begins, false)
    }

    func testPrefixAccentsAndCaseMatch() throws {
        XCTAssertEqual(try catalogue.page(query: "BATMAN BEG", page: 1).movies.first?.title, "Batman Begins")
        let amelie = try catalogue.page(query: "amelie", page: 1).movies.map(\.title)
        XCTAssertTrue(amelie.contains { $0.hasPrefix("Amélie") }, "\(amelie)")
    }

    func testPagesOfTwentyWithoutDuplicatesAndAnEmptyPageAfterTheLast() throws {
        let first = try catalogue.page(query: "the", page: 1)
        XCTAssertEqual(first.movies.count, 20)
        XCTAssertGreaterThan(first.totalPages, 3)
        var seen = Set<MovieID>()
        for n in 1...first.totalPages {
            let page = try catalogue.page(query: "the", page: n)
            XCTAssertEqual(page.totalResults, first.totalResults)
            for movie in page.movies { XCTAssertTrue(seen.insert(movie.id).inserted, "\(movie.title) twice") }
        }
        XCTAssertEqual(seen.count, first.totalResults)
        let after = try catalogue.page(query: "the", page: first.totalPages + 1)
        XCTAssertEqual(after.movies, [])
        XCTAssertFalse(after.hasMore)
    }

    func testQueriesWithoutWordsOrWithFTSSyntaxAreSafe() throws {
        for query in ["", "   ", "\"", "*", "-", "title:", "NEAR(a b)", "a OR", "\u{1B}[31m", "((("] {
            XCTAssertNoThrow(try catalogue.page(query: query, page: 1), query)
        }
        XCTAssertEqual(MovieCatalogue.matchExpression("\"batman\" OR begins*"), "\"batman\" \"OR\" \"begins\"*")
        XCTAssertNil(MovieCatalogue.matchExpression(" -*- "))
        XCTAssertEqual(MovieCatalogue.matchExpression("be"), "{title directors} : \"be\"*", "a two-letter prefix skips the cast")
        XCTAssertEqual(MovieCatalogue.matchExpression("batman be"),
                       "\"batman\" AND ({title directors} : \"be\"* OR {actors} : \"be\")",
                       "after other words, a two-letter last word is also a whole word of the cast (jet li)")
        XCTAssertEqual(try catalogue.page(query: "zzqqxxnotafilm", page: 1).totalResults, 0)
    }

    func testTheWholeRecordOfAFilm() throws {
        let movie = try catalogue.movie(MovieID(source: .catalogue, value: 166262))
        XCTAssertEqual(movie.title, "Batman Begins")
        XCTAssertEqual(movie.runtime, 140)
        XCTAssertEqual(movie.genres, ["Thriller", "Drama", "Crime", "Action", "Adventure"])
        XCTAssertEqual(movie.writers, ["Christopher Nolan", "David S. Goyer"])
        XCTAssertTrue(movie.cast.contains("Christian Bale"))
        XCTAssertEqual(movie.languages, ["English"])
        XCTAssertEqual(movie.countries, ["United Kingdom", "United States"])
        XCTAssertEqual(movie.rated, "PG-13")
        XCTAssertEqual(movie.ratings.metacritic, 70)
        XCTAssertNotNil(movie.ratings.tomatometer)
        XCTAssertThrowsError(try catalogue.movie(MovieID(source: .catalogue, value: 1))) { error in
            XCTAssertEqual(error as? MovieError, .notFound)
        }
        XCTAssertThrowsError(try catalogue.movie(MovieID(source: .tmdb, value: 272))) { error in
            XCTAssertEqual(error as? MovieError, .sourceUnavailable(.tmdb))
        }
    }

    /// A search while `warmUp` is building the ranking table answers without waiting for the build, and
    /// ranks as it does with the table.
    func testASearchDoesNotWaitForTheRankingTableBuild() throws {
        let warming = try MovieCatalogue.bundled()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let held = LockedBox(false)
        warming.rankTableChunkHook = {
            var first = false
            held.update { held in first = !held; held = true }
            guard first else { return }
            entered.signal()
            release.wait()  // the build stops here, mid-table, until the search below is done
        }
        let warmed = expectation(description: "warm-up finished")
        DispatchQueue.global().async {
            warming.warmUp()
            warmed.fulfill()
        }
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success, "the build started")
        let searched = expectation(description: "search answered")
        let answered = LockedBox<[String]>([])
        DispatchQueue.global().async {
            let titles = ((try? warming.page(query: "heat", page: 1).movies) ?? []).map(\.title)
            answered.update { $0 = titles }
            searched.fulfill()
        }
        wait(for: [searched], timeout: 10)
        release.signal()
        wait(for: [warmed], timeout: 60)
        let during = answered.value
        XCTAssertEqual(during.first, "Heat")
        let warmTitles = try warming.page(query: "heat", page: 1).movies.map(\.title)
        XCTAssertEqual(during, warmTitles, "ranked as with the whole table")
        // Ranked cold (from the matches' own entries) as warm; with more matches than that reads, the
        // order is provisional: the same films, the same first page.
        for query in ["nolan", "heat", "th", "a", "s"] {
            let warm = try warming.rankedIDs(query), cold = try MovieCatalogue.bundled().rankedIDs(query)
            XCTAssertEqual(Set(cold), Set(warm), query)
            XCTAssertEqual(cold.count, warm.count, query)
            XCTAssertEqual(cold.prefix(20), warm.prefix(20), query)
            if warm.count <= MovieCatalogue.partialRankLimit { XCTAssertEqual(cold, warm, query) }
        }
    }

    /// A first keystroke before the ranking table is there answers at once with a provisional order,
    /// keeps nothing of it, and starts the table's build; once built, the order is final.
    func testAProvisionalOrderStartsTheBuildAndIsNotKept() throws {
        let cold = try MovieCatalogue.bundled()
        XCTAssertFalse(cold.hasRankTable)
        let provisional = try cold.rankedIDs("m")
        XCTAssertGreaterThan(provisional.count, MovieCatalogue.partialRankLimit)
        waitUntil("the ranking table's build, on its own thread", timeout: 30) { cold.hasRankTable }
        XCTAssertTrue(cold.hasRankTable, "the build started by the provisional answer finished")
        let final = try cold.rankedIDs("m")
        XCTAssertEqual(Set(final), Set(provisional))
        let warm = try MovieCatalogue.bundled()
        warm.warmUp()
        XCTAssertEqual(final, try warm.rankedIDs("m"), "ranked again once the table is there, not the kept provisional order")
    }
}
