import Foundation
import Synchronization
import GRDB
import NimbusDomain
import NimbusResources
import OpenCombineShim

/// The bundled film catalogue (`Resources/movies.sqlite`, Wikidata), opened read-only.
///
/// Matching is FTS5 over title, cast and directors: every word of the query must appear, the last one
/// as a prefix (so results follow typing; a prefix of one or two letters matches titles and directors
/// only, see `matchExpression`). Words that name a person must be one person's: `tom hanks` lists the
/// films that credit Tom Hanks and those titled with the words, not King Kong with Colin Hanks and Tom
/// Hobbs in its cast (see `credited`). Ranking: title matches first (the title equal to the query,
/// then starting with it, then holding its words; a leading "The", "A" or "An" aside, so `matrix` is
/// The Matrix), then films whose directors match, then the rest (cast matches); within each tier the
/// best known first (the catalogue's `renown_order`, made at build time by `scripts/movies.py`: review
/// count, weighted for age, Metacritic score and Oscars). When the
/// query is a person's whole name (`tom hanks`), the films they directed and acted in form one tier,
/// best known first. SQLite's bm25 was 100-400 ms per
/// keystroke for one- and two-letter prefixes (it reads every match's position lists), so relevance
/// is where the words matched instead. A query's ranked ids are kept, so the
/// next page is one lookup of 20 rows.
public final class MovieCatalogue: MovieRepository, Sendable {
    public static let pageSize = 20

    public let source = MovieSource.catalogue
    /// Number of films, counted on first use: `count(*)` reads the whole table (~7 ms cold), which
    /// start-up should not wait for.
    public var movieCount: Int {
        let database = self.database
        return counted.withLock { counted in
            if let counted { return counted }
            let n = (try? database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM movie") ?? 0 }) ?? 0
            counted = n
            return n
        }
    }
    private let counted = Mutex<Int?>(nil)
    private let database: DatabaseQueue
    private struct Memo {
        /// Popularity and folded title and director words by film id, read on first use (see `warmUp`).
        var rankTable: RankTable?
        /// The last few queries' ranked ids, newest last.
        var ranked: [(query: String, ids: [Int64])] = []
        /// Ranked ids of every one-character query (the first keystroke, with the most matches), made by `warmUp`.
        var firstKeystroke: [String: [Int64]] = [:]
        /// Renown orders, ranked, of the two- and three-letter queries with the most matches, made by
        /// `warmUp` (orders rather than ids: half the memory; `rankTable.idByRank` maps them back).
        var heavyPrefixes: [String: [Int32]] = [:]
        /// A background build of `rankTable` is under way.
        var building = false
        /// The last few filtered queries' ids, newest last (keyed by match expression and filter).
        var filtered: [(key: String, ids: [Int64])] = []
        /// Every film in a sort's order.
        var sorted: [MovieSort: [Int64]] = [:]
    }
    private let memo = Mutex(Memo())

    /// The catalogue bundled with the app.
    public static func bundled() throws -> MovieCatalogue {
        guard let url = NimbusResources.url(forResource: "movies", withExtension: "sqlite") else {
            throw MovieError.storage
        }
        return try MovieCatalogue(contentsOf: url)
    }

    public init(contentsOf url: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "movies"
        do {
            database = try DatabaseQueue(path: url.path, configuration: configuration)
            // A file that is not the catalogue fails here, before the terminal is taken.
            _ = try database.read { db in try Int.fetchOne(db, sql: "SELECT id FROM movie LIMIT 1") }
        } catch {
            throw MovieError.storage
        }
    }

    /// What ranking needs of a film, kept in memory: where it stands by renown, and its title and
    /// directors as folded words (lowercased, accents removed, split like FTS5's unicode61 tokenizer),
    /// UTF-8, joined by single spaces.
    struct RankEntry {
        /// Where the film stands by renown in the catalogue (`renown_order`: unique, 0 the best known).
        let order: Int32
        let title: [UInt8]
        /// Bytes of a leading article ("the ", "a ", "an ") in `title`, else 0.
        let article: Int
        let directors: [UInt8]
    }

    /// Every film's `RankEntry`, and the film of each renown order (orders are unique: 0..<count).
    struct RankTable {
        let entries: [Int64: RankEntry]
        let idByRank: [Int64]
    }

    static let rankColumns = "id, renown_order, title_key, directors_key"


    /// Reads the ranking table and ranks every one-letter and one-digit query now rather than on
    /// the first keystrokes (those match thousands of films). Safe on any queue.
    public func warmUp() {
        _ = try? rankEntries()
        for ch in "abcdefghijklmnopqrstuvwxyz0123456789" {
            let query = String(ch)
            guard let key = Self.matchExpression(query), let (ids, _) = try? rank(query) else { continue }
            memo.withLock { $0.firstKeystroke[key] = ids }
        }
        warmUpHeavyPrefixes()
    }

    /// Matches above which `warmUp` ranks a query of two to four letters ahead of time. In the bundled
    /// catalogue a few dozen (th, the, joh, john, mar…) have more, and they were the slowest keystrokes
    /// left (2–4 ms each, against 0.5 ms for most).
    static let heavyPrefixMatches = 2500

    /// Ranks the queries of two to four letters whose FTS5 match count is above `heavyPrefixMatches`.
    /// Two letters look in titles and directors only (see `matchExpression`); three letters look in the
    /// cast too, so a three-letter query is counted only when its two letters match well over that
    /// many everywhere. Counting is cheap (FTS5 alone, about 0.1 ms); the ranking is what a keystroke
    /// would otherwise pay.
    private func warmUpHeavyPrefixes() {
        guard let table = readyRankTable() else { return }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        func count(_ match: String?) -> Int {
            guard let match else { return 0 }
            return (try? database.read { db in
                try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM movie_fts WHERE movie_fts MATCH ?"),
                                 arguments: [match])
            } ?? 0) ?? 0
        }
        var heavy: [String] = []
        for a in letters {
            for b in letters {
                let two = String([a, b])
                // Everywhere first: titles and directors alone match no more than that.
                let everywhere = count("\"\(two)\"*")
                guard everywhere > Self.heavyPrefixMatches else { continue }
                if count(Self.matchExpression(two)) > Self.heavyPrefixMatches { heavy.append(two) }
                guard everywhere > 4000 else { continue }
                let three = letters.map { two + String($0) }.filter { count(Self.matchExpression($0)) > Self.heavyPrefixMatches }
                // And four letters where three are heavy (john, mich, char…).
                heavy += three + three.flatMap { t in
                    letters.map { t + String($0) }.filter { count(Self.matchExpression($0)) > Self.heavyPrefixMatches }
                }
            }
        }
        for query in heavy {
            guard let key = Self.matchExpression(query), let (ids, exact) = try? rank(query), exact else { continue }
            let orders = ids.compactMap { table.entries[$0]?.order }
            guard orders.count == ids.count else { continue }
            memo.withLock { $0.heavyPrefixes[key] = orders }
        }
    }

    /// Whether the ranking table is built (tests).
    var hasRankTable: Bool { readyRankTable() != nil }

    /// The match expressions `warmUp` ranked ahead as heavy prefixes (tests).
    var heavyPrefixKeys: Set<String> { memo.withLock { Set($0.heavyPrefixes.keys) } }

    /// The ranking table once it is built, else nil (never waits for a build).
    private func readyRankTable() -> RankTable? {
        memo.withLock { $0.rankTable }
    }

    /// The ranking table, built now if no one has built it yet. The build reads the catalogue a chunk at
    /// a time and folds words outside the lock and outside the database, then swaps the table in, so a
    /// search meanwhile waits for neither (see `rank`, which does without the table until it is there).
    private func rankEntries() throws -> RankTable {
        if let table = readyRankTable() { return table }
        let built = try buildRankTable()
        return memo.withLock { memo in
            memo.building = false
            if let table = memo.rankTable { return table }  // another thread finished first
            memo.rankTable = built
            return built
        }
    }

    /// Builds the ranking table on a background queue unless it is built or being built.
    private func buildRankTableInBackground() {
        let start = memo.withLock { memo in
            guard memo.rankTable == nil, !memo.building else { return false }
            memo.building = true
            return true
        }
        guard start else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            if (try? rankEntries()) == nil { memo.withLock { $0.building = false } }
        }
    }

    /// Most matches ranked from their own entries before the ranking table is built (see `rank`).
    static let partialRankLimit = 1000

    /// Films read per database access while building the ranking table (about 1 ms each).
    static let rankTableChunk = 1000

    /// Runs between two chunks of a ranking table build (tests hold a build here).
    var rankTableChunkHook: (@Sendable () -> Void)? {
        get { chunkHook.withLock { $0 } }
        set { chunkHook.withLock { $0 = newValue } }
    }
    private let chunkHook = Mutex<(@Sendable () -> Void)?>(nil)

    private func buildRankTable() throws -> RankTable {
        var table: [Int64: RankEntry] = [:]
        table.reserveCapacity(movieCount)
        var seen = [Bool](repeating: false, count: movieCount)
        var idByRank = [Int64](repeating: 0, count: movieCount)
        var after = Int64.min
        while true {
            let rows = try database.read { db in
                try Row.fetchAll(db, sql: "SELECT \(Self.rankColumns) FROM movie WHERE id > ? ORDER BY id LIMIT ?",
                                 arguments: [after, Self.rankTableChunk])
            }
            for row in rows {
                let id: Int64 = row[0], order: Int64 = row[1]
                guard order >= 0, order < Int64(seen.count), !seen[Int(order)] else { throw MovieError.storage }
                seen[Int(order)] = true
                table[id] = Self.entry(row)
                idByRank[Int(order)] = id
                after = id
            }
            if rows.count < Self.rankTableChunk { break }
            rankTableChunkHook?()
        }
        // Every order 0..<count once: a catalogue with gaps is not this app's.
        guard seen.allSatisfy({ $0 }) else { throw MovieError.storage }
        return RankTable(entries: table, idByRank: idByRank)
    }

    private static func entry(_ row: Row) -> RankEntry {
        // Folded at build time (`title_key`, `directors_key`: the same words `words` makes, which a test
        // checks film by film), so neither start-up nor a first keystroke folds thousands of titles.
        let title = Array((row[2] as String? ?? "").utf8)
        var article = 0
        for word in ["the ", "a ", "an "] where title.count > word.utf8.count && title.starts(with: word.utf8) {
            article = word.utf8.count
        }
        return RankEntry(order: Int32(clamping: row[1] as Int64), title: title, article: article,
                         directors: Array((row[3] as String? ?? "").utf8))
    }

    /// Folded words of `text`: lowercased, accents removed, split at anything not a letter or digit.
    static func words(_ text: String) -> [Substring] {
        let folded = text.unicodeScalars.allSatisfy({ $0.isASCII })
            ? text.lowercased()
            : text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return folded.split(whereSeparator: { ch in
            !ch.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        })
    }

    static func packed(_ words: [Substring]) -> [UInt8] { Array(words.joined(separator: " ").utf8) }

    /// Whether the packed words hold every query word, the last one as a prefix.
    static func holds(_ packed: [UInt8], _ query: [[UInt8]]) -> Bool {
        guard let last = query.last else { return false }
        for word in query.dropLast() where !contains(packed, word, prefix: false) { return false }
        return contains(packed, last, prefix: true)
    }

    /// Whether a word of `packed` is `word` (or starts with it).
    static func contains(_ packed: [UInt8], _ word: [UInt8], prefix: Bool) -> Bool {
        let n = packed.count, m = word.count
        guard m > 0, m <= n else { return false }
        var start = 0
        while start + m <= n {
            var end = start
            while end < n && packed[end] != 0x20 { end += 1 }
            if end - start == m || (prefix && end - start > m) {
                var same = true
                for k in 0..<m where packed[start + k] != word[k] { same = false; break }
                if same { return true }
            }
            start = end + 1
        }
        return false
    }

    /// Whether the packed title, from byte `from`, begins with the packed query (its last word as a
    /// prefix), and equals it.
    static func begins(_ packed: [UInt8], _ query: [UInt8], from: Int = 0) -> (begins: Bool, equal: Bool) {
        guard !query.isEmpty, packed.count - from >= query.count else { return (false, false) }
        for k in 0..<query.count where packed[from + k] != query[k] { return (false, false) }
        return (true, packed.count - from == query.count)
    }

    // MARK: MovieRepository

    /// Genre, year range and sort all apply here, in SQL.
    public let filterSupport = MovieFilterSupport.all

    public func search(query: String, page: Int, pageSize: Int, filter: MovieFilter) -> AnyPublisher<MoviesPage, MovieError> {
        Deferred { [self] in
            Future { promise in
                promise(Result { try self.page(query: query, page: page, filter: filter, size: pageSize) }.mapError(Self.movieError))
            }
        }.eraseToAnyPublisher()
    }

    public func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError> {
        Deferred { [self] in
            Future { promise in promise(Result { try self.movie(id) }.mapError(Self.movieError)) }
        }.eraseToAnyPublisher()
    }

    // MARK: Synchronous access

    /// One page (1-based) of the films matching `query`, narrowed and ordered by `filter`.
    public func page(query: String, page: Int, filter: MovieFilter = .none, size: Int = pageSize) throws -> MoviesPage {
        let ids = try filteredIDs(query, filter)
        // A screenful at most 200 rows a page (a page's rows are one query).
        let size = min(200, max(1, size))
        let totalPages = max(1, (ids.count + size - 1) / size)
        let start = max(0, (page - 1) * size)
        guard start < ids.count else {
            return MoviesPage(query: query, page: page, totalPages: totalPages, totalResults: ids.count, movies: [])
        }
        let slice = Array(ids[start..<min(ids.count, start + size)])
        let movies = try summaries(slice)
        return MoviesPage(query: query, page: page, totalPages: totalPages, totalResults: ids.count, movies: movies)
    }

    /// Every film matching `query`, best first.
    public func rankedIDs(_ query: String) throws -> [Int64] {
        try ranked(query).ids
    }

    /// `rankedIDs`, and whether the order is final (a provisional one is not kept, here or by filters).
    private func ranked(_ query: String) throws -> (ids: [Int64], exact: Bool) {
        // Matching and ranking are case-insensitive and ignore punctuation and spacing ("The ", "the"),
        // so the memo is keyed by the match expression of the lowercased query.
        let lowered = query.lowercased()
        if query.allSatisfy(\.isWhitespace) { return (try popularIDs(), true) }
        guard let key = Self.matchExpression(lowered) else { return ([], true) }
        let hit = memo.withLock { memo in
            memo.firstKeystroke[key] ?? memo.ranked.first(where: { $0.query == key })?.ids
                ?? memo.rankTable.flatMap { table in memo.heavyPrefixes[key].map { $0.map { table.idByRank[Int($0)] } } }
        }
        if let hit { return (hit, true) }
        let (ids, exact) = try rank(lowered)
        // A provisional order (made before the ranking table was there) is not kept: the next ask ranks again.
        guard exact else { return (ids, false) }
        memo.withLock { memo in
            memo.ranked.append((key, ids))
            if memo.ranked.count > 8 { memo.ranked.removeFirst() }
        }
        return (ids, true)
    }

    /// Every film matching `query` that passes `filter`'s genre and years, in its sort's order: by
    /// relevance the search's own order; by year (newest first) or rating (critics' average, then
    /// Metacritic, best first) the catalogue's order for that sort, ties by renown. The film sets and
    /// orders come from SQL (an index on the year; the genre list matched whole) and are kept.
    public func filteredIDs(_ query: String, _ filter: MovieFilter) throws -> [Int64] {
        if filter.isEmpty { return try rankedIDs(query) }
        let key = (Self.matchExpression(query.lowercased()) ?? "") + "\u{1F}" + filter.description
        if let hit = memo.withLock({ $0.filtered.first(where: { $0.key == key })?.ids }) { return hit }
        let (matching, exact) = try ranked(query)
        let allowed = filter.narrows ? try narrowed(genre: filter.genre, years: filter.years) : nil
        var ids: [Int64]
        if filter.sort == .relevance {
            ids = allowed.map { allowed in matching.filter { allowed.contains($0) } } ?? matching
        } else {
            let wanted = query.allSatisfy(\.isWhitespace) ? nil : Set(matching)
            ids = try sortedIDs(filter.sort).filter { (wanted?.contains($0) ?? true) && (allowed?.contains($0) ?? true) }
        }
        // Kept only when made from a final order (a provisional relevance order would outlive the table).
        guard exact else { return ids }
        memo.withLock { memo in
            memo.filtered.append((key, ids))
            if memo.filtered.count > 8 { memo.filtered.removeFirst() }
        }
        return ids
    }

    /// The films of `genre` (whole name, as the catalogue lists it) released within `years`.
    private func narrowed(genre: String?, years: ClosedRange<Int>?) throws -> Set<Int64> {
        var conditions: [String] = [], arguments: [any DatabaseValueConvertible] = []
        if let genre {
            // One whole name of the list: a name holding the separator would match two neighbours.
            guard !genre.isEmpty, !genre.contains(",") else { return [] }
            conditions.append("(', ' || genres || ', ') LIKE ? ESCAPE '\\'")
            let escaped = genre.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_")
            arguments.append("%, " + escaped + ", %")
        }
        if let years {
            conditions.append("year BETWEEN ? AND ?")
            arguments += [years.lowerBound, years.upperBound]
        }
        let sql = "SELECT id FROM movie" + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        return Set(try database.read { db in try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) })
    }

    /// Reviews a rating counts as before its own reviews: a film's score is its rating (critics'
    /// average, else Metacritic / 10) averaged with the catalogue's mean rating as if that were
    /// `ratingPrior` more reviews (IMDb's weighted rating), so 10/10 from three reviews does not head
    /// the list. Films with neither rating come last.
    static let ratingPrior = 20
    static let ratingScore = """
        ((coalesce(reviews, 0) * coalesce(tomato_rating, metacritic / 10.0) \
        + \(ratingPrior) * (SELECT avg(tomato_rating) FROM movie)) / (coalesce(reviews, 0) + \(ratingPrior)))
        """

    /// Every film in `sort`'s order (newest first, or best rated first; unknown years and ratings last).
    private func sortedIDs(_ sort: MovieSort) throws -> [Int64] {
        if let ids = memo.withLock({ $0.sorted[sort] }) { return ids }
        let order: String
        switch sort {
        case .relevance: return try popularIDs()
        case .year: order = "year IS NULL, year DESC, renown_order"
        case .rating: order = "\(Self.ratingScore) IS NULL, \(Self.ratingScore) DESC, renown_order"
        }
        let ids = try database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM movie ORDER BY " + order) }
        memo.withLock { $0.sorted[sort] = ids }
        return ids
    }

    /// Every film, the most popular (most reviewed) first: what an empty query lists.
    private func popularIDs() throws -> [Int64] {
        if let ids = memo.withLock({ $0.firstKeystroke[""] }) { return ids }
        let ids = try database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM movie ORDER BY popularity") }
        memo.withLock { $0.firstKeystroke[""] = ids }
        return ids
    }

    /// The films matching `query`, best first, and whether that order is final. Before the ranking table
    /// is built (`warmUp` builds it in the background), a search reads its matches' own entries instead;
    /// one with more than `partialRankLimit` matches (a one- or two-letter prefix) ranks its best known
    /// `partialRankLimit` by tier and lists the rest after them by renown: a provisional order, not kept,
    /// which starts the table's build if no one has. A keystroke never waits for a build.
    func rank(_ query: String) throws -> (ids: [Int64], exact: Bool) {
        guard let match = Self.matchExpression(query) else { return ([], true) }
        let table = readyRankTable()
        var all: [Int64]
        var rest: [Int64] = []
        var partial: [Int64: RankEntry] = [:]
        var credited: Credited?
        if table != nil {
            all = try database.read { db in
                try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM movie_fts WHERE movie_fts MATCH ?"),
                                   arguments: [match])
            }
            guard !all.isEmpty else { return ([], true) }
            credited = try self.credited(query)
            if let credited { all = all.filter(credited.keeps) }
        } else {
            // One FTS5 evaluation: every match with its renown order (integers, sorted here); then the
            // stored keys of the best known `partialRankLimit`, the rest listed after them by renown.
            let limit = Self.partialRankLimit
            var matches = try database.read { db in
                try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT m.id, m.renown_order FROM movie_fts JOIN movie m ON m.id = movie_fts.rowid
                    WHERE movie_fts MATCH ?
                    """), arguments: [match]).map { (id: $0[0] as Int64, order: $0[1] as Int64) }
            }
            guard !matches.isEmpty else { return ([], true) }
            credited = try self.credited(query)
            if let credited { matches = matches.filter { credited.keeps($0.id) } }
            matches.sort { $0.order < $1.order }
            all = matches.prefix(limit).map(\.id)
            if matches.count > limit {
                rest = matches[limit...].map(\.id)
                buildRankTableInBackground()
            }
            for start in stride(from: 0, to: all.count, by: 500) {
                let chunk = Array(all[start..<min(all.count, start + 500)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try database.read { db in
                    try Row.fetchAll(db, sql: "SELECT \(Self.rankColumns) FROM movie WHERE id IN (\(marks))",
                                     arguments: StatementArguments(chunk))
                }
                for row in rows {
                    let id: Int64 = row[0], order: Int64 = row[1]
                    guard order >= 0, order < Int64(Int32.max) else { throw MovieError.storage }
                    partial[id] = Self.entry(row)
                }
            }
        }
        guard !all.isEmpty else { return ([], true) }
        let words = Self.words(query).map { Array($0.utf8) }
        let whole = Self.packed(Self.words(query))
        // Tiers, best first: the title is the query 0, starts with it 1, holds its words 2 (a leading
        // article aside); a director named by the query 3 (without such a name: the directors hold the
        // words); the rest (cast) 4. Then renown.
        // Renown orders are unique, so (tier, order) orders films completely and maps back to the film.
        var keys = all.compactMap { id -> Int64? in
            guard let entry = table?.entries[id] ?? partial[id] else { return nil }
            let tier: Int64
            if Self.holds(entry.title, words) {
                let start = Self.begins(entry.title, whole)
                let bare = entry.article > 0 ? Self.begins(entry.title, whole, from: entry.article) : (begins: false, equal: false)
                tier = start.equal || bare.equal ? 0 : start.begins || bare.begins ? 1 : 2
            } else if let credited {
                tier = credited.directed.contains(id) ? 3 : 4
            } else {
                tier = Self.holds(entry.directors, words) ? 3 : 4
            }
            return tier << 32 | Int64(entry.order)
        }
        // A person's whole name: what they directed and what they acted in, together, best known first,
        // after a title that is the query and before titles that merely start with or hold it (a
        // documentary about Martin Scorsese after his films).
        if credited?.whole == true {
            let personal: [Int64] = [0, 2, 3, 1, 1]
            keys = keys.map { personal[Int($0 >> 32)] << 32 | $0 & 0xFFFF_FFFF }
        }
        keys.sort()
        if let table { return (keys.map { table.idByRank[Int($0 & 0xFFFF_FFFF)] }, true) }
        let idByOrder = Dictionary(partial.map { (Int64($0.value.order), $0.key) }, uniquingKeysWith: { a, _ in a })
        return (keys.compactMap { idByOrder[$0 & 0xFFFF_FFFF] } + rest, rest.isEmpty)
    }

    /// What a query of two or more words names in the catalogue's credits (see `credited`).
    struct Credited {
        /// Films whose title holds the query's words.
        let titles: Set<Int64>
        /// Films with a director, and films with an actor, that the query names.
        let directed: Set<Int64>
        let acted: Set<Int64>
        /// The query is someone's whole name: `directed` and `acted` are that person's films.
        let whole: Bool

        func keeps(_ id: Int64) -> Bool { titles.contains(id) || directed.contains(id) || acted.contains(id) }
    }

    /// A query of two or more words that names a person lists that person's films, and the films whose
    /// title holds its words, not films whose credits merely hold the words apart (`tom hanks`: not King
    /// Kong, with Colin Hanks and Tom Hobbs). The person is the one whose whole name the words are, in
    /// any order (`CreditNames`), when someone's is; else, while a name is being typed (`tom han`),
    /// anyone whose name holds every word. Nil when no one's name holds them all: the words then match
    /// across title, cast and directors as before (`hanks gump` is Forrest Gump, `spielberg hanks` the
    /// films of the two). The names are read only for the films whose cast or directors hold every
    /// word (FTS5 on those columns), and compared in place (`CreditNames.best`).
    private func credited(_ query: String) throws -> Credited? {
        guard let terms = Self.terms(query), terms.count >= 2 else { return nil }
        let folded = Self.words(query).map { Array($0.utf8) }
        guard folded.count >= 2 else { return nil }
        let last = terms[terms.count - 1]
        let quoted = terms.dropLast().map { "\"\($0)\"" }.joined(separator: " ")
        let prefixed = "(\(quoted) \"\(last)\"*)"
        let short = last.count < Self.castPrefixLength
        // A short last word names actors only as a whole word (as `matchExpression` looks for it).
        let people = short ? "{directors} : \(prefixed) OR {actors} : (\(quoted) \"\(last)\")" : "{actors directors} : \(prefixed)"
        let typed = CreditNames.Query(folded, lastIsPrefix: true)
        let wholeWord = CreditNames.Query(folded, lastIsPrefix: false)
        return try database.read { db in
            var directedIs = Set<Int64>(), directedHolds = Set<Int64>(), actedIs = Set<Int64>(), actedHolds = Set<Int64>()
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT m.id, m.directors, m.actors FROM movie_fts JOIN movie m ON m.id = movie_fts.rowid
                WHERE movie_fts MATCH ?
                """), arguments: [people])
            while let row = try rows.next() {
                let id: Int64 = row[0]
                func best(_ column: Int, _ query: CreditNames.Query) throws -> CreditNames.Meeting {
                    try row.withUnsafeData(atIndex: column) { data in
                        data?.withUnsafeBytes { CreditNames.best(in: $0, query) } ?? .unmet
                    }
                }
                switch try best(1, typed) {
                case .is: directedIs.insert(id)
                case .holds: directedHolds.insert(id)
                case .unmet: break
                }
                switch try best(2, short ? wholeWord : typed) {
                case .is: actedIs.insert(id)
                case .holds: actedHolds.insert(id)
                case .unmet: break
                }
            }
            let whole = !directedIs.isEmpty || !actedIs.isEmpty
            guard whole || !directedHolds.isEmpty || !actedHolds.isEmpty else { return nil }
            // Only now the titles (most queries of several words are titles, which no name holds).
            let titles = Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM movie_fts WHERE movie_fts MATCH ?"),
                                                arguments: ["{title} : " + prefixed]))
            return whole ? Credited(titles: titles, directed: directedIs, acted: actedIs, whole: true)
                : Credited(titles: titles, directed: directedHolds, acted: actedHolds, whole: false)
        }
    }

    /// The shortest last word looked for as a prefix in the cast: a shorter one expands to thousands of
    /// cast names (7-9 ms), so it is a prefix in titles and directors only, and a whole word in the cast
    /// when it follows other words (`jet li`, `bong joon ho`).
    static let castPrefixLength = 3

    /// The query's words as FTS5 reads them (runs of letters and digits, with the marks that follow
    /// them: `i̇brahim`, `İbrahim` lowercased, is one word; at most 12: the first words of long pasted
    /// text are enough to find a title); nil when it has none.
    static func terms(_ query: String) -> [String]? {
        var words: [String] = []
        var current = ""
        for scalar in query.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || (!current.isEmpty && [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.isEmpty ? nil : Array(words.prefix(12))
    }

    /// The FTS5 expression for `query`: each word quoted, the last one a prefix; nil when it has no words.
    /// A last word shorter than `castPrefixLength` is a prefix in titles and directors only (cast matches
    /// rank last anyway); after other words it is also a whole word in the cast.
    static func matchExpression(_ query: String) -> String? {
        guard let kept = terms(query) else { return nil }
        let quoted = kept.dropLast().map { "\"\($0)\"" }
        let last = kept[kept.count - 1]
        guard last.count < castPrefixLength else { return (quoted + ["\"\(last)\"*"]).joined(separator: " ") }
        let prefix = "{title directors} : \"\(last)\"*"
        guard !quoted.isEmpty else { return prefix }
        return quoted.joined(separator: " ") + " AND (\(prefix) OR {actors} : \"\(last)\")"
    }

    func summaries(_ ids: [Int64]) throws -> [MovieSummary] {
        guard !ids.isEmpty else { return [] }
        let parameterMarks = Array(repeating: "?", count: ids.count).joined(separator: ",")
        var byID: [Int64: MovieSummary] = [:]
        byID.reserveCapacity(ids.count)
        try database.read { db in
            // A page has the same number of films each time: its statement is prepared once, and the
            // rows are read by column number from a cursor rather than copied with their names.
            let statement = try db.cachedStatement(sql: """
                SELECT id, title, year, genres, directors, runtime, tomato_rating, metacritic, countries
                FROM movie WHERE id IN (\(parameterMarks))
                """)
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(ids))
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let metacritic: Int? = row[7]
                let rating: Double? = row[6]
                byID[id] = MovieSummary(id: MovieID(source: .catalogue, value: Int(id)), title: row[1], year: row[2],
                                        genres: Self.list(row[3]), directors: Self.list(row[4]),
                                        runtime: row[5], rating: rating ?? metacritic.map { Double($0) / 10 },
                                        countries: Self.list(row[8]))
            }
        }
        return ids.compactMap { byID[$0] }
    }

    /// Every film's countries (English, as the catalogue names them).
    public func allCountryLists() throws -> [[String]] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT countries FROM movie").map(Self.list)
        }
    }

    /// A read of the catalogue (for extensions in this module).
    func databaseRead<T>(_ body: (Database) throws -> T) throws -> T { try database.read(body) }

    /// The whole record of a catalogue film.
    public func movie(_ id: MovieID) throws -> Movie {
        guard id.source == .catalogue else { throw MovieError.sourceUnavailable(id.source) }
        guard let row = try database.read({ db in
            try Row.fetchOne(db, sql: "SELECT * FROM movie WHERE id = ?", arguments: [id.value])
        }) else { throw MovieError.notFound }
        return Movie(
            id: id, title: row["title"], year: row["year"], runtime: row["runtime"],
            genres: Self.list(row["genres"]), directors: Self.list(row["directors"]), writers: Self.list(row["writers"]),
            cast: Self.list(row["actors"]), languages: Self.list(row["languages"]), countries: Self.list(row["countries"]),
            rated: row["rated"],
            ratings: MovieRatings(metacritic: row["metacritic"], tomatometer: row["tomatometer"],
                                  criticAverage: row["tomato_rating"], reviewCount: row["reviews"]))
    }

    /// Splits a ", "-joined list from the catalogue.
    static func list(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return text.components(separatedBy: ", ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func movieError(_ error: Error) -> MovieError {
        (error as? MovieError) ?? .storage
    }
}
