import XCTest
import GRDB
import NimbusDomain
@testable import NimbusData

/// The bundled catalogue's cast lists, which the source has in alphabetical order, are stored best
/// known first (`scripts/movies.py`, `cast_order`): a table of well-known films and the stars a
/// viewer expects at the start of each.
final class MovieCastOrderTests: XCTestCase {
    /// Film (Wikidata id, title), the stars expected among the first `within` names.
    static let expected: [(id: Int, title: String, stars: [String], within: Int)] = [
        (83495, "The Matrix", ["Keanu Reeves", "Laurence Fishburne"], 2),
        (44578, "Titanic", ["Leonardo DiCaprio", "Kate Winslet"], 3),
        (134773, "Forrest Gump", ["Tom Hanks"], 1),
        (47703, "The Godfather", ["Marlon Brando", "Al Pacino"], 3),
        (132689, "Casablanca", ["Humphrey Bogart", "Ingrid Bergman"], 2),
        (128518, "Gladiator", ["Russell Crowe", "Joaquin Phoenix"], 2),
        (190050, "Fight Club", ["Brad Pitt", "Edward Norton"], 3),
        (103569, "Alien", ["Sigourney Weaver"], 1),
        (189505, "Jaws", ["Roy Scheider", "Richard Dreyfuss", "Robert Shaw"], 3),
        (133654, "The Silence of the Lambs", ["Anthony Hopkins", "Jodie Foster"], 2),
        (483941, "Schindler's List", ["Liam Neeson", "Ben Kingsley", "Ralph Fiennes"], 3),
        (172241, "The Shawshank Redemption", ["Tim Robbins", "Morgan Freeman"], 2),
        (174284, "Raiders of the Lost Ark", ["Harrison Ford"], 1),
        (42198, "Heat", ["Al Pacino", "Robert De Niro"], 2),
        (484048, "Amélie", ["Audrey Tautou"], 1),
    ]

    func testWellKnownFilmsListTheirStarsFirst() throws {
        let catalogue = try MovieCatalogue.bundled()
        for film in Self.expected {
            let movie = try catalogue.movie(MovieID(source: .catalogue, value: film.id))
            XCTAssertEqual(movie.title, film.title)
            let first = movie.cast.prefix(film.within)
            for star in film.stars {
                XCTAssertTrue(first.contains(star), "\(film.title): \(star) among the first \(film.within) of \(movie.cast.prefix(5))")
            }
        }
    }

    /// The Matrix used to start "Ada Nicodemou, Anthony Ray Parker…" (alphabetical): no film's cast is
    /// in that order any more unless prominence happens to agree, and no name is lost or repeated.
    func testCastListsAreNotAlphabeticalAndKeepEveryName() throws {
        let catalogue = try MovieCatalogue.bundled()
        let matrix = try catalogue.movie(MovieID(source: .catalogue, value: 83495))
        XCTAssertEqual(matrix.cast.count, 19)
        XCTAssertEqual(Set(matrix.cast).count, matrix.cast.count)
        XCTAssertNotEqual(matrix.cast, matrix.cast.sorted())
        let (films, sorted) = try catalogue.databaseRead { db -> (Int, Int) in
            var films = 0, sorted = 0
            for row in try Row.fetchAll(db, sql: "SELECT actors FROM movie WHERE length(actors) > 0 ORDER BY popularity LIMIT 200") {
                let cast = MovieCatalogue.list(row[0])
                guard cast.count >= 5 else { continue }
                films += 1
                if cast == cast.sorted() { sorted += 1 }
            }
            return (films, sorted)
        }
        XCTAssertGreaterThan(films, 150)
        XCTAssertLessThan(sorted, 3, "the best-known films' casts are not alphabetical")
    }

    /// The search's order within a tier is the stored renown order: Star Wars (1977, fewer reviews,
    /// 7 Oscars) before Episode III (2005); every order once.
    func testRenownOrderWeighsAgeScoreAndOscars() throws {
        let catalogue = try MovieCatalogue.bundled()
        let films = catalogue.movieCount
        try catalogue.databaseRead { db in
            let newHope = try Int.fetchOne(db, sql: "SELECT renown_order FROM movie WHERE id = 17738") ?? -1
            let sith = try Int.fetchOne(db, sql: "SELECT renown_order FROM movie WHERE title LIKE 'Star Wars: Episode III%'") ?? -1
            XCTAssertGreaterThanOrEqual(newHope, 0)
            XCTAssertLessThan(newHope, sith)
            let count = try Int.fetchOne(db, sql: "SELECT count(DISTINCT renown_order) FROM movie") ?? 0
            let top = try Int.fetchOne(db, sql: "SELECT max(renown_order) FROM movie") ?? 0
            XCTAssertEqual(count, films)
            XCTAssertEqual(top, films - 1)
        }
    }
}

/// The folded title and director words stored at build time (`scripts/movies.py`, `fold_words`) are,
/// film by film, what the app's own folding makes of them: ranking compares stored titles with
/// queries folded in the app.
final class MovieFoldedKeysTests: XCTestCase {
    func testEveryStoredKeyIsTheAppsOwnFolding() throws {
        let catalogue = try MovieCatalogue.bundled()
        let rows = try catalogue.databaseRead { db in
            try Row.fetchAll(db, sql: "SELECT title, directors, title_key, directors_key FROM movie")
        }
        XCTAssertEqual(rows.count, 17_472)
        var mismatches: [String] = []
        for row in rows {
            let title: String = row[0], directors: String = row[1]
            if MovieCatalogue.packed(MovieCatalogue.words(title)) != Array((row[2] as String).utf8) {
                mismatches.append("\(title) → \(row[2] as String)")
            }
            if MovieCatalogue.packed(MovieCatalogue.words(directors)) != Array((row[3] as String).utf8) {
                mismatches.append("\(directors) → \(row[3] as String)")
            }
        }
        XCTAssertEqual(mismatches, [], "\(mismatches.count) differ")
    }
}
