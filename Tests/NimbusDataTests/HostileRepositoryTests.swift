import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// The weather and TMDB repositories against hostile answers: each failure kind comes out as its
/// own typed error, credentials stay with the configured origin, remote text is cut to size, and a
/// slow genre list never holds search results back.
final class HostileRepositoryTests: XCTestCase {
    private var server: FixtureServer!
    private var cacheDirectory: URL!
    private let key = "0123456789abcdef0123456789abcdef"
    private let token = "eyJhbGciOiJIUzI1NiJ9.hostile.token"

    override func setUpWithError() throws {
        server = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-hostile-\(UUID().uuidString)")
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    private func weather() -> OpenMeteoWeatherRepository {
        OpenMeteoWeatherRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                                   cache: nil, timeout: 3, now: { OpenMeteoWeatherRepositoryTests.fetchTime })
    }

    private func tmdb(key: String? = nil) -> TMDBMovieRepository {
        TMDBMovieRepository(configuration: .init(apiKey: key ?? self.key, baseURL: server.baseURL.absoluteString,
                                                 language: "en-US", cacheDirectory: cacheDirectory),
                            client: URLSessionHTTPClient(connectTimeout: 2))
    }

    private func collect<T, E: Error>(_ publisher: AnyPublisher<T, E>, timeout: TimeInterval = 15) -> (values: [T], error: E?) {
        let done = expectation(description: "completion")
        let box = LockedBox<([T], E?)>(([], nil))
        let c = publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let e) = completion { box.update { $0.1 = e } }
                done.fulfill()
            },
            receiveValue: { v in box.update { $0.0.append(v) } })
        wait(for: [done], timeout: timeout)
        c.cancel()
        return box.value
    }

    private var seoul: Coordinate { OpenMeteoWeatherRepositoryTests.seoul }
    static let page = #"{"page":1,"results":[{"id":272,"title":"Batman Begins","release_date":"2005-06-10","genre_ids":[28]}],"total_pages":1,"total_results":1}"#
    static let genres = #"{"genres":[{"id":28,"name":"Action"}]}"#

    // MARK: Each failure its own kind

    func testWeatherFailuresAreTypedByKind() {
        let garbage = Data((0..<3000).map { UInt8($0 % 253) })
        let cases: [(String, FixtureServer.Response, WeatherError)] = [
            ("gzip garbage", .init(headers: ["Content-Encoding": "gzip"], body: garbage), .badReply),
            ("reset", .init(body: OpenMeteoWeatherRepositoryTests.seoulJSON, behaviour: .reset(afterBytes: 200)), .connectionLost),
            ("HTTP/0.9", .init(body: Data("{}".utf8), behaviour: .raw), .badReply),
            ("gzip bomb", .init(behaviour: .gzipZeros(decodedBytes: 64 << 20)), .tooLarge),
            ("huge", .init(behaviour: .huge(bytes: 32 << 20, announced: true)), .tooLarge),
            ("redirect away", .init(status: 302, headers: ["Location": "http://localhost:1/v1/forecast"]), .redirected),
        ]
        for (name, response, expected) in cases {
            server.route("/v1/forecast", response)
            XCTAssertEqual(collect(weather().forecast(for: seoul)).error, expected, name)
        }
    }

    func testTMDBFailuresAreTypedByKind() {
        server.route("/3/genre/movie/list", .init(json: Self.genres))
        let cases: [(String, FixtureServer.Response, MovieError)] = [
            ("oversized", .init(behaviour: .huge(bytes: 64 << 20, announced: false)), .tooLarge),
            ("gzip garbage", .init(headers: ["Content-Encoding": "gzip"], body: Data(repeating: 7, count: 500)), .badReply),
            ("gzip bomb", .init(behaviour: .gzipZeros(decodedBytes: 64 << 20)), .tooLarge),
            ("reset", .init(body: Data(Self.page.utf8), behaviour: .reset(afterBytes: 20)), .connectionLost),
            ("timed out", .init(behaviour: .hang), .timedOut),
        ]
        for (name, response, expected) in cases {
            server.route("/3/search/movie", response)
            XCTAssertEqual(collect(tmdb().search(query: name, page: 1)).error, expected, name)
        }
    }

    // MARK: Credentials stay home

    func testNeitherTheV4TokenNorTheV3KeyFollowsARedirectToAnotherHost() throws {
        let other = try FixtureServer()
        defer { other.stop() }
        other.fallback { _ in .init(json: Self.page) }
        server.route("/3/genre/movie/list", .init(json: Self.genres))
        // 127.0.0.1:A → localhost:B, as seen in the attack.
        server.route("/3/search/movie", handler: { request in
            .init(status: 302, headers: ["Location": "http://localhost:\(other.port)/3/search/movie?" + (request.target.split(separator: "?").last ?? "")])
        })
        server.route("/3/movie/272", .init(status: 301, headers: ["Location": "file:///etc/passwd"]))
        for credential in [token, key] {
            XCTAssertEqual(collect(tmdb(key: credential).search(query: "heat", page: 1)).error, .redirected)
            XCTAssertEqual(collect(tmdb(key: credential).details(MovieID(source: .tmdb, value: 272))).error, .redirected)
        }
        XCTAssertEqual(other.requestsSoFar().count, 0, "the other host never hears from us")
        // The configured origin did get them.
        XCTAssertTrue(server.requests.contains { $0.headers["authorization"] == "Bearer \(token)" })
        XCTAssertTrue(server.requests.contains { $0.query["api_key"] == key })
    }

    // MARK: Genres never hold results back

    func testASlowGenreListDoesNotHoldTheFirstPageBack() {
        server.route("/3/genre/movie/list", .init(json: Self.genres, behaviour: .delay(1.5)))
        server.route("/3/search/movie", .init(json: Self.page))
        let repository = tmdb()
        let start = Date()
        let first = collect(repository.search(query: "batman", page: 1))
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertNil(first.error)
        XCTAssertEqual(first.values.last?.movies.first?.title, "Batman Begins")
        XCTAssertEqual(first.values.last?.movies.first?.genres, [], "the genres were not there yet")
        XCTAssertLessThan(elapsed, 1.2, "results came before the genre list")
        // The genre request went on after the search ended: once its answer (1.5 s late) is in, a search has the names.
        waitUntil("a search with the genre names") {
            collect(repository.search(query: "begins", page: 1)).values.last?.movies.first?.genres == ["Action"]
        }
        XCTAssertEqual(server.requests.filter { $0.path == "/3/genre/movie/list" }.count, 1)
    }

    // MARK: Remote text cut to size

    func testRemoteTextIsCutToSaneLengthsAtTheBoundary() throws {
        let flood = String(repeating: "a\u{301}", count: 200_000)
        let zalgo = "Z" + String(repeating: "\u{316}", count: 5_000)
        let overview = String(repeating: "word ", count: 10_000)
        let details: [String: Any] = [
            "id": 272, "title": flood, "overview": overview, "release_date": flood, "runtime": -5, "vote_average": 1e300,
            "genres": (0..<1000).map { ["name": "g\($0)"] },
            "credits": ["cast": [["name": zalgo]], "crew": [["name": flood, "job": "Director"]]],
        ]
        server.route("/3/movie/272", .init(body: try JSONSerialization.data(withJSONObject: details)))
        let movie = try XCTUnwrap(collect(tmdb().details(MovieID(source: .tmdb, value: 272))).values.first)
        XCTAssertEqual(movie.title.unicodeScalars.count, RemoteText.name)
        XCTAssertEqual(movie.overview?.unicodeScalars.count, RemoteText.overview)
        XCTAssertLessThanOrEqual(movie.cast.first?.unicodeScalars.count ?? 0, 1 + RemoteText.maxCombiningMarks)
        XCTAssertEqual(movie.directors.first?.unicodeScalars.count, RemoteText.name)
        XCTAssertEqual(movie.genres.count, RemoteText.maxItems)
        XCTAssertNil(movie.runtime)
        XCTAssertNil(movie.ratings.voteAverage)
        XCTAssertNil(movie.year)
    }

    func testClipLeavesOrdinaryTextAlone() {
        for text in ["Batman Begins", "기생충", "千と千尋の神隠し", "Amélie", "Hà Nội", ""] {
            XCTAssertEqual(RemoteText.clip(text, to: RemoteText.name), text)
        }
        XCTAssertEqual(RemoteText.clip("abcdef", to: 3), "abc")
    }
}
