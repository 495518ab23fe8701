import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// The TMDB repository with the live URLSession client against the loopback fixture server,
/// serving response shapes as TMDB sends them.
final class TMDBMovieRepositoryTests: XCTestCase {
    private var server: FixtureServer!
    private var cacheDirectory: URL!
    private let key = "0123456789abcdef0123456789abcdef"

    static let genres = #"""
    {"genres":[{"id":28,"name":"Action"},{"id":80,"name":"Crime"},{"id":18,"name":"Drama"}]}
    """#

    static let searchPage1 = #"""
    {"page":1,"results":[
      {"adult":false,"backdrop_path":"/lh5lbisD4oDbEKgUxoRaZU8HVrk.jpg","genre_ids":[28,80,18],"id":272,
       "original_language":"en","original_title":"Batman Begins",
       "overview":"Driven by tragedy, billionaire Bruce Wayne dedicates his life to uncovering and defeating the corruption that plagues his home, Gotham City.",
       "popularity":14.637,"poster_path":"/sPX89Td70IDDjVr85jdSBb4rWGr.jpg","release_date":"2005-06-10",
       "title":"Batman Begins","video":false,"vote_average":7.7,"vote_count":21025},
      {"adult":false,"backdrop_path":null,"genre_ids":[99],"id":1003596,"original_language":"en",
       "original_title":"Batman Begins: \u001b[31mBehind\u001b[0m","overview":"","popularity":0.6,"poster_path":null,
       "release_date":"","title":"Batman Begins: \u001b[31mBehind\u001b[0m","video":false,"vote_average":0.0,"vote_count":0}
    ],"total_pages":2,"total_results":3}
    """#

    static let searchPage2 = #"""
    {"page":2,"results":[
      {"adult":false,"backdrop_path":null,"genre_ids":[],"id":1150000,"original_language":"en",
       "original_title":"Making Batman Begins","overview":"","popularity":0.3,"poster_path":null,
       "release_date":"2005-10-18","title":"Making Batman Begins","video":false,"vote_average":6.0,"vote_count":2}
    ],"total_pages":2,"total_results":3}
    """#

    static let details = #"""
    {"adult":false,"backdrop_path":"/lh5lbisD4oDbEKgUxoRaZU8HVrk.jpg","belongs_to_collection":{"id":263,"name":"The Dark Knight Collection"},
     "budget":150000000,"genres":[{"id":28,"name":"Action"},{"id":80,"name":"Crime"},{"id":18,"name":"Drama"}],
     "homepage":"https://www.warnerbros.com/movies/batman-begins","id":272,"imdb_id":"tt0372784","original_language":"en",
     "original_title":"Batman Begins","overview":"Driven by tragedy, billionaire Bruce Wayne dedicates his life to uncovering and defeating the corruption that plagues his home, Gotham City.",
     "popularity":14.637,"poster_path":"/sPX89Td70IDDjVr85jdSBb4rWGr.jpg",
     "production_companies":[{"id":923,"logo_path":"/5UQsZrfbfG2dYJbx8DxfoTr2Bvu.png","name":"Legendary Pictures","origin_country":"US"}],
     "production_countries":[{"iso_3166_1":"GB","name":"United Kingdom"},{"iso_3166_1":"US","name":"United States of America"}],
     "release_date":"2005-06-10","revenue":374218673,"runtime":140,
     "spoken_languages":[{"english_name":"English","iso_639_1":"en","name":"English"},{"english_name":"Urdu","iso_639_1":"ur","name":"اردو"}],
     "status":"Released","tagline":"Evil fears the knight.","title":"Batman Begins","video":false,"vote_average":7.7,"vote_count":21025,
     "credits":{"cast":[{"adult":false,"gender":2,"id":3894,"known_for_department":"Acting","name":"Christian Bale","original_name":"Christian Bale","popularity":13.1,"profile_path":"/b7fTC9WFkgqGOv77mLQtmD4Bsjl.jpg","cast_id":3,"character":"Bruce Wayne / Batman","credit_id":"52fe4230c3a36847f800a69f","order":0},
                        {"adult":false,"gender":2,"id":3895,"known_for_department":"Acting","name":"Michael Caine","original_name":"Michael Caine","popularity":22.4,"profile_path":null,"cast_id":4,"character":"Alfred Pennyworth","credit_id":"52fe4230c3a36847f800a6a3","order":1}],
                "crew":[{"adult":false,"gender":2,"id":525,"known_for_department":"Directing","name":"Christopher Nolan","original_name":"Christopher Nolan","popularity":9.3,"profile_path":null,"credit_id":"52fe4230c3a36847f800a6c1","department":"Directing","job":"Director"},
                        {"adult":false,"gender":2,"id":525,"known_for_department":"Directing","name":"Christopher Nolan","original_name":"Christopher Nolan","popularity":9.3,"profile_path":null,"credit_id":"52fe4230c3a36847f800a71d","department":"Writing","job":"Screenplay"},
                        {"adult":false,"gender":2,"id":3893,"known_for_department":"Writing","name":"David S. Goyer","original_name":"David S. Goyer","popularity":3.1,"profile_path":null,"credit_id":"52fe4230c3a36847f800a6bb","department":"Writing","job":"Screenplay"}]}}
    """#

    static let unauthorized = #"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#
    static let rateLimited = #"{"status_code":25,"status_message":"Your request count (41) is over the allowed limit of 40.","success":false}"#

    override func setUpWithError() throws {
        server = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-tmdb-\(UUID().uuidString)")
        addTeardownBlock { [cacheDirectory] in try? FileManager.default.removeItem(at: cacheDirectory!) }
        server.route("/3/genre/movie/list", .init(json: Self.genres))
    }

    override func tearDown() {
        server.stop()
    }

    private func repository(key: String? = nil, language: String = "ko-KR") -> TMDBMovieRepository {
        TMDBMovieRepository(configuration: .init(apiKey: key ?? self.key, baseURL: server.baseURL.absoluteString,
                                                 language: language, cacheDirectory: cacheDirectory),
                            client: URLSessionHTTPClient(connectTimeout: 2))
    }

    /// Every value and the completion of `publisher`, waiting for it to finish.
    private func collect<T>(_ publisher: AnyPublisher<T, MovieError>, file: StaticString = #filePath, line: UInt = #line)
        -> (values: [T], error: MovieError?) {
        let done = expectation(description: "finished")
        var values: [T] = []
        var failure: MovieError?
        let lock = NSLock()
        let cancellable = publisher.sink(receiveCompletion: { completion in
            lock.lock()
            if case .failure(let error) = completion { failure = error }
            lock.unlock()
            done.fulfill()
        }, receiveValue: { value in
            lock.lock()
            values.append(value)
            lock.unlock()
        })
        wait(for: [done], timeout: 10)
        cancellable.cancel()
        lock.lock()
        defer { lock.unlock() }
        return (values, failure)
    }

    func testASearchPageMapsTitlesYearsAndGenresAndSendsTheLanguage() throws {
        server.route("/3/search/movie", .init(json: Self.searchPage1))
        let result = collect(repository().search(query: "Batman Begins", page: 1))
        XCTAssertNil(result.error)
        let page = try XCTUnwrap(result.values.first)
        XCTAssertEqual(result.values.count, 1)
        XCTAssertEqual(page.page, 1)
        XCTAssertEqual(page.totalPages, 2)
        XCTAssertEqual(page.totalResults, 3)
        XCTAssertTrue(page.hasMore)
        XCTAssertEqual(page.movies.first, MovieSummary(id: MovieID(source: .tmdb, value: 272), title: "Batman Begins",
                                                       year: 2005, genres: ["Action", "Crime", "Drama"], directors: [],
                                                       rating: 7.7), "the vote average is the list's rating")
        XCTAssertEqual(page.movies.last?.year, nil, "an empty release date is no year")
        XCTAssertEqual(page.movies.last?.rating, nil, "a vote average of no votes is no rating")
        let search = try XCTUnwrap(server.requests.first { $0.path == "/3/search/movie" })
        XCTAssertEqual(search.query["query"], "Batman Begins")
        XCTAssertEqual(search.query["page"], "1")
        XCTAssertEqual(search.query["language"], "ko-KR")
        XCTAssertEqual(search.query["api_key"], key)
        XCTAssertEqual(server.requests.first { $0.path == "/3/genre/movie/list" }?.query["language"], "ko-KR")
    }

    func testTheLastPageHasNoMore() throws {
        server.route("/3/search/movie", .init(json: Self.searchPage2))
        let page = try XCTUnwrap(collect(repository().search(query: "Batman Begins", page: 2)).values.first)
        XCTAssertFalse(page.hasMore)
        XCTAssertEqual(page.movies.map(\.title), ["Making Batman Begins"])
        XCTAssertEqual(page.movies.first?.genres, [])
    }

    func testRowsOfFilmsOpenedBeforeShowTheirDirectors() throws {
        server.route("/3/movie/272", .init(json: Self.details))
        server.route("/3/search/movie", .init(json: Self.searchPage1))
        let before = try XCTUnwrap(collect(repository().search(query: "Batman", page: 1)).values.last)
        XCTAssertEqual(before.movies.first?.directors, [])
        _ = collect(repository().details(MovieID(source: .tmdb, value: 272)))
        let after = try XCTUnwrap(collect(repository().search(query: "Batman", page: 1)).values.last)
        XCTAssertEqual(after.movies.first?.directors, ["Christopher Nolan"])
    }

    func testDetailsMapCreditsCountriesAndLanguages() throws {
        server.route("/3/movie/272", .init(json: Self.details))
        let movie = try XCTUnwrap(collect(repository().details(MovieID(source: .tmdb, value: 272))).values.first)
        XCTAssertEqual(movie.title, "Batman Begins")
        XCTAssertEqual(movie.year, 2005)
        XCTAssertEqual(movie.runtime, 140)
        XCTAssertEqual(movie.directors, ["Christopher Nolan"])
        XCTAssertEqual(movie.writers, ["Christopher Nolan", "David S. Goyer"])
        XCTAssertEqual(movie.cast, ["Christian Bale", "Michael Caine"])
        XCTAssertEqual(movie.countries, ["United Kingdom", "United States of America"])
        XCTAssertEqual(movie.languages, ["English", "اردو"])
        XCTAssertEqual(movie.ratings.voteAverage, 7.7)
        XCTAssertEqual(movie.ratings.voteCount, 21025)
        XCTAssertEqual(server.requests.first?.query["append_to_response"], "credits")
    }

    func testStatusesMapToTypedErrorsWithoutTheKey() {
        server.route("/3/search/movie", .init(status: 401, json: Self.unauthorized))
        let refused = collect(repository().search(query: "x", page: 1))
        XCTAssertEqual(refused.error, .unauthorized)
        server.route("/3/search/movie", .init(status: 429, json: Self.rateLimited))
        XCTAssertEqual(collect(repository().search(query: "y", page: 1)).error, .rateLimited)
        server.route("/3/movie/1", .init(status: 404, json: #"{"status_code":34,"status_message":"The resource you requested could not be found.","success":false}"#))
        XCTAssertEqual(collect(repository().details(MovieID(source: .tmdb, value: 1))).error, .notFound)
        server.route("/3/search/movie", .init(status: 503, json: "{}"))
        XCTAssertEqual(collect(repository().search(query: "z", page: 1)).error, .server(status: 503))
    }

    func testTheKeyIsInNoErrorDescriptionLoggedURLOrCacheFile() throws {
        let token = "eyJhbGciOiJIUzI1NiJ9.secret-read-token"
        for secret in [key, token] {
            // Sends through the live client and keeps every request and every failure, as a log would see them.
            let client = HTTPClientDouble(.forward(URLSessionHTTPClient(connectTimeout: 2)))
            let repository = TMDBMovieRepository(
                configuration: .init(apiKey: secret, baseURL: server.baseURL.absoluteString, language: "en-US",
                                     cacheDirectory: cacheDirectory),
                client: client)
            server.route("/3/search/movie", .init(status: 401, json: Self.unauthorized))
            XCTAssertEqual(collect(repository.search(query: "a", page: 1)).error, .unauthorized)
            server.route("/3/search/movie", .init(status: 429, json: Self.rateLimited))
            XCTAssertEqual(collect(repository.search(query: "b", page: 1)).error, .rateLimited)
            server.route("/3/search/movie", .init(json: Self.searchPage1, behaviour: .close))
            XCTAssertNotNil(collect(repository.search(query: "c", page: 1)).error)
            server.route("/3/search/movie", .init(json: Self.searchPage1))
            XCTAssertNil(collect(repository.search(query: "d", page: 1)).error)
            server.route("/3/movie/272", .init(json: Self.details))
            XCTAssertNil(collect(repository.details(MovieID(source: .tmdb, value: 272))).error)

            // The key really went out with the requests, so not finding it below means it was kept out.
            let sent = client.requests
            XCTAssertGreaterThanOrEqual(sent.count, 5)
            for request in sent {
                let carried = request.url.absoluteString.contains(secret) || request.headers.values.contains { $0.contains(secret) }
                XCTAssertTrue(carried, "\(request.url.path) was sent without the key")
                XCTAssertFalse(request.description.contains(secret), "the logged URL holds the key: \(request.description)")
            }
            XCTAssertGreaterThanOrEqual(client.failures.count, 3, "401, 429 and the closed connection")
            for failure in client.failures {
                XCTAssertFalse(failure.description.contains(secret))
                XCTAssertFalse(String(reflecting: failure).contains(secret))
                XCTAssertFalse(String(describing: TMDBMovieRepository.movieError(failure)).contains(secret))
            }
            // An error about the URL itself names it redacted.
            let invalid = HTTPError.invalidURL(sent[0].url.absoluteString)
            XCTAssertFalse(invalid.description.contains(secret), invalid.description)

            let files = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path)
            XCTAssertGreaterThanOrEqual(files.count, 3, "genres, a search page and details are cached")
            for file in files {
                XCTAssertFalse(file.contains(secret))
                let body = try String(contentsOf: cacheDirectory.appendingPathComponent(file), encoding: .utf8)
                XCTAssertFalse(body.contains(secret))
            }
        }
    }

    func testAPageZeroOrAnotherPageThanAskedIsABadResponse() {
        server.route("/3/search/movie", .init(json: #"{"page":0,"results":[],"total_pages":0,"total_results":0}"#))
        XCTAssertEqual(collect(repository().search(query: "zero", page: 1)).error, .badResponse)
        server.route("/3/search/movie", .init(json: #"{"page":-3,"results":[],"total_pages":2,"total_results":30}"#))
        XCTAssertEqual(collect(repository().search(query: "negative", page: 1)).error, .badResponse)
        // Asked for page 2, the server answers page 1 (the list would ask for page 2 again and again).
        server.route("/3/search/movie", .init(json: Self.searchPage1))
        XCTAssertEqual(collect(repository().search(query: "Batman Begins", page: 2)).error, .badResponse)
        server.route("/3/search/movie", .init(json: #"{"page":9223372036854775807,"results":[],"total_pages":9223372036854775807,"total_results":1}"#))
        XCTAssertEqual(collect(repository().search(query: "huge", page: 1)).error, .badResponse)
        server.route("/3/search/movie", .init(json: #"{"page":1,"results":[],"total_pages":3,"total_results":-1}"#))
        XCTAssertEqual(collect(repository().search(query: "minus", page: 1)).error, .badResponse)
    }

    func testABadPageIsNotCachedAndDoesNotReplaceACachedGoodOne() throws {
        server.route("/3/search/movie", .init(json: #"{"page":0,"results":[],"total_pages":0,"total_results":0}"#))
        XCTAssertEqual(collect(repository().search(query: "Batman Begins", page: 1)).error, .badResponse)
        server.route("/3/search/movie", .init(json: Self.searchPage1))
        let good = collect(repository().search(query: "Batman Begins", page: 1))
        XCTAssertNil(good.error)
        XCTAssertEqual(good.values.count, 1, "the bad page was not cached, so nothing came before the fresh one")
        server.route("/3/search/movie", .init(json: #"{"page":0,"results":[],"total_pages":0,"total_results":0}"#))
        let after = collect(repository().search(query: "Batman Begins", page: 1))
        XCTAssertEqual(after.values.map(\.movies.count), [2], "the cached page is sent")
        XCTAssertNil(after.error, "a fresh bad page after a cached one is dropped like a failed request")
        server.route("/3/search/movie", .init(json: Self.searchPage1))
        XCTAssertEqual(collect(repository().search(query: "Batman Begins", page: 1)).values.map(\.movies.count), [2, 2],
                       "the good page stayed in the cache")
    }

    func testAnAbsurdPageCountIsClampedToTMDBsLimit() throws {
        server.route("/3/search/movie", .init(json: #"{"page":1,"results":[],"total_pages":2147483647,"total_results":2147483647}"#))
        let page = try XCTUnwrap(collect(repository().search(query: "the", page: 1)).values.first)
        XCTAssertEqual(page.totalPages, 500)
        XCTAssertEqual(page.page, 1)
        server.route("/3/search/movie", .init(json: #"{"page":501,"results":[],"total_pages":900,"total_results":18000}"#))
        XCTAssertEqual(collect(repository().search(query: "the", page: 501)).error, .badResponse, "TMDB has no page 501")
    }

    func testMalformedAndTruncatedBodiesAreBadResponses() {
        server.route("/3/search/movie", .init(json: #"{"page":1,"results":[{"id":"not a number"}]}"#))
        XCTAssertEqual(collect(repository().search(query: "a", page: 1)).error, .badResponse)
        server.route("/3/search/movie", .init(json: "<html>Bad gateway</html>"))
        XCTAssertEqual(collect(repository().search(query: "c", page: 1)).error, .badResponse)
        // Last: libcurl may report a body cut short as a lost connection rather than a short body.
        server.route("/3/search/movie", .init(json: Self.searchPage1, behaviour: .truncate(bytes: 40)))
        let truncated = collect(repository().search(query: "b", page: 1)).error
        XCTAssertTrue(truncated == .badResponse || truncated == .connectionLost, "\(String(describing: truncated))")
    }

    func testACachedResponseComesFirstThenTheFreshOneAndStandsWhenOffline() throws {
        // An older first page, with other films.
        server.route("/3/search/movie", .init(json: Self.searchPage2.replacingOccurrences(of: #""page":2"#, with: #""page":1"#)))
        _ = collect(repository().search(query: "Batman Begins", page: 1))
        server.route("/3/search/movie", .init(json: Self.searchPage1))
        let both = collect(repository().search(query: "Batman Begins", page: 1))
        XCTAssertNil(both.error)
        XCTAssertEqual(both.values.map { $0.movies.first?.title }, ["Making Batman Begins", "Batman Begins"])
        // The server goes away: the cached page still answers, with its genres from the cached list.
        server.stop()
        let offline = collect(repository().search(query: "Batman Begins", page: 1))
        XCTAssertNil(offline.error)
        XCTAssertEqual(offline.values.map { $0.movies.first?.title }, ["Batman Begins"])
        XCTAssertEqual(offline.values.first?.movies.first?.genres, ["Action", "Crime", "Drama"])
        // Files are private and their names and contents don't hold the key.
        let files = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path)
        XCTAssertFalse(files.isEmpty)
        for file in files {
            XCTAssertFalse(file.contains(key))
            let url = cacheDirectory.appendingPathComponent(file)
            let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
            XCTAssertEqual(mode?.intValue, 0o600, file)
            XCTAssertFalse(try String(contentsOf: url, encoding: .utf8).contains(key))
        }
    }

    func testAnUnreachableServerIsOfflineAndAReadTokenGoesInTheHeader() throws {
        server.route("/3/search/movie", .init(json: Self.searchPage1))
        let token = "eyJhbGciOiJIUzI1NiJ9.test.token"
        _ = collect(repository(key: token).search(query: "Heat", page: 1))
        let request = try XCTUnwrap(server.requests.first { $0.path == "/3/search/movie" })
        XCTAssertNil(request.query["api_key"])
        XCTAssertEqual(request.headers["authorization"] ?? request.headers["Authorization"], "Bearer \(token)")
        server.stop()
        XCTAssertEqual(collect(repository().search(query: "never cached", page: 1)).error, .offline)
    }

    func testTheDiskCacheKeepsAtMostItsLimit() throws {
        let cache = ResponseCache(directory: cacheDirectory, limit: 10)
        for n in 0..<25 { cache.write(Data("\(n)".utf8), for: "/3/search/movie?query=\(n)") }
        let files = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path)
        XCTAssertLessThanOrEqual(files.count, 10)
        XCTAssertEqual(cache.read("/3/search/movie?query=24"), Data("24".utf8), "the newest stays")
    }

    func testEnvironmentChoosesTMDBOnlyWithAKey() {
        XCTAssertNil(TMDBMovieRepository.Configuration.from(environment: [:], language: "en-US"))
        XCTAssertNil(TMDBMovieRepository.Configuration.from(environment: ["TMDB_API_KEY": " "], language: "en-US"))
        let config = TMDBMovieRepository.Configuration.from(
            environment: ["TMDB_API_KEY": "k", "NIMBUS_TMDB_URL": "http://127.0.0.1:9", "XDG_CACHE_HOME": "/tmp/c"],
            language: "ja-JP")
        XCTAssertEqual(config?.baseURL, "http://127.0.0.1:9")
        XCTAssertEqual(config?.cacheDirectory?.path, "/tmp/c/nimbus/tmdb")
        XCTAssertEqual(TMDBMovieRepository.Configuration.from(environment: ["TMDB_API_KEY": "k"], language: "en-US")?.baseURL,
                       "https://api.themoviedb.org")
    }
}
