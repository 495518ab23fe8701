import Foundation
import XCTest
import GRDB
import NimbusDomain
import NimbusResources
@testable import NimbusData

/// A person's whole name finds that person's films, checked against the catalogue's own credits read
/// here by another path: plain SQL over `movie.actors` and `movie.directors` of the bundled
/// `movies.sqlite`, each list split into names at ", ", names compared by this file's own folding
/// (Foundation's case and accent folding, then runs of letters and digits), never the app's.
///
/// The people are chosen by a rule, from the same data: the 10 actors and the 10 directors whose
/// films have the most reviews in all (the catalogue's `reviews` column summed over the films that
/// credit them), which gives Samuel L. Jackson, Matt Damon, ... and Steven Spielberg, Woody Allen, ...
final class PersonSearchReferenceTests: XCTestCase {
    struct Film {
        let id: Int64
        let title: String
        let reviews: Int
        let actors: [String]
        let directors: [String]
        /// Everyone credited, folded (`fold`).
        let people: Set<String>
    }

    static let films: [Film] = {
        let url = NimbusResources.url(forResource: "movies", withExtension: "sqlite")!
        var configuration = Configuration()
        configuration.readonly = true
        let database = try! DatabaseQueue(path: url.path, configuration: configuration)
        return try! database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, coalesce(reviews, 0), actors, directors FROM movie").map { row in
                func split(_ text: String) -> [String] {
                    text.components(separatedBy: ", ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                }
                let actors = split(row[3]), directors = split(row[4])
                return Film(id: row[0], title: row[1], reviews: row[2], actors: actors, directors: directors,
                            people: Set((actors + directors).map(fold)))
            }
        }
    }()
    static let byID = Dictionary(uniqueKeysWithValues: films.map { ($0.id, $0) })

    /// Lowercased, accents removed, runs of letters and digits joined by one space.
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var words: [String] = [], current = ""
        for ch in folded {
            if ch.isLetter || ch.isNumber { current.append(ch) } else if !current.isEmpty { words.append(current); current = "" }
        }
        if !current.isEmpty { words.append(current) }
        return words.joined(separator: " ")
    }

    /// The `count` people of a credit list with the most reviews over their films.
    static func mostReviewed(_ credits: KeyPath<Film, [String]>, count: Int) -> [String] {
        var total: [String: Int] = [:]
        for film in films {
            for name in Set(film[keyPath: credits]) { total[name, default: 0] += film.reviews }
        }
        return total.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(count).map(\.key)
    }

    static let people: [String] = {
        let actors = mostReviewed(\.actors, count: 10)
        return actors + mostReviewed(\.directors, count: 20).filter { !actors.contains($0) }.prefix(10)
    }()

    /// Whether the title holds every word of the name, the last perhaps as the start of a word (a film
    /// titled with the name is listed too).
    static func titleHolds(_ title: String, _ name: String) -> Bool {
        let words = fold(title).split(separator: " "), name = fold(name).split(separator: " ")
        guard let last = name.last else { return false }
        return name.dropLast().allSatisfy(words.contains) && words.contains { $0.hasPrefix(last) }
    }

    struct Outcome {
        var wrong: [String] = []
        var missing: [String] = []
        var byTitle: [String] = []
        var passed: Bool { wrong.isEmpty && missing.isEmpty }
    }

    /// (a) every film listed for the name credits that person (or is titled with the name), and (b) the
    /// person's three most reviewed films are listed.
    static func check(_ name: String, in catalogue: MovieCatalogue) throws -> Outcome {
        let listed = try catalogue.rankedIDs(name)
        let person = fold(name)
        var outcome = Outcome()
        for id in listed {
            guard let film = byID[id] else { outcome.wrong.append("#\(id)"); continue }
            if film.people.contains(person) { continue }
            if titleHolds(film.title, name) { outcome.byTitle.append(film.title); continue }
            outcome.wrong.append(film.title)
        }
        let theirs = films.filter { $0.people.contains(person) }
            .sorted { $0.reviews != $1.reviews ? $0.reviews > $1.reviews : $0.id < $1.id }
        let listedSet = Set(listed)
        outcome.missing = theirs.prefix(3).filter { !listedSet.contains($0.id) }.map(\.title)
        return outcome
    }

    func testTwentyWellKnownPeopleFindTheirOwnFilms() throws {
        let catalogue = try MovieCatalogue.bundled()
        catalogue.warmUp()
        XCTAssertEqual(Self.people.count, 20, "\(Self.people)")
        XCTAssertTrue(Self.people.contains("Steven Spielberg") && Self.people.contains("Samuel L. Jackson"), "\(Self.people)")
        var passed = 0
        for name in Self.people {
            let outcome = try Self.check(name, in: catalogue)
            if outcome.passed { passed += 1 }
            XCTAssertEqual(outcome.wrong, [], "\(name): listed without crediting them")
            XCTAssertEqual(outcome.missing, [], "\(name): their most reviewed films missing")
        }
        print("person search reference: \(passed) of \(Self.people.count) people pass: \(Self.people.joined(separator: ", "))")
    }

    /// The cases the problem was found with.
    func testTomHanksAndChristopherNolanListOnlyTheirFilms() throws {
        let catalogue = try MovieCatalogue.bundled()
        for (name, strangers) in [("tom hanks", ["King Kong", "W.", "The Guilt Trip", "Parkland"]),
                                  ("christopher nolan", ["Argo", "Jersey Boys", "He Got Game", "The Shootist", "The To Do List"])] {
            let titles = try catalogue.summaries(catalogue.rankedIDs(name)).map(\.title)
            for stranger in strangers { XCTAssertFalse(titles.contains(stranger), "\(name) lists \(stranger)") }
            let outcome = try Self.check(name, in: catalogue)
            XCTAssertTrue(outcome.passed, "\(name): \(outcome)")
        }
    }
}
