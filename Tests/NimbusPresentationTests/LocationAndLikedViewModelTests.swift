import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// How the nearest city was found, in words (the Today tab's places notes).
final class LocationSummaryTests: XCTestCase {
    private let cities = InMemoryCityRepository([.seoul, .saoPaulo, .busan, .seogwipo])

    private func summary(_ location: DeviceLocation, ignored: [IgnoredLocationSetting] = [],
                         language: Language = .en, units: UnitSystem = .metric) -> LocationSummary {
        let locate = LocateCurrentCityUseCase(provider: FixedLocation(location, ignored: ignored),
                                              locator: cities, cities: cities)
        return LocationSummary(locate.execute(), format: WeatherFormatter(l10n: L10n.bundled(language), units: units, zones: SystemZoneDatabase.forTests))
    }

    func testAPositionGivesTheNearestCityAndItsDistance() {
        XCTAssertEqual(summary(.argument(GeoPoint(latitude: 35.2, longitude: 129.1)!)),
                       LocationSummary(status: .located(.busan, summary: "Nearest city to 35.20°N 129.10°E (--location), 12 km away",
                                                        approximate: false), warnings: []))
    }

    func testImperialDistancesAreInMiles() {
        XCTAssertEqual(summary(.environment(GeoPoint(latitude: 37.0, longitude: 127.0)!), units: .imperial).status,
                       .located(.seoul, summary: "Nearest city to 37.00°N 127.00°E (NIMBUS_LOCATION), 39 mi away",
                                approximate: false))
    }

    func testATimeZoneGivesAnApproximateCityAndIgnoredSettingsAreListed() {
        let bad = IgnoredLocationSetting(name: "NIMBUS_LOCATION", value: "north\u{1B}[2J", error: .notTwoNumbers("north"))
        XCTAssertEqual(summary(.timeZone("Asia/Seoul"), ignored: [bad], language: .ja), LocationSummary(
            status: .located(.seoul, summary: "おおよその位置：タイムゾーン Asia/Seoul で最大の都市", approximate: true),
            warnings: ["NIMBUS_LOCATION=north[2J を無視しました：正しい位置ではありません"]))
    }

    func testFarDistancesAreGroupedAsTheLanguageGroupsThem() {
        // Mid-Pacific: the nearest city of these four is thousands of kilometres away.
        let far = summary(.argument(GeoPoint(latitude: 0, longitude: -150)!))
        guard case .located(_, let text, _) = far.status else { return XCTFail("not located") }
        XCTAssertTrue(text.range(of: #"\d,\d{3} km away"#, options: .regularExpression) != nil, text)
    }

    /// Issue 24: the settings' Home is offered first.
    func testNoLocationSaysHowToGiveOneHomeFirst() {
        XCTAssertEqual(summary(.unknown).status, .failed(
            "No location known. Set your Home in the settings (press ,), or start with --location LAT,LON or set "
                + "NIMBUS_LOCATION (for example 37.57,126.98)."))
        XCTAssertEqual(summary(.timeZone("Antarctica/Troll")).status, .failed(
            "No location known: the time zone Antarctica/Troll has no catalogue city. Set your Home in the settings "
                + "(press ,), or use --location LAT,LON or NIMBUS_LOCATION."))
        XCTAssertEqual(summary(.unknown, language: .ko).status, .failed(
            "위치를 알 수 없습니다. 설정(,)에서 집을 정하거나, --location 위도,경도 옵션으로 시작하거나, NIMBUS_LOCATION 환경 변수를 설정하세요(예: 37.57,126.98)."))
    }

    /// Issue 24: a home set to a city (its position, as the settings store it) names the city rather
    /// than "Nearest city to 35.10°N 129.03°E (home), 0.0 mi away"; a home position elsewhere still
    /// says where it is and how far.
    func testAHomeCityIsNamed() {
        let busan = GeoPoint(latitude: City.busan.latitude, longitude: City.busan.longitude)!
        XCTAssertEqual(summary(.home(busan), units: .imperial).status, .located(.busan, summary: "Busan (home)", approximate: false))
        XCTAssertEqual(summary(.home(busan), language: .ko).status, .located(.busan, summary: "부산(집)", approximate: false))
        XCTAssertEqual(summary(.home(busan), language: .ja).status, .located(.busan, summary: CityNameChoice.name(.busan, language: .ja) + "（ホーム）", approximate: false))
        // A position typed with two decimals is the city it was rounded from (0.3 km off); 1 km is
        // the limit.
        XCTAssertEqual(summary(.home(GeoPoint(latitude: 35.10, longitude: 129.04)!)).status,
                       .located(.busan, summary: "Busan (home)", approximate: false))
        XCTAssertEqual(summary(.home(GeoPoint(latitude: 35.1028 + 0.0085, longitude: 129.0403)!)).status,
                       .located(.busan, summary: "Busan (home)", approximate: false), "0.95 km")
        XCTAssertEqual(summary(.home(GeoPoint(latitude: 35.1028 + 0.0095, longitude: 129.0403)!)).status,
                       .located(.busan, summary: "Nearest city to 35.11°N 129.04°E (home), 1.1 km away", approximate: false))
        XCTAssertEqual(summary(.home(GeoPoint(latitude: 35.2, longitude: 129.1)!)).status,
                       .located(.busan, summary: "Nearest city to 35.20°N 129.10°E (home), 12 km away", approximate: false))
        // Not only a home: --location at a city's own position still says where it was given.
        XCTAssertEqual(summary(.argument(busan)).status,
                       .located(.busan, summary: "Nearest city to \(WeatherFormatter.coordinates(City.busan.coordinate)) (--location), 0.0 km away",
                                approximate: false))
    }
}

final class LikedCitiesViewModelTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var weather: ScriptedWeatherRepository!
    private var likes: InMemoryLikes!
    private let events = PassthroughSubject<LikedCitiesViewModel.Event, Never>()
    private let all: [City] = [.seoul, .saoPaulo, .busan, .seogwipo]

    override func setUp() {
        scheduler = DispatchQueue.test
        weather = ScriptedWeatherRepository()
        likes = InMemoryLikes()
    }

    /// `weather` replaces the scripted repository, e.g. with one that must not be called.
    private func makeOutput(dataStatus: UserDataStatus = .saved, weather: WeatherRepository? = nil,
                            display: DisplayUnits? = nil) -> LikedCitiesViewModel.Output {
        let all = self.all
        let l10n = L10n.bundled(.en)
        let viewModel = LikedCitiesViewModel(
            liked: GetLikedCitiesUseCase(likes: likes, lookup: { id in all.first { $0.id == id } }),
            like: LikeCityUseCase(repository: likes), ranges: GetTodayRangesUseCase(repository: weather ?? self.weather!),
            format: WeatherFormatter(l10n: l10n, units: .metric, zones: SystemZoneDatabase.forTests), display: display,
            scheduler: scheduler.eraseToAnyScheduler(), dataStatus: dataStatus)
        return viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
    }

    private func summary(_ state: LikedCitiesState) -> String {
        let rows = state.rows.map { "\($0.name) \($0.range ?? "–")" }.joined(separator: ", ")
        return [state.emptyMessage, rows.isEmpty ? nil : rows, state.notice].compactMap { $0 }.joined(separator: " | ")
    }

    func testLikedCitiesWithTodaysRangeFromOneRequestThenRemove() {
        likes.ids = [City.busan.id, City.seoul.id, 999]
        let output = makeOutput()
        let state = TestObserver(output.state)
        let route = TestObserver(output.route)
        events.send(.appeared)
        scheduler.advance()
        XCTAssertEqual(weather.batches, [[City.busan.coordinate, City.seoul.coordinate]], "one request, unknown ids skipped")
        weather.rangeSubject.send([DayRange(coordinate: City.busan.coordinate, high: 27.6, low: 20.1, condition: .rain),
                                   DayRange(coordinate: City.seoul.coordinate, high: 28, low: 17, condition: .clear)].answers)
        scheduler.advance()
        events.send(.rowOpened(1))
        events.send(.removeRequested(0))
        scheduler.advance()
        route.assertValues([.showDetail(.seoul)])
        XCTAssertEqual(likes.ids, [City.seoul.id, 999], "the like of a city missing from the catalogue is kept")
        // The selection is part of the state now: opening Seoul selects it (the same rows, selection 1),
        // and it stays on Seoul when Busan goes.
        XCTAssertEqual(state.values.map(summary), [
            "Busan –, Seoul –",
            "Busan 28° / 20°, Seoul 28° / 17°",
            "Busan 28° / 20°, Seoul 28° / 17°",
            "Seoul 28° / 17°",
        ])
        XCTAssertEqual(state.values.map(\.selection), [0, 0, 1, 0])
    }

    func testAChangeOfUnitsInTheSettingsShowsInTheNextState() {
        likes.ids = [City.busan.id, City.seoul.id]
        let display = DisplayUnits(system: .metric)
        let state = TestObserver(makeOutput(display: display).state.map(summary))
        events.send(.appeared)
        scheduler.advance()
        weather.rangeSubject.send([DayRange(coordinate: City.busan.coordinate, high: 27.6, low: 20.1, condition: .rain),
                                   DayRange(coordinate: City.seoul.coordinate, high: 28, low: 17, condition: .clear)].answers)
        scheduler.advance()
        display.value = .init(system: .imperial)
        display.value = .init(system: .imperial, clock: .h12) // the clock: the rows show none, nothing new
        display.value = .init(system: .metric)
        XCTAssertEqual(state.values, [
            "Busan –, Seoul –",
            "Busan 28° / 20°, Seoul 28° / 17°",
            "Busan 82° / 68°, Seoul 82° / 63°",
            "Busan 28° / 20°, Seoul 28° / 17°",
        ])
        XCTAssertEqual(weather.batches.count, 1, "the same ranges, formatted again")
    }

    func testNoLikesAndARecoveryNotice() {
        let state = TestObserver(makeOutput(dataStatus: .recovered(movedTo: "/data/nimbus/user.sqlite.unreadable-1")).state)
        events.send(.appeared)
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), ["No liked cities yet: press f on a city to like it. | Your saved data could not be read; it was moved aside to user.sqlite.unreadable-1 and a new file started."])
        XCTAssertTrue(weather.batches.isEmpty)
    }

    func testWithNoLikesNoWeatherIsAskedFor() {
        let state = TestObserver(makeOutput(weather: WeatherRepositoryDouble.failing()).state.map(summary))
        events.send(.appeared)
        scheduler.advance()
        state.assertValues(["No liked cities yet: press f on a city to like it."])
    }

    func testAFailedRangeRequestKeepsTheRowsAndSaysWhy() {
        likes.ids = [City.seoul.id]
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        weather.rangeSubject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), ["Seoul –", "Seoul n/a | Cannot reach the weather server."])
        XCTAssertEqual(state.last?.rows.first?.condition, "offline", "the row says why")
        XCTAssertEqual(state.last?.rows.first?.unavailable, true)
    }

    /// A city whose own item of the answer was bad is marked alone; `r` asks again.
    func testACityWithoutItsOwnAnswerIsMarkedAlone() {
        likes.ids = [City.busan.id, City.seoul.id]
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        weather.rangeSubject.send([City.busan.coordinate: .success(DayRange(coordinate: City.busan.coordinate, high: 27.6, low: 20.1, condition: .rain)),
                                   City.seoul.coordinate: .failure(.badResponse)])
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "Busan 28° / 20°, Seoul n/a")
        XCTAssertEqual(state.last?.rows.last?.condition, "bad response")
        XCTAssertEqual(state.last?.canRetry, true)
        events.send(.refreshRequested)
        weather.rangeSubject.send([DayRange(coordinate: City.busan.coordinate, high: 27.6, low: 20.1, condition: .rain),
                                   DayRange(coordinate: City.seoul.coordinate, high: 28, low: 17, condition: .clear)].answers)
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary), "Busan 28° / 20°, Seoul 28° / 17°")
        XCTAssertEqual(state.last?.canRetry, false)
    }

    /// The error of a failed range request stayed until restart: `r` asks again, and so does showing the tab again.
    func testAFailedRangeRequestIsRetriedByRAndWhenTheTabIsShownAgain() {
        likes.ids = [City.seoul.id]
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        weather.rangeSubject.send(completion: .failure(.offline))
        scheduler.advance()
        events.send(.refreshRequested)
        weather.rangeSubject.send([DayRange(coordinate: City.seoul.coordinate, high: 28, low: 17, condition: .clear)].answers)
        scheduler.advance()
        events.send(.appeared)   // shown again after a success: nothing to retry
        scheduler.advance()
        XCTAssertEqual(weather.batches.count, 2)
        likes.ids = [City.busan.id]
        weather.rangeSubject.send(completion: .failure(.timedOut))
        scheduler.advance()
        events.send(.appeared)   // shown again after a failure: asks again
        weather.rangeSubject.send([DayRange(coordinate: City.busan.coordinate, high: 27.6, low: 20.1, condition: .rain)].answers)
        scheduler.advance()
        XCTAssertEqual(weather.batches, [[City.seoul.coordinate], [City.seoul.coordinate], [City.busan.coordinate],
                                         [City.busan.coordinate]])
        XCTAssertEqual(state.values.map(summary), [
            "Seoul –",
            "Seoul n/a | Cannot reach the weather server.",
            "Seoul 28° / 17°",
            "Busan –",
            "Busan n/a | The weather server did not answer in time.",
            "Busan 28° / 20°",
        ])
        XCTAssertEqual(state.values.map(\.canRetry), [false, true, false, false, true, false])
    }

    /// Rows come from the store's latest contents: a like made elsewhere shows without a reload.
    func testRowsFollowTheStoreWhereverTheChangeWasMade() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        likes.ids = [City.seoul.id]
        scheduler.advance()
        likes.ids = []
        scheduler.advance()
        XCTAssertEqual(state.values.map(summary), ["No liked cities yet: press f on a city to like it.", "Seoul –",
                                                   "No liked cities yet: press f on a city to like it."])
    }
}
