import Foundation
import Testing
import PropertyBased
import NimbusDomain
import TestSupport
@testable import NimbusData

/// The ranking classes that own names decide (the name is the query, starts with it, has its words
/// whole, has words starting with them) for queries longer than the eight bytes a prefix key holds,
/// where the sorted tables are searched by comparing bytes: every city of the bundled catalogue is
/// put in its classes here the plain way, by folding its own names one by one and comparing strings,
/// and each class must hold the same cities, so its count is the same.
///
/// Queries are long starts of own names and words, and the places where two sorted names part
/// after a common start of eight bytes or more (the first byte they differ in, taken from either):
/// there a comparison one byte short or long lets a neighbour in or leaves a match out.
@Suite struct OwnNameLongQueryTests {
    struct Fixture {
        let catalog: CityCatalog
        let language: CityNameLanguage
        let index: OwnNameIndex
        /// Each city's own names, folded: their words, and the words joined by a space.
        let ownWords: [[[UInt8]]]
        let ownJoined: [[[UInt8]]]
        /// Sorted, distinct: every own name joined, and every own word, with a city.
        let partings: [[UInt8]]
    }

    static let fixtures: [Fixture] = {
        guard let catalog = try? CityCatalog.bundled() else { return [] }
        let cities = (0..<catalog.cityCount).map { catalog.city(CityRef(Int32($0))) }
        let foldedNames = cities.map { NameFolding.tokens($0.name) }
        return CityNameLanguage.allCases.map { language in
            let shown = cities.map { $0.localNames.shown(in: language) }
            let names = cities.indices.map { i in [cities[i].name] + (shown[i].map { [$0] } ?? []) }
            let folded = cities.indices.map { i in ([foldedNames[i]] + (shown[i].map { [NameFolding.tokens($0)] } ?? [])).filter { !$0.isEmpty } }
            let words = folded.map { Array(Set($0.flatMap { $0 })).map { Array($0.utf8) } }
            let joined = folded.map { $0.map { Array($0.joined(separator: " ").utf8) } }
            // Where neighbours in byte order part after eight or more common bytes.
            let sorted = Array(Set(joined.flatMap { $0 } + words.flatMap { $0 })).sorted { $0.lexicographicallyPrecedes($1) }
            var partings: [[UInt8]] = []
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                let common = zip(a, b).prefix { $0 == $1 }.count
                guard common >= 8 else { continue }
                if a.count > common { partings.append(Array(a.prefix(common + 1))) }
                if b.count > common { partings.append(Array(b.prefix(common + 1))) }
            }
            return Fixture(catalog: catalog, language: language,
                           index: OwnNameIndex(cityCount: catalog.cityCount) { names[$0] },
                           ownWords: words, ownJoined: joined, partings: partings)
        }
    }()

    /// Whether `bytes` starts with `prefix` (`memcmp`: a debug build's generic `starts(with:)` is slow).
    static func starts(_ bytes: [UInt8], with prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && bytes.withUnsafeBytes { b in prefix.withUnsafeBytes { p in
            prefix.isEmpty || memcmp(b.baseAddress!, p.baseAddress!, prefix.count) == 0
        } }
    }

    static func cities(_ bits: [UInt64]) -> [Int] {
        bits.indices.flatMap { w in (0..<64).filter { bits[w] & (1 << UInt64($0)) != 0 }.map { w * 64 + $0 } }
    }

    /// The classes' members for `query` (one own name's words joined by a space), from the index and the plain way.
    static func check(_ f: Fixture, query: [UInt8], whole: Bool) -> [String] {
        let words = (f.catalog.cityCount + 63) / 64
        var exact = [UInt64](repeating: 0, count: words), starts = exact, wordWhole = exact, wordPrefixed = exact
        exact.withUnsafeMutableBufferPointer { e in
            starts.withUnsafeMutableBufferPointer { s in
                query.withUnsafeBytes { f.index.markStarts($0, whole: whole, exact: e, starts: s) }
            }
        }
        let named = query.withUnsafeBytes { f.index.cities(named: $0) }
        // A query word: the query when it holds no space.
        let isWord = !query.contains(OwnNameIndex.wordSeparator)
        if isWord {
            wordWhole.withUnsafeMutableBufferPointer { w in
                wordPrefixed.withUnsafeMutableBufferPointer { p in
                    query.withUnsafeBytes { f.index.markWords($0, whole: w, prefixed: p) }
                }
            }
        }
        let all = 0..<f.catalog.cityCount
        let plainExact = all.filter { f.ownJoined[$0].contains(query) }
        let plainStarts = all.filter { c in
            f.ownJoined[c].contains { name in
                Self.starts(name, with: query) && (!whole || name.count == query.count || name[query.count] == OwnNameIndex.wordSeparator)
            }
        }
        var failures: [String] = []
        let shown = "«\(String(decoding: query, as: UTF8.self))» \(f.language)\(whole ? " whole" : "")"
        func compare(_ name: String, _ found: [Int], _ plain: [Int]) {
            guard found != plain else { return }
            let extra = Set(found).subtracting(plain).sorted().prefix(3).map { f.catalog.city(CityRef(Int32($0))).name }
            let missing = Set(plain).subtracting(found).sorted().prefix(3).map { f.catalog.city(CityRef(Int32($0))).name }
            failures.append("\(shown) \(name): \(found.count) cities, plainly \(plain.count) (extra \(extra), missing \(missing))")
        }
        compare("exact", cities(exact), plainExact)
        compare("named", named.sorted(), plainExact)
        compare("starts", cities(starts), plainStarts)
        if isWord {
            compare("word whole", cities(wordWhole), all.filter { f.ownWords[$0].contains(query) })
            compare("word started", cities(wordPrefixed), all.filter { c in f.ownWords[c].contains { Self.starts($0, with: query) } })
        }
        return failures
    }

    @Test func longQueriesFindTheCitiesOfEachClassThePlainWayDoes() async throws {
        let fixtures = Self.fixtures
        try #require(fixtures.count == CityNameLanguage.allCases.count, "the bundled catalogue")
        await propertyCheck(count: PropertyCount.scaled(default: 15), input: Gen.int(in: 0...999_999).array(of: 4)) { n in
            let f = fixtures[n[0] % fixtures.count]
            let query: [UInt8]
            if n[1] % 2 == 0, !f.partings.isEmpty {
                query = f.partings[n[2] % f.partings.count]
            } else {
                // A long start of a city's own name (or of one of its words), the larger cities more often.
                let city = n[2] * n[2] % f.catalog.cityCount
                let candidates = (f.ownJoined[city] + f.ownWords[city]).filter { $0.count > 9 }
                guard !candidates.isEmpty else { return }
                let name = candidates[n[3] % candidates.count]
                query = Array(name.prefix(9 + n[3] % (name.count - 8)))
            }
            guard query.count > 8, query.last != OwnNameIndex.wordSeparator else { return }
            let failures = Self.check(f, query: query, whole: false) + Self.check(f, query: query, whole: true)
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
    }

    /// Every place where names part, in each language, not a sample: the comparisons' edges.
    @Test func everyPartingPointOfTheOwnNamesFindsItsClasses() throws {
        let fixtures = Self.fixtures
        try #require(fixtures.count == CityNameLanguage.allCases.count, "the bundled catalogue")
        var checked = 0, failures: [String] = []
        for f in fixtures {
            // Twenty-five per language, spread over them (all of them with NIMBUS_PROPERTY_COUNT raised).
            let step = max(1, f.partings.count / PropertyCount.scaled(default: 25))
            for query in stride(from: 0, to: f.partings.count, by: step).map({ f.partings[$0] }) where query.last != OwnNameIndex.wordSeparator {
                failures += Self.check(f, query: query, whole: false)
                checked += 1
            }
        }
        #expect(checked >= 50, "parting points checked: \(checked)")
        #expect(failures.isEmpty, "\(failures.count) of \(checked):\n\(failures.prefix(10).joined(separator: "\n"))")
    }
}
