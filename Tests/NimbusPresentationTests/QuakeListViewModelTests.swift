import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// A catalogue of two cities, Pohang and Los Angeles, for placing events.
private enum TwoCities {
    static let pohang = City(id: 1839071, name: "Pohang", countryCode: "KR", latitude: 36.03, longitude: 129.37,
                             population: 500_000, timeZone: "Asia/Seoul", alternateNames: ["포항", "ポハン"],
                             localNames: CityLocalNames(japanese: "ポハン", korean: "포항"))
    static let la = City(id: 5368361, name: "Los Angeles", countryCode: "US", latitude: 34.05, longitude: -118.24,
                         population: 3_900_000, timeZone: "America/Los_Angeles", alternateNames: ["로스앤젤레스", "ロサンゼルス"],
                         localNames: CityLocalNames(japanese: "ロサンゼルス", korean: "로스앤젤레스"))
    static func catalogue() -> InMemoryCityRepository { InMemoryCityRepository([pohang, la], search: .everything) }
}

/// The test scheduler, read by a clock closure (the tests run on one thread).
private final class SchedulerClock: @unchecked Sendable {
    let scheduler: TestSchedulerOf<DispatchQueue>
    let start: DispatchQueue.SchedulerTimeType
    init(_ scheduler: TestSchedulerOf<DispatchQueue>) {
        self.scheduler = scheduler
        start = scheduler.now
    }
    /// Whole seconds since the clock was made, so ages stay round.
    var elapsed: TimeInterval { (Double(start.distance(to: scheduler.now).magnitude) / 1e9).rounded(.down) }
}

final class QuakeListViewModelTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_782_000_000)
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var repository: ScriptedQuakes!
    /// Held as its screen holds it: the view model's subscriptions refer to it weakly.
    private var viewModel: QuakeListViewModel?
    private let places = CurrentValueSubject<[Coordinate], Never>([])
    private let events = PassthroughSubject<QuakeListViewModel.Event, Never>()

    override func setUp() {
        scheduler = DispatchQueue.test
        repository = ScriptedQuakes()
    }

    private func makeOutput(language: Language = .en, display: DisplayUnits? = nil) -> QuakeListViewModel.Output {
        let l10n = L10n.bundled(language)
        let cities = TwoCities.catalogue()
        let clock = self.clock
        let viewModel = QuakeListViewModel(
            quakes: QuakesUseCase(repository: repository, locator: cities, cities: cities),
            places: places.eraseToAnyPublisher(),
            format: QuakeFormatter(weather: WeatherFormatter(l10n: l10n, units: .metric, zones: SystemZoneDatabase.forTests)),
            display: display, scheduler: scheduler.eraseToAnyScheduler(), now: clock)
        self.viewModel = viewModel
        return viewModel.transform(input: .init(
            events: events.eraseToAnyPublisher(),
            tick: scheduler.timerPublisher(every: .seconds(15)).autoconnect().map { _ in clock() }.eraseToAnyPublisher()))
    }

    /// The test's clock: `now`, moved on by the scheduler's virtual time (whole seconds, so ages stay round).
    private var clock: @Sendable () -> Date {
        let now = self.now
        let clock = SchedulerClock(scheduler)
        return { now.addingTimeInterval(clock.elapsed) }
    }

    private func quake(_ id: String, _ mag: Double, minutesAgo: Double, lat: Double, lon: Double) -> Quake {
        Quake(id: id, magnitude: mag, place: "feed's words", time: now.addingTimeInterval(-minutesAgo * 60),
              updated: now, timeZoneOffsetMinutes: nil, coordinate: Coordinate(latitude: lat, longitude: lon),
              depthKilometres: 10, url: nil, felt: nil, alert: nil, tsunami: false, significance: nil,
              magnitudeType: nil, kind: nil, reviewed: true)
    }

    private var feed: QuakeFeedSnapshot {
        QuakeFeedSnapshot(quakes: [quake("a", 5.1, minutesAgo: 12, lat: 35.86, lon: 129.2),
                                   quake("b", 2.7, minutesAgo: 180, lat: 35.7, lon: -117.7)], dropped: 1, generated: now)
    }

    private func summary(_ s: QuakeListState) -> String {
        ([s.filter] + (s.message.map { [$0] } ?? s.rows.map { "\($0.magnitude) \($0.time) \($0.place)" }) + [s.summary, s.status])
            .joined(separator: " | ")
    }

    func testTheKeptFeedShowsFirstThenTheFreshOneThenA304SaysNotModified() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        repository.subject.send(QuakeFeedUpdate(snapshot: feed, origin: .cache, checkedAt: now.addingTimeInterval(-3 * 3600)))
        scheduler.advance()
        repository.subject.send(QuakeFeedUpdate(snapshot: feed, origin: .fresh, checkedAt: now))
        repository.subject.send(completion: .finished)
        scheduler.advance()
        events.send(.refreshRequested)
        repository.subject.send(QuakeFeedUpdate(snapshot: feed, origin: .notModified, checkedAt: now))
        repository.subject.send(completion: .finished)
        scheduler.advance()
        let rows = "5.1 12 min ago 24 km SW of Pohang, South Korea | 2.7 3 h ago 190 km NNE of Los Angeles, United States"
        let held = "2 events · 1 unreadable event left out" // one event, singular (L10n.count)
        XCTAssertEqual(state.values.map(summary), [
            "M2.5+ · past day | Loading earthquakes… |  | ",
            "M2.5+ · past day | \(rows) | \(held) | updated 3 h ago · refreshing…",
            "M2.5+ · past day | \(rows) | \(held) | updated just now",
            "M2.5+ · past day | \(rows) | \(held) | updated just now · refreshing…",
            "M2.5+ · past day | \(rows) | \(held) | updated just now · not modified",
        ])
        XCTAssertEqual(repository.requests.count, 2)
    }

    func testAChangeOfUnitsInTheSettingsShowsInTheNextState() {
        let display = DisplayUnits(system: .metric)
        let state = TestObserver(makeOutput(display: display).state)
        events.send(.appeared)
        events.send(.nearToggled)
        repository.subject.send(QuakeFeedUpdate(snapshot: feed, origin: .fresh, checkedAt: now))
        repository.subject.send(completion: .finished)
        scheduler.advance()
        let before = state.values.count
        XCTAssertEqual(state.values.last?.rows.isEmpty, true)
        XCTAssertTrue(state.values.last?.filter.contains("within 500 km") == true, state.values.last?.filter ?? "")
        events.send(.nearToggled)
        XCTAssertEqual(state.values.last?.rows.map(\.place).first, "24 km SW of Pohang, South Korea")
        XCTAssertEqual(state.values.last?.rows.map(\.depth), ["10 km", "10 km"])
        display.value = .init(system: .imperial)
        XCTAssertEqual(state.values.count, before + 2, "one new state, at once")
        XCTAssertEqual(state.values.last?.rows.map(\.place).first, "15 mi SW of Pohang, South Korea")
        XCTAssertEqual(state.values.last?.rows.map(\.depth), ["6.2 mi", "6.2 mi"])
        events.send(.nearToggled)
        XCTAssertTrue(state.values.last?.filter.contains("within 300 mi") == true, state.values.last?.filter ?? "")
    }

    func testOfflineKeepsTheCachedEventsAndSaysSoAndRRetries() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        repository.subject.send(QuakeFeedUpdate(snapshot: feed, origin: .cache, checkedAt: now.addingTimeInterval(-3 * 3600)))
        repository.subject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.values.last?.status, "offline · cached 3 h ago")
        XCTAssertEqual(state.values.last?.failed, true)
        events.send(.refreshRequested)
        XCTAssertEqual(repository.requests.count, 2)
    }

    func testEscStopsAStalledRequestAndTheKeptEventsStay() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        repository.subject.send(QuakeFeedUpdate(snapshot: feed, origin: .cache, checkedAt: now.addingTimeInterval(-3 * 3600)))
        scheduler.advance()
        XCTAssertEqual(state.values.last?.loading, true)
        let stalled = repository.subject
        events.send(.cancelRequested)
        XCTAssertEqual(state.values.last?.loading, false)
        XCTAssertEqual(state.values.last?.failed, true, "r retries")
        XCTAssertEqual(state.values.last?.rows.count, 2)
        XCTAssertEqual(state.values.last?.status, "stopped · cached 3 h ago")
        // The stopped request's answer, had it come, is not taken; the minute's refresh waits for r.
        stalled.send(QuakeFeedUpdate(snapshot: QuakeFeedSnapshot(quakes: [], dropped: 0, generated: nil), origin: .fresh,
                                     checkedAt: now))
        scheduler.advance(by: .seconds(QuakeListViewModel.refreshInterval))
        XCTAssertEqual(state.values.last?.rows.count, 2)
        XCTAssertEqual(repository.requests.count, 1)
        events.send(.refreshRequested)
        XCTAssertEqual(repository.requests.count, 2)
        XCTAssertEqual(state.values.last?.loading, true)
    }

    func testNothingKeptStoppedOrTimedOutSaysWhatHappened() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        events.send(.cancelRequested)
        XCTAssertEqual(state.values.last?.message, "Loading stopped. Press r to try again.")
        events.send(.refreshRequested)
        XCTAssertEqual(state.values.last?.message, "Loading earthquakes…")
        repository.subject.send(completion: .failure(.timedOut))
        scheduler.advance()
        XCTAssertEqual(state.values.last?.message, "The earthquake server did not answer in time. Press r to try again.")
        // With a kept copy, the status says it timed out rather than offline.
        events.send(.refreshRequested)
        repository.subject.send(QuakeFeedUpdate(snapshot: feed, origin: .cache, checkedAt: now.addingTimeInterval(-600)))
        repository.subject.send(completion: .failure(.timedOut))
        scheduler.advance()
        XCTAssertEqual(state.values.last?.status, "timed out · cached 10 min ago")
    }

    func testNothingKeptAndOfflineSaysWhyAndHowToRetry() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        repository.subject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.values.last?.message, "Cannot reach the earthquake server. Press r to try again.")
    }

    func testFiltersChooseTheFeedAndNearMyPlacesKeepsCloseEvents() {
        let state = TestObserver(makeOutput(language: .ko).state)
        events.send(.appeared)
        events.send(.magnitudeCycled)
        events.send(.periodCycled)
        XCTAssertEqual(repository.requests.map(\.description), ["2.5_day", "4.5_day", "4.5_week"])
        repository.subject.send(QuakeFeedUpdate(snapshot: feed, origin: .fresh, checkedAt: now))
        scheduler.advance()
        events.send(.nearToggled)
        XCTAssertEqual(state.values.last?.message, "아직 내 장소가 없습니다. f 키로 도시를 좋아요 목록에 추가하거나 --location 옵션을 지정하세요. n 키를 누르면 모두 봅니다.")
        places.send([TwoCities.pohang.coordinate])
        XCTAssertEqual(state.values.last?.rows.map(\.place), ["포항(대한민국) 남서쪽 24 km"])
        XCTAssertEqual(state.values.last?.filter, "규모 4.5 이상 · 지난 7일 · 내 장소에서 500 km 이내")
    }

    func testTheFeedIsAskedAgainEveryMinuteWhileShownOnly() {
        // The screen holds the state's subscription: the view model runs while it does.
        let state = TestObserver(makeOutput().state)
        defer { withExtendedLifetime(state) {} }
        events.send(.appeared)
        repository.subject.send(completion: .finished)
        scheduler.advance(by: .seconds(59))
        XCTAssertEqual(repository.requests.count, 1)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(repository.requests.count, 2)
        repository.subject.send(completion: .finished)
        events.send(.disappeared)
        scheduler.advance(by: .seconds(300))
        XCTAssertEqual(repository.requests.count, 2, "not while another tab is shown")
    }

    func testOpeningARowRoutesToItsDetail() {
        let output = makeOutput()
        let route = TestObserver(output.route)
        let state = TestObserver(output.state)
        defer { withExtendedLifetime(state) {} }
        events.send(.appeared)
        repository.subject.send(QuakeFeedUpdate(snapshot: feed, origin: .fresh, checkedAt: now))
        scheduler.advance()
        events.send(.rowOpened(1))
        events.send(.rowOpened(7))
        guard case .showDetail(let quake, let place)? = route.values.first else { return XCTFail("no route") }
        XCTAssertEqual(quake.id, "b")
        XCTAssertEqual(place?.city.name, "Los Angeles")
        XCTAssertEqual(route.values.count, 1)
    }
}
