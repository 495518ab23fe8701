import Foundation
import Testing
import CombineSchedulers
import NimbusData
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// The Movies and Wishlist tabs in the whole app: every size, and TMDB through the loopback fixture server.
@Suite @MainActor struct MoviesAppTests {
    private let temporary = TemporaryDirectories()

    /// The app offline, unless given a network (`LiveHTTPClient`, the one the real app runs on).
    private func makeApp(_ environment: [String: String], httpClient: HTTPClient = OfflineHTTPClient()) throws
        -> (AppCoordinator, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        let container = try AppDIContainer(configuration: .init(
            environment: temporary.isolated(environment), scheduler: scheduler.eraseToAnyScheduler(), httpClient: httpClient))
        let app = AppCoordinator(container: container)
        app.start()
        scheduler.advance()
        return (app, scheduler)
    }

    private func screen(_ app: AppCoordinator) -> String { app.render(size: Size(cols: 80, rows: 24)).text() }

    /// Advances virtual time and waits real time (for the network) until `text` shows, up to 10 s.
    private func waitFor(_ text: String, _ app: AppCoordinator, _ scheduler: TestSchedulerOf<DispatchQueue>,
                         sourceLocation: SourceLocation = #_sourceLocation) {
        let deadline = Date().addingTimeInterval(10)
        while !screen(app).contains(text) && Date() < deadline {
            scheduler.advance(by: .milliseconds(50))
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
        #expect(screen(app).contains(text), "expected \"\(text)\" on\n\(screen(app))", sourceLocation: sourceLocation)
    }

    @Test func testEverySizeDrawsTheMovieScreensInKorean() throws {
        let (app, scheduler) = try makeApp(["NIMBUS_LANG": "ko"])
        app.handle(.backTab)
        app.handle(.backTab)
        app.handle(.char("/"))
        for c in "the" { app.handle(.char(c)) }
        scheduler.advance(by: .seconds(1))
        app.handle(.enter)
        app.handle(.char("w"))
        var sizes = [Size(cols: 500, rows: 200), Size(cols: 1, rows: 1), Size(cols: 2, rows: 1), Size(cols: 1, rows: 2)]
        for cols in stride(from: 1, through: 120, by: 9) {
            for rows in stride(from: 1, through: 40, by: 4) { sizes.append(Size(cols: cols, rows: rows)) }
        }
        func sweep() { for size in sizes { #expect(app.render(size: size).size == size) } }
        sweep()
        app.handle(.enter)   // the detail
        scheduler.advance()
        sweep()
        app.handle(.escape)
        app.handle(.tab)     // the wishlist, with its confirmation open
        app.handle(.char("D"))
        scheduler.advance()
        sweep()
        #expect(screen(app).contains("모두 삭제할까요?"), "\(screen(app))")
    }

    @Test func testAnUnreadableDatabaseIsMovedAsideWithANoticeOnTheWishlist() throws {
        let env = temporary.isolated([:])
        let directory = URL(fileURLWithPath: env["XDG_DATA_HOME"]!).appendingPathComponent("nimbus")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: directory.appendingPathComponent("nimbus.sqlite"))
        let (app, _) = try makeApp(env)
        app.handle(.backTab)
        #expect(screen(app).contains("Your saved data could not be read"), "\(screen(app))")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains { $0.hasPrefix("nimbus.sqlite.corrupt-") }, "\(files)")
    }

    @Test func testWithAKeyFilmsComeFromTMDBSanitisedAndTheStatusBarSaysSo() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/3/genre/movie/list", .init(json: #"{"genres":[{"id":28,"name":"액션"},{"id":80,"name":"범죄"}]}"#))
        server.route("/3/search/movie", .init(json: #"""
        {"page":1,"results":[{"adult":false,"backdrop_path":null,"genre_ids":[28,80],"id":272,"original_language":"en",
          "original_title":"Batman Begins","overview":"","popularity":14.6,"poster_path":null,"release_date":"2005-06-10",
          "title":"배트맨 비긴즈\u001b]0;pwned\u0007\u001b[2J","video":false,"vote_average":7.7,"vote_count":21025}],
         "total_pages":1,"total_results":1}
        """#))
        server.route("/3/movie/272", .init(json: #"""
        {"id":272,"title":"배트맨 비긴즈","release_date":"2005-06-10","runtime":140,"genres":[{"id":28,"name":"액션"}],
         "overview":"\u001b[31m부모의 죽음\u001b[0m 이후 브루스 웨인은 범죄와 싸우기로 한다.","vote_average":7.7,"vote_count":21025,
         "spoken_languages":[{"english_name":"English","iso_639_1":"en","name":"English"}],
         "production_countries":[{"iso_3166_1":"US","name":"United States of America"}],
         "credits":{"cast":[{"name":"Christian Bale","character":"Bruce Wayne"}],"crew":[{"name":"Christopher Nolan","job":"Director","department":"Directing"}]}}
        """#))
        let key = "0123456789abcdef0123456789abcdef"
        let (app, scheduler) = try makeApp(["NIMBUS_LANG": "ko", "TMDB_API_KEY": key,
                                            "NIMBUS_TMDB_URL": server.baseURL.absoluteString],
                                           httpClient: LiveHTTPClient())
        app.handle(.backTab)
        app.handle(.backTab)
        waitFor("TMDB · ko-KR", app, scheduler)
        waitFor("TMDB에서 검색합니다", app, scheduler)
        app.handle(.char("/"))
        for c in "batman" { app.handle(.char(c)) }
        waitFor("› 배트맨 비긴즈", app, scheduler)
        #expect(screen(app).contains("액션, 범죄"), "\(screen(app))")
        #expect(!screen(app).contains("pwned"), "an OSC title sequence never reaches the screen")
        #expect(!screen(app).contains("\u{1B}"))
        app.handle(.enter)
        app.handle(.enter)
        waitFor("부모의 죽음 이후", app, scheduler)
        #expect(screen(app).contains("Christopher Nolan"), "\(screen(app))")
        #expect(!screen(app).contains("[31m"), "\(screen(app))")
        #expect((server.requests.first { $0.path == "/3/search/movie" }?.query["language"]) == "ko-KR")
        #expect(!screen(app).contains(key))
    }
}
