import XCTest
import NimbusDomain
@testable import NimbusPresentation

/// `CityDetailViewModel.reduce` as a table: a state and an action give a state and effects, with no
/// scheduler and no clock.
final class CityDetailReduceTests: XCTestCase {
    typealias VM = CityDetailViewModel
    /// 2026-06-21 09:12 KST.
    private let t0 = Date(timeIntervalSince1970: 1_782_000_720)
    private var fresh: VM.State { VM.State(cityID: City.seoul.id, now: t0) }
    private let fetches: [VM.Effect] = [.fetchForecast, .fetchAir, .fetchWarnings]

    private func apply(_ state: VM.State, _ actions: VM.Action...) -> (VM.State, [VM.Effect]) {
        var s = state
        var effects: [VM.Effect] = []
        for action in actions { effects = VM.reduce(&s, action) }
        return (s, effects)
    }

    static func warning(_ id: String, _ severity: WeatherWarning.Severity, expires: Date?) -> WeatherWarning {
        WeatherWarning(id: id, source: .nws, event: "Warning " + id, severity: severity, headline: nil, description: nil,
                       instruction: nil, sender: nil, effective: nil, onset: nil, expires: expires, language: "en-US")
    }

    private func covered(_ warnings: [WeatherWarning], checkedAt: Date) -> Fetched<CityWarnings> {
        let report = WarningsReport(warnings: warnings, source: .nws, checkedAt: checkedAt, isCached: false)
        return Fetched(value: CityWarnings(coverage: .covered(.nws), active: report.active(at: checkedAt), report: report),
                       fetchedAt: checkedAt, isCached: false)
    }

    func testAppearingStartsEverySourceAndFollowsTheLikesOnce() {
        let (first, effects) = apply(fresh, .appeared(t0))
        XCTAssertEqual(effects, [.observeLikes] + fetches)
        XCTAssertTrue(first.started)
        XCTAssertEqual([first.forecast.loading, first.air.loading, first.warnings.loading], [true, true, true])
        XCTAssertEqual(apply(first, .appeared(t0)).1, fetches, "the likes are followed already")
        XCTAssertEqual(apply(first, .leave, .appeared(t0)).1, [], "nothing after leaving")
    }

    func testRefreshAsksEverySourceAgainAndSaysHowItWentUntilTheNextKey() {
        let (loaded, _) = apply(fresh, .appeared(t0), .likeFailed)
        let (refreshed, effects) = apply(loaded, .refresh(t0.addingTimeInterval(60)))
        XCTAssertEqual(effects, fetches)
        XCTAssertTrue(refreshed.refreshAsked)
        XCTAssertFalse(refreshed.likeFailed, "the old message goes")
        XCTAssertEqual(refreshed.now, t0.addingTimeInterval(60))
        let (liked, likeEffects) = apply(refreshed, .likeToggled)
        XCTAssertEqual(likeEffects, [.toggleLike(City.seoul.id)])
        XCTAssertFalse(liked.refreshAsked)
    }

    func testTheTickMovesTheClockAndAsksNothing() {
        let (ticked, effects) = apply(fresh, .appeared(t0), .tick(t0.addingTimeInterval(60)))
        XCTAssertEqual(effects, [])
        XCTAssertEqual(ticked.now, t0.addingTimeInterval(60))
    }

    func testLeavingStopsEverythingOnceAndLaterAnswersChangeNothing() {
        let (left, effects) = apply(fresh, .appeared(t0), .leave)
        XCTAssertEqual(effects, [.stop, .back])
        XCTAssertEqual(apply(left, .leave).1, [])
        let answer = Fetched(value: Forecast.sample(), fetchedAt: t0, isCached: false)
        let cases: [VM.Action] = [.forecast(.fetched(answer), t0), .air(.failed(.offline), t0), .warnings(.finished, t0),
                                  .normal(.failed(.offline), t0), .refresh(t0)]
        for action in cases {
            let (after, effects) = apply(left, action)
            XCTAssertEqual(effects, [], "\(action)")
            XCTAssertEqual(after.forecast, left.forecast, "\(action)")
            XCTAssertEqual(after.air, left.air, "\(action)")
        }
    }

    func testTheNormalIsAskedOnceTheForecastSaysWhatDayItIsAndOncePerDay() {
        let day = LocalDate(year: 2026, month: 6, day: 21)!
        let cached = Fetched(value: Forecast.sample(), fetchedAt: t0.addingTimeInterval(-600), isCached: true)
        let answer = Fetched(value: Forecast.sample(), fetchedAt: t0, isCached: false)
        let (asked, effects) = apply(fresh, .appeared(t0), .forecast(.fetched(cached), t0))
        XCTAssertEqual(effects, [.fetchNormal(day)])
        XCTAssertEqual(asked.normalAsked, day)
        XCTAssertTrue(asked.normal.loading)
        XCTAssertEqual(apply(asked, .forecast(.fetched(answer), t0)).1, [], "the same day: asked already")
        XCTAssertEqual(apply(asked, .forecast(.failed(.offline), t0)).1, [])
        let tomorrow = Forecast(coordinate: answer.value.coordinate, utcOffsetSeconds: 32400, current: answer.value.current,
                                hourly: answer.value.hourly, daily: Array(answer.value.daily.dropFirst()))
        XCTAssertEqual(apply(asked, .forecast(.fetched(Fetched(value: tomorrow, fetchedAt: t0, isCached: false)), t0)).1,
                       [.fetchNormal(day.adding(days: 1))], "a new day at the city: its own normal")
        XCTAssertEqual(apply(fresh, .appeared(t0), .forecast(.failed(.offline), t0)).1, [], "no forecast, no date")
    }

    func testEachSourceTakesOnlyItsOwnAnswers() {
        let (loading, _) = apply(fresh, .appeared(t0))
        let (failedAir, _) = apply(loading, .air(.failed(.timedOut), t0))
        XCTAssertEqual(failedAir.forecast, loading.forecast)
        XCTAssertEqual(failedAir.warnings, loading.warnings)
        XCTAssertEqual(failedAir.air.error, .timedOut)
        let (failedWarnings, _) = apply(loading, .warnings(.failed(.offline), t0))
        XCTAssertEqual(failedWarnings.forecast, loading.forecast)
        XCTAssertEqual(failedWarnings.warnings.error, .offline)
        XCTAssertFalse(failedWarnings.warnings.loading)
    }

    func testAOpensOnlyTheWarningsInForceAtTheStatesClock() {
        let soon = Self.warning("a", .moderate, expires: t0.addingTimeInterval(90))
        let later = Self.warning("b", .severe, expires: t0.addingTimeInterval(3600))
        let (shown, _) = apply(fresh, .appeared(t0), .warnings(.fetched(covered([soon, later], checkedAt: t0)), t0))
        XCTAssertEqual(apply(shown, .warningsOpened).1, [.showWarnings([later, soon], at: t0, display: metric, l10n: .bundled(.en))], "most severe first")
        let (expired, _) = apply(shown, .tick(t0.addingTimeInterval(120)))
        XCTAssertEqual(apply(expired, .warningsOpened).1, [.showWarnings([later], at: t0.addingTimeInterval(120), display: metric, l10n: .bundled(.en))])
        let (none, _) = apply(expired, .tick(t0.addingTimeInterval(7200)))
        XCTAssertEqual(apply(none, .warningsOpened).1, [], "nothing in force: nothing to open")
        XCTAssertEqual(apply(fresh, .appeared(t0), .warningsOpened).1, [], "no answer yet")
    }

    func testLikesAndUnits() {
        let (liked, _) = apply(fresh, .likeFailed, .likes([7, City.seoul.id]))
        XCTAssertTrue(liked.liked)
        XCTAssertFalse(liked.likeFailed, "the store's word replaces the failure")
        XCTAssertFalse(apply(liked, .likes([7])).0.liked)
        let imperial = DisplayUnits.Value(system: .imperial, clock: .h12)
        XCTAssertEqual(apply(fresh, .display(imperial)).0.display, imperial)
        XCTAssertEqual(apply(fresh, .display(imperial), .display(metric)).0.display, metric)
    }

    private let metric = DisplayUnits.Value(system: .metric)
}
