import Foundation
import Synchronization
import NimbusDomain
import NimbusResources

/// Why a city catalogue could not be opened.
public enum CityCatalogError: Error, Equatable, Sendable {
    /// No file at this path.
    case missing(String)
    /// The file exists but could not be read.
    case unreadable(String)
    /// The file is not a valid catalogue (bad magic, version, counts or section bounds).
    case corrupt(String)
    /// The shipped catalogue is in no data folder: the line says where it was looked for.
    case notInstalled(String)

    /// A one-line explanation for the terminal.
    public var message: String {
        switch self {
        case .missing(let path):
            return "city catalogue not found: \(path) (build it with scripts/build-resources.py)"
        case .unreadable(let path):
            return "city catalogue could not be read: \(path)"
        case .corrupt(let reason):
            return "city catalogue is damaged: \(reason) (rebuild it with scripts/build-resources.py)"
        case .notInstalled(let line):
            return line
        }
    }
}

/// The city catalogue, memory-mapped (read, when small: `MappedFiles`) and read in place ("NMBC" format, see `scripts/build-resources.py`).
///
/// Opening validates the header and section bounds only, so it costs microseconds whatever the size;
/// every later read is bounds-checked, so a damaged file yields wrong answers at worst, never a crash.
/// Search marks the postings of each query word's prefix range in a bitset over cities and
/// intersects the bitsets; the matches are then split into ranking classes (`search(_:in:)`) with
/// the cities' own names (`OwnNameIndex`), each class walked in index order, which is population order.
public final class CityCatalog: CityRepository, @unchecked Sendable { // unchecked: `base` points into `data`; `lock` guards the search buffers
    /// The bundled catalogue's file name.
    public static let bundledName = "cities15000"
    /// The optional large tier's file name, looked up under `$XDG_DATA_HOME/nimbus/`.
    public static let largeTierFileName = "cities1000.bin"

    public let cityCount: Int
    /// Where the catalogue was loaded from.
    public let url: URL

    // Immutable after init; `base` points into `data`, which is never mutated and lives as long as `self`.
    private let data: Data
    /// Names the file if it is truncated while mapped (SIGBUS); nil when it was read into memory.
    private let mapping: MappedFiles.Registration?
    private let base: UnsafeRawPointer
    private let layout: CatalogLayout

    private let lock = NSLock()
    /// Catalogue position by GeoNames id, made by the first `ref(forID:)`.
    private let idIndex = Mutex<[UInt32: Int32]?>(nil)
    private let scratch: SearchScratch
    private let nameMatcher = CityNameMatcher()
    /// The own names of every city, per language, made by the first search in that language or `prepareRanking`.
    private let ownNames = Mutex<[CityNameLanguage: OwnNameIndex]>([:])
    /// Every `tokenSampleStride`-th token's first eight bytes as a number (`key(_:)`), made by the
    /// first search: a binary search for a prefix narrows to a run of that many tokens in this small
    /// array before it reads the token table, whose reads, scattered over megabytes, miss the cache.
    private let tokenSample = Mutex<[UInt64]?>(nil)
    static let tokenSampleStride = 64
    private let regionTable = Mutex<[Region?]>([])
    /// Summaries already decoded, by catalogue index: a list's visible rows are asked for again on
    /// every keystroke (the largest cities lead most queries), and decoding one reads its names,
    /// region and zone. Emptied when it reaches `keptSummaries` (a few hundred kilobytes).
    private let summaries = Mutex<[Int32: CitySummary]>([:])
    static let keptSummaries = 4096
    private let qualifierIndex = Mutex<CityQualifiers?>(nil)
    private let signatureTable = Mutex<(signatures: [UInt64], lengths: [UInt8])?>(nil)

    /// Opens the catalogue at `url`.
    public init(contentsOf url: URL) throws {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw CityCatalogError.missing(path) }
        let loaded: (data: Data, registration: MappedFiles.Registration?)
        do {
            loaded = try MappedFiles.load(url)
        } catch {
            throw CityCatalogError.unreadable(path)
        }
        let data = loaded.data
        // Checked before taking a pointer: files this small may be stored inline, without stable storage.
        guard data.count >= CatalogLayout.headerSize else {
            throw CityCatalogError.corrupt("file of \(data.count) bytes is shorter than the header")
        }
        let base = data.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) }
        self.layout = try CatalogLayout(base: base, size: data.count)
        self.data = data
        self.mapping = loaded.registration
        self.base = base
        self.url = url
        self.cityCount = layout.cityCount
        self.scratch = SearchScratch(cityCount: layout.cityCount)
    }

    /// The catalogue shipped with the app (GeoNames cities with 15,000 or more inhabitants).
    public static func bundled() throws -> CityCatalog {
        guard let url = NimbusResources.url(forResource: bundledName, withExtension: "bin") else {
            throw CityCatalogError.notInstalled(NimbusResources.notFound(bundledName, withExtension: "bin"))
        }
        return try CityCatalog(contentsOf: url)
    }

    /// Where the optional large tier lives: `$XDG_DATA_HOME/nimbus/cities1000.bin`, by default under `~/.local/share`.
    public static func largeTierURL(environment: [String: String]) -> URL {
        NimbusDirectories(environment: environment).data.appendingPathComponent(largeTierFileName, isDirectory: false)
    }

    // MARK: - CityRepository

    /// The matches, best first, in these classes, each in population order:
    /// 1. an own name (GeoNames', or the one shown in `language`) is the query, when the query ends
    ///    in a space or punctuation (its last word is whole: "san " for San, Mali, first; "san" for
    ///    Santiago, which is more populous, as a prefix);
    /// 2. an own name starts with the query as words: its words up to the query's last are the
    ///    query's, and its next starts with the last (is it, when the query ends a word);
    /// 3. an own name has every query word as a word of its own ("york" in New York City);
    /// 4. an own name has a word starting with every query word;
    /// 5. some name, or reading, has every query word as a word;
    /// 6. the rest: every query word starts a word of some name.
    ///
    /// A query can end with a region or a country that narrows it (`CityQualifiers`): after a comma
    /// ("springfield, il", "파리, 프랑스") it must name one, or (unless the whole query, comma and all,
    /// is a city's name) nothing is listed and the matches say so; without one ("paris france", "london ontario", "portland me") its last words are taken as
    /// one when they name a place with a city of the rest's name, unless the whole query is the
    /// name of the first city it finds as it is.
    public func search(_ query: String, in language: CityNameLanguage) -> CityMatches {
        lock.lock()
        defer { lock.unlock() }
        if let comma = query.lastIndex(of: ","), query.count > 1 {
            let name = String(query[..<comma]), after = String(query[query.index(after: comma)...])
            if let narrowed = qualified(name: name + " ", qualifier: after, query: query, in: language) { return narrowed }
        }
        guard query.count == 1 else {
            let plain = matches(search(uncached: query, in: language), query)
            return narrowedByLastWords(query, plain: plain, in: language) ?? plain
        }
        let key = SearchScratch.OneCharacter(language: language, query: query)
        if let kept = scratch.oneCharacter[key] { return CityMatches(query: query, ranked: kept) }
        let answer = search(uncached: query, in: language)
        if case .ranked(let ranked) = answer {
            if scratch.oneCharacter.count >= SearchScratch.oneCharacterLimit { scratch.oneCharacter.removeAll() }
            scratch.oneCharacter[key] = ranked
        }
        return matches(answer, query)
    }

    /// `name` narrowed to the places `qualifier` names (the text after a comma): nil when the
    /// qualifier has no letters (a comma typed at the end), no matches when it names nothing. `lock` held.
    private func qualified(name: String, qualifier: String, query: String, in language: CityNameLanguage) -> CityMatches? {
        let words = NameFolding.tokens(qualifier).joined(separator: " ")
        guard !words.isEmpty else { return nil }
        guard let places = qualifiers.places(named: words) else {
            // A name may hold a comma itself ("Caire, el", Catalan for Cairo): a city with the whole
            // query as a name is listed as the plain search lists it; else the qualifier named nothing.
            let plain = matches(search(uncached: query, in: language), query)
            if let first = plain.first, hasWholeName(Int(first.index)) { return plain }
            let trimmed = qualifier.trimmingCharacters(in: .whitespaces)
            return CityMatches(query: query, refs: []).narrowed(to: .unknown(trimmed), nameQuery: name)
        }
        let (found, within) = search(name, in: language, withinFirstOf: places, query: query)
        return found.narrowed(to: describe(within, named: qualifier.trimmingCharacters(in: .whitespaces), holding: found), nameQuery: name)
    }

    /// The plain matches narrowed by the query's last words, when they name a place (`CityQualifiers`)
    /// where a city of the other words' name is: when the plain search found nothing ("paris france",
    /// "london ontario"), or when the first city found there has the other words as a whole name and
    /// the first plain match is not named by the whole query ("san jose ca" is San Jose, California,
    /// not San José del Cabo; "port of spain" stays Port of Spain, and "santa cr", typed on the way
    /// to "santa cruz", stays what it starts). `lock` held, the plain search just done (its folded
    /// words in `scratch.query`).
    private func narrowedByLastWords(_ query: String, plain: CityMatches, in language: CityNameLanguage) -> CityMatches? {
        let tokens = (0..<scratch.query.count).map { String(decoding: scratch.query.token($0), as: UTF8.self) }
        guard tokens.count >= 2 else { return nil }
        let plainIsNamed = plain.first.map { hasWholeName(Int($0.index)) } ?? false
        if plainIsNamed { return nil }
        for k in stride(from: min(qualifiers.longestName, tokens.count - 1), through: 1, by: -1) {
            guard let places = qualifiers.places(named: tokens.suffix(k).joined(separator: " ")) else { continue }
            let name = tokens.dropLast(k).joined(separator: " ") + " "
            let (found, within) = search(name, in: language, withinFirstOf: places, query: query)
            // `scratch.query` is the other words now.
            guard let first = found.first, plain.count == 0 || hasWholeName(Int(first.index)) else { continue }
            return found.narrowed(to: describe(within, named: tokens.suffix(k).joined(separator: " "), holding: found), nameQuery: name)
        }
        return nil
    }

    /// `name` searched in the regions among `places`, then, when none is there, in the countries
    /// ("méxico" is the State of Mexico before the country; "ca" California before Canada), with the
    /// places it was searched in. `lock` held.
    private func search(_ name: String, in language: CityNameLanguage, withinFirstOf places: [CityQualifiers.Place],
                        query: String) -> (CityMatches, [CityQualifiers.Place]) {
        let regions = places.filter { if case .region = $0 { true } else { false } }
        let countries = places.filter { if case .country = $0 { true } else { false } }
        var found = CityMatches(query: query, refs: [])
        for group in [regions, countries] where !group.isEmpty {
            found = matches(search(uncached: name, in: language, within: placeSet(group)), query)
            if found.count > 0 { return (found, group) }
        }
        return (found, places)
    }

    /// The qualifier for `places`: those of them that hold one of the first matches found (the
    /// Illinois of "il", not Israel), or all of them when none was found.
    private func describe(_ places: [CityQualifiers.Place], named: String, holding found: CityMatches) -> CityQualifier {
        var places = places
        if found.count > 0, places.count > 1 {
            let firsts = (0..<min(found.count, 100)).map { Int(found[$0].index) }
            let held = places.filter { place in
                firsts.contains { city in
                    switch place {
                    case .region(let index): regionIndex(at: city) == index
                    case .country(let code): countryCode(at: city) == code
                    }
                }
            }
            if !held.isEmpty { places = held }
        }
        var regionPlaces: [CityRegionPlace] = [], countries: [String] = []
        for place in places {
            switch place {
            case .region(let index) where index < layout.regionCount:
                let entry = region(number: index)
                regionPlaces.append(CityRegionPlace(region: entry.region, countryCode: entry.country))
            case .region: break
            case .country(let code): countries.append(code)
            }
        }
        return .places(named: named, regions: regionPlaces, countries: countries)
    }

    // MARK: - Did you mean

    /// When nothing matches `query`: the cities it may have meant, at most `limit`, nearest first
    /// and then larger first. Each of its words that starts no word of any name is replaced by the
    /// names' words within two edits of it (Damerau–Levenshtein, so a transposition is one edit;
    /// within one for words of three or four letters, none for shorter ones), and the words are
    /// searched again as whole words ("pariss" → Paris, "seuol" → Seoul, "new yrok" → New York City).
    public func suggestions(for query: String, in language: CityNameLanguage, limit: Int) -> [CityRef] {
        lock.lock()
        defer { lock.unlock() }
        var folded = FoldedTokens()
        NameFolding.fold(query, into: &folded)
        let words = (0..<folded.count).map { Array(folded.token($0)) }
        guard !words.isEmpty, words.count <= 4, limit > 0 else { return [] }
        // Each word's choices: itself when some name's word starts with it, else its near tokens.
        var choices: [[(token: [UInt8], edits: Int)]] = []
        for word in words {
            if startsSomeToken(word) {
                choices.append([(word, 0)])
                continue
            }
            let near = nearTokens(word)
            if near.isEmpty { return [] }
            choices.append(near)
        }
        guard choices.contains(where: { $0.contains { $0.edits > 0 } }) else { return [] }
        // Every combination, fewest edits first, at most a few dozen searches.
        var combinations: [(tokens: [[UInt8]], edits: Int)] = [([], 0)]
        for options in choices {
            combinations = combinations.flatMap { partial in options.map { (partial.tokens + [$0.token], partial.edits + $0.edits) } }
            combinations.sort { $0.edits < $1.edits }
            combinations = Array(combinations.prefix(Self.suggestionSearches))
        }
        // Fewest edits first; then a city with the corrected words as a whole name ("munchenn" is
        // Munich, «München», before Ottobrunn bei München), then one whose own name (GeoNames', or
        // the one shown) holds them, then one that has them among its other names ("pariss" is Paris,
        // before New Orleans, «Orleans Parish»); then the larger.
        var found: [(edits: Int, match: Int, city: CityRef)] = []
        for combination in combinations {
            let text = combination.tokens.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ") + " "
            guard case .ranked(let ranked) = search(uncached: text, in: language) else { continue }
            let corrected = zip(combination.tokens, words).filter { $0 != $1 }.map { String(decoding: $0.0, as: UTF8.self) }
            // A word of four letters or fewer, or two edits away, is a guess too many ways: corrected,
            // it must be a word of the city's own name ("chamonix" is not Ibirama's "Chamonyx").
            let loose = combination.edits > 1 || zip(combination.tokens, words).contains { $0 != $1 && NearWords.scalars($1).count <= 4 }
            for i in 0..<min(ranked.count, limit) {
                let city = ranked.member(i)
                let own = ownWords(Int(city.index), language)
                let other = !corrected.allSatisfy(own.contains)
                if other && loose { continue }
                // `scratch.query` is this combination's words.
                found.append((combination.edits, hasWholeName(Int(city.index)) ? 0 : other ? 2 : 1, city))
            }
        }
        var seen = Set<CityRef>()
        return found.sorted { ($0.edits, $0.match, $0.city) < ($1.edits, $1.match, $1.city) }
            .filter { seen.insert($0.city).inserted }
            .prefix(limit).map(\.city)
    }

    /// The folded words of the city's own names: GeoNames' and the one shown in `language`.
    private func ownWords(_ index: Int, _ language: CityNameLanguage) -> Set<String> {
        let shown = name(at: index, number: localNameNumber(index, language))
        return Set(([canonicalName(at: index)] + (shown.map { [$0] } ?? [])).flatMap(NameFolding.tokens))
    }

    /// How many corrected queries a suggestion searches at most.
    static let suggestionSearches = 8
    /// How many near tokens a word keeps.
    static let nearTokensKept = 8

    /// Whether some token starts with `word` (folded). `lock` held.
    private func startsSomeToken(_ word: [UInt8]) -> Bool {
        word.withUnsafeBytes { prefix in
            let lower = lowerBound(prefix, exact: false, in: tokenWindow(prefix))
            return lower < layout.tokenCount && comparePrefix(lower, prefix, exact: false) == 0
        }
    }

    /// The tokens within `NearWords.limit(for:)` edits of `word`, fewest edits and then largest city first,
    /// at most `nearTokensKept`. Every token is looked at, by its length and its letters' signature
    /// first (a few milliseconds over the table, no allocation); the distance is worked out only for
    /// those that pass. `lock` held.
    private func nearTokens(_ word: [UInt8]) -> [(token: [UInt8], edits: Int)] {
        let target = NearWords.scalars(word)
        let allowed = NearWords.limit(for: target)
        guard allowed > 0 else { return [] }
        let signature = NearWords.signature(target)
        let table = tokenSignatures
        var near: [(index: Int, edits: Int, city: Int)] = []
        var distance = NearWords.Distance()
        let lowest = max(0, target.count - allowed), highest = target.count + allowed
        table.signatures.withUnsafeBufferPointer { signatures in
            table.lengths.withUnsafeBufferPointer { lengths in
                for index in 0..<min(signatures.count, layout.tokenCount) {
                    let length = Int(lengths[index])
                    guard length >= lowest, length <= highest,
                          (signatures[index] ^ signature).nonzeroBitCount <= 2 * allowed else { continue }
                    let range = tokenRange(index)
                    guard let edits = distance.between(target, UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count),
                                                       atMost: allowed) else { continue }
                    let postings = postingRange(index..<(index + 1))
                    guard !postings.isEmpty else { continue }
                    near.append((index, edits, Int(u32(layout.postings + postings.lowerBound * 4))))
                }
            }
        }
        return near.sorted { ($0.edits, $0.city) < ($1.edits, $1.city) }.prefix(Self.nearTokensKept).map { entry in
            let range = tokenRange(entry.index)
            return (Array(UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)), entry.edits)
        }
    }

    /// Each token's `NearWords.signature` and its length in scalars, made by the first suggestion.
    private var tokenSignatures: (signatures: [UInt64], lengths: [UInt8]) {
        signatureTable.withLock { made in
            if let made { return made }
            var signatures = [UInt64](), lengths = [UInt8]()
            signatures.reserveCapacity(layout.tokenCount)
            lengths.reserveCapacity(layout.tokenCount)
            for index in 0..<layout.tokenCount {
                let range = tokenRange(index)
                let scalars = NearWords.scalars(UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
                signatures.append(NearWords.signature(scalars))
                lengths.append(UInt8(clamping: scalars.count))
            }
            made = (signatures, lengths)
            return (signatures, lengths)
        }
    }

    /// Makes the table suggestions read, which the first query that matches nothing would otherwise; off the main queue.
    public func prepareSuggestions() {
        _ = tokenSignatures
    }

    /// The regions and countries queries can name, made on first use (a few milliseconds).
    private var qualifiers: CityQualifiers {
        qualifierIndex.withLock { index in
            if let index { return index }
            var countries = Set<String>()
            for i in 0..<cityCount { countries.insert(countryCode(at: i)) }
            let made = CityQualifiers(regions: regions, countries: countries)
            index = made
            return made
        }
    }

    /// Folds the names of the regions and countries, which the first qualified query would otherwise do; off the main queue.
    public func prepareQualifiers() {
        _ = qualifiers
    }

    /// The cities in any of `places`, as a bitset over the catalogue; each place's kept. `lock` held.
    private func placeSet(_ places: [CityQualifiers.Place]) -> [UInt64] {
        var union = [UInt64](repeating: 0, count: (cityCount + 63) / 64)
        for place in places {
            let set: [UInt64]
            if let kept = scratch.places[place] {
                set = kept
            } else {
                var made = [UInt64](repeating: 0, count: union.count)
                for i in 0..<cityCount {
                    let member: Bool
                    switch place {
                    case .region(let index): member = regionIndex(at: i) == index
                    case .country(let code): member = countryCode(at: i) == code
                    }
                    if member { made[i >> 6] |= 1 << UInt64(i & 63) }
                }
                if scratch.places.count >= SearchScratch.placeLimit { scratch.places.removeAll() }
                scratch.places[place] = made
                set = made
            }
            for w in 0..<union.count { union[w] |= set[w] }
        }
        return union
    }

    /// The search itself; `lock` held. With `within`, only the cities in that bitset match.
    private func search(uncached query: String, in language: CityNameLanguage, within: [UInt64]? = nil) -> Answer {
        NameFolding.fold(query, into: &scratch.query)
        if scratch.query.count == 0 { return .all }
        if scratch.tokenStarts.count < scratch.query.count {
            scratch.tokenStarts = [Int](repeating: 0, count: scratch.query.count)
        }
        // Not before: the empty query of the first frame must not wait for the own names.
        let own = ownNameIndex(language)
        let found = scratch.query.bytes.withUnsafeBufferPointer { queryBytes -> Bool in
            scratch.first.withUnsafeMutableBufferPointer { first -> Bool in
                scratch.other.withUnsafeMutableBufferPointer { other -> Bool in
                    for index in 0..<scratch.query.count {
                        let range = scratch.query.range(index)
                        let prefix = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(queryBytes)[range])
                        let target = index == 0 ? first : other
                        guard markKept(prefix: prefix, into: target, token: index) else { return false }
                        if index > 0 {
                            var any: UInt64 = 0
                            for word in 0..<first.count {
                                first[word] &= other[word]
                                any |= first[word]
                            }
                            if any == 0 { return false }
                        }
                    }
                    if let within {
                        var any: UInt64 = 0
                        for word in 0..<min(first.count, within.count) {
                            first[word] &= within[word]
                            any |= first[word]
                        }
                        return any != 0
                    }
                    return true
                }
            }
        }
        guard found else { return .none }
        return .ranked(rankingClasses(own: own, wholeWords: Self.endsWord(query)))
    }

    /// What `search(uncached:in:)` found: every city (a query with no letters), none, or these classes.
    private enum Answer { case all, none, ranked(RankedCities) }

    private func matches(_ answer: Answer, _ query: String) -> CityMatches {
        switch answer {
        case .all: return CityMatches(query: query, allOf: cityCount)
        case .none: return CityMatches(query: query, refs: [])
        case .ranked(let ranked): return CityMatches(query: query, ranked: ranked)
        }
    }

    /// Whether `query` ends in a space or punctuation: its last word is whole.
    static func endsWord(_ query: String) -> Bool {
        query.unicodeScalars.last.map(NameFolding.isSeparator) ?? false
    }

    /// Folds the cities' own names in `language` for ranking, which the first search in that
    /// language would otherwise do (tens of milliseconds); run it off the main queue.
    public func prepareRanking(for language: CityNameLanguage) {
        _ = ownNameIndex(language)
    }

    private func ownNameIndex(_ language: CityNameLanguage) -> OwnNameIndex {
        ownNames.withLock { made in
            if let index = made[language] { return index }
            let index = OwnNameIndex(cityCount: cityCount) { city in
                let local = name(at: city, number: localNameNumber(city, language))
                let shown: String?
                switch language {
                case .geoNames: shown = nil
                case .japanese: shown = CityLocalNames(japanese: local, korean: nil).shown(in: language)
                case .korean: shown = CityLocalNames(japanese: nil, korean: local).shown(in: language)
                }
                return [canonicalName(at: city)] + (shown.map { [$0] } ?? [])
            }
            made[language] = index
            return index
        }
    }

    /// The matches in `scratch.first`, folded query in `scratch.query`, split into the classes of
    /// `search(_:in:)`, best first, the empty ones left out. With `wholeWords`, the query's last word is whole too.
    private func rankingClasses(own: OwnNameIndex, wholeWords: Bool) -> RankedCities {
        let query = scratch.query
        scratch.joined.removeAll(keepingCapacity: true)
        for t in 0..<query.count {
            if t > 0 { scratch.joined.append(OwnNameIndex.wordSeparator) }
            scratch.joined += query.token(t)
        }
        let words = scratch.first.count
        return query.bytes.withUnsafeBytes { queryBytes in
            scratch.rank.withUnsafeMutableBufferPointer { rank in
                clear(rank)
                // Rows of `rank`: 0 exact, 1 starts, 2 own words whole, 3 own words started,
                // 4 any word whole; 5, 6 and 7 the last three for one query word, before they are intersected.
                func row(_ r: Int) -> UnsafeMutableBufferPointer<UInt64> {
                    UnsafeMutableBufferPointer(rebasing: rank[(r * words)..<((r + 1) * words)])
                }
                scratch.joined.withUnsafeBytes { joined in
                    own.markStarts(joined, whole: wholeWords, exact: row(0), starts: row(1))
                }
                for t in 0..<query.count {
                    let token = UnsafeRawBufferPointer(rebasing: queryBytes[query.range(t)])
                    let first = t == 0
                    let whole = first ? row(2) : row(5), started = first ? row(3) : row(6), any = first ? row(4) : row(7)
                    own.markWords(token, whole: whole, prefixed: started)
                    markExact(token, from: scratch.tokenStarts[t], into: any)
                    let lastWhole = wholeWords && t == query.count - 1
                    if first {
                        if lastWhole { for w in 0..<words { rank[3 * words + w] = rank[2 * words + w] } }
                        continue
                    }
                    for w in 0..<words {
                        rank[2 * words + w] &= rank[5 * words + w]
                        rank[3 * words + w] &= lastWhole ? rank[5 * words + w] : rank[6 * words + w]
                        rank[4 * words + w] &= rank[7 * words + w]
                        rank[5 * words + w] = 0
                        rank[6 * words + w] = 0
                        rank[7 * words + w] = 0
                    }
                }
                // Each word into its class, in place: row c becomes class c there, row by row (row 6,
                // empty now, holds what the classes before took), a word without matches zero in
                // every row; then the words that hold matches are listed, without a branch per word
                // (a short query matches in most words, a long one in few).
                return scratch.first.withUnsafeBufferPointer { matches in
                    scratch.matched.withUnsafeMutableBufferPointer { matched in
                        guard let all = matches.baseAddress, let rows = rank.baseAddress else {
                            return RankedCities(rows: UnsafeBufferPointer(rank), rowLength: words, classes: 6, visit: UnsafeBufferPointer(matched))
                        }
                        let taken = rows + 6 * words
                        for c in 0..<5 {
                            let row = rows + c * words
                            if c == 0 && !wholeWords {
                                row.update(repeating: 0, count: words)
                                continue
                            }
                            for w in 0..<words {
                                let member = row[w] & all[w] & ~taken[w]
                                row[w] = member
                                taken[w] |= member
                            }
                        }
                        let rest = rows + 5 * words
                        var listed = 0
                        for w in 0..<words {
                            rest[w] = all[w] & ~taken[w]
                            matched[listed] = Int32(truncatingIfNeeded: w)
                            listed &+= all[w] == 0 ? 0 : 1
                        }
                        let visit = UnsafeBufferPointer(rebasing: matched[0..<listed])
                        let exactOwn = scratch.joined.withUnsafeBytes { own.cities(named: $0) }
                        let lead = leadByWholeName(rows: rank, rowLength: words, visit: visit, exactOwn: exactOwn)
                        // Row 7, the whole names that passed nothing, goes before class 4: rows 4 and 5 move
                        // down one (row 6, `taken`, is done with).
                        var wholeNames: UInt64 = 0
                        for w in visit { wholeNames |= rows[7 * words + Int(w)] }
                        if wholeNames != 0 {
                            for w in visit {
                                let i = Int(w)
                                rows[6 * words + i] = rows[5 * words + i]
                                rows[5 * words + i] = rows[4 * words + i]
                                rows[4 * words + i] = rows[7 * words + i]
                            }
                        }
                        // The classes' words that hold matches, read where they are.
                        return RankedCities(rows: UnsafeBufferPointer(rank), rowLength: words, classes: wholeNames != 0 ? 7 : 6,
                                            visit: visit, lead: lead)
                    }
                }
            }
        }
    }
    /// How many times as big a place whose alternate name the query is, whole, must be to come
    /// before one matched by its own name: one whose own name is the query (Calcutta, South Africa,
    /// for Kolkata's "calcutta"), one whose own name starts with it (Roman for Rome's "roma"), one
    /// with it as a word of its own name (Marano di Napoli for Naples' "napoli").
    static let leadOverOwnName = 8, leadOverOwnStart = 3, leadOverOwnWord = 1
    /// The members of classes 0 to 3 that a whole name may pass.
    static let leadWindow = 64
    /// The largest members of classes 2 to 4 whose names are read for a whole name.
    static let leadCandidates = 16

    /// Places whose alternate name the query is, whole ("roma" for Rome, "wien" for Vienna), among
    /// the largest of classes 2 to 4 (own words, or words of any names, match): each comes before
    /// the places listed before it by their own names (classes 0 to 3) that it is `leadOverOwnName`,
    /// `leadOverOwnStart` or `leadOverOwnWord` times as big as, when it passes every one of them
    /// that follows (it goes after the last it does not pass), and one of class 4 in any case
    /// before the rest of class 4, whose words are only spread over its names. What comes before the last place such
    /// a name passes is returned, in order (the lead; its members are cleared from their classes);
    /// the others are moved from class 4 into row 7, which the caller lists before it. Classes 0
    /// to 3 are read from their first `leadWindow` members. `exactOwn`: the cities with an own name
    /// that is the query. `lock` held; `rows` as `rankingClasses` left them, row 7 empty.
    private func leadByWholeName(rows: UnsafeMutableBufferPointer<UInt64>, rowLength words: Int,
                                 visit: UnsafeBufferPointer<Int32>, exactOwn: [Int]) -> [CityRef] {
        guard !visit.isEmpty, let base = rows.baseAddress else { return [] }
        func members(ofClass c: Int, upTo limit: Int, _ body: (Int) -> Bool) {
            var seen = 0
            let row = base + c * words
            for w in visit {
                var word = row[Int(w)]
                while word != 0 {
                    let city = Int(w) << 6 | word.trailingZeroBitCount
                    word &= word &- 1
                    if seen == limit || !body(city) { return }
                    seen += 1
                }
            }
        }
        // A whole name is every query word as a word: only the cities listed under each word's own
        // token can have one (none when some word is no token at all).
        var exactPostings: [Range<Int>] = []
        for t in 0..<scratch.query.count {
            let lower = scratch.tokenStarts[t]
            let token = scratch.query.range(t)
            let listed = scratch.query.bytes.withUnsafeBytes { bytes in
                lower < layout.tokenCount && comparePrefix(lower, UnsafeRawBufferPointer(rebasing: bytes[token]), exact: true) == 0
            }
            guard listed else { return [] }
            exactPostings.append(postingRange(lower..<(lower + 1)))
        }
        func underEveryWord(_ city: Int) -> Bool {
            exactPostings.allSatisfy { postingsList($0, contains: city) }
        }
        // The largest places matched otherwise than by the start of an own name: classes 2 to 4 together.
        var whole: [Int] = []
        var read = 0
        scan: for w in visit {
            let i = Int(w)
            var word = base[2 * words + i] | base[3 * words + i] | base[4 * words + i]
            while word != 0 {
                let city = i << 6 | word.trailingZeroBitCount
                word &= word &- 1
                if underEveryWord(city) && hasWholeName(city) { whole.append(city) }
                read += 1
                if read == Self.leadCandidates { break scan }
            }
        }
        guard !whole.isEmpty else { return [] }
        // Each member of classes 0 to 3 with the population a whole name must reach to pass it: the
        // first `leadWindow`, and past them the population that passes what is left of the classes
        // (each class's first member past the window is its largest there).
        var ahead: [(city: Int, passedBy: Int)] = []
        var beyond = 0
        for c in 0..<4 {
            members(ofClass: c, upTo: Self.leadWindow + 1) { city in
                let times = exactOwn.contains(city) ? Self.leadOverOwnName : c < 2 ? Self.leadOverOwnStart : Self.leadOverOwnWord
                let passedBy = times * max(1, population(at: city))
                guard ahead.count < Self.leadWindow else {
                    beyond = max(beyond, passedBy)
                    return false
                }
                ahead.append((city, passedBy))
                return true
            }
        }
        var passing: [(city: Int, before: Int)] = []
        for city in whole {
            let people = population(at: city)
            // A place it does not pass past the window would be listed after it.
            guard people >= beyond else { continue }
            // It goes after the last place listed before it now that it does not pass (a place of
            // class 2 or 3 is in `ahead` itself): before every one it passes, after every other.
            let listed = ahead.firstIndex { $0.city == city } ?? ahead.count
            let kept = ahead[..<listed].lastIndex { people < $0.passedBy }.map { $0 + 1 } ?? 0
            if kept < listed { passing.append((city, kept)) }
        }
        var lead: [CityRef] = []
        if let last = passing.map(\.before).max() {
            for i in 0...last {
                // Passing places in population order, as class 4 gave them, each before the first it passes.
                for p in passing where p.before == i { lead.append(CityRef(Int32(p.city))) }
                if i < last, !passing.contains(where: { $0.city == ahead[i].city }) { lead.append(CityRef(Int32(ahead[i].city))) }
            }
        }
        for member in lead {
            let w = Int(member.index) >> 6, bit = UInt64(1) << UInt64(member.index & 63)
            for c in 0..<5 { base[c * words + w] &= ~bit }
        }
        for city in whole where !passing.contains(where: { $0.city == city }) {
            let w = city >> 6, bit = UInt64(1) << UInt64(city & 63)
            guard base[4 * words + w] & bit != 0 else { continue }
            base[4 * words + w] &= ~bit
            base[7 * words + w] |= bit
        }
        return lead
    }

    /// Whether some name of the city at `index` folds to exactly the query's words (`scratch.query`). `lock` held.
    private func hasWholeName(_ index: Int) -> Bool {
        nameMatcher.hasName(equalTo: scratch.query, city: index, names: namesBlob(at: index))
    }

    private func population(at index: Int) -> Int {
        Int(u32(layout.cities + index * layout.recordSize + 12))
    }

    public func city(_ ref: CityRef) -> City {
        let index = Int(ref.index)
        // Cannot fire: refs are made only by this catalogue's own searches and `ref(forID:)`, within its count.
        precondition(index >= 0 && index < cityCount, "CityRef \(index) out of range 0..<\(cityCount)")
        let record = layout.cities + index * layout.recordSize
        let country = [byte(record + 16), byte(record + 17)]
        let names = self.names(at: index)
        return City(
            id: Int(u32(record)),
            name: names.first ?? "",
            countryCode: String(decoding: country, as: UTF8.self),
            latitude: Double(Int32(bitPattern: u32(record + 4))) / 100_000,
            longitude: Double(Int32(bitPattern: u32(record + 8))) / 100_000,
            population: Int(u32(record + 12)),
            timeZone: timeZone(Int(u16(record + 18))),
            alternateNames: Array(names.dropFirst()),
            localNames: CityLocalNames(japanese: localName(in: names, record + 32), korean: localName(in: names, record + 34)),
            region: region(ofRecord: record), namesakes: namesakes(ofRecord: record))
    }

    public func summary(_ ref: CityRef) -> CitySummary {
        if let made = summaries.withLock({ $0[ref.index] }) { return made }
        let made = decodeSummary(ref)
        summaries.withLock { kept in
            if kept.count >= Self.keptSummaries { kept.removeAll(keepingCapacity: true) }
            kept[ref.index] = made
        }
        return made
    }

    /// How many summaries are kept now (tests).
    var keptSummaryCount: Int { summaries.withLock { $0.count } }

    private func decodeSummary(_ ref: CityRef) -> CitySummary {
        let index = Int(ref.index)
        // Cannot fire: refs are made only by this catalogue's own searches and `ref(forID:)`, within its count.
        precondition(index >= 0 && index < cityCount, "CityRef \(index) out of range 0..<\(cityCount)")
        let record = layout.cities + index * layout.recordSize
        return CitySummary(
            id: Int(u32(record)),
            name: canonicalName(at: index),
            countryCode: String(decoding: [byte(record + 16), byte(record + 17)], as: UTF8.self),
            population: Int(u32(record + 12)),
            latitude: Double(Int32(bitPattern: u32(record + 4))) / 100_000,
            longitude: Double(Int32(bitPattern: u32(record + 8))) / 100_000,
            timeZone: timeZone(Int(u16(record + 18))),
            localNames: CityLocalNames(japanese: name(at: index, number: Int(u16(record + 32))),
                                       korean: name(at: index, number: Int(u16(record + 34)))),
            region: region(ofRecord: record), namesakes: namesakes(ofRecord: record))
    }

    // MARK: - Regions

    /// A region of the catalogue's table, with the country it is in.
    struct Region: Sendable {
        let country: String
        let region: CityRegion
    }

    /// The region table (version 3), every entry decoded (for the qualifiers, made off the main
    /// queue): a few thousand entries, a few milliseconds.
    var regions: [Region] {
        (0..<layout.regionCount).map(region(number:))
    }

    /// Region `number` of the table, decoded on first use: the first frame's rows read a few of
    /// the thousands, and only those are decoded.
    func region(number: Int) -> Region {
        regionTable.withLock { table in
            if table.isEmpty { table = [Region?](repeating: nil, count: layout.regionCount) }
            if let made = table[number] { return made }
            let entry = layout.regionOffsets + number * 4
            let start = Int(u32(entry)), end = Int(u32(entry + 4))
            let range = layout.clamped(start: start, length: end - start, in: layout.regionBlob, size: layout.regionBlobSize)
            let fields = UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
                .split(separator: CityNameMatcher.nameSeparator, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            // A damaged entry is a region with no names rather than a crash; it matches nothing.
            let field = { (i: Int) -> String in i < fields.count ? fields[i] : "" }
            let made = Region(country: field(0), region: CityRegion(
                code: field(2), english: field(3), korean: field(4).isEmpty ? nil : field(4),
                japanese: field(5).isEmpty ? nil : field(5)))
            table[number] = made
            return made
        }
    }

    /// The region index of the city at catalogue index `index`, nil when it is in none (or the catalogue has no regions).
    func regionIndex(at index: Int) -> Int? {
        guard layout.version >= 3 else { return nil }
        let value = Int(u16(layout.cities + index * layout.recordSize + 36))
        return value < layout.regionCount ? value : nil
    }

    private func region(ofRecord record: Int) -> CityRegion? {
        guard layout.version >= 3 else { return nil }
        let value = Int(u16(record + 36))
        guard value < layout.regionCount else { return nil }
        let entry = region(number: value)
        return entry.region.english.isEmpty ? nil : entry.region
    }

    private func namesakes(ofRecord record: Int) -> CityNamesakes {
        guard layout.version >= 3 else { return [] }
        return CityNamesakes(rawValue: byte(record + 38) & 0x3F)
    }

    /// The name whose number (canonical = 0) is stored at `field`: nil for 0, or a number past the names.
    private func localName(in names: [String], _ field: Int) -> String? {
        let number = Int(u16(field))
        return number > 0 && number < names.count && !names[number].isEmpty ? names[number] : nil
    }

    /// Name `number` (canonical = 0) of the city at `index`, read in place; nil for 0 or past its names.
    private func name(at index: Int, number: Int) -> String? {
        guard number > 0 else { return nil }
        let blob = namesBlob(at: index)
        var names = CityNameMatcher.NameRanges(blob: blob, from: 0)
        var range: Range<Int>?
        for _ in 0...number {
            range = names.next()
            if range == nil { return nil }
        }
        guard let range, !range.isEmpty else { return nil }
        return String(decoding: blob[range], as: UTF8.self)
    }

    public func matchedName(_ ref: CityRef, query: String, in language: CityNameLanguage) -> String? {
        let index = Int(ref.index)
        guard index >= 0 && index < cityCount else { return nil }
        return nameMatcher.matchedName(query, city: index, names: namesBlob(at: index),
                                       shownName: localNameNumber(index, language))
    }

    /// The number (canonical = 0) of the name city `index` is shown by in `language`; 0 for none.
    private func localNameNumber(_ index: Int, _ language: CityNameLanguage) -> Int {
        let record = layout.cities + index * layout.recordSize
        switch language {
        case .geoNames: return 0
        case .japanese: return Int(u16(record + 32))
        case .korean: return Int(u16(record + 34))
        }
    }

    /// Folds the names of the most populous cities, whose rows come first for short queries, so
    /// the first keystrokes don't pay for it. A few milliseconds; run it off the main queue.
    public func foldNamesOfLargestCities() {
        for index in 0..<min(cityCount, CityNameMatcher.keptCities) {
            nameMatcher.foldNames(ofCity: index, names: namesBlob(at: index))
        }
    }

    // MARK: - Lookups beyond the protocol

    /// The ISO country code of the city at catalogue index `index`.
    public func countryCode(at index: Int) -> String {
        // Cannot fire: callers pass indices from the spatial index built over this catalogue's 0..<cityCount.
        precondition(index >= 0 && index < cityCount, "city \(index) out of range 0..<\(cityCount)")
        let record = layout.cities + index * layout.recordSize
        return String(decoding: [byte(record + 16), byte(record + 17)], as: UTF8.self)
    }

    /// The position of the city at catalogue index `index`.
    public func position(at index: Int) -> GeoPoint {
        // Cannot fire: callers pass indices from the spatial index built over this catalogue's 0..<cityCount.
        precondition(index >= 0 && index < cityCount, "city \(index) out of range 0..<\(cityCount)")
        let record = layout.cities + index * layout.recordSize
        let lat = Double(Int32(bitPattern: u32(record + 4))) / 100_000
        let lon = Double(Int32(bitPattern: u32(record + 8))) / 100_000
        return GeoPoint(latitude: min(90, max(-90, lat)), longitude: min(180, max(-180, lon)))!
    }

    /// The most populous city whose IANA time zone is `zone` (the catalogue is in population order).
    public func largestCity(inTimeZone zone: String) -> CityRef? {
        guard let wanted = (0..<layout.timeZoneCount).first(where: { timeZone($0) == zone }) else { return nil }
        for index in 0..<cityCount where Int(u16(layout.cities + index * layout.recordSize + 18)) == wanted {
            return CityRef(Int32(index))
        }
        return nil
    }

    /// The position of the city with this GeoNames id, if the catalogue has it.
    ///
    /// The Liked tab asks on every frame (its map thumbnail), so the ids are indexed on first use
    /// (~1 ms at 34k cities) rather than scanned each time.
    public func ref(forID id: Int) -> CityRef? {
        guard let wanted = UInt32(exactly: id) else { return nil }
        return idIndex.withLock { idIndex in
            if idIndex == nil {
                var index = [UInt32: Int32](minimumCapacity: cityCount)
                for i in 0..<cityCount {
                    let id = u32(layout.cities + i * layout.recordSize)
                    if index[id] == nil { index[id] = Int32(i) } // the first, as a scan would find
                }
                idIndex = index
            }
            return idIndex?[wanted].map(CityRef.init)
        }
    }

    /// The UTF-8 names of the city at `index`, canonical first, separated by U+001F, in place.
    private func namesBlob(at index: Int) -> UnsafeRawBufferPointer {
        let record = layout.cities + index * layout.recordSize
        let range = layout.clamped(start: Int(u32(record + 20)), length: Int(u32(record + 24)),
                                   in: layout.names, size: layout.namesSize)
        return UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// The canonical name alone: the names blob up to its first separator.
    func canonicalName(at index: Int) -> String {
        let bytes = namesBlob(at: index)
        let end = CityNameMatcher.nameEnd(in: bytes, from: 0)
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// All names of the city at `index`: the canonical name first, then its alternates.
    func names(at index: Int) -> [String] {
        namesBlob(at: index).split(separator: CityNameMatcher.nameSeparator, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the token table lists `token` (folded UTF-8) for the city at `index`.
    func indexContains(token: [UInt8], cityIndex index: Int) -> Bool {
        token.withUnsafeBytes { prefix in
            let lower = lowerBound(prefix, exact: true, in: tokenWindow(prefix))
            guard lower < layout.tokenCount, comparePrefix(lower, prefix, exact: true) == 0 else { return false }
            return postingsList(postingRange(lower..<(lower + 1)), contains: index)
        }
    }

    /// Whether the postings in `postings` (city indices, ascending) hold `city`: a binary search.
    private func postingsList(_ postings: Range<Int>, contains city: Int) -> Bool {
        var lo = postings.lowerBound, hi = postings.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            let value = Int(u32(layout.postings + mid * 4))
            if value == city { return true }
            if value < city { lo = mid + 1 } else { hi = mid }
        }
        return false
    }

    // MARK: - Search internals

    private func clear(_ words: UnsafeMutableBufferPointer<UInt64>) {
        guard let start = words.baseAddress else { return }
        start.update(repeating: 0, count: words.count)
    }

    /// Marks every city with a token starting with `prefix`; false when there is none. `lower`: the
    /// first token not below `prefix`; `end`: the end of its `tokenWindow`, where those starting with it end at the latest.
    private func mark(prefix: UnsafeRawBufferPointer, from lower: Int, to end: Int, into words: UnsafeMutableBufferPointer<UInt64>) -> Bool {
        var lo = lower, hi = max(lower, end)
        while lo < hi {
            let mid = (lo + hi) / 2
            if comparePrefix(mid, prefix, exact: false) > 0 { hi = mid } else { lo = mid + 1 }
        }
        let postings = postingRange(lower..<lo)
        guard !postings.isEmpty else { return false }
        let count = UInt32(truncatingIfNeeded: cityCount)
        var pointer = base + layout.postings + postings.lowerBound * 4
        for _ in postings {
            let city = UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self))
            if city < count { words[Int(city >> 6)] |= 1 &<< UInt64(city & 63) }
            pointer += 4
        }
        return true
    }

    /// `mark(prefix:into:)` into a cleared `words`, the marks of a one-character prefix kept: it
    /// starts tens of thousands of tokens ("a"), and every query's last word is one character for a
    /// keystroke ("new y", "los a"), the dearest to mark. Where the query's word `token` starts in
    /// the token table is kept for `markExact` (the word's own token, if any, is the first of its
    /// prefix's: one binary search for both). `lock` held.
    private func markKept(prefix: UnsafeRawBufferPointer, into words: UnsafeMutableBufferPointer<UInt64>, token: Int) -> Bool {
        let oneCharacter = Self.isOneCharacter(prefix)
        // One character is at most four bytes, none zero: its key is its bytes.
        let key = PrefixKey.of(prefix)
        if oneCharacter, let kept = scratch.oneCharacterMarks[key] {
            scratch.tokenStarts[token] = kept.lower
            // Empty: no token starts with it.
            guard kept.marks.count == words.count else { return false }
            kept.marks.withUnsafeBufferPointer { words.baseAddress!.update(from: $0.baseAddress!, count: words.count) }
            return true
        }
        let window = tokenWindow(prefix)
        let lower = lowerBound(prefix, exact: false, in: window)
        scratch.tokenStarts[token] = lower
        clear(words)
        let found = mark(prefix: prefix, from: lower, to: window.upperBound, into: words)
        if oneCharacter {
            if scratch.oneCharacterMarks.count >= SearchScratch.oneCharacterLimit { scratch.oneCharacterMarks.removeAll() }
            scratch.oneCharacterMarks[key] = (found ? Array(words) : [], lower)
        }
        return found
    }

    /// Whether `bytes` are one UTF-8 character (by its first byte's length; folded bytes are valid UTF-8).
    static func isOneCharacter(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let lead = bytes.first else { return false }
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        return bytes.count == length
    }

    /// Marks every city with the token `token` (not merely starting with it). `lower`: the first
    /// token not below it (the same in prefix order as in byte order: what starts with it is not below it).
    private func markExact(_ token: UnsafeRawBufferPointer, from lower: Int, into words: UnsafeMutableBufferPointer<UInt64>) {
        guard lower < layout.tokenCount, comparePrefix(lower, token, exact: true) == 0 else { return }
        let count = UInt32(truncatingIfNeeded: cityCount)
        let postings = postingRange(lower..<(lower + 1))
        var pointer = base + layout.postings + postings.lowerBound * 4
        for _ in postings {
            let city = UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self))
            if city < count { words[Int(city >> 6)] |= 1 &<< UInt64(city & 63) }
            pointer += 4
        }
    }

    /// The first token that is not below `prefix` (with `exact`, ordinary byte order; otherwise tokens
    /// starting with `prefix` compare equal to it), searched in its `tokenWindow`.
    private func lowerBound(_ prefix: UnsafeRawBufferPointer, exact: Bool, in window: Range<Int>) -> Int {
        var lo = window.lowerBound, hi = window.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            if comparePrefix(mid, prefix, exact: exact) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The tokens a search for `prefix` need look at, from the sampled keys: a token whose key is
    /// below the prefix's is below it, one whose key is above every key starting with it is after
    /// every token starting with it (keys compare as their bytes do; folded bytes hold no zero). The
    /// first token not below `prefix`, and the first after those starting with it, are in it or at its end.
    private func tokenWindow(_ prefix: UnsafeRawBufferPointer) -> Range<Int> {
        let count = layout.tokenCount
        guard let keys = PrefixKey.range(of: prefix) else { return 0..<count }
        let sample = tokenSample.withLock { made in
            if let made { return made }
            let sample = stride(from: 0, to: count, by: Self.tokenSampleStride).map { index in
                let token = tokenRange(index)
                return PrefixKey.of(UnsafeRawBufferPointer(start: base + token.lowerBound, count: token.count))
            }
            made = sample
            return sample
        }
        return sample.withUnsafeBufferPointer { sample in
            let first = PrefixKey.firstIndex(in: sample) { $0 >= keys.lowerBound }
            let past = PrefixKey.firstIndex(in: sample) { $0 > keys.upperBound }
            // Sampled token `first - 1` is below the prefix; sampled token `past` is after every token starting with it.
            let start = first == 0 ? 0 : (first - 1) * Self.tokenSampleStride + 1
            let end = past == sample.count ? count : past * Self.tokenSampleStride
            return min(start, end)..<end
        }
    }

    /// Compares token `index` with `prefix`: 0 when the token starts with it (or, with `exact`, equals it).
    private func comparePrefix(_ index: Int, _ prefix: UnsafeRawBufferPointer, exact: Bool) -> Int {
        let token = tokenRange(index)
        let common = min(token.count, prefix.count)
        if common > 0, let prefixStart = prefix.baseAddress {
            let order = memcmp(base + token.lowerBound, prefixStart, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        if token.count < prefix.count { return -1 }
        if exact && token.count > prefix.count { return 1 }
        return 0
    }

    /// Absolute byte range of token `index`; empty when the table is damaged.
    private func tokenRange(_ index: Int) -> Range<Int> {
        let entry = layout.tokenOffsets + index * 4
        let start = Int(u32(entry)), end = Int(u32(entry + 4))
        guard start <= end, end <= layout.tokenBlobSize else { return layout.tokenBlob..<layout.tokenBlob }
        return (layout.tokenBlob + start)..<(layout.tokenBlob + end)
    }

    /// Indices into the postings array for the tokens in `tokens`; empty when the table is damaged.
    private func postingRange(_ tokens: Range<Int>) -> Range<Int> {
        guard !tokens.isEmpty else { return 0..<0 }
        let start = Int(u32(layout.postingStarts + tokens.lowerBound * 4))
        let end = Int(u32(layout.postingStarts + tokens.upperBound * 4))
        guard start <= end, end <= layout.postingCount else { return 0..<0 }
        return start..<end
    }

    private func timeZone(_ index: Int) -> String {
        guard index < layout.timeZoneCount else { return "" }
        let entry = layout.timeZoneOffsets + index * 4
        let range = layout.clamped(start: Int(u32(entry)), length: Int(u32(entry + 4)) - Int(u32(entry)),
                                   in: layout.timeZoneBlob, size: layout.timeZoneBlobSize)
        return String(decoding: UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count),
                      as: UTF8.self)
    }

    private func byte(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }
    private func u16(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
    private func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

/// Reusable per-catalogue search buffers; only touched while holding the catalogue's lock.
private final class SearchScratch {
    var query = FoldedTokens()
    var first: [UInt64]
    var other: [UInt64]
    /// The query's folded words joined by a space.
    var joined: [UInt8] = []
    /// Eight bitsets over the cities, one after the other, for the ranking classes.
    var rank: [UInt64]
    /// The words of `first` that hold matches, ascending, in its first slots.
    var matched: [Int32]
    /// The ranked answers to one-character queries, by language and query. One character matches
    /// thousands of cities, so it costs the most to rank, and every search starts with one.
    var oneCharacter: [OneCharacter: RankedCities] = [:]
    struct OneCharacter: Hashable { let language: CityNameLanguage; let query: String }
    /// Far more than the letters of an alphabet; when full, it starts again.
    static let oneCharacterLimit = 512
    /// The cities with a token starting with a one-character word (by its `PrefixKey`), as `first` holds
    /// them; empty when none has. Any language: tokens are every name's. At most `oneCharacterLimit`.
    var oneCharacterMarks: [UInt64: (marks: [UInt64], lower: Int)] = [:]
    /// The first token not below each query word, as its marks found it.
    var tokenStarts: [Int] = []
    /// The cities of each region or country a query named, as bitsets; at most `placeLimit`.
    var places: [CityQualifiers.Place: [UInt64]] = [:]
    static let placeLimit = 64

    init(cityCount: Int) {
        let words = (cityCount + 63) / 64
        first = [UInt64](repeating: 0, count: words)
        other = [UInt64](repeating: 0, count: words)
        rank = [UInt64](repeating: 0, count: 8 * words)
        matched = [Int32](repeating: 0, count: words)
    }
}
