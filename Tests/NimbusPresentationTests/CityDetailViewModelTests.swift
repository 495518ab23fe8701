import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// A value of a batched answer, found by the place it is for.
protocol PlacedWeather: Sendable { var coordinate: Coordinate { get } }
extension CurrentTemperature: PlacedWeather {}
extension DayRange: PlacedWeather {}
extension PlaceWeather: PlacedWeather {}

extension Array where Element: PlacedWeather {
    /// The values as a batched answer gives them: each a success, keyed by its place.
    var answers: PlaceAnswers<Element> {
        Dictionary(map { ($0.coordinate, .success($0)) }, uniquingKeysWith: { _, new in new })
    }
}

extension Forecast {
    /// Seoul on 21 June 2026, 09:00 KST, from 00:00 for 48 hours and 3 days.
    static func sample(temperature: Double = 23.4) -> Forecast {
        let midnight = Date(timeIntervalSince1970: 1_781_967_600) // 2026-06-21 00:00 KST
        return Forecast(
            coordinate: City.seoul.coordinate, utcOffsetSeconds: 32400,
            current: CurrentConditions(time: midnight.addingTimeInterval(9 * 3600), temperature: temperature,
                                       apparentTemperature: 24.1, humidity: 64, pressure: 1008.6, precipitation: 0,
                                       windSpeed: 9.7, windDirection: 248, condition: .partlyCloudy, isDay: true),
            hourly: (0..<48).map { HourlyForecast(time: midnight.addingTimeInterval(Double($0) * 3600),
                                                  temperature: 17 + Double($0 % 24) / 2,
                                                  precipitationProbability: $0 % 24 == 12 ? 80 : 0) },
            daily: (0..<3).map { (i: Int) -> DailyForecast in
                DailyForecast(day: LocalDate(year: 2026, month: 6, day: 21 + i)!, high: 28 + Double(i),
                              low: 17, condition: i == 1 ? .rain : .mainlyClear, sunrise: nil, sunset: nil)
            })
    }
}

final class CityDetailViewModelTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var repository: ScriptedWeatherRepository!
    private var likes: InMemoryLikes!
    private let events = PassthroughSubject<CityDetailViewModel.Event, Never>()
    /// 2026-06-21 09:12 KST.
    static let now = Date(timeIntervalSince1970: 1_782_000_720)

    override func setUp() {
        scheduler = DispatchQueue.test
        repository = ScriptedWeatherRepository()
        likes = InMemoryLikes()
    }

    /// `weather` replaces the scripted repository, e.g. with one that must not be called.
    private func makeOutput(_ language: Language = .en, units: UnitSystem = .metric,
                            weather: WeatherRepository? = nil, display: DisplayUnits? = nil) -> CityDetailViewModel.Output {
        let l10n = L10n.bundled(language)
        let viewModel = CityDetailViewModel(
            city: .seoul, forecast: GetForecastUseCase(repository: weather ?? repository!), likes: LikeCityUseCase(repository: likes),
            format: WeatherFormatter(l10n: l10n, units: units, zones: SystemZoneDatabase.forTests), display: display,
            scheduler: scheduler.eraseToAnyScheduler(), now: { Self.now })
        return viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
    }

    /// The weather part and notice of each state, in a form that reads well in failures.
    private func summary(_ state: CityDetailState) -> String {
        let weather: String
        switch state.weather {
        case .loading: weather = "loading"
        case .loaded(let panel): weather = "loaded \(panel.temperature)"
        case .unavailable(let message): weather = "unavailable: \(message)"
        }
        return weather + (state.notice.map { " | \($0)" } ?? "") + (state.liked ? " | liked" : "")
    }

    private let fresh = Fetched(value: Forecast.sample(), fetchedAt: now, isCached: false)
    private let cached = Fetched(value: Forecast.sample(temperature: 21), fetchedAt: now.addingTimeInterval(-12 * 60), isCached: true)

    func testNothingHappensBeforeTheScreenAppears() {
        let state = TestObserver(makeOutput().state)
        scheduler.advance(by: .seconds(5))
        XCTAssertTrue(state.values.isEmpty)
        XCTAssertTrue(repository.requests.isEmpty)
    }

    func testNoForecastIsAskedForUntilTheScreenAppears() {
        let output = makeOutput(weather: WeatherRepositoryDouble.failing())
        let state = TestObserver(output.state.map(summary))
        let route = TestObserver(output.route)
        scheduler.advance(by: .seconds(5))
        state.assertValues([])
        route.assertValues([])
    }

    func testLoadingThenLoaded() throws {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        repository.subject.send(fresh)
        repository.subject.send(completion: .finished)
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), ["loading", "loaded 23°C"])
        XCTAssertEqual(repository.requests, [City.seoul.coordinate])
        let last = try XCTUnwrap(state.last)
        XCTAssertEqual(last.header.name, "Seoul")
        XCTAssertNil(last.header.localName)
        XCTAssertEqual(last.header.country, "South Korea")
        XCTAssertEqual(last.header.coordinates, "37.57°N 126.98°E")
        XCTAssertEqual(last.header.population, "Population 10,349,312")
        XCTAssertEqual(last.header.localTime, "Sun, Jun 21 09:12")
        XCTAssertEqual(last.sun.text, "Sunrise 05:11 · Sunset 19:57 · Day 14 h 46 min")
        guard case .loaded(let panel) = last.weather else { return XCTFail() }
        XCTAssertEqual(panel.feelsLike, "feels like 24°C")
        XCTAssertEqual(panel.condition, "Partly cloudy")
        XCTAssertEqual(panel.wind, "Wind 10 km/h →")
        XCTAssertEqual(panel.humidity, "Humidity 64%")
        XCTAssertEqual(panel.pressure, "Pressure 1009 hPa")
        XCTAssertEqual(panel.precipitation, "Precipitation 0.0 mm")
        XCTAssertEqual(panel.next24.temperatures.count, 24)
        XCTAssertEqual(panel.next24.temperatures.first, 21.5) // the 09:00 hour
        XCTAssertEqual(panel.next24.min, "17°")
        XCTAssertEqual(panel.next24.max, "29°")
        XCTAssertEqual(panel.days.map(\.weekday), ["Sun", "Mon", "Tue"])
        XCTAssertEqual(panel.days.map(\.high), ["28°", "29°", "30°"])
        XCTAssertEqual(panel.days[1].condition, "Rain")
    }

    func testAChangeOfUnitsOrClockInTheSettingsShowsInTheNextState() throws {
        let display = DisplayUnits(system: .metric)
        let state = TestObserver(makeOutput(display: display).state)
        events.send(.appeared)
        repository.subject.send(fresh)
        repository.subject.send(completion: .finished)
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), ["loading", "loaded 23°C"])
        XCTAssertEqual(state.last?.header.localTime, "Sun, Jun 21 09:12")
        display.value = .init(system: .imperial, clock: .h12)
        XCTAssertEqual(state.values.count, 3, "one new state, at once")
        let last = try XCTUnwrap(state.last)
        guard case .loaded(let panel) = last.weather else { return XCTFail() }
        XCTAssertEqual(panel.temperature, "74°F")
        XCTAssertEqual(panel.wind, "Wind 6 mph →")
        XCTAssertEqual(panel.pressure, "Pressure 29.78 inHg")
        XCTAssertEqual(last.header.localTime, "Sun, Jun 21 9:12 AM")
        XCTAssertEqual(last.sun.text, "Sunrise 5:11 AM · Sunset 7:57 PM · Day 14 h 46 min")
        display.value = .init(system: .metric, temperature: .f, wind: .ms)
        guard case .loaded(let mixed) = state.last?.weather else { return XCTFail() }
        XCTAssertEqual(mixed.temperature, "74°F")
        XCTAssertEqual(mixed.wind, "Wind 3 m/s →")
        XCTAssertEqual(mixed.pressure, "Pressure 1009 hPa")
        XCTAssertEqual(state.last?.header.localTime, "Sun, Jun 21 09:12")
    }

    func testCachedThenFresh() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        repository.subject.send(cached)
        scheduler.advance()
        repository.subject.send(fresh)
        repository.subject.send(completion: .finished)
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), [
            "loading",
            "loaded 21°C | Updated 12 min ago · refreshing…",
            "loaded 23°C",
        ])
    }

    func testOfflineWithACacheShowsItsAge() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        repository.subject.send(cached)
        repository.subject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), [
            "loading",
            "loaded 21°C | Updated 12 min ago · refreshing…",
            "loaded 21°C | Offline, updated 12 min ago",
        ])
    }

    func testABrokenConnectionWithoutACacheSaysSoRatherThanOffline() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        repository.subject.send(completion: .failure(.connectionLost))
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), [
            "loading",
            "unavailable: The connection to the weather server broke off. Press r to try again.",
        ])
    }

    func testOfflineWithoutACacheSaysSoAndKeepsTheLocalParts() throws {
        let state = TestObserver(makeOutput(.ko).state)
        events.send(.appeared)
        repository.subject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), [
            "loading",
            "unavailable: 오프라인: 이 도시의 저장된 날씨가 아직 없습니다. r 키로 다시 시도하세요.",
        ])
        let last = try XCTUnwrap(state.last)
        XCTAssertEqual(last.header.localName, "서울")
        XCTAssertEqual(last.header.country, "대한민국")
        XCTAssertEqual(last.sun.text, "일출 05:11 · 일몰 19:57 · 낮 길이 14시간 46분")
    }

    func testErrorThenRetryThenLoaded() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        repository.subject.send(completion: .failure(.server(status: 500)))
        scheduler.advance()
        events.send(.refreshRequested)
        scheduler.advance()
        repository.subject.send(fresh)
        repository.subject.send(completion: .finished)
        scheduler.advance()
        // (After `r`, the fresh forecast says it is new: `r` always answers with something visible.)
        XCTAssertEqual(state.values.map(summary), [
            "loading",
            "unavailable: The weather server failed (HTTP 500). Press r to try again.",
            "loading",
            "loaded 23°C | Updated just now",
        ])
        XCTAssertEqual(repository.requests.count, 2)
    }

    func testEveryErrorHasItsOwnMessage() {
        let errors: [WeatherError] = [.timedOut, .rateLimited, .badResponse, .badConfiguration]
        var messages: [String] = []
        for error in errors {
            let state = TestObserver(makeOutput(.ja).state)
            events.send(.appeared)
            repository.subject.send(completion: .failure(error))
            scheduler.advance()
            messages.append(state.last.map(summary) ?? "")
        }
        XCTAssertEqual(messages, [
            "unavailable: 天気サーバーが時間内に応答しませんでした。 r キーで再試行します。",
            "unavailable: 天気サーバーへのリクエストが多すぎます。しばらくお待ちください。 r キーで再試行します。",
            "unavailable: 天気サーバーが予報ではない応答を返しました。 r キーで再試行します。",
            "unavailable: NIMBUS_WEATHER_URL は使用できるアドレスではありません。 r キーで再試行します。",
        ])
    }

    func testARefreshWhileLoadedKeepsTheDataAndCancelsTheOldRequest() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        repository.subject.send(fresh)
        scheduler.advance()
        events.send(.refreshRequested)
        scheduler.advance()
        XCTAssertEqual(repository.cancellations, 1, "the first request, still open, is cancelled by the refresh")
        XCTAssertEqual(state.values.map(summary), [
            "loading",
            "loaded 23°C",
            "loaded 23°C | Updated just now · refreshing…",
        ])
    }

    func testLeavingCancelsTheRequestAndRoutesBack() {
        let output = makeOutput()
        let state = TestObserver(output.state)
        let route = TestObserver(output.route)
        events.send(.appeared)
        scheduler.advance()
        events.send(.leaveRequested)
        scheduler.advance()
        XCTAssertEqual(repository.cancellations, 1)
        repository.subject.send(fresh)
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), ["loading"])
        route.assertValues([.back])
    }

    func testLikeTogglesAndPersists() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        events.send(.likeToggled)
        scheduler.advance()
        events.send(.likeToggled)
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), ["loading", "loading | liked", "loading"])
        XCTAssertEqual(likes.ids, [])
        events.send(.likeToggled)
        scheduler.advance()
        XCTAssertEqual(likes.ids, [City.seoul.id])
    }

    func testAFailedLikeSaysSoAndKeepsTheOldState() {
        likes.failWrites = true
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        events.send(.likeToggled)
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), [
            "loading",
            "loading | Could not save the like: the database refused the write.",
        ])
        XCTAssertEqual(likes.ids, [])
    }

    func testImperialUnits() throws {
        let state = TestObserver(makeOutput(units: .imperial).state)
        events.send(.appeared)
        repository.subject.send(fresh)
        scheduler.advance()
        guard case .loaded(let panel) = try XCTUnwrap(state.last).weather else { return XCTFail() }
        XCTAssertEqual(panel.temperature, "74°F")
        XCTAssertEqual(panel.wind, "Wind 6 mph →")
        XCTAssertEqual(panel.pressure, "Pressure 29.78 inHg")
        XCTAssertEqual(panel.days.first?.high, "82°")
    }

    func testUnitsFollowTheRegionUnlessOverridden() {
        XCTAssertEqual(UnitSystem.resolve(environment: [:], language: .en), .metric, "no region: metric, as Open-Meteo")
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "C"], language: .en), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "en"], language: .en), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "en_LR.UTF-8"], language: .en), .imperial)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LC_MEASUREMENT": "my_MM"], language: .en), .imperial)
        XCTAssertEqual(UnitSystem.resolve(environment: [:], language: .ko), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "en_US.UTF-8"], language: .en), .imperial)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "en_GB.UTF-8"], language: .en), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "en_US.UTF-8", "LC_ALL": "ko_KR"], language: .ko), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "ko_KR.UTF-8", "NIMBUS_LANG": "en"], language: .en), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "en_US.UTF-8", "NIMBUS_UNITS": "metric"], language: .en), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "C", "NIMBUS_UNITS": "IMPERIAL"], language: .ko), .imperial)
        XCTAssertEqual(UnitSystem.resolve(environment: ["LANG": "C", "NIMBUS_UNITS": "kelvin"], language: .ja), .metric)
    }

    func testSparklinesAndArrows() {
        XCTAssertEqual(Sparkline.line([0, 1, 2, 3, 4, 5, 6, 7]), "▁▂▃▄▅▆▇█")
        XCTAssertEqual(Sparkline.line([nil, 5, 5]), " ▄▄")
        XCTAssertEqual(Sparkline.line([0, 100, nil], low: 0, high: 100), "▁█ ")
        XCTAssertEqual(WeatherFormatter.arrow(towards: 0), "↑")
        XCTAssertEqual(WeatherFormatter.arrow(towards: 270 + 360), "←")
        XCTAssertEqual(WeatherFormatter.arrow(towards: -45), "↖")
    }
}

final class CityNameChoiceTests: XCTestCase {
    func testOneRuleForWholeCitiesAndListRows() {
        let names = CityLocalNames(japanese: "ソウル", korean: "서울")
        let seoul = City(id: 1, name: "Seoul", countryCode: "KR", latitude: 37.5, longitude: 127, population: 1,
                         timeZone: "Asia/Seoul", alternateNames: ["경성", "서울", "ソウル"], localNames: names)
        let row = CitySummary(id: 1, name: "Seoul", countryCode: "KR", population: 1, latitude: 37.5, longitude: 127,
                              timeZone: "Asia/Seoul", localNames: names)
        XCTAssertEqual(Language.allCases.map { CityNameChoice.name(seoul, language: $0) }, ["Seoul", "서울", "ソウル"])
        XCTAssertEqual(Language.allCases.map { CityNameChoice.name(row, language: $0) }, ["Seoul", "서울", "ソウル"])
        XCTAssertNil(CityNameChoice.local(names, language: .en))
    }

    func testTheCanonicalNameWhereTheCatalogueHasNoLocalName() {
        // Alternates alone choose nothing: the choice is the catalogue's (scripts/citynames.py).
        let city = City(id: 2, name: "Toufen", countryCode: "TW", latitude: 24.7, longitude: 120.9, population: 1,
                        timeZone: "Asia/Taipei", alternateNames: ["頭份", "터우펀"])
        XCTAssertEqual(Language.allCases.map { CityNameChoice.name(city, language: $0) }, ["Toufen", "Toufen", "Toufen"])
        XCTAssertEqual(CityNameChoice.local(CityLocalNames(japanese: "台北", korean: nil), language: .ko), nil)
    }
}
