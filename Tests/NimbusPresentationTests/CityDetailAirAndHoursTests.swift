import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

extension AirQuality {
    static func sample(us: Double? = 57, european: Double? = 38, uvMax: Double? = 7.95) -> AirQuality {
        AirQuality(time: CityDetailAirAndHoursTests.now, usIndex: us, europeanIndex: european, pm2_5: 16.4, pm10: 27.9,
                   ozone: 88, uvIndex: 4.35, uvIndexMax: uvMax)
    }
}

/// The detail's air section beside the forecast, and the hours ahead (sky, what falls, the axis).
final class CityDetailAirAndHoursTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var weather: ScriptedWeatherRepository!
    private var air: ScriptedAirRepository!
    private let events = PassthroughSubject<CityDetailViewModel.Event, Never>()
    /// 2026-06-21 09:12 KST.
    static let now = Date(timeIntervalSince1970: 1_782_000_720)
    static let paris = City(id: 2988507, name: "Paris", countryCode: "FR", latitude: 48.85341, longitude: 2.3488,
                            population: 2_138_551, timeZone: "Europe/Paris", alternateNames: [])

    override func setUp() {
        scheduler = DispatchQueue.test
        weather = ScriptedWeatherRepository()
        air = ScriptedAirRepository()
    }

    private func makeViewModel(_ language: Language = .en, city: City = .seoul, units: UnitSystem = .metric,
                               clock: UserSettings.Clock = .h24) -> CityDetailViewModel {
        let display = DisplayUnits(system: units)
        display.value = .init(system: units, clock: clock)
        return CityDetailViewModel(
            city: city, forecast: GetForecastUseCase(repository: weather), air: GetAirQualityUseCase(repository: air),
            likes: nil, format: WeatherFormatter(l10n: L10n.bundled(language), units: units, zones: SystemZoneDatabase.forTests),
            display: display, scheduler: scheduler.eraseToAnyScheduler(), now: { Self.now })
    }

    private func states(_ viewModel: CityDetailViewModel) -> TestObserver<CityDetailState> {
        TestObserver(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state)
    }

    /// "weather | air" for each state.
    private func summary(_ state: CityDetailState) -> String {
        let weather: String
        switch state.weather {
        case .loading: weather = "loading"
        case .loaded(let panel): weather = "loaded \(panel.temperature)"
        case .unavailable: weather = "unavailable"
        }
        let air: String
        switch state.air {
        case nil: air = "none"
        case .loading?: air = "air loading"
        case .loaded(let panel)?:
            air = [panel.index, panel.band ?? "-", panel.uv ?? "-", panel.notice ?? ""].joined(separator: " / ")
        case .unavailable(let message)?: air = message
        }
        return weather + " | " + air
    }

    private var fresh: Fetched<Forecast> { Fetched(value: .sample(), fetchedAt: Self.now, isCached: false) }

    func testBothAreAskedForAtOnceAndTheForecastDrawsWithoutWaitingForTheAir() {
        let state = states(makeViewModel())
        events.send(.appeared)
        scheduler.advance()
        XCTAssertEqual(weather.requests, [City.seoul.coordinate])
        XCTAssertEqual(air.requests, [City.seoul.coordinate])
        weather.subject.send(fresh)
        weather.subject.send(completion: .finished)
        scheduler.advance()
        air.subject.send(Fetched(value: .sample(), fetchedAt: Self.now, isCached: false))
        air.subject.send(completion: .finished)
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), [
            "loading | air loading",
            "loaded 23°C | air loading",
            "loaded 23°C | US AQI 57 / moderate / UV max 8, very high / ",
        ])
    }

    func testTheAirIsAskedForOnTheWorkQueueSoTheFirstFrameNeverWaitsForIt() {
        let work = DispatchQueue.test
        let viewModel = CityDetailViewModel(
            city: .seoul, forecast: GetForecastUseCase(repository: weather), air: GetAirQualityUseCase(repository: air),
            likes: nil, format: WeatherFormatter(l10n: L10n.bundled(.en), units: .metric, zones: SystemZoneDatabase.forTests),
            scheduler: scheduler.eraseToAnyScheduler(), work: work.eraseToAnyScheduler(), now: { Self.now })
        let state = states(viewModel)
        events.send(.appeared)
        scheduler.advance()
        XCTAssertEqual(weather.requests.count, 1, "the forecast is asked for at once")
        XCTAssertEqual(air.subscriptions, 0, "the air waits for the work queue")
        XCTAssertEqual(state.last.map(summary), "loading | air loading")
        work.advance()
        XCTAssertEqual(air.subscriptions, 1)
        air.subject.send(Fetched(value: .sample(), fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "loading | US AQI 57 / moderate / UV max 8, very high / ")
    }

    func testTheAirFirstLeavesTheForecastLoading() {
        let state = states(makeViewModel())
        events.send(.appeared)
        air.subject.send(Fetched(value: .sample(), fetchedAt: Self.now, isCached: false))
        air.subject.send(completion: .finished)
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "loading | US AQI 57 / moderate / UV max 8, very high / ")
    }

    func testTheAirFailingNeverHidesTheForecast() {
        let state = states(makeViewModel(.ko))
        events.send(.appeared)
        weather.subject.send(fresh)
        weather.subject.send(completion: .finished)
        air.subject.send(completion: .failure(.server(status: 502)))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "loaded 23°C | 대기질을 가져올 수 없음: 서버 오류 (HTTP 502)")
    }

    func testTheForecastFailingLeavesTheAir() {
        let state = states(makeViewModel())
        events.send(.appeared)
        weather.subject.send(completion: .failure(.offline))
        air.subject.send(Fetched(value: .sample(), fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "unavailable | US AQI 57 / moderate / UV max 8, very high / ")
    }

    func testAKeptAnswerSaysHowOldItIsUntilAFreshOneComes() {
        let state = states(makeViewModel(.ja))
        events.send(.appeared)
        weather.subject.send(fresh)
        air.subject.send(Fetched(value: .sample(us: 160), fetchedAt: Self.now.addingTimeInterval(-3 * 3600), isCached: true))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "loaded 23°C | 米国AQI 160 / 不健康 / UV 最大8、非常に強い / 3時間前の保存分")
        air.subject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "loaded 23°C | 米国AQI 160 / 不健康 / UV 最大8、非常に強い / オフライン · 3時間前の保存分")
        events.send(.refreshRequested)
        air.subject.send(Fetched(value: .sample(us: 12), fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "loaded 23°C | 米国AQI 12 / 良好 / UV 最大8、非常に強い / ")
        XCTAssertEqual(air.requests.count, 2)
        // A refresh that fails keeps the fresh answer, and says so.
        events.send(.refreshRequested)
        air.subject.send(completion: .failure(.server(status: 500)))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "loaded 23°C | 米国AQI 12 / 良好 / UV 最大8、非常に強い / サーバーエラー（HTTP 500） · たった今の保存分")
    }

    func testEuropeReadsTheEuropeanIndexAndSaysSo() {
        let state = states(makeViewModel(city: Self.paris))
        events.send(.appeared)
        air.subject.send(Fetched(value: .sample(us: 57, european: 38, uvMax: 2.4), fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "loading | European AQI 38 / fair / UV max 2, low / ")
    }

    func testAMissingIndexOrUVIsADashNotAGuess() {
        let state = states(makeViewModel())
        events.send(.appeared)
        air.subject.send(Fetched(value: .sample(us: nil, uvMax: nil), fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "loading | US AQI – / - / - / ")
    }

    func testLeavingCancelsTheAirRequestToo() {
        let state = states(makeViewModel())
        events.send(.appeared)
        scheduler.advance()
        events.send(.leaveRequested)
        XCTAssertEqual(air.cancellations, 1)
        XCTAssertEqual(weather.cancellations, 1)
        _ = state
    }

    func testBandsFollowEachScalesBreakpoints() {
        let us: [(Double, Int)] = [(0, 0), (50, 0), (50.4, 0), (51, 1), (100, 1), (101, 2), (150, 2), (151, 3), (200, 3),
                                   (201, 4), (300, 4), (301, 5), (500, 5)]
        for (index, severity) in us {
            XCTAssertEqual(AirQualityBand(index: index, scale: .us).severity, severity, "US \(index)")
        }
        let europe: [(Double, Int)] = [(0, 0), (20, 0), (21, 1), (40, 1), (41, 2), (60, 2), (61, 3), (80, 3), (81, 4),
                                       (100, 4), (101, 5), (400, 5)]
        for (index, severity) in europe {
            XCTAssertEqual(AirQualityBand(index: index, scale: .european).severity, severity, "EU \(index)")
        }
        let uv: [(Double, UVCategory)] = [(0, .low), (2.4, .low), (2.5, .moderate), (5, .moderate), (6, .high), (7.4, .high),
                                          (7.5, .veryHigh), (10, .veryHigh), (11, .extreme), (15, .extreme)]
        for (index, category) in uv { XCTAssertEqual(UVCategory(index: index), category, "UV \(index)") }
    }

    /// The European index where the city is in Europe: by country, and for Russia and Turkey by
    /// where in them the city is (the catalogue's own cities).
    func testTheEuropeanIndexIsForCitiesInEurope() throws {
        let catalog = try CityCatalog.bundled()
        func scale(_ id: Int) throws -> AirQualityScale {
            AirQualityScale(city: catalog.city(try XCTUnwrap(catalog.ref(forID: id), "\(id)")))
        }
        // Paris, Berlin, Kyiv, Moscow, Saint Petersburg, Kazan, Perm, Ufa, Samara, Istanbul, Edirne.
        for id in [2988507, 2950159, 703448, 524901, 498817, 551487, 511196, 479561, 499099, 745044, 747712] {
            XCTAssertEqual(try scale(id), .european, "\(id) \(catalog.city(catalog.ref(forID: id)!).name)")
        }
        // Seoul, Los Angeles, Vladivostok, Novosibirsk, Yekaterinburg, Chelyabinsk, Ankara, Izmir, Bursa, Çanakkale.
        for id in [1835848, 5368361, 2013348, 1496747, 1486209, 1508291, 323786, 311046, 750269, 749780] {
            XCTAssertEqual(try scale(id), .us, "\(id) \(catalog.city(catalog.ref(forID: id)!).name)")
        }
        XCTAssertTrue(AirQualityScale.isInEurope(countryCode: "fr", at: Coordinate(latitude: 48.9, longitude: 2.3)))
        XCTAssertFalse(AirQualityScale.isInEurope(countryCode: "", at: Coordinate(latitude: 48.9, longitude: 2.3)))
    }

    // MARK: The hours ahead

    /// Hours from 09:00 KST on 21 June, with the given sky, rain and snow.
    private func forecast(_ hours: [(WeatherCondition, Double?, Double?)], temperature: Double = 20) -> Forecast {
        let nine = Date(timeIntervalSince1970: 1_781_967_600 + 9 * 3600)
        let s = Forecast.sample()
        return Forecast(coordinate: s.coordinate, utcOffsetSeconds: s.utcOffsetSeconds, current: s.current,
                        hourly: hours.enumerated().map { i, h in
                            HourlyForecast(time: nine.addingTimeInterval(Double(i) * 3600), temperature: temperature,
                                           precipitationProbability: Double(i), condition: h.0, isDay: i < 11,
                                           precipitation: (h.1 ?? 0) + (h.2 ?? 0) / 7, rain: h.1, snowfall: h.2)
                        },
                        daily: s.daily)
    }

    private func hours(_ f: Forecast, _ language: Language = .en, units: UnitSystem = .metric,
                       clock: UserSettings.Clock = .h24) throws -> WeatherPanel {
        let state = states(makeViewModel(language, units: units, clock: clock))
        events.send(.appeared)
        weather.subject.send(Fetched(value: f, fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        guard case .loaded(let panel)? = state.last?.weather else { throw XCTSkip("not loaded") }
        return panel
    }

    func testTheRowIsLabelledByWhatFallsWithItsAmount() throws {
        let rain = try hours(forecast(Array(repeating: (.rain, 0.5, 0), count: 30)))
        XCTAssertEqual(rain.next24.falls, "Rain")
        XCTAssertEqual(rain.next24.fallsSummary, "12.0 mm · max 23%")
        XCTAssertEqual(rain.next48.fallsSummary, "15.0 mm · max 29%")
        let snow = try hours(forecast(Array(repeating: (.snow, 0, 1.5), count: 24), temperature: -3), .ko)
        XCTAssertEqual(snow.next24.falls, "눈")
        XCTAssertEqual(snow.next24.fallsSummary, "36.0 cm · 최대 23%")
        let mixed = try hours(forecast([(.rain, 1, 0), (.snow, 0, 7)]), .ja, units: .imperial)
        XCTAssertEqual(mixed.next24.falls, "降水")
        XCTAssertEqual(mixed.next24.fallsSummary, "0.08 in · 最大 1%")
        // Nothing falls: the sky's codes say what would, else the temperature.
        let drizzle = try hours(forecast([(.drizzle, nil, nil), (.overcast, nil, nil)]))
        XCTAssertEqual(drizzle.next24.falls, "Rain")
        XCTAssertEqual(drizzle.next24.fallsSummary, "– · max 1%")
        XCTAssertEqual(try hours(forecast([(.clear, 0, 0)], temperature: -8)).next24.falls, "Snow")
        XCTAssertEqual(try hours(forecast([(.clear, 0, 0)], temperature: 1)).next24.falls, "Precipitation")
    }

    func testTheSkyRowHasOneSingleColumnSymbolPerHour() throws {
        let all = WeatherCondition.allCases
        let panel = try hours(forecast(all.map { ($0, 0, 0) }))
        XCTAssertEqual(panel.next24.sky.count, panel.next24.temperatures.count)
        XCTAssertEqual(panel.next24.sky.map(\.symbol).joined(), "☀☼◒☁=''☂☂❄❄☂❄☇☇ ")
        XCTAssertEqual(panel.next24.sky.last?.kind, .unknown) // no code: a blank column, not a guess
        XCTAssertEqual(WeatherIcon.hour(.clear, isDay: false), HourSky(symbol: "☾", kind: .moon))
        for condition in all {
            for day in [true, false] {
                let symbol = WeatherIcon.hour(condition, isDay: day).symbol
                XCTAssertEqual(symbol.unicodeScalars.count, 1, "\(condition)")
            }
        }
    }

    func testTheAxisMarksEverySixthHourOfTheCitysClockInEveryLanguageAndClock() throws {
        let f = forecast(Array(repeating: (.clear, 0, 0), count: 48))
        let expected: [(Language, UserSettings.Clock, [String])] = [
            (.en, .h24, ["12", "18", "00", "06", "12", "18", "00", "06"]),
            (.en, .h12, ["12 PM", "6 PM", "12 AM", "6 AM", "12 PM", "6 PM", "12 AM", "6 AM"]),
            (.ko, .h24, ["12", "18", "00", "06", "12", "18", "00", "06"]),
            (.ko, .h12, ["오후 12시", "오후 6시", "오전 12시", "오전 6시", "오후 12시", "오후 6시", "오전 12시", "오전 6시"]),
            (.ja, .h24, ["12", "18", "00", "06", "12", "18", "00", "06"]),
            (.ja, .h12, ["午後0時", "午後6時", "午前0時", "午前6時", "午後0時", "午後6時", "午前0時", "午前6時"]),
        ]
        for (language, clock, marks) in expected {
            let panel = try hours(f, language, clock: clock)
            XCTAssertEqual(panel.next48.marks.compactMap { $0 }, marks, "\(language) \(clock)")
            XCTAssertEqual(panel.next48.marks.count, 48)
            XCTAssertEqual(panel.next48.marks[3], marks[0], "12:00 is the fourth hour from 09:00")
            XCTAssertEqual(Array(panel.next24.marks), Array(panel.next48.marks.prefix(24)))
        }
    }
}
