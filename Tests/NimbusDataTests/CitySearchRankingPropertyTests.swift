import Foundation
import Testing
import PropertyBased
import NimbusDomain
import TestSupport
@testable import NimbusData

/// For any query, the search lists its matches by ranking class and, within a class, most populous
/// first; each row's class is worked out here the plain way, by folding the city's names
/// (`CityCatalog.search(_:in:)` finds them with bitsets over sorted own names instead).
@Suite struct CitySearchRankingPropertyTests {
    private static let catalog: CityCatalog? = try? CityCatalog.bundled()

    enum RankClass: Int, Comparable {
        case exact, startsOwnName, ownWholeWords, ownWordPrefixes, anyWholeWords, anyWordPrefixes
        static func < (l: Self, r: Self) -> Bool { l.rawValue < r.rawValue }
    }

    /// The class of the city at `index` for `query`, from its names folded one by one.
    static func plainClass(_ catalog: CityCatalog, index: Int, query: String, language: CityNameLanguage) -> RankClass {
        let city = catalog.city(CityRef(Int32(index)))
        let q = NameFolding.tokens(query)
        let wholeLast = query.unicodeScalars.last.map(NameFolding.isSeparator) ?? false
        let own = ([city.name] + (city.localNames.shown(in: language).map { [$0] } ?? [])).map(NameFolding.tokens)
        /// Whether query word `k` fits `word`: is it, or starts it (the last word only when not whole).
        func fits(_ k: Int, _ word: String) -> Bool {
            k == q.count - 1 && !wholeLast ? word.hasPrefix(q[k]) : word == q[k]
        }
        if wholeLast && own.contains(q) { return .exact }
        let starts = own.contains { name in
            name.count >= q.count && q.indices.allSatisfy { k in k == q.count - 1 ? fits(k, name[k]) : name[k] == q[k] }
        }
        if starts { return .startsOwnName }
        let ownWords = own.flatMap { $0 }
        if q.allSatisfy(ownWords.contains) { return .ownWholeWords }
        let prefixed = q.indices.allSatisfy { k in
            ownWords.contains { k == q.count - 1 && wholeLast ? $0 == q[k] : $0.hasPrefix(q[k]) }
        }
        if prefixed { return .ownWordPrefixes }
        if q.allSatisfy({ catalog.indexContains(token: Array($0.utf8), cityIndex: index) }) { return .anyWholeWords }
        return .anyWordPrefixes
    }

    /// A query from numbers: the start of one of a city's names (its own or an alternate), cut
    /// after a few characters, maybe with a space after it; or a few random letters.
    static func query(_ catalog: CityCatalog, _ numbers: [Int]) -> (String, CityNameLanguage) {
        let language = CityNameLanguage.allCases[numbers[0] % 3]
        if numbers[1] % 5 == 0 {
            let letters = Array("aeiounrstlkmbdgphcy")
            return (String(numbers.dropFirst(2).prefix(1 + numbers[2] % 3).map { letters[$0 % letters.count] }), language)
        }
        // Mostly the larger cities, whose names are typed most and match most.
        let index = numbers[2] * numbers[2] % catalog.cityCount
        let city = catalog.city(CityRef(Int32(index)))
        let names = [city.name, city.localNames.shown(in: language) ?? city.name] + city.alternateNames
        let name = names[numbers[3] % min(names.count, 6)]
        let cut = String(name.prefix(1 + numbers[4] % max(1, name.count)))
        return (numbers[5] % 4 == 0 ? cut + " " : cut, language)
    }

    @Test func matchesAreListedByClassThenPopulation() async throws {
        let catalog = try #require(Self.catalog)
        let input = Gen.int(in: 0...9999).array(of: 8)
        await propertyCheck(count: PropertyCount.scaled(default: 40), input: input) { numbers in
            let (query, language) = Self.query(catalog, numbers)
            let matches = catalog.search(query, in: language)
            guard matches.count > 0 else { return }
            // Every row of a short answer; of a long one, the first rows, the last and a sample between.
            var positions = Array(0..<min(matches.count, 120))
            if matches.count > 120 {
                positions += stride(from: 120, to: matches.count, by: max(1, matches.count / 80))
                if positions.last != matches.count - 1 { positions.append(matches.count - 1) }
            }
            var last: (RankClass, Int32)?
            var classesSeen = 0
            var lastClass: RankClass?
            for position in positions {
                let ref = matches[position]
                let rank = Self.plainClass(catalog, index: Int(ref.index), query: query, language: language)
                if let last {
                    #expect(last.0 < rank || last.0 == rank && last.1 < ref.index,
                            "«\(query)» \(language): row \(position) \(catalog.city(ref).name) is \(rank) after \(last)")
                }
                if rank != lastClass { classesSeen += 1 }
                lastClass = rank
                last = (rank, ref.index)
            }
            #expect(classesSeen <= matches.classCounts.count, "«\(query)»: \(matches.classCounts)")
        }
    }
}
