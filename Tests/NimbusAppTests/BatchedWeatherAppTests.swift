import Foundation
import Testing
import CombineSchedulers
import NimbusData
import NimbusDomain
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// An Open-Meteo server for batched requests, as the app sees it through its HTTP client: every place
/// asked about gets an item at the nearest 0.1° grid point (as the real API answers for its grid,
/// not for the place), with a temperature made from the place's coordinates, so a row showing
/// another place's temperature shows it. The items can come back reversed, one can be bad, or the
/// whole request can fail.
enum BatchForecast {
    enum Mode: Sendable {
        case inOrder
        case reversed
        /// The item at this index of the answer replaced with this JSON.
        case badItem(Int, String)
        /// An item for a place nobody asked about added at the end.
        case extraItem
        case failing(HTTPError)
    }

    /// The server's answer in `mode`.
    static func answer(_ mode: Mode) -> HTTPClientDouble.Answer {
        { request in
            if case .failing(let error) = mode { return .failure(error) }
            let places = zip(request.url.queryValues("latitude"), request.url.queryValues("longitude"))
                .compactMap { lat, lon in Double(lat).flatMap { lat in Double(lon).map { (lat, $0) } } }
            var items = places.map { item(latitude: $0.0, longitude: $0.1) }
            switch mode {
            case .reversed: items.reverse()
            case .badItem(let index, let json): if items.indices.contains(index) { items[index] = json }
            case .extraItem: items.append(item(latitude: -45.0, longitude: 170.0))
            case .inOrder, .failing: break
            }
            return .json("[\(items.joined(separator: ","))]")
        }
    }

    /// The temperature the server gives a place (°C, whole degrees, 0…39).
    static func temperature(latitude: Double, longitude: Double) -> Int {
        Int((abs(latitude * 7 + longitude * 3)).rounded()) % 40
    }

    static func item(latitude: Double, longitude: Double) -> String {
        let t = temperature(latitude: latitude, longitude: longitude)
        let gridLatitude = (latitude * 10).rounded() / 10, gridLongitude = (longitude * 10).rounded() / 10
        return #"{"latitude":\#(gridLatitude),"longitude":\#(gridLongitude),"utc_offset_seconds":0,"#
            + #""current":{"time":1781967600,"temperature_2m":\#(t),"weather_code":0},"#
            + #""daily":{"time":[1781913600],"weather_code":[0],"temperature_2m_max":[\#(t + 5)],"temperature_2m_min":[\#(t - 5)]}}"#
    }
}

@Suite @MainActor final class BatchedWeatherAppTests {
    private let temporary = TemporaryDirectories()

    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var client: HTTPClientDouble!
    /// How the server answers.
    private var mode = BatchForecast.Mode.inOrder { didSet { client.answer = BatchForecast.answer(mode) } }

    /// The app, started; `prepare` runs on its container before (the stores read what it saved).
    private func makeApp(_ environment: [String: String] = [:], location: GeoPoint? = nil,
                         prepare: (AppDIContainer) throws -> Void = { _ in }) throws -> (AppCoordinator, AppDIContainer) {
        scheduler = DispatchQueue.test
        client = HTTPClientDouble(BatchForecast.answer(.inOrder))
        var configuration = AppDIContainer.Configuration(
            environment: temporary.isolated(["NIMBUS_LANG": "en", "NIMBUS_UNITS": "metric"].merging(environment) { _, new in new }),
            scheduler: scheduler.eraseToAnyScheduler(), httpClient: client)
        configuration.location = location
        // Retries wait almost their longest: 2 s, then 4 s.
        configuration.retryJitter = { 0.99 }
        let container = try AppDIContainer(configuration: configuration)
        try prepare(container)
        let app = AppCoordinator(container: container)
        app.start()
        scheduler.advance()
        return (app, container)
    }

    /// The frame at `size` after it was shown and the rows stayed put long enough to be asked for.
    private func settle(_ app: AppCoordinator, _ size: Size, seconds: Int = 1) -> [String] {
        _ = app.render(size: size)
        app.frameShown()
        scheduler.advance(by: .seconds(seconds))
        return app.render(size: size).lines()
    }

    // MARK: Cities: every visible row

    @Test func testOnATallTerminalEveryVisibleRowGetsItsTemperatureInOneRequest() throws {
        let (app, _) = try makeApp()
        let size = Size(cols: 110, rows: 90)
        let lines = settle(app, size)
        // 90 rows less the tab bar, the search line, the column titles and the status bar.
        let rows = lines.dropFirst(3).prefix(86)
        #expect(client.urls.count == 1, "one request carries every visible row")
        #expect(try #require(client.urls.first).queryValues("latitude").count == 86)
        let withTemperature = rows.filter { $0.range(of: #"\d+°"#, options: .regularExpression) != nil }
        #expect(withTemperature.count == 86, "\(rows.joined(separator: "\n"))")
    }

    @Test func testEachRowShowsItsOwnPlacesTemperatureWhateverTheOrderOfTheAnswer() throws {
        let (app, container) = try makeApp()
        mode = .reversed
        let size = Size(cols: 80, rows: 24)
        let lines = settle(app, size)
        let search = SearchCitiesUseCase(repository: container.cityRepository)
        let matches = search.execute(query: "")
        for i in 0..<20 {
            let city = search.city(matches[i])
            let expected = BatchForecast.temperature(latitude: city.coordinate.latitude, longitude: city.coordinate.longitude)
            let line = lines[3 + i]
            #expect(line.contains(" \(expected)°"), "\(city.name) should show \(expected)°: \(line)")
        }
    }

    // MARK: Cities: rows whose weather could not be had

    @Test func testRowsWhoseRequestFailedForGoodSaySoAndAreAskedAgainOnROrWhenShownAgain() throws {
        let (app, _) = try makeApp()
        mode = .failing(.server(status: 500))
        let size = Size(cols: 80, rows: 24)
        var lines = settle(app, size)
        #expect(client.urls.count == 1)
        let rows = Array(lines.dropFirst(3).prefix(20))
        #expect((rows.filter { $0.contains("n/a") }.count) == 20, "every row asked about says it has no temperature:\n\(rows.joined(separator: "\n"))")
        #expect(lines[1].contains("Temperatures n/a: server error 500 · r retries"), "\(lines[1])")

        // `r` asks again for the rows on screen.
        mode = .inOrder
        app.handle(.char("r"))
        lines = settle(app, size)
        #expect(client.urls.count == 2)
        #expect((lines.dropFirst(3).prefix(20).filter { $0.contains("n/a") }.count) == 0, "\(lines.joined(separator: "\n"))")
        #expect((lines.dropFirst(3).prefix(20).filter { $0.range(of: #"\d+°"#, options: .regularExpression) != nil }.count) == 20)

        // A row that failed is asked again when it is shown again.
        mode = .failing(.server(status: 500))
        app.handle(.pageDown)
        lines = settle(app, size)
        #expect(client.urls.count == 3)
        #expect(lines.dropFirst(3).prefix(20).contains { $0.contains("n/a") })
        mode = .inOrder
        app.handle(.pageUp)
        _ = settle(app, size)
        app.handle(.pageDown)
        lines = settle(app, size)
        #expect(client.urls.count == 4, "the failed page is asked for again when it is shown again")
        #expect(!(lines.dropFirst(3).prefix(20).contains { $0.contains("n/a") }), "\(lines.joined(separator: "\n"))")
    }

    @Test func testRetriesExhaustedLeaveTheMarkNotABlank() throws {
        let (app, _) = try makeApp(["NIMBUS_LANG": "ko"])
        mode = .failing(.server(status: 503))
        let size = Size(cols: 80, rows: 24)
        var lines = settle(app, size)
        #expect(client.urls.count == 1)
        #expect(!lines.joined().contains("없음"), "no mark while the request is being retried")
        scheduler.advance(by: .seconds(200))
        lines = app.render(size: size).lines()
        #expect(client.urls.count == 3, "three tries in all")
        #expect((lines.dropFirst(3).prefix(20).filter { $0.contains("없음") }.count) == 20, "\(lines.joined(separator: "\n"))")
    }

    // MARK: Today: matched by coordinates, one bad item fails only its own row

    private static let liked = ["Shanghai", "Tokyo", "Busan", "Osaka", "Taipei", "Manila"]

    /// The app with Seoul as the nearest city and six liked cities, Shanghai first.
    private func makeTodayApp() throws -> (AppCoordinator, [City]) {
        var liked: [City] = []
        let (app, _) = try makeApp(location: GeoPoint(latitude: 37.5, longitude: 127.03)) { container in
            liked = try self.like(Self.liked, in: container)
        }
        return (app, liked)
    }

    private func like(_ names: [String], in container: AppDIContainer) throws -> [City] {
        let search = SearchCitiesUseCase(repository: container.cityRepository)
        let cities = names.map { name -> City in
            let matches = search.execute(query: name)
            return search.city(matches[0])
        }
        let likes = LikesStore(database: container.userDatabase)
        for city in cities.reversed() { try likes.setLiked(city.id, true) }
        return cities
    }

    /// The place rows of the Today tab, by city name.
    private func placeRows(_ app: AppCoordinator, _ size: Size) -> [String] {
        app.handle(.char("2"))
        _ = app.render(size: size)
        scheduler.advance(by: .seconds(1))
        return app.render(size: size).lines()
    }

    @Test func testTodayMatchesEachAnswerToItsPlaceByItsCoordinates() throws {
        let (app, liked) = try makeTodayApp()
        mode = .reversed
        let lines = placeRows(app, Size(cols: 100, rows: 30))
        let seoul = try #require(lines.first { $0.contains("Seoul") }, "\(lines.joined(separator: "\n"))")
        #expect(seoul.contains(" \(BatchForecast.temperature(latitude: 37.566, longitude: 126.9784))°"), "\(seoul)")
        for city in liked {
            let row = try #require(lines.first { $0.contains(city.name) }, "\(city.name + "\n" + lines.joined(separator: "\n"))")
            let t = BatchForecast.temperature(latitude: city.coordinate.latitude, longitude: city.coordinate.longitude)
            #expect(row.contains(" \(t)° ") && row.contains(" \(t + 5)° / \(t - 5)° "), "\(city.name): \(row)")
        }
    }

    @Test func testOneBadItemFailsOnlyItsOwnRowAndSaysSo() throws {
        let badItems: [(String, String)] = [
            ("current null", #"{"latitude":31.2,"longitude":121.5,"current":null,"daily":{"time":[1781913600],"temperature_2m_max":[30],"temperature_2m_min":[20]}}"#),
            ("string temperature", #"{"latitude":31.2,"longitude":121.5,"current":{"time":1781967600,"temperature_2m":"31"},"daily":{"time":[1781913600],"temperature_2m_max":[30],"temperature_2m_min":[20]}}"#),
            ("empty daily", #"{"latitude":31.2,"longitude":121.5,"current":{"time":1781967600,"temperature_2m":31},"daily":{"time":[],"temperature_2m_max":[],"temperature_2m_min":[]}}"#),
            ("null item", "null"),
        ]
        for (name, json) in badItems {
            let (app, liked) = try makeTodayApp()
            // Shanghai is the second place asked about (after the nearest city).
            mode = .badItem(1, json)
            let lines = placeRows(app, Size(cols: 100, rows: 30))
            let shanghai = try #require(lines.first { $0.contains("Shanghai") }, "\(name)")
            #expect(shanghai.contains("n/a"), "\(name): \(shanghai)")
            #expect(shanghai.contains("bad response"), "\(name): the row says why: \(shanghai)")
            for city in liked.dropFirst() {
                let row = try #require(lines.first { $0.contains(city.name) }, "\(city.name)")
                let t = BatchForecast.temperature(latitude: city.coordinate.latitude, longitude: city.coordinate.longitude)
                #expect(row.contains(" \(t)°"), "\(name): \(city.name) keeps its own weather: \(row)")
            }
            #expect(!lines.joined().contains("Server answer not understood"), "\(name): the section is not failed as a whole")
        }
    }

    @Test func testAnExtraItemIsIgnored() throws {
        let (app, liked) = try makeTodayApp()
        mode = .extraItem
        let lines = placeRows(app, Size(cols: 100, rows: 30))
        for city in liked {
            let row = try #require(lines.first { $0.contains(city.name) }, "\(city.name)")
            let t = BatchForecast.temperature(latitude: city.coordinate.latitude, longitude: city.coordinate.longitude)
            #expect(row.contains(" \(t)°"), "\(city.name): \(row)")
        }
    }

    @Test func testTodayPlacesWithoutWeatherSayWhyInsteadOfAnEllipsis() throws {
        let (app, _) = try makeTodayApp()
        mode = .failing(.server(status: 500))
        let lines = placeRows(app, Size(cols: 100, rows: 30))
        let shanghai = try #require(lines.first { $0.contains("Shanghai") })
        #expect(!shanghai.contains("…"), "\(shanghai)")
        #expect(shanghai.contains("n/a"), "\(shanghai)")
    }

    @Test func testMoreThanFiftyPlacesAllGetTheirWeather() throws {
        var cities: [City] = []
        let (app, _) = try makeApp { container in
            let search = SearchCitiesUseCase(repository: container.cityRepository)
            let matches = search.execute(query: "")
            let likes = LikesStore(database: container.userDatabase)
            cities = (0..<60).map { search.city(matches[$0]) }
            for city in cities.reversed() { try likes.setLiked(city.id, true) }
        }
        let lines = placeRows(app, Size(cols: 100, rows: 80))
        // A namesake is shown with its region ("Suzhou, Jiangsu").
        let placeLines = lines.filter { line in cities.contains { line.contains(" " + $0.name + " ") || line.contains(" " + $0.name + ",") } }
        #expect(placeLines.count >= 60)
        #expect(!(placeLines.contains { $0.contains("…") || $0.contains("n/a") }), "\(placeLines.joined(separator: "\n"))")
        let today = client.urls.filter { $0.query?.contains("daily") ?? false }
        #expect(today.count == 1, "one request for all 60")
        #expect(try #require(today.first).queryValues("latitude").count == 60)
    }
}
