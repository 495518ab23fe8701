import Foundation
import Testing
import GRDB
import PropertyBased
import TestSupport
@testable import NimbusData

/// Whether a cast or crew name is the person a query names (`CreditNames`): the in-place comparison
/// of ASCII names answers exactly what folding the name into words does; and, over the bundled
/// catalogue, a person's whole name lists every film that credits them and no film that does not
/// (unless its title holds the name).
@Suite struct PersonNamePropertyTests {
    /// Letters of both cases, digits, and what names hold between words (and one that is not ASCII).
    private static let pool = Array("aAbBkKmMoOtTzZ09 .-'\"()&é")

    static func name(_ numbers: [Int]) -> String {
        String(numbers.map { pool[$0 % pool.count] })
    }

    static func meeting(_ name: String, _ query: CreditNames.Query) -> (fast: CreditNames.Meeting?, folded: CreditNames.Meeting) {
        let folded = CreditNames.foldedMeeting(MovieCatalogue.words(name).map { Array($0.utf8) }, query)
        let fast = Array(name.utf8).withUnsafeBytes { CreditNames.asciiMeeting($0, query) }
        return (fast, folded)
    }

    @Test func asciiNamesMeetAQueryAsTheirFoldedWordsDo() async {
        await propertyCheck(count: PropertyCount.scaled(default: 500), input: Gen.int(in: 0...9999).array(of: 0...14),
                            Gen.int(in: 0...9999).array(of: 0...14), Gen.int(in: 0...3)) { a, b, mode in
            let name = Self.name(a)
            // Half the time the query is the name's own words (shuffled, or cut short), so that names
            // that are or hold the query are tried.
            var words = MovieCatalogue.words(mode < 2 ? name : Self.name(b)).map { Array($0.utf8) }
            if mode == 0 { words.reverse() }
            if mode == 1, let last = words.last, last.count > 1 { words[words.count - 1] = Array(last.dropLast()) }
            guard !words.isEmpty else { return }
            for lastIsPrefix in [true, false] {
                let query = CreditNames.Query(words, lastIsPrefix: lastIsPrefix)
                let (fast, folded) = Self.meeting(name, query)
                if name.utf8.allSatisfy({ $0 < 0x80 }) {
                    #expect(fast == folded, "\(name) vs \(words.map { String(decoding: $0, as: UTF8.self) })")
                } else {
                    #expect(fast == nil)
                }
                // A list of names meets the query as its best name does.
                let list = [Self.name(b), name].joined(separator: ", ")
                let best = max(Self.meeting(Self.name(b), query).folded, folded)
                #expect(CreditNames.best(in: list, query) == best, "\(list)")
            }
        }
    }

    @Test func knownNames() {
        func q(_ text: String, prefix: Bool = true) -> CreditNames.Query {
            CreditNames.Query(MovieCatalogue.words(text).map { Array($0.utf8) }, lastIsPrefix: prefix)
        }
        let hanks = q("tom hanks")
        for (name, meeting) in [("Tom Hanks", CreditNames.Meeting.is), ("TOM  HANKS", .is), ("Hanks, Tom", .is),
                                ("Tom Hanks Jr.", .holds), ("Tom Hank", .unmet), ("Tom-Hanks", .is), ("Tommy Hanks", .unmet),
                                (" Tom Hanks ", .is), ("Tom Hanksley", .holds), ("Colin Hanks", .unmet), ("Zoë Hanks", .unmet),
                                ("Tóm Hänks", .is)] {
            #expect(Array(name.utf8).withUnsafeBytes { CreditNames.meeting($0, hanks) } == meeting, "\(name)")
        }
        #expect(CreditNames.best(in: "Colin Hanks, Tom Hobbs", hanks) == .unmet, "two people's words are no one's name")
        #expect(CreditNames.best(in: "Naomi Watts, Tom Hanks", hanks) == .is)
        #expect(CreditNames.best(in: "Bong Joon-ho", q("joon ho bong")) == .is, "in any order")
        #expect(CreditNames.best(in: "Jet Lima", q("jet li", prefix: false)) == .unmet, "a whole last word")
        #expect(CreditNames.best(in: "Jet Lima", q("jet li")) == .holds)
    }

    // MARK: Over the catalogue

    static let catalogue: MovieCatalogue = {
        let catalogue = try! MovieCatalogue.bundled()
        catalogue.warmUp()
        return catalogue
    }()

    /// A name's folded words, sorted: the same person in any order.
    static func key(_ name: String) -> String { MovieCatalogue.words(name).sorted().joined(separator: " ") }

    /// Every film's title, and the films of every person named in a cast or as a director (split here),
    /// by the person's `key`; and every name of two to twelve words.
    static let (titles, filmsByPerson, people): ([Int64: String], [String: Set<Int64>], [String]) = {
        var titles: [Int64: String] = [:], films: [String: Set<Int64>] = [:], names = Set<String>()
        try! catalogue.databaseRead { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, title, actors || ', ' || directors FROM movie") {
                let id: Int64 = row[0]
                titles[id] = row[1]
                for name in (row[2] as String).components(separatedBy: ", ") where !name.isEmpty {
                    films[key(name), default: []].insert(id)
                    names.insert(name)
                }
            }
        }
        return (titles, films, names.filter { (2...12).contains(MovieCatalogue.words($0).count) }.sorted())
    }()

    @Test func aPersonsWholeNameListsEveryFilmOfTheirsAndNoOther() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 40), input: Gen.int(in: 0...(Self.people.count - 1))) { index in
            let name = Self.people[index]
            let theirs = Self.filmsByPerson[Self.key(name)] ?? []
            let listed = Set((try? Self.catalogue.rankedIDs(name)) ?? [])
            #expect(theirs.subtracting(listed).isEmpty,
                    "\(name): \(theirs.subtracting(listed).compactMap { Self.titles[$0] }) not listed")
            let words = MovieCatalogue.words(name)
            for film in listed.subtracting(theirs) {
                // Listed without them: only for its title, which holds the name's words (the last one
                // perhaps as the start of a word).
                let title = MovieCatalogue.words(Self.titles[film] ?? "")
                let held = words.dropLast().allSatisfy(title.contains) && title.contains { $0.hasPrefix(words.last!) }
                #expect(held, "\(name): \(Self.titles[film] ?? "?") listed, without them")
            }
        }
    }
}
