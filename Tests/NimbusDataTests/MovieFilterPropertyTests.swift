import Foundation
import Testing
import GRDB
import PropertyBased
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Genre, years and sort on the bundled catalogue, against an oracle made in Swift from every film's
/// own fields (the genre list split, not SQL's LIKE): random queries (prefixes of common words, one
/// to three letters or whole names) with random filters.
@Suite struct MovieFilterPropertyTests {
    struct Film { let genres: Set<String>; let year: Int?; let rating: Double?; let metacritic: Int?; let reviews: Int? }

    /// Warmed: the property is the filter's, and a cold catalogue's first orders are provisional (the
    /// first version of this test found a filtered result kept from one).
    static let catalogue: MovieCatalogue = {
        let catalogue = try! MovieCatalogue.bundled()
        catalogue.warmUp()
        return catalogue
    }()
    static let films: [Int64: Film] = try! catalogue.databaseRead { db in
        var films: [Int64: Film] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, genres, year, tomato_rating, metacritic, reviews FROM movie") {
            films[row[0]] = Film(genres: Set(MovieCatalogue.list(row[1])), year: row[2], rating: row[3], metacritic: row[4],
                                 reviews: row[5])
        }
        return films
    }
    static let meanRating: Double = {
        let rated = films.values.compactMap(\.rating)
        return rated.reduce(0, +) / Double(rated.count)
    }()

    /// The rating sort's score, worked out here from the fields: the rating (critics' average, else
    /// Metacritic / 10) averaged with the mean as if it were `ratingPrior` more reviews; nil unrated.
    static func score(_ film: Film) -> Double? {
        guard let rating = film.rating ?? film.metacritic.map({ Double($0) / 10 }) else { return nil }
        let n = Double(film.reviews ?? 0), m = Double(MovieCatalogue.ratingPrior)
        return (n * rating + m * meanRating) / (n + m)
    }
    static let genres = ["Drama", "Comedy", "Western", "Sci-Fi", "Documentary", "Film-Noir", "War", "Music", "Musical"]
    static let words = ["", "the", "t", "ma", "love", "night", "tom hanks", "star", "a", "sp", "matrix", "john", "zzqx"]

    static func passes(_ film: Film, _ filter: MovieFilter) -> Bool {
        if let genre = filter.genre, !film.genres.contains(genre) { return false }
        if let years = filter.years { guard let year = film.year, years.contains(year) else { return false } }
        return true
    }

    @Test func filteredResultsAreExactlyTheMatchesThatPassInTheSortsOrder() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 40),
                            input: Gen.int(in: 0...(Self.words.count - 1)), Gen.int(in: -1...(Self.genres.count - 1)),
                            Gen.int(in: -1...12), Gen.int(in: 0...(20 * 3 + 2))) { word, genre, decade, spanSort in
            let span = spanSort / 3, sort = spanSort % 3
            let query = Self.words[word]
            let years: ClosedRange<Int>? = decade < 0 ? nil : (1935 + decade * 7)...(1935 + decade * 7 + span)
            let filter = MovieFilter(genre: genre < 0 ? nil : Self.genres[genre], years: years, sort: MovieSort.allCases[sort])
            let all = try! Self.catalogue.rankedIDs(query)
            let got = try! Self.catalogue.filteredIDs(query, filter)
            let expected = all.filter { Self.films[$0].map { Self.passes($0, filter) } ?? false }
            // The same films, each once.
            #expect(got.count == expected.count, "\(query) \(filter)")
            #expect(Set(got) == Set(expected), "\(query) \(filter)")
            switch filter.sort {
            case .relevance:
                #expect(got == expected, "the search's own order, narrowed: \(query) \(filter)")
            case .year:
                let ys = got.map { Self.films[$0]?.year ?? Int.min }
                #expect(zip(ys, ys.dropFirst()).allSatisfy { $0 >= $1 || $0 == Int.min && $1 == Int.min }, "newest first: \(filter)")
            case .rating:
                let rs = got.map { Self.films[$0].flatMap(Self.score) ?? -1 }
                #expect(zip(rs, rs.dropFirst()).allSatisfy { $0 >= $1 - 1e-9 }, "best rated first: \(filter)")
            }
            // Paging the filtered results gives them all, in order.
            if got.count <= 60 {
                var paged: [Int] = []
                for n in 1...max(1, (got.count + 19) / 20) {
                    paged += try! Self.catalogue.page(query: query, page: n, filter: filter).movies.map(\.id.value)
                }
                #expect(paged == got.map { Int($0) })
            }
        }
    }

    @Test func aGenreNameIsMatchedWholeAndHostileNamesMatchNothing() throws {
        // "Music" is not "Musical"; LIKE's wildcards in a name are literal.
        let music = try Self.catalogue.filteredIDs("", MovieFilter(genre: "Music"))
        #expect(!music.isEmpty)
        #expect(music.allSatisfy { Self.films[$0]?.genres.contains("Music") == true })
        for name in ["%", "_", "Dr%", "\\", "Drama, Comedy", "", "'; DROP TABLE movie; --"] {
            #expect(try Self.catalogue.filteredIDs("", MovieFilter(genre: name)).isEmpty, "\(name)")
        }
        #expect(try Self.catalogue.filteredIDs("", MovieFilter(years: 1800...1900)).isEmpty)
    }

    /// Best rated first weighs the review count: a 10/10 from a handful of reviews does not head the
    /// 1990s, and the films people rate highest (Schindler's List, Goodfellas) are near the top.
    @Test func bestRatedFirstWeighsTheReviewCount() throws {
        let ids = try Self.catalogue.filteredIDs("", MovieFilter(years: 1990...1999, sort: .rating))
        let first = try Self.catalogue.summaries(Array(ids.prefix(25))).map(\.title)
        #expect(first.contains("Schindler's List"), "\(first)")
        #expect(first.contains("Goodfellas"), "\(first)")
        let top = try #require(Self.films[ids[0]])
        #expect((top.reviews ?? 0) >= 50, "the top film has enough reviews to be trusted: \(first[0])")
    }
}

/// A filtered result made while the ranking table was not built is not kept: once the table is
/// there, the same filter gives the final order.
@Suite struct MovieFilterProvisionalTests {
    @Test func aFilteredResultFromAProvisionalOrderIsNotKept() throws {
        let cold = try MovieCatalogue.bundled()
        let filter = MovieFilter(years: 1990...2014)
        let provisional = try cold.filteredIDs("a", filter)
        waitUntil("the ranking table's build, on its own thread", timeout: 30) { cold.hasRankTable }
        #expect(cold.hasRankTable)
        let warm = try MovieCatalogue.bundled()
        warm.warmUp()
        let final = try cold.filteredIDs("a", filter)
        #expect(Set(final) == Set(provisional))
        #expect(final == (try warm.filteredIDs("a", filter)), "the final order, not the kept provisional one")
    }
}
