import Foundation
import Testing
import PropertyBased
import NimbusDomain
import TestSupport
@testable import NimbusData

/// For any query, the search lists its matches by ranking class and, within a class, most populous
/// first, but for a place whose name the query is, whole, which passes those much smaller than it
/// that match only by their own names (the README's rule); each row's class is worked out here the
/// plain way, by folding the city's names (`CityCatalog.search(_:in:)` finds them with bitsets over
/// sorted own names instead).
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

    /// Whether some name of the city (not a code: two to four capitals) folds to exactly the query's words.
    static func plainWholeName(_ city: City, query: String) -> Bool {
        let q = NameFolding.tokens(query)
        return ([city.name] + city.alternateNames).contains { name in
            let code = (2...4).contains(name.utf8.count) && name.utf8.allSatisfy { (0x41...0x5A).contains($0) }
            return !code && NameFolding.tokens(name) == q
        }
    }

    /// Whether the own name of the city (GeoNames', or the one shown) folds to exactly the query's words.
    static func plainOwnName(_ city: City, query: String, language: CityNameLanguage) -> Bool {
        let q = NameFolding.tokens(query)
        return ([city.name] + (city.localNames.shown(in: language).map { [$0] } ?? [])).contains { NameFolding.tokens($0) == q }
    }

    @Test func matchesAreListedByClassThenPopulationButForWholeNames() async throws {
        let catalog = try #require(Self.catalog)
        let input = Gen.int(in: 0...9999).array(of: 8)
        await propertyCheck(count: PropertyCount.scaled(default: 40), input: input) { numbers in
            let (query, language) = Self.query(catalog, numbers)
            let matches = catalog.search(query, in: language)
            // A query whose last words named a place is narrowed to it (`CityQualifiersTests`).
            guard matches.count > 0, matches.qualifier == nil else { return }
            // Every row of a short answer; of a long one, the first rows, the last and a sample between.
            var positions = Array(0..<min(matches.count, 120))
            if matches.count > 120 {
                positions += stride(from: 120, to: matches.count, by: max(1, matches.count / 80))
                if positions.last != matches.count - 1 { positions.append(matches.count - 1) }
            }
            struct Row { let city: City; let index: Int32; let rank: RankClass; let whole: Bool; let own: Bool
                var key: (Int, Int32) { (rank.rawValue, index) }
            }
            let rows = positions.map { position -> Row in
                let ref = matches[position]
                let city = catalog.city(ref)
                return Row(city: city, index: ref.index,
                           rank: Self.plainClass(catalog, index: Int(ref.index), query: query, language: language),
                           whole: Self.plainWholeName(city, query: query), own: Self.plainOwnName(city, query: query, language: language))
            }
            // Out of order only where a whole name passes a place matched by its own name, much smaller,
            // or one of class 4 whose words are only spread over its names (among the largest: the
            // search reads the names of the `leadCandidates` largest of classes 2 to 4).
            for j in rows.indices {
                for i in 0..<j where rows[i].key > rows[j].key {
                    let (x, y) = (rows[i], rows[j])
                    let times = y.own ? CityCatalog.leadOverOwnName : y.rank.rawValue < 2 ? CityCatalog.leadOverOwnStart : CityCatalog.leadOverOwnWord
                    let passes = y.rank.rawValue <= 3 ? x.city.population >= times * max(1, y.city.population)
                        : y.rank == .anyWholeWords && !y.whole
                    #expect(x.whole && passes,
                            "«\(query)» \(language): \(x.city.name) (\(x.rank), \(x.city.population)) before \(y.city.name) (\(y.rank), \(y.city.population))")
                }
            }
        }
    }

    /// The README's rule from the other side: the first city listed, when it does not have the query
    /// as a whole name, is not a third of the size of the largest city that has (roma → Rome, not
    /// Roman); queries here are whole names of the catalogue's cities, own and alternate.
    @Test func noWholeNameLosesToAMuchSmallerPlace() async throws {
        let catalog = try #require(Self.catalog)
        let input = Gen.int(in: 0...99_999).array(of: 4)
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: input) { numbers in
            let language = CityNameLanguage.allCases[numbers[0] % 3]
            let city = catalog.city(CityRef(Int32(numbers[1] * numbers[1] % min(catalog.cityCount, 20_000))))
            let names = [city.name] + city.alternateNames
            let query = names[numbers[2] % names.count]
            guard Self.plainWholeName(city, query: query), NameFolding.tokens(query).count > 0 else { return }
            let matches = catalog.search(query, in: language)
            guard let first = matches.first.map(catalog.city), !Self.plainWholeName(first, query: query) else { return }
            #expect(city.population < CityCatalog.leadOverOwnName * max(1, first.population),
                    "«\(query)» \(language): \(first.name) (\(first.population)) first, before \(city.name) (\(city.population))")
        }
    }
}
