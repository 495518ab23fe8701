import Foundation
import GRDB
import NimbusDomain

/// The catalogue's films by title, for matching many titles at once (a wishlist file of up to 20,000
/// rows): read in one query, after which each title is a dictionary lookup. Asking the catalogue for
/// each title instead scans its 17,000 films every time (`title = ? COLLATE NOCASE` has no index):
/// 83 s for 20,000 rows.
///
/// Titles compare as SQLite's `NOCASE` compares them (ASCII letters folded, nothing else), and among
/// films of one title (and year, when given) the most popular is found, so a lookup finds what that
/// query found (`CatalogueTitlesTests` checks every film of the catalogue against it).
public struct CatalogueTitles: Sendable {
    struct Film: Sendable {
        let id: Int64
        let year: Int?
        let popularity: Int
    }

    /// Films by folded title, the most popular first (`popularity` is a rank: 0 the most popular).
    private let films: [String: [Film]]

    public init(_ catalogue: MovieCatalogue) throws {
        var films: [String: [Film]] = [:]
        try catalogue.databaseRead { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT id, title, year, popularity FROM movie")
            while let row = try rows.next() {
                let title: String = row[1]
                films[Self.key(title), default: []].append(Film(id: row[0], year: row[2], popularity: row[3]))
            }
        }
        self.films = films.mapValues { $0.sorted { ($0.popularity, $0.id) < ($1.popularity, $1.id) } }
    }

    /// The id of the catalogue's film with this title (case aside) and year (any year when nil), the
    /// most popular when several are; nil when none is.
    public func find(title: String, year: Int?) -> Int64? {
        films[Self.key(title)]?.first { year == nil || $0.year == year }?.id
    }

    /// `title` with ASCII capitals made small, as SQLite's `NOCASE` folds it.
    static func key(_ title: String) -> String {
        guard title.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return title }
        return String(decoding: title.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

extension MovieCatalogue {
    /// The films of `ids`, in that order (those not in the catalogue left out), read 500 at a time.
    public func films(_ ids: [Int64]) throws -> [MovieSummary] {
        var films: [MovieSummary] = []
        films.reserveCapacity(ids.count)
        for start in stride(from: 0, to: ids.count, by: 500) {
            films += try summaries(Array(ids[start..<min(start + 500, ids.count)]))
        }
        return films
    }
}
