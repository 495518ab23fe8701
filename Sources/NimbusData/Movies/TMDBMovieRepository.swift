import Foundation
import Logging
import Synchronization
import FoundationNetworking
import Glibc
import NimbusDomain
@preconcurrency import OpenCombineShim

/// Films from the TMDB API (v3), used only when `TMDB_API_KEY` is set.
///
/// Every response is cached on disk (under `$XDG_CACHE_HOME/nimbus/tmdb`, files 0600, keyed by the
/// request without its key). A request with a cached response sends the cached value first and the
/// fresh one after; when the network then fails, the cached value stands. The API key goes in the
/// `api_key` query item (a v4 read token, which starts with "eyJ", as a bearer header) and never
/// into errors, logs or cache file names.
public final class TMDBMovieRepository: MovieRepository, @unchecked Sendable { // unchecked: `lock` guards the genre state (OpenCombine values, not Sendable)
    public struct Configuration: Sendable {
        public var apiKey: String
        /// `https://api.themoviedb.org` unless `NIMBUS_TMDB_URL` says otherwise.
        public var baseURL: String
        /// `ko-KR`, `ja-JP` or `en-US`.
        public var language: String
        /// Where responses are cached; nil for no disk cache.
        public var cacheDirectory: URL?
        /// Longest wait for one response, first byte to last.
        public var timeout: TimeInterval = 10

        public init(apiKey: String, baseURL: String = TMDBMovieRepository.defaultBaseURL, language: String,
                    cacheDirectory: URL?) {
            self.apiKey = apiKey
            self.baseURL = baseURL
            self.language = language
            self.cacheDirectory = cacheDirectory
        }

        /// The configuration the environment asks for, or nil when there is no key.
        public static func from(environment: [String: String], language: String) -> Configuration? {
            guard let key = environment["TMDB_API_KEY"]?.trimmingCharacters(in: .whitespaces), !key.isEmpty else {
                return nil
            }
            let base = environment["NIMBUS_TMDB_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultBaseURL
            return Configuration(apiKey: key, baseURL: base, language: language,
                                 cacheDirectory: TMDBMovieRepository.cacheDirectory(environment: environment))
        }
    }

    public static let defaultBaseURL = "https://api.themoviedb.org"

    /// `$XDG_CACHE_HOME/nimbus/tmdb`, else `~/.cache/nimbus/tmdb`.
    public static func cacheDirectory(environment: [String: String]) -> URL {
        NimbusDirectories(environment: environment).cache.appendingPathComponent("tmdb", isDirectory: true)
    }

    public let source = MovieSource.tmdb
    public let configuration: Configuration
    private let client: HTTPClient
    private let cache: ResponseCache?
    private let lock = NSLock()
    private var genreNames: [Int: String]?
    /// The genre list on its way, if it is.
    private var genreLoad: CurrentValueSubject<[Int: String]?, Never>?
    private var genreRequest: AnyCancellable?

    /// Says when a kept answer is shown (nil: logging is off, and nothing is formatted).
    private let logger: Logger?

    public init(configuration: Configuration, client: HTTPClient, logger: Logger? = nil) {
        self.logger = logger
        self.configuration = configuration
        self.client = client
        cache = configuration.cacheDirectory.map { ResponseCache(directory: $0) }
    }

    // MARK: MovieRepository

    /// A page of results. The genre list (for the rows' genre names) is fetched alongside, never
    /// first: a page waits for genres still on their way at most `genreGrace`, then goes out without
    /// them (a later search has them), so a slow genre request never holds results back.
    /// TMDB's search takes one release year (`primary_release_year`); genres and sorting are the
    /// bundled catalogue's only (its search API has neither).
    public let filterSupport = MovieFilterSupport(genre: false, yearRange: false, sort: false)

    public func search(query: String, page: Int, pageSize: Int, filter: MovieFilter) -> AnyPublisher<MoviesPage, MovieError> {
        var items = [URLQueryItem(name: "query", value: query), URLQueryItem(name: "page", value: String(page)),
                     URLQueryItem(name: "include_adult", value: "false")]
        if let years = filter.years, years.count == 1 {
            items.append(URLQueryItem(name: "primary_release_year", value: String(years.lowerBound)))
        }
        return Deferred { [self] () -> AnyPublisher<MoviesPage, MovieError> in
            startGenres()
            return fetch(TMDBSearchPage.self, path: "/3/search/movie", query: items) { response in
                // Checked here so that a page that makes no sense is neither sent nor cached.
                _ = try response.toDomain(query: query, requestedPage: page, genres: [:])
                return response
            }
            .flatMap(maxPublishers: .max(1)) { [self] response in
                genres(within: Self.genreGrace).map { (response, $0) }.setFailureType(to: MovieError.self)
            }
            .compactMap { [self] response, names -> MoviesPage? in
                // Search results carry no directors; films opened before have them in the cache.
                try? response.toDomain(query: query, requestedPage: page, genres: names,
                                       directors: { cachedDetails($0)?.toDomain().directors ?? [] })
            }
            .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// Longest a page waits for a genre list already on its way.
    static let genreGrace: TimeInterval = 0.3

    private static let detailsQuery = [URLQueryItem(name: "append_to_response", value: "credits")]

    private func cachedDetails(_ id: Int) -> TMDBMovieDetails? {
        cache?.read(cacheKey(path: "/3/movie/\(id)", query: Self.detailsQuery))
            .flatMap { try? JSONDecoder().decode(TMDBMovieDetails.self, from: $0) }
    }

    /// The cache file's key: the request without its API key.
    private func cacheKey(path: String, query: [URLQueryItem]) -> String {
        let items = query + [URLQueryItem(name: "language", value: configuration.language)]
        return path + "?" + items.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
    }

    public func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError> {
        guard id.source == .tmdb else { return Fail(error: .sourceUnavailable(id.source)).eraseToAnyPublisher() }
        return fetch(TMDBMovieDetails.self, path: "/3/movie/\(id.value)", query: Self.detailsQuery)
            .map { $0.toDomain() }
            .eraseToAnyPublisher()
    }

    // MARK: Requests

    /// Genre names by id, in the UI language, from memory or the disk cache (they hardly change);
    /// else those of the request `startGenres` made if it answers within `grace`, else none.
    private func genres(within grace: TimeInterval) -> AnyPublisher<[Int: String], Never> {
        lock.lock()
        let known = genreNames
        let loading = genreLoad
        lock.unlock()
        if let known { return Just(known).eraseToAnyPublisher() }
        guard let loading else { return Just([:]).eraseToAnyPublisher() }
        return Deferred {
            Future<[Int: String], Never> { promise in
                // OpenCombine's promise takes its future's lock, but the library is not annotated.
                nonisolated(unsafe) let promise = promise
                let waiting = CancellableBox(loading.compactMap { $0 }.first().sink { promise(.success($0)) })
                DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
                    promise(.success([:]))
                    waiting.cancel()
                }
            }
        }
        .eraseToAnyPublisher()
    }

    /// Loads the genre list from the disk cache, or starts fetching it unless that is under way. The
    /// request belongs to the repository, not to a search, so a search that ends first does not
    /// cancel it; a failure leaves rows without genres and is tried again with the next search.
    private func startGenres() {
        lock.lock()
        let busy = genreNames != nil || genreLoad != nil
        lock.unlock()
        guard !busy else { return }
        func names(_ list: TMDBGenreList) -> [Int: String] {
            Dictionary(list.genres.prefix(RemoteText.maxItems).map { ($0.id, RemoteText.clip($0.name, to: RemoteText.name)) },
                       uniquingKeysWith: { a, _ in a })
        }
        if let data = cache?.read(cacheKey(path: Self.genrePath, query: [])),
           let list = try? JSONDecoder().decode(TMDBGenreList.self, from: data) {
            lock.lock()
            genreNames = names(list)
            lock.unlock()
            return
        }
        let answer = CurrentValueSubject<[Int: String]?, Never>(nil)
        lock.lock()
        genreLoad = answer
        lock.unlock()
        let request = fetch(TMDBGenreList.self, path: Self.genrePath, query: [], cachedFirst: false)
            .map(names)
            .sink(receiveCompletion: { [weak self] _ in
                guard let self else { return }
                self.lock.lock()
                self.genreLoad = nil
                self.lock.unlock()
            }, receiveValue: { [weak self] found in
                self?.lock.lock()
                self?.genreNames = found
                self?.lock.unlock()
                answer.send(found)
            })
        lock.lock()
        genreRequest = request
        lock.unlock()
    }

    private static let genrePath = "/3/genre/movie/list"

    /// GETs `path`, decoding `T`; with `cachedFirst`, a cached response goes out before the fresh one.
    func fetch<T: Decodable>(_ type: T.Type, path: String, query: [URLQueryItem],
                             cachedFirst: Bool = true) -> AnyPublisher<T, MovieError> {
        fetch(type, path: path, query: query, cachedFirst: cachedFirst) { $0 }
    }

    /// GETs `path`, decoding `T` and making it a `U` with `accept`, which throws `MovieError.badResponse` for
    /// a response that decodes but makes no sense. Only an accepted response is cached, and a cached one
    /// that is not accepted is passed over.
    func fetch<T: Decodable, U>(_ type: T.Type, path: String, query: [URLQueryItem], cachedFirst: Bool = true,
                                accept: @escaping (T) throws -> U) -> AnyPublisher<U, MovieError> {
        let items = query + [URLQueryItem(name: "language", value: configuration.language)]
        let cacheKey = self.cacheKey(path: path, query: query)
        let bearer = configuration.apiKey.hasPrefix("eyJ")
        let auth = bearer ? [] : [URLQueryItem(name: "api_key", value: configuration.apiKey)]
        let headers = bearer ? ["Authorization": "Bearer \(configuration.apiKey)", "Accept": "application/json"]
                             : ["Accept": "application/json"]
        guard let request = HTTPRequest(base: configuration.baseURL, path: path, query: items + auth, headers: headers,
                                        timeout: configuration.timeout) else {
            return Fail(error: .badResponse).eraseToAnyPublisher()
        }
        let decoder = JSONDecoder()
        let cache = self.cache
        let cached: U? = cache?.read(cacheKey).flatMap { try? decoder.decode(T.self, from: $0) }.flatMap { try? accept($0) }
        let fresh = client.publisher(for: request)
            .tryMap { response -> U in
                let value = try accept(try decoder.decode(T.self, from: response.body))
                cache?.write(response.body, for: cacheKey)
                return value
            }
            .mapError { error -> MovieError in
                if let http = error as? HTTPError { return Self.movieError(http) }
                return .badResponse
            }
        guard cachedFirst, let cached else { return fresh.eraseToAnyPublisher() }
        // The path only: the key and the query (which may hold it) are never formatted.
        logger?.info("\(path) from the kept copy, then asked again")
        return Just(cached).setFailureType(to: MovieError.self)
            .append(fresh.catch { _ in Empty<U, MovieError>() })
            .eraseToAnyPublisher()
    }

    static func movieError(_ error: HTTPError) -> MovieError {
        switch error {
        case .server(401): return .unauthorized
        case .server(404): return .notFound
        case .server(429): return .rateLimited
        case .server(let status): return .server(status: status)
        case .transport(.timedOut): return .timedOut
        case .transport(.tooLarge): return .tooLarge
        case .transport(.connectionLost), .transport(.other(code: NSURLErrorBadServerResponse)): return .connectionLost
        case .transport(.badReply): return .badReply
        case .transport(.redirectRefused), .transport(.redirectLoop): return .redirected
        case .transport: return .offline
        case .invalidURL, .missingData, .decoding: return .badResponse
        }
    }
}

/// Response bodies on disk, one file per request, written atomically with mode 0600; at most
/// `limit` files are kept (the least recently written go first).
final class ResponseCache: Sendable {
    let directory: URL
    let limit: Int
    private let writesSincePrune = Mutex(0)

    init(directory: URL, limit: Int = 2000) {
        self.directory = directory
        self.limit = limit
    }

    func url(for key: String) -> URL {
        // FNV-1a, 64 bits: file names from the request (without the API key).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return directory.appendingPathComponent(String(format: "%016llx.json", hash))
    }

    /// Larger cached bodies are ignored (responses are capped well below this).
    static let maxFileBytes = 16 << 20

    func read(_ key: String) -> Data? {
        SafeFile.read(url(for: key), maxBytes: Self.maxFileBytes)
    }

    func write(_ data: Data, for key: String) {
        // Atomic, 0600, never through a link; a cache that can't be written only costs a request next time.
        SafeFile.write(data, to: url(for: key))
        let limit = self.limit
        let due = writesSincePrune.withLock { writes in
            writes += 1
            let due = writes >= max(1, limit / 10)
            if due { writes = 0 }
            return due
        }
        if due { prune() }
    }

    /// Deletes the oldest files beyond `limit`.
    func prune() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory.path), names.count > limit else { return }
        let dated = names.filter { $0.hasSuffix(".json") }.map { name -> (String, Date) in
            let date = (try? fm.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.modificationDate]) as? Date
            return (name, date ?? .distantPast)
        }.sorted { $0.1 < $1.1 }
        for (name, _) in dated.prefix(max(0, dated.count - limit)) {
            try? fm.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}

/// Holds a subscription until cancelled, from any thread.
private final class CancellableBox: Sendable {
    private let held: Mutex<AnyCancellable?>
    init(_ cancellable: AnyCancellable) { held = Mutex(cancellable) }
    func cancel() {
        let c = held.withLock { held in
            defer { held = nil }
            return held
        }
        c?.cancel()
    }
}

// MARK: - DTOs

struct TMDBSearchPage: Decodable {
    struct Result: Decodable {
        let id: Int
        let title: String
        let release_date: String?
        let genre_ids: [Int]?
        let vote_average: Double?
        let vote_count: Int?
    }
    let page: Int
    let results: [Result]
    let total_pages: Int
    let total_results: Int

    /// TMDB serves at most this many pages of a search (a later page is refused with HTTP 422).
    static let maxPages = 500

    /// The page as the domain sees it. Throws `MovieError.badResponse` for a page that is not the one
    /// asked for (or not a page: below 1 or past TMDB's last) and for negative totals; a `total_pages`
    /// past TMDB's maximum is clamped to it.
    func toDomain(query: String, requestedPage: Int, genres: [Int: String],
                  directors: (Int) -> [String] = { _ in [] }) throws -> MoviesPage {
        guard page == requestedPage, (1...Self.maxPages).contains(page), total_pages >= 0, total_results >= 0 else {
            throw MovieError.badResponse
        }
        return MoviesPage(query: query, page: page, totalPages: min(Self.maxPages, max(page, total_pages)),
                          totalResults: total_results, movies: results.prefix(RemoteText.maxItems).map { r in
                              MovieSummary(id: MovieID(source: .tmdb, value: r.id),
                                           title: RemoteText.clip(r.title, to: RemoteText.name),
                                           year: TMDBMovieDetails.year(r.release_date),
                                           genres: (r.genre_ids ?? []).compactMap { genres[$0] }, directors: directors(r.id),
                                           // A vote average of nobody is no rating.
                                           rating: (r.vote_count ?? 0) > 0 ? r.vote_average : nil)
                          })
    }
}

struct TMDBGenreList: Decodable {
    struct Genre: Decodable { let id: Int; let name: String }
    let genres: [Genre]
}

struct TMDBMovieDetails: Decodable {
    struct Named: Decodable { let name: String }
    struct Credits: Decodable {
        struct Cast: Decodable { let name: String }
        struct Crew: Decodable { let name: String; let job: String? }
        let cast: [Cast]
        let crew: [Crew]
    }
    let id: Int
    let title: String
    let release_date: String?
    let runtime: Int?
    let genres: [Named]?
    let spoken_languages: [Named]?
    let production_countries: [Named]?
    let overview: String?
    let vote_average: Double?
    let vote_count: Int?
    let credits: Credits?

    static func year(_ date: String?) -> Int? {
        guard let date, date.utf8.count >= 4 else { return nil }
        return Int(date.prefix(4))
    }

    /// The film as the domain sees it, every text cut to a sane length (`RemoteText`) and every
    /// list to a sane count.
    func toDomain() -> Movie {
        let crew = (credits?.crew ?? []).prefix(RemoteText.maxCrew)
        func names(_ list: some Sequence<String>) -> [String] {
            list.prefix(RemoteText.maxItems).map { RemoteText.clip($0, to: RemoteText.name) }
        }
        func jobs(_ wanted: Set<String>) -> [String] {
            var seen = Set<String>()
            return names(crew.filter { wanted.contains($0.job ?? "") }.map(\.name)).filter { seen.insert($0).inserted }
        }
        return Movie(
            id: MovieID(source: .tmdb, value: id), title: RemoteText.clip(title, to: RemoteText.name),
            year: Self.year(release_date),
            runtime: runtime.flatMap { (1...100_000).contains($0) ? $0 : nil }, genres: names((genres ?? []).map(\.name)),
            directors: jobs(["Director"]), writers: jobs(["Screenplay", "Writer", "Story", "Novel"]),
            cast: names((credits?.cast ?? []).prefix(30).map(\.name)),
            languages: names((spoken_languages ?? []).map(\.name).filter { !$0.isEmpty }),
            countries: names((production_countries ?? []).map(\.name)), rated: nil,
            ratings: MovieRatings(voteAverage: vote_average.flatMap { (0...10).contains($0) ? $0 : nil },
                                  voteCount: vote_count.flatMap { $0 >= 0 ? $0 : nil }),
            overview: overview.flatMap { $0.isEmpty ? nil : RemoteText.clip($0, to: RemoteText.overview) })
    }
}
