import Foundation

/// Where a film's data comes from; ids are only unique within one source.
public enum MovieSource: String, Equatable, Hashable, Sendable, Codable {
    /// The bundled Wikidata catalogue (ids are Wikidata item numbers).
    case catalogue
    /// The TMDB API (ids are TMDB movie ids).
    case tmdb
}

/// A film's identity: its source and its id there.
public struct MovieID: Equatable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let source: MovieSource
    public let value: Int
    public init(source: MovieSource, value: Int) {
        self.source = source
        self.value = value
    }
    public var description: String { "\(source.rawValue):\(value)" }
}

/// What a result row shows of a film.
public struct MovieSummary: Equatable, Hashable, Sendable, Identifiable {
    public let id: MovieID
    public let title: String
    public let year: Int?
    public let genres: [String]
    public let directors: [String]
    /// Running time in minutes (the catalogue's; TMDB's search has none).
    public let runtime: Int?
    /// A score out of 10: the critics' average (or Metacritic / 10) in the catalogue, the vote average on TMDB.
    public let rating: Double?
    public let countries: [String]

    public init(id: MovieID, title: String, year: Int?, genres: [String], directors: [String],
                runtime: Int? = nil, rating: Double? = nil, countries: [String] = []) {
        self.id = id
        self.title = title
        self.year = year
        self.genres = genres
        self.directors = directors
        self.runtime = runtime
        self.rating = rating.flatMap { $0.isFinite && $0 >= 0 && $0 <= 10 ? $0 : nil }
        self.countries = countries
    }
}

/// Review scores; any of them may be unknown.
public struct MovieRatings: Equatable, Hashable, Sendable {
    /// Metacritic score, 0-100.
    public let metacritic: Int?
    /// Rotten Tomatoes Tomatometer, percent.
    public let tomatometer: Int?
    /// Average critic rating on Rotten Tomatoes, 0-10.
    public let criticAverage: Double?
    /// Number of critic reviews counted.
    public let reviewCount: Int?
    /// TMDB's user vote average, 0-10.
    public let voteAverage: Double?
    /// Number of TMDB votes.
    public let voteCount: Int?

    public init(metacritic: Int? = nil, tomatometer: Int? = nil, criticAverage: Double? = nil, reviewCount: Int? = nil,
                voteAverage: Double? = nil, voteCount: Int? = nil) {
        self.metacritic = metacritic
        self.tomatometer = tomatometer
        self.criticAverage = criticAverage
        self.reviewCount = reviewCount
        self.voteAverage = voteAverage
        self.voteCount = voteCount
    }
}

/// Everything known about one film.
public struct Movie: Equatable, Hashable, Sendable, Identifiable {
    public let id: MovieID
    public let title: String
    public let year: Int?
    /// Running time in minutes.
    public let runtime: Int?
    public let genres: [String]
    public let directors: [String]
    public let writers: [String]
    public let cast: [String]
    public let languages: [String]
    public let countries: [String]
    /// Content rating (e.g. "PG-13"), when known.
    public let rated: String?
    public let ratings: MovieRatings
    /// A plot summary (TMDB only).
    public let overview: String?

    public init(id: MovieID, title: String, year: Int?, runtime: Int?, genres: [String], directors: [String],
                writers: [String], cast: [String], languages: [String], countries: [String], rated: String?,
                ratings: MovieRatings, overview: String? = nil) {
        self.id = id
        self.title = title
        self.year = year
        self.runtime = runtime
        self.genres = genres
        self.directors = directors
        self.writers = writers
        self.cast = cast
        self.languages = languages
        self.countries = countries
        self.rated = rated
        self.ratings = ratings
        self.overview = overview
    }

    public var summary: MovieSummary {
        MovieSummary(id: id, title: title, year: year, genres: genres, directors: directors, runtime: runtime,
                     rating: ratings.criticAverage ?? ratings.metacritic.map { Double($0) / 10 } ?? ratings.voteAverage,
                     countries: countries)
    }
}

/// The order of a search's results.
public enum MovieSort: String, CaseIterable, Equatable, Hashable, Sendable {
    /// Best match first (the source's own order).
    case relevance
    /// Newest first.
    case year
    /// Best rated first (critics' average, then Metacritic).
    case rating
}

/// What narrows and orders a search: a genre, a year range, a sort.
public struct MovieFilter: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A genre as the source names it (the catalogue's English names).
    public var genre: String?
    /// Release years, both ends included (a decade, a range or one year).
    public var years: ClosedRange<Int>?
    public var sort: MovieSort

    public init(genre: String? = nil, years: ClosedRange<Int>? = nil, sort: MovieSort = .relevance) {
        self.genre = genre
        self.years = years
        self.sort = sort
    }

    public static let none = MovieFilter()
    public var isEmpty: Bool { self == .none }
    /// Narrows the results (a sort only reorders them).
    public var narrows: Bool { genre != nil || years != nil }
    public var description: String {
        "\(genre ?? "*")|\(years.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "*")|\(sort.rawValue)"
    }
}

/// What of a `MovieFilter` a source applies.
public struct MovieFilterSupport: Equatable, Sendable {
    public let genre: Bool
    /// Year ranges; false: one year at most (TMDB's search takes a single release year).
    public let yearRange: Bool
    public let sort: Bool
    public init(genre: Bool, yearRange: Bool, sort: Bool) {
        self.genre = genre
        self.yearRange = yearRange
        self.sort = sort
    }
    public static let all = MovieFilterSupport(genre: true, yearRange: true, sort: true)

    /// The part of `filter` this source applies; the rest is dropped, never pretended.
    public func applicable(_ filter: MovieFilter) -> MovieFilter {
        MovieFilter(genre: genre ? filter.genre : nil,
                    years: filter.years.flatMap { yearRange || $0.count == 1 ? $0 : nil },
                    sort: sort ? filter.sort : .relevance)
    }
}

/// One page of search results.
public struct MoviesPage: Equatable, Sendable {
    public let query: String
    /// 1-based page number.
    public let page: Int
    public let totalPages: Int
    public let totalResults: Int
    public let movies: [MovieSummary]

    public init(query: String, page: Int, totalPages: Int, totalResults: Int, movies: [MovieSummary]) {
        self.query = query
        self.page = page
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.movies = movies
    }

    public var hasMore: Bool { page < totalPages }

    /// Rows a page holds unless the caller asks for more (TMDB's fixed size).
    public static let defaultSize = 20
}

/// Why films could not be loaded.
public enum MovieError: Error, Equatable, Sendable {
    /// No connection, DNS failure.
    case offline
    /// The server did not answer in time.
    case timedOut
    /// The connection broke off in the middle of the answer (reset, closed early).
    case connectionLost
    /// The answer was larger than Nimbus accepts (counted after decompression).
    case tooLarge
    /// The answer was not readable HTTP (HTTP/0.9, a body that does not decompress).
    case badReply
    /// The server redirected elsewhere; the key goes only to the configured server.
    case redirected
    /// The API key was refused (HTTP 401).
    case unauthorized
    /// Too many requests (HTTP 429).
    case rateLimited
    /// Any other HTTP status.
    case server(status: Int)
    /// The response could not be read.
    case badResponse
    /// No such film.
    case notFound
    /// The film comes from a source that is not available now (a TMDB film without a key).
    case sourceUnavailable(MovieSource)
    /// The local catalogue or database failed.
    case storage
}

/// A film saved to the wishlist.
public struct WishlistEntry: Equatable, Hashable, Sendable, Identifiable {
    public let movie: MovieSummary
    public let addedAt: Date
    public init(movie: MovieSummary, addedAt: Date) {
        self.movie = movie
        self.addedAt = addedAt
    }
    public var id: MovieID { movie.id }
}

/// Why a wishlist change was refused.
public enum WishlistError: Error, Equatable, Sendable {
    /// The film (or the same title and year from another source) is already saved.
    case duplicate(title: String)
    /// The database could not be written.
    case storage
}
