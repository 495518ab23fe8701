import Foundation
import GRDB
import NimbusDomain
import NimbusResources
@preconcurrency import OpenCombineShim

/// The bundled film catalogue (`Resources/movies.sqlite`, Wikidata), opened read-only.
///
/// Matching is FTS5 over title, cast and directors: every word of the query must appear, the last one
/// as a prefix (so results follow typing). Ranking: title matches first (the title equal to the query,
/// then starting with it, then holding its words), then films whose directors match, then the rest
/// (cast matches); within each tier the most reviewed first. SQLite's bm25 was 100-400 ms per
/// keystroke for one- and two-letter prefixes (it reads every match's position lists), so relevance
/// is where the words matched instead. A query's ranked ids are kept, so the
/// next page is one lookup of 20 rows.
public final class MovieCatalogue: MovieRepository, @unchecked Sendable {
    public static let pageSize = 20

    public let source = MovieSource.catalogue
    /// Number of films.
    public let movieCount: Int
    private let database: DatabaseQueue
    private let lock = NSLock()
    /// Popularity rank by film id (0 = most reviewed), read on first use (see `warmUp`).
    private var popularityTable: [Int64: Int32]?
    /// The last few queries' ranked ids, newest last.
    private var ranked: [(query: String, ids: [Int64])] = []

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
            movieCount = try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM movie") ?? 0 }
        } catch {
            throw MovieError.storage
        }
    }

    /// Reads the popularity table now rather than on the first keystroke. Safe on any queue.
    public func warmUp() {
        _ = try? popularity()
    }

    private func popularity() throws -> [Int64: Int32] {
        lock.lock()
        defer { lock.unlock() }
        if let table = popularityTable { return table }
        var ranks: [Int64: Int32] = [:]
        ranks.reserveCapacity(movieCount)
        try database.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT id, popularity FROM movie")
            while let row = try rows.next() {
                ranks[row[0]] = Int32(truncatingIfNeeded: row[1] as Int64)
            }
        }
        popularityTable = ranks
        return ranks
    }

    // MARK: MovieRepository

    public func search(query: String, page: Int) -> AnyPublisher<MoviesPage, MovieError> {
        Deferred { [self] in
            Future { promise in promise(Result { try self.page(query: query, page: page) }.mapError(Self.movieError)) }
        }.eraseToAnyPublisher()
    }

    public func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError> {
        Deferred { [self] in
            Future { promise in promise(Result { try self.movie(id) }.mapError(Self.movieError)) }
        }.eraseToAnyPublisher()
    }

    // MARK: Synchronous access

    /// One page (1-based) of the films matching `query`.
    public func page(query: String, page: Int) throws -> MoviesPage {
        let ids = try rankedIDs(query)
        let size = Self.pageSize
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
        lock.lock()
        if let hit = ranked.first(where: { $0.query == query }) { lock.unlock(); return hit.ids }
        lock.unlock()
        guard let match = Self.matchExpression(query) else { return [] }
        let text = query.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let like = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        let (all, tiers) = try database.read { db -> ([Int64], [Int64: Int64]) in
            let sql = "SELECT rowid FROM movie_fts WHERE movie_fts MATCH ?"
            let all = try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: [match])
            guard !all.isEmpty else { return ([], [:]) }
            // Lower tiers first: cast (no entry) 4, directors 3, words of the title 2, the title starts
            // with the query 1, the title is the query 0.
            var tiers: [Int64: Int64] = [:]
            for id in try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: ["directors : (\(match))"]) { tiers[id] = 3 }
            for id in try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: ["title : (\(match))"]) { tiers[id] = 2 }
            let starts = "SELECT id FROM movie WHERE title LIKE ? ESCAPE '\\'"
            for id in try Int64.fetchAll(db.cachedStatement(sql: starts), arguments: [like]) where tiers[id] == 2 { tiers[id] = 1 }
            for id in try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM movie WHERE title = ?"), arguments: [text])
            where tiers[id] != nil { tiers[id] = 0 }
            return (all, tiers)
        }
        let popularity = try self.popularity()
        var keyed = all.map { id -> (key: Int64, id: Int64) in
            ((tiers[id] ?? 4) << 32 | Int64(popularity[id] ?? Int32.max), id)
        }
        keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.id < $1.id) }
        let ids = keyed.map(\.id)
        lock.lock()
        ranked.append((query, ids))
        if ranked.count > 8 { ranked.removeFirst() }
        lock.unlock()
        return ids
    }

    /// The FTS5 expression for `query`: each word quoted, the last one a prefix; nil when it has no words.
    static func matchExpression(_ query: String) -> String? {
        var words: [String] = []
        var current = ""
        for scalar in query.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        guard !words.isEmpty else { return nil }
        // Long pasted text: the first words are enough to find a title.
        let quoted = words.prefix(12).map { "\"\($0)\"" }
        return quoted.joined(separator: " ") + "*"
    }

    func summaries(_ ids: [Int64]) throws -> [MovieSummary] {
        guard !ids.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, year, genres, directors FROM movie WHERE id IN (\(placeholders))",
                             arguments: StatementArguments(ids))
        }
        var byID: [Int64: MovieSummary] = [:]
        for row in rows {
            let id: Int64 = row["id"]
            byID[id] = MovieSummary(id: MovieID(source: .catalogue, value: Int(id)), title: row["title"], year: row["year"],
                                    genres: Self.list(row["genres"]), directors: Self.list(row["directors"]))
        }
        return ids.compactMap { byID[$0] }
    }

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
