import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

extension ScriptedNormalsRepository {
    /// Every day's normal the same.
    static func flat(high: Double, low: Double) -> ClimateNormals {
        var days: [DayNormal] = []
        for (m, length) in [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31].enumerated() {
            for d in 1...length { days.append(DayNormal(month: m + 1, day: d, high: high, low: low)) }
        }
        return ClimateNormals(coordinate: City.seoul.coordinate, days: days)!
    }
}

/// A clock the test moves.
final class TestClock: @unchecked Sendable {
    var time: Date
    init(_ time: Date) { self.time = time }
}

/// The official warnings, yesterday and the normal on a city's detail.
final class CityDetailWarningsTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var weather: ScriptedWeatherRepository!
    private var warnings: ScriptedWarningsRepository!
    private var normals: ScriptedNormalsRepository!
    private var clock: TestClock!
    private let events = PassthroughSubject<CityDetailViewModel.Event, Never>()
    private let tick = PassthroughSubject<Date, Never>()
    /// 2026-06-21 09:12 KST.
    static let now = Date(timeIntervalSince1970: 1_782_000_720)

    override func setUp() {
        scheduler = DispatchQueue.test
        weather = ScriptedWeatherRepository()
        warnings = ScriptedWarningsRepository()
        normals = ScriptedNormalsRepository()
        clock = TestClock(Self.now)
    }

    private func start(_ language: Language = .en, city: City = .seoul) -> (TestObserver<CityDetailState>, TestObserver<CityDetailRoute>) {
        let clock = self.clock!
        let viewModel = CityDetailViewModel(
            city: city, forecast: GetForecastUseCase(repository: weather),
            warnings: GetWarningsUseCase(repository: warnings, now: { clock.time }),
            normals: GetClimateNormalsUseCase(repository: normals), likes: nil,
            format: WeatherFormatter(l10n: L10n.bundled(language), units: .metric, zones: SystemZoneDatabase.forTests),
            scheduler: scheduler.eraseToAnyScheduler(), now: { clock.time })
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher(), tick: tick.eraseToAnyPublisher()))
        return (TestObserver(output.state), TestObserver(output.route))
    }

    /// The warnings line as one string: "event | times | more" or "note: …", "-" while awaited.
    private func line(_ state: CityDetailState) -> String {
        guard let w = state.warnings else { return "none" }
        if let event = w.event { return [event, "\(w.severity)", w.times, w.more ?? ""].joined(separator: " | ") }
        return w.note.map { "note: " + $0 } ?? "-"
    }

    private func minute(_ n: Int) {
        clock.time = Self.now.addingTimeInterval(Double(n) * 60)
        tick.send(clock.time)
        scheduler.advance()
    }

    private func report(_ list: [WeatherWarning], cached: Bool = false) -> WarningsReport {
        WarningsReport(warnings: list, source: .nws, checkedAt: Self.now, isCached: cached)
    }

    /// A warning in Seoul's clock: effective now, expiring `minutes` from now.
    private func warning(_ id: String, _ event: String, _ severity: WeatherWarning.Severity, minutes: Double?) -> WeatherWarning {
        WeatherWarning(id: id, source: .nws, event: event, severity: severity, headline: "Headline " + id,
                       description: "Line one.\n\nLine two.", instruction: "Stay in.", sender: "NWS Seattle WA",
                       effective: Self.now, onset: nil, expires: minutes.map { Self.now.addingTimeInterval($0 * 60) }, language: "en-US")
    }

    func testAWarningThatExpiresGoesAtTheNextMinuteWithoutAskingAgain() {
        let (state, _) = start()
        events.send(.appeared)
        scheduler.advance()
        XCTAssertEqual(state.last.map(line), "-", "nothing said before the first answer")
        warnings.subject.send(report([warning("1", "Wind Advisory", .moderate, minutes: 1.5),
                                      warning("2", "Winter Storm Warning", .severe, minutes: 120)]))
        scheduler.advance()
        minute(1)
        minute(2)
        minute(121)
        XCTAssertEqual(state.values.map(line), [
            "-",
            "Winter Storm Warning | severe | Jun 21 09:12 – Jun 21 11:12 | +1 more",
            // 09:13: the local time moves on; the advisory is in force until 09:13:30.
            "Winter Storm Warning | severe | Jun 21 09:12 – Jun 21 11:12 | +1 more",
            "Winter Storm Warning | severe | Jun 21 09:12 – Jun 21 11:12 | ",
            "note: No warnings in force",
        ])
        XCTAssertEqual(warnings.requests, 1, "the clock alone took them off")
    }

    /// A warning whose weather starts in two days is not "in force": the line says from when, the
    /// full text is of warnings coming.
    func testAWarningThatStartsLaterSaysFromWhen() throws {
        let (state, route) = start()
        events.send(.appeared)
        let coming = WeatherWarning(id: "c", source: .meteoAlarm, event: "Heat Warning", severity: .moderate, headline: nil,
                                    description: "Hot.", instruction: nil, sender: nil, effective: Self.now,
                                    onset: Self.now.addingTimeInterval(2 * 86_400), expires: Self.now.addingTimeInterval(3 * 86_400),
                                    language: "en")
        warnings.subject.send(report([coming]))
        scheduler.advance()
        XCTAssertEqual(state.last.map(line), "Heat Warning | moderate | from Tue 09:12 | ")
        events.send(.warningsOpened)
        guard case .showWarnings(let shown, let l10n)? = route.last else { return XCTFail("\(route.values)") }
        let text = WarningsText.make(shown, l10n: l10n)
        XCTAssertEqual(text.title, "Warnings coming · Seoul")
        XCTAssertTrue(text.lines.map(\.text).contains("Coming: Jun 23 09:12 – Jun 24 09:12 (local time)"), "\(text.lines.map(\.text))")
    }

    /// The TUI names a failure as `nimbus weather --json` does.
    func testAFailureIsNamedAsTheJSONNamesIt() {
        let l10n = L10n.bundled(.en)
        XCTAssertEqual(CityDetailViewModel.warningsReason(.redirected, l10n), "redirected")
        XCTAssertEqual(CityDetailViewModel.airReason(.redirected, l10n), "redirected")
    }

    func testAOpensTheFullTextOfTheWarningsInForce() throws {
        let (state, route) = start(.ko)
        events.send(.appeared)
        warnings.subject.send(report([warning("1", "Wind Advisory", .moderate, minutes: 30)]))
        scheduler.advance()
        events.send(.warningsOpened)
        guard case .showWarnings(let shown, let l10n)? = route.last else { return XCTFail("\(route.values)") }
        let text = WarningsText.make(shown, l10n: l10n)
        XCTAssertEqual(text.title, "발효 중인 기상특보 · 서울")
        XCTAssertEqual(text.lines.map(\.text), [
            "Wind Advisory", "심각도: 보통", "발효: 6월 21일 09:12 – 6월 21일 09:42 (현지 시각)", "발표: NWS Seattle WA",
            "발표 원문 (영어(미국))", "", "Headline 1", "", "Line one.", "", "Line two.", "", "행동 요령:", "Stay in.",
        ])
        XCTAssertEqual(text.lines.first?.kind, .event(.moderate))
        minute(31)
        events.send(.warningsOpened)
        XCTAssertEqual(route.values.count, 1, "expired: nothing to open")
        _ = state
    }

    func testEveryPlaceWithoutASourceSaysSoInEveryLanguage() {
        warnings.covers = .notCovered
        var notes: [String] = []
        for language in Language.allCases {
            let (state, _) = start(language)
            events.send(.appeared)
            scheduler.advance()
            notes.append(state.last.map(line) ?? "")
        }
        XCTAssertEqual(notes, ["note: No official warnings source for South Korea yet",
                               "note: 대한민국에는 아직 공식 기상특보 출처가 없습니다",
                               "note: 韓国の公式警報の情報源はまだありません"])
        XCTAssertEqual(warnings.requests, 0, "no service asked")
    }

    func testAFailingWarningsServiceSaysWhyAndLeavesTheForecast() {
        let (state, _) = start()
        events.send(.appeared)
        weather.subject.send(Fetched(value: .sample(), fetchedAt: Self.now, isCached: false))
        warnings.subject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.last.map(line), "note: Warnings unavailable: offline")
        guard case .loaded(let panel)? = state.last?.weather else { return XCTFail() }
        XCTAssertEqual(panel.temperature, "23°C")
        // A kept copy with a warning stays shown when the service cannot be reached.
        events.send(.refreshRequested)
        warnings.subject.send(report([warning("1", "Wind Advisory", .minor, minutes: 30)], cached: true))
        warnings.subject.send(completion: .failure(.timedOut))
        scheduler.advance()
        XCTAssertEqual(state.last.map(line), "Wind Advisory | minor | Jun 21 09:12 – Jun 21 09:42 | ")
    }

    func testYesterdayAndTheNormalBesideTodayInEveryLanguage() throws {
        var seen: [String] = []
        for language in Language.allCases {
            setUp()
            let (state, _) = start(language)
            events.send(.appeared)
            scheduler.advance()
            let today = Forecast.sample()
            let forecast = Forecast(coordinate: today.coordinate, utcOffsetSeconds: today.utcOffsetSeconds, current: today.current,
                                    hourly: today.hourly, daily: today.daily,
                                    yesterday: DayTemperatures(day: today.daily[0].day.adding(days: -1), high: 25, low: 16))
            weather.subject.send(Fetched(value: forecast, fetchedAt: Self.now, isCached: false))
            weather.subject.send(completion: .finished)
            scheduler.advance()
            guard case .loaded(let before)? = state.last?.weather else { return XCTFail() }
            XCTAssertNil(before.normal, "the normal is not known yet: the forecast did not wait for it")
            XCTAssertEqual(normals.requests, [City.seoul.coordinate], "asked after the forecast")
            normals.subject.send(ScriptedNormalsRepository.flat(high: 26.4, low: 18.6))
            scheduler.advance()
            guard case .loaded(let panel)? = state.last?.weather else { return XCTFail() }
            seen.append((panel.againstYesterday ?? "-") + " | " + (panel.normal ?? "-"))
        }
        XCTAssertEqual(seen, [
            "3° warmer than yesterday | normal 26° / 19° · 2° above normal",
            "어제보다 3° 따뜻함 | 평년 26° / 19° · 평년보다 2° 높음",
            "昨日より3°高い | 平年 26° / 19° · 平年より2°高い",
        ])
    }

    /// A normal no climate has (69.9 °C by day, −99.9 °C by night: "62° below normal") is not shown,
    /// and `r` asks for the normal again rather than keep the same answer for the day.
    func testANormalThatCannotBeTrueIsNotShownAndRAsksAgain() {
        let (state, _) = start()
        events.send(.appeared)
        scheduler.advance()
        weather.subject.send(Fetched(value: .sample(), fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        normals.subject.send(ScriptedNormalsRepository.flat(high: 69.9, low: -99.9))
        scheduler.advance()
        guard case .loaded(let panel)? = state.last?.weather else { return XCTFail() }
        XCTAssertNil(panel.normal, "not: \(panel.normal ?? "")")
        XCTAssertEqual(normals.requests.count, 1)
        events.send(.refreshRequested)
        scheduler.advance()
        weather.subject.send(Fetched(value: .sample(), fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        XCTAssertEqual(normals.requests.count, 2, "r asks for the normal again")
        XCTAssertEqual(normals.refreshes, [false, true], "past the kept copy")
        XCTAssertEqual(normals.forgotten, [City.seoul.coordinate], "the copy no climate has is dropped")
        normals.subject.send(ScriptedNormalsRepository.flat(high: 26.4, low: 18.6))
        scheduler.advance()
        guard case .loaded(let after)? = state.last?.weather else { return XCTFail() }
        XCTAssertEqual(after.normal, "normal 26° / 19° · 2° above normal")
    }

    /// A normal a climate could have, but 38° from today's forecast: not shown, and its kept copy dropped.
    func testANormalFurtherFromTheForecastThanAnyDayHasBeenIsNotShown() {
        let (state, _) = start()
        events.send(.appeared)
        weather.subject.send(Fetched(value: .sample(), fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        normals.subject.send(ScriptedNormalsRepository.flat(high: -10, low: -15))
        scheduler.advance()
        guard case .loaded(let panel)? = state.last?.weather else { return XCTFail() }
        XCTAssertNil(panel.normal, "not: \(panel.normal ?? "")")
        XCTAssertEqual(normals.forgotten, [City.seoul.coordinate])
    }

    func testAFailingArchiveLeavesTheForecastAndSaysNothingOfTheNormal() {
        let (state, _) = start()
        events.send(.appeared)
        weather.subject.send(Fetched(value: .sample(), fetchedAt: Self.now, isCached: false))
        scheduler.advance()
        normals.subject.send(completion: .failure(.server(status: 500)))
        scheduler.advance()
        guard case .loaded(let panel)? = state.last?.weather else { return XCTFail() }
        XCTAssertNil(panel.normal)
        XCTAssertEqual(panel.temperature, "23°C")
        XCTAssertNil(state.last?.notice)
    }
}
