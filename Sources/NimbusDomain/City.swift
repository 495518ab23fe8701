import Foundation

/// A populated place from the bundled catalogue.
public struct City: Equatable, Hashable, Sendable, Identifiable {
    /// The GeoNames id.
    public let id: Int
    public let name: String
    /// ISO 3166-1 alpha-2 country code.
    public let countryCode: String
    public let latitude: Double
    public let longitude: Double
    public let population: Int
    /// IANA time-zone identifier.
    public let timeZone: String
    /// Every other name of the place, in any script.
    public let alternateNames: [String]
    /// The alternates it is shown by in Japanese and Korean.
    public let localNames: CityLocalNames
    /// The state, province or prefecture it is in, where the catalogue knows it.
    public let region: CityRegion?
    /// Which languages show another city of the same country by the same name.
    public let namesakes: CityNamesakes

    public init(id: Int, name: String, countryCode: String, latitude: Double, longitude: Double,
                population: Int, timeZone: String, alternateNames: [String], localNames: CityLocalNames = .none,
                region: CityRegion? = nil, namesakes: CityNamesakes = []) {
        self.id = id
        self.name = name
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
        self.timeZone = timeZone
        self.alternateNames = alternateNames
        self.localNames = localNames
        self.region = region
        self.namesakes = namesakes
    }
}

/// What a query named after a city's name to narrow it ("springfield, il", "paris france", "london ontario").
public enum CityQualifier: Equatable, Hashable, Sendable {
    /// These places: regions (with their country's ISO code) and countries (ISO codes) named `named`
    /// (as typed, or folded when it was the query's last words).
    case places(named: String, regions: [CityRegionPlace], countries: [String])
    /// The text after a comma named no region or country: nothing is listed rather than the name alone.
    case unknown(String)
}

/// A region and the country it is in.
public struct CityRegionPlace: Equatable, Hashable, Sendable {
    public let region: CityRegion
    public let countryCode: String
    public init(region: CityRegion, countryCode: String) {
        self.region = region
        self.countryCode = countryCode
    }
}

/// A first-level region: a state, province, prefecture (GeoNames' admin1), with its names and the
/// short code people write after a city's name ("IL" in "Springfield, IL"; empty where none is usual).
public struct CityRegion: Equatable, Hashable, Sendable {
    public let code: String
    public let english: String
    public let korean: String?
    public let japanese: String?

    public init(code: String, english: String, korean: String? = nil, japanese: String? = nil) {
        self.code = code
        self.english = english
        self.korean = korean
        self.japanese = japanese
    }

    /// Its name in `language`: the Korean or Japanese one where the catalogue has it, else the English.
    public func name(in language: CityNameLanguage) -> String {
        switch language {
        case .geoNames: english
        case .japanese: japanese ?? english
        case .korean: korean ?? english
        }
    }
}

/// Which languages show another city of the same country by the same name (two "Springfield ·
/// United States" rows), and where even the region is the same: the catalogue works it out once.
public struct CityNamesakes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Whether another city of the country is shown by this city's name in `language`.
    public func sharesName(in language: CityNameLanguage) -> Bool {
        contains(CityNamesakes(rawValue: 1 << Self.bit(language)))
    }

    /// Whether another city of the same region is shown by this city's name in `language`.
    public func sharesRegion(in language: CityNameLanguage) -> Bool {
        contains(CityNamesakes(rawValue: 1 << (Self.bit(language) + 3)))
    }

    /// Namesakes in `language`, and in the same region with `sameRegion`.
    public static func named(in language: CityNameLanguage, sameRegion: Bool = false) -> CityNamesakes {
        CityNamesakes(rawValue: 1 << bit(language) | (sameRegion ? 1 << (bit(language) + 3) : 0))
    }

    private static func bit(_ language: CityNameLanguage) -> UInt8 {
        switch language {
        case .geoNames: 0
        case .japanese: 1
        case .korean: 2
        }
    }
}

/// The names a city is shown by in Japanese (東京, 北京, ソウル) and Korean (도쿄, 베이징, 서울), chosen
/// among its alternates when the catalogue was built (`scripts/citynames.py` has the rules); nil
/// where GeoNames has none, and the canonical name is shown instead.
public struct CityLocalNames: Equatable, Hashable, Sendable {
    public let japanese: String?
    public let korean: String?

    public init(japanese: String?, korean: String?) {
        self.japanese = japanese
        self.korean = korean
    }

    public static let none = CityLocalNames(japanese: nil, korean: nil)

    /// The name shown in `language`, nil for GeoNames' or where the catalogue has none. GeoNames lists
    /// most Japanese and Chinese cities in Korean only as the city form with a spaced 시 (요코하마 시),
    /// which Korean writes 요코하마 or 요코하마시: it is shown as 요코하마.
    public func shown(in language: CityNameLanguage) -> String? {
        switch language {
        case .geoNames: return nil
        case .japanese: return japanese
        case .korean: return korean.map(Self.withoutSpacedCitySuffix)
        }
    }

    static func withoutSpacedCitySuffix(_ name: String) -> String {
        guard name.hasSuffix(" 시") else { return name }
        let stem = name.dropLast(2)
        return stem.count >= 2 ? String(stem) : name
    }
}

/// The language city names are shown in: GeoNames' own name (English and the fallback), or the
/// Japanese or Korean name the catalogue chose (`CityLocalNames`). Search ranks a city whose shown
/// name matches as it ranks one whose GeoNames name does.
public enum CityNameLanguage: Sendable, CaseIterable {
    case geoNames, japanese, korean
}

/// What a result row needs of a city; far cheaper to read than a whole `City`.
public struct CitySummary: Equatable, Hashable, Sendable {
    public let id: Int
    public let name: String
    public let countryCode: String
    public let population: Int
    public let localNames: CityLocalNames
    public let latitude: Double
    public let longitude: Double
    /// IANA time-zone identifier.
    public let timeZone: String
    public let region: CityRegion?
    public let namesakes: CityNamesakes
    public init(id: Int, name: String, countryCode: String, population: Int, latitude: Double, longitude: Double,
                timeZone: String, localNames: CityLocalNames = .none, region: CityRegion? = nil, namesakes: CityNamesakes = []) {
        self.id = id
        self.name = name
        self.countryCode = countryCode
        self.population = population
        self.localNames = localNames
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
        self.region = region
        self.namesakes = namesakes
    }

    /// The summary of a whole city.
    public init(_ city: City) {
        self.init(id: city.id, name: city.name, countryCode: city.countryCode, population: city.population,
                  latitude: city.latitude, longitude: city.longitude, timeZone: city.timeZone,
                  localNames: city.localNames, region: city.region, namesakes: city.namesakes)
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// A position in a catalogue: catalogues are ordered by population, largest first.
public struct CityRef: Hashable, Sendable, Comparable {
    public let index: Int32
    public init(_ index: Int32) { self.index = index }
    public static func < (l: CityRef, r: CityRef) -> Bool { l.index < r.index }
}

/// The cities matching one query, best first: by the search's ranking classes, most populous first within one.
public struct CityMatches: Equatable, Sendable {
    public let query: String
    private let storage: Storage
    /// The part of the query matched against names: the query, or what comes before a region or
    /// country that narrows it ("springfield" of "springfield, il"). A row's typed name is found with it.
    public private(set) var nameQuery: String
    /// The region or country the query named after the city's name, if any (or that it named none).
    public private(set) var qualifier: CityQualifier?
    /// When nothing matched: the cities the query may have meant, within two edits of a name, larger first.
    public private(set) var suggestions: [CityRef] = []

    /// These matches, found for `nameQuery` narrowed by `qualifier` (`query` stays what was typed).
    public func narrowed(to qualifier: CityQualifier, nameQuery: String) -> CityMatches {
        var copy = self
        copy.qualifier = qualifier
        copy.nameQuery = nameQuery
        return copy
    }

    /// What a list shows: these matches, or, when there are none, the cities the query may have meant.
    public var listed: CityMatches {
        count == 0 && !suggestions.isEmpty ? CityMatches(query: query, refs: suggestions) : self
    }

    /// These (empty) matches with the cities the query may have meant.
    public func suggesting(_ suggestions: [CityRef]) -> CityMatches {
        var copy = self
        copy.suggestions = suggestions
        return copy
    }

    private enum Storage: Sendable {
        case list([CityRef])
        /// The whole catalogue, in order.
        case all(Int)
        case set(CitySet)
        /// Disjoint sets, one after the other.
        case ranked(RankedCities)
    }

    public init(query: String, refs: [CityRef]) {
        self.query = query
        self.nameQuery = query
        self.storage = .list(refs)
    }

    /// Every city of a catalogue of `count` cities, in catalogue order.
    public init(query: String, allOf count: Int) {
        self.query = query
        self.nameQuery = query
        self.storage = .all(max(0, count))
    }

    /// The cities of `set`, in catalogue order.
    public init(query: String, set: CitySet) {
        self.query = query
        self.nameQuery = query
        self.storage = .set(set)
    }

    /// The members of `sets` (which must be disjoint): those of the first in catalogue order, then
    /// those of the second, and so on; empty sets are left out.
    public init(query: String, ranked sets: [CitySet]) {
        self.init(query: query, ranked: RankedCities(sets))
    }

    /// The members of `classes`, class by class, each in catalogue order.
    public init(query: String, ranked classes: RankedCities) {
        self.query = query
        self.nameQuery = query
        self.storage = .ranked(classes)
    }

    public var count: Int {
        switch storage {
        case .list(let refs): return refs.count
        case .all(let count): return count
        case .set(let set): return set.count
        case .ranked(let classes): return classes.count
        }
    }

    /// How many matches each ranking class holds, best first (one class unless ranked).
    public var classCounts: [Int] {
        switch storage {
        case .ranked(let classes): return classes.classCounts
        default: return [count]
        }
    }

    /// The `i`-th match.
    public subscript(_ i: Int) -> CityRef {
        switch storage {
        case .list(let refs): return refs[i]
        case .all(let count):
            // Cannot fire from the screens: rows are drawn for 0..<count of the matches they were given.
            precondition(i >= 0 && i < count, "match \(i) out of range 0..<\(count)")
            return CityRef(Int32(i))
        case .set(let set): return set.member(i)
        case .ranked(let classes): return classes.member(i)
        }
    }

    public var first: CityRef? { count > 0 ? self[0] : nil }

    /// Every match, in order (made on demand: a short query matches most of the catalogue).
    public var refs: [CityRef] { (0..<count).map { self[$0] } }

    public static func == (l: CityMatches, r: CityMatches) -> Bool {
        guard l.query == r.query, l.count == r.count, l.nameQuery == r.nameQuery, l.qualifier == r.qualifier,
              l.suggestions == r.suggestions else { return false }
        switch (l.storage, r.storage) {
        case (.list(let a), .list(let b)): return a == b
        case (.all, .all): return true
        case (.set(let a), .set(let b)): return a == b
        case (.ranked(let a), .ranked(let b)) where a == b: return true
        default: return (0..<l.count).allSatisfy { l[$0] == r[$0] }
        }
    }
}

/// Catalogue positions as a bit set, with the running count of members before each word, so
/// the `i`-th member is found without listing them all.
public struct CitySet: Equatable, Sendable {
    fileprivate let words: [UInt64]
    /// Members in the words before each word.
    private let before: [Int32]
    public let count: Int

    /// Bit `n % 64` of word `n / 64` is position `n`.
    public init(words: [UInt64]) {
        var before: [Int32] = []
        before.reserveCapacity(words.count)
        var total = 0
        for word in words {
            before.append(Int32(total))
            total += word.nonzeroBitCount
        }
        self.words = words
        self.before = before
        self.count = total
    }

    /// The `i`-th member in position order.
    public func member(_ i: Int) -> CityRef {
        // Cannot fire from the screens: members are asked for 0..<count of the set they were given.
        precondition(i >= 0 && i < count, "member \(i) out of range 0..<\(count)")
        let (w, bit) = Self.find(i, words: words, before: before)
        return CityRef(Int32(truncatingIfNeeded: w << 6 | bit))
    }

    /// Where the `i`-th set bit of `words` is: its word, and its bit in that word. `before[w]` is the
    /// number of bits set in the words before word `w`.
    static func find(_ i: Int, words: [UInt64], before: [Int32]) -> (word: Int, bit: Int) {
        // The last word with fewer than i + 1 members before it holds the member.
        var lo = 0, hi = words.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Int(before[mid]) <= i { lo = mid } else { hi = mid - 1 }
        }
        var word = words[lo]
        for _ in 0..<(i - Int(before[lo])) { word &= word &- 1 }
        return (lo, word.trailingZeroBitCount)
    }

    public static func == (l: CitySet, r: CitySet) -> Bool { l.count == r.count && l.words == r.words }
}

/// Disjoint ranking classes of catalogue positions, best first: the non-empty 64-position words of
/// each class one after the other, each with its position in the catalogue and the running count of
/// members before it. A search keeps only the words that hold matches (a few dozen for most
/// queries), gathered from its bitsets in place, instead of a copy of every class's whole bitset.
public struct RankedCities: Equatable, Sendable {
    /// The members before the classes, in this order.
    private let lead: [CityRef]
    private let words: [UInt64]
    /// The catalogue word (position / 64) of each of `words`.
    private let positions: [Int32]
    /// Members in the words before each word.
    private let before: [Int32]
    /// How many members each non-empty class has, best first.
    public let classCounts: [Int]
    public let count: Int

    /// The classes in `rows`, `classes` bitsets of `rowLength` words one after the other (bit
    /// `n % 64` of word `n / 64` of a row is position `n`), read in place at the words `visit` lists
    /// (ascending, each below `rowLength`; the others are taken as empty, so a search lists only the
    /// words where it matched); empty classes are left out.
    ///
    /// `lead` comes before the classes, in its own order: the front of the list the search merged by
    /// what matched and how big each place is (`CityCatalog`); its members must be in no class.
    public init(rows: UnsafeBufferPointer<UInt64>, rowLength: Int, classes: Int, visit: UnsafeBufferPointer<Int32>,
                lead: [CityRef] = []) {
        precondition(rowLength >= 0 && classes >= 0 && rows.count >= rowLength * classes, "rows shorter than their classes")
        // Cannot fire from the catalogue: it visits the words of its own rows.
        for w in visit { precondition(w >= 0 && Int(w) < rowLength, "word \(w) outside rows of \(rowLength)") }
        let most = visit.count * classes
        var counts: [Int] = []
        var total = 0, filled = 0
        var positions = [Int32](), before = [Int32]()
        let words = [UInt64](unsafeUninitializedCapacity: most) { words, wordsCount in
            positions = [Int32](unsafeUninitializedCapacity: most) { positions, positionsCount in
                before = [Int32](unsafeUninitializedCapacity: most) { before, beforeCount in
                    (total, filled) = Self.gather(rows, rowLength: rowLength, classes: classes, visit: visit,
                                                  into: (words, positions, before), counts: &counts)
                    beforeCount = filled
                }
                positionsCount = filled
            }
            wordsCount = filled
        }
        self.words = words
        self.positions = positions
        self.before = before
        self.lead = lead
        self.classCounts = lead.isEmpty ? counts : [lead.count] + counts
        self.count = lead.count + total
    }

    /// Copies the words `visit` lists of each class that hold members, with their catalogue word and
    /// the members before them; appends each non-empty class's count. Returns the members and the
    /// words kept. Written without a branch per word (each slot is written, and kept when its word
    /// holds members), with its running counts in locals: a short query's classes hold most words.
    private static func gather(_ rows: UnsafeBufferPointer<UInt64>, rowLength: Int, classes: Int, visit: UnsafeBufferPointer<Int32>,
                               into out: (words: UnsafeMutableBufferPointer<UInt64>, positions: UnsafeMutableBufferPointer<Int32>,
                                          before: UnsafeMutableBufferPointer<Int32>),
                               counts: inout [Int]) -> (total: Int, filled: Int) {
        guard let source = rows.baseAddress, let words = out.words.baseAddress, let positions = out.positions.baseAddress,
              let before = out.before.baseAddress, let visited = visit.baseAddress else { return (0, 0) }
        var total = 0, filled = 0
        for c in 0..<classes {
            let row = source + c * rowLength, start = total
            for i in 0..<visit.count {
                let w = visited[i]
                let word = row[Int(w)]
                guard word != 0 else { continue }
                words[filled] = word
                positions[filled] = w
                before[filled] = Int32(truncatingIfNeeded: total)
                total &+= word.nonzeroBitCount
                filled &+= 1
            }
            if total > start { counts.append(total - start) }
        }
        return (total, filled)
    }

    /// Every word of `rows` visited.
    public init(rows: UnsafeBufferPointer<UInt64>, rowLength: Int, classes: Int) {
        let all = (0..<Int32(truncatingIfNeeded: rowLength)).map { $0 }
        self = all.withUnsafeBufferPointer { RankedCities(rows: rows, rowLength: rowLength, classes: classes, visit: $0) }
    }

    /// The members of `sets` (which must be disjoint), set by set; empty sets are left out.
    public init(_ sets: [CitySet]) {
        let length = sets.map(\.words.count).max() ?? 0
        var rows = [UInt64](repeating: 0, count: length * sets.count)
        for (c, set) in sets.enumerated() {
            for (w, word) in set.words.enumerated() { rows[c * length + w] = word }
        }
        self = rows.withUnsafeBufferPointer { RankedCities(rows: $0, rowLength: length, classes: sets.count) }
    }

    /// The `i`-th member: the first class's in position order, then the second's, and so on.
    public func member(_ i: Int) -> CityRef {
        // Cannot fire from the screens: members are asked for 0..<count of the matches they were given.
        precondition(i >= 0 && i < count, "member \(i) out of range 0..<\(count)")
        if i < lead.count { return lead[i] }
        let (w, bit) = CitySet.find(i - lead.count, words: words, before: before)
        return CityRef(Int32(truncatingIfNeeded: Int(positions[w]) << 6 | bit))
    }

    public static func == (l: RankedCities, r: RankedCities) -> Bool {
        l.count == r.count && l.classCounts == r.classCounts && l.lead == r.lead && l.positions == r.positions && l.words == r.words
    }
}

/// One city of a result list, with the alternate name that the query matched when it was not the canonical name.
public struct CitySearchHit: Equatable, Sendable {
    public let city: CitySummary
    public let matchedName: String?
    public init(city: CitySummary, matchedName: String?) {
        self.city = city
        self.matchedName = matchedName
    }
}
