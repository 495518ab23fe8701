import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

extension City {
    static let seoul = City(id: 1835848, name: "Seoul", countryCode: "KR", latitude: 37.566, longitude: 126.9784,
                            population: 10_349_312, timeZone: "Asia/Seoul", alternateNames: ["서울", "ソウル"],
                            localNames: CityLocalNames(japanese: "ソウル", korean: "서울"))
    static let saoPaulo = City(id: 3448439, name: "São Paulo", countryCode: "BR", latitude: -23.5475, longitude: -46.63611,
                               population: 12_400_232, timeZone: "America/Sao_Paulo", alternateNames: ["sao paulo", "상파울루"],
                               localNames: CityLocalNames(japanese: nil, korean: "상파울루"))
    static let busan = City(id: 1838524, name: "Busan", countryCode: "KR", latitude: 35.1028, longitude: 129.0403,
                            population: 3_678_555, timeZone: "Asia/Seoul", alternateNames: ["부산"],
                            localNames: CityLocalNames(japanese: nil, korean: "부산"))
    static let seogwipo = City(id: 1846266, name: "Seogwipo", countryCode: "KR", latitude: 33.2536, longitude: 126.5600,
                               population: 155_691, timeZone: "Asia/Seoul", alternateNames: ["서귀포"],
                               localNames: CityLocalNames(japanese: nil, korean: "서귀포"))
}

final class CityListViewModelTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var repository: InMemoryCityRepository!
    private var events: PassthroughSubject<CityListViewModel.Event, Never>!

    override func setUp() {
        scheduler = DispatchQueue.test
        repository = InMemoryCityRepository([.seoul, .saoPaulo, .busan, .seogwipo])
        events = PassthroughSubject()
    }

    private func makeOutput(_ language: Language = .en, tier: CityCatalogueTier = .other) -> CityListViewModel.Output {
        let viewModel = CityListViewModel(
            search: SearchCitiesUseCase(repository: repository), totalCount: repository.cityCount,
            l10n: L10n.bundled(language), scheduler: scheduler.eraseToAnyScheduler(),
            tier: tier)
        return viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
    }

    /// The local times' minute: now, then each new minute on the scheduler (the first at the minute's
    /// end, not a minute from now), and again when the clock setting changes.
    func testTheClockTicksOnEachNewMinuteAndWithTheSetting() {
        let start = Date(timeIntervalSince1970: 1_782_000_720 + 45)  // 00:12:45 UTC
        let elapsed = Elapsed()
        let scheduler = self.scheduler!
        func advance(_ seconds: Int) {
            elapsed.seconds += seconds
            scheduler.advance(by: .seconds(seconds))
        }
        let display = DisplayUnits(.init(system: .metric, clock: .h24))
        let viewModel = CityListViewModel(
            search: SearchCitiesUseCase(repository: repository), totalCount: repository.cityCount, l10n: L10n.bundled(.en),
            scheduler: scheduler.eraseToAnyScheduler(),
            format: WeatherFormatter(l10n: L10n.bundled(.en), units: .metric, zones: SystemZoneDatabase.forTests), display: display)
        // The clock is the container's, on the app's scheduler; the view model keeps none.
        let ticks = MinuteTicks.publisher(on: scheduler.eraseToAnyScheduler(),
                                          now: { start.addingTimeInterval(TimeInterval(elapsed.seconds)) })
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher(), tick: ticks))
        let state = TestObserver(output.state)
        defer { state.cancel() }
        // The clock is part of the list's state now (one state); the list shows from the first query.
        let clock = TestObserver(output.state.compactMap(\.clock).removeDuplicates())
        events.send(.queryChanged(""))
        scheduler.advance()
        XCTAssertEqual(clock.values.map { $0.time(in: "Asia/Seoul") }, ["09:12"])
        advance(14)
        XCTAssertEqual(clock.values.count, 1, "nothing before the minute ends")
        advance(1)
        XCTAssertEqual(clock.values.map { $0.time(in: "Asia/Seoul") }, ["09:12", "09:13"])
        advance(60)
        advance(60)
        XCTAssertEqual(clock.values.map { $0.time(in: "Asia/Seoul") }, ["09:12", "09:13", "09:14", "09:15"])
        display.value.clock = .h12
        XCTAssertEqual(clock.values.last?.time(in: "Asia/Seoul"), "9:15 AM")
        XCTAssertEqual(clock.values.last?.time(in: "America/St_Johns"), "9:45 PM")
        XCTAssertNil(clock.values.last?.time(in: "Not/A_Zone"))
        XCTAssertNil(clock.values.last?.time(in: "EST"), "abbreviations are not IANA names")
    }

    func testNothingIsEmittedBeforeTheFirstQuery() {
        let state = TestObserver(makeOutput().state)
        scheduler.advance(by: .seconds(1))
        XCTAssertTrue(state.values.isEmpty)
        XCTAssertEqual(repository.searches, [])
    }

    func testEmptyQueryListsEveryCityMostPopulousFirst() {
        let state = TestObserver(makeOutput().state)
        events.send(.queryChanged(""))
        // The bundled catalogue answers within the keystroke (the one loop runs it at once), so the
        // keystroke's frame shows its rows; before the one view-model shape they came a turn later.
        XCTAssertEqual(state.values.map(\.summary), ["4 cities"], "the state comes within the keystroke")
        scheduler.advance()
        XCTAssertEqual(state.values.map(\.summary), ["4 cities"])
        XCTAssertEqual(state.last?.rows.prefix(10).map(\.name), ["São Paulo", "Seoul", "Busan", "Seogwipo"])
        XCTAssertEqual(state.last?.rows[0], CityRow(cityID: 3448439, name: "São Paulo", matchedName: nil,
                                                    country: "Brazil", countryCode: "BR", population: "12,400,232",
                                                    coordinate: City.saoPaulo.coordinate, timeZone: "America/Sao_Paulo"))
        XCTAssertEqual(state.last?.rows[0].coordinates, "23.55°S 46.64°W")
        XCTAssertNil(state.last?.emptyMessage)
    }

    func testTypingNarrowsTheListAndRepeatsAreDropped() {
        let state = TestObserver(makeOutput().state)
        for q in ["", "s", "se", "se", "seo"] { events.send(.queryChanged(q)) }
        scheduler.advance()
        XCTAssertEqual(state.values.map(\.query), ["", "s", "se", "seo"])
        XCTAssertEqual(state.values.map(\.summary), ["4 cities", "3 of 4 cities", "2 of 4 cities", "2 of 4 cities"])
        XCTAssertEqual(state.values.map { $0.rows.prefix(5).map(\.name) },
                       [["São Paulo", "Seoul", "Busan", "Seogwipo"], ["São Paulo", "Seoul", "Seogwipo"],
                        ["Seoul", "Seogwipo"], ["Seoul", "Seogwipo"]])
        XCTAssertEqual(repository.searches, ["", "s", "se", "seo"])
    }

    func testAMatchOnAnAlternateNameIsShownBesideTheName() {
        let state = TestObserver(makeOutput(.en).state)
        events.send(.queryChanged("서울"))
        scheduler.advance()
        XCTAssertEqual(state.values.count, 1)
        XCTAssertEqual(state.last?.rows.prefix(5), [
            CityRow(cityID: 1835848, name: "Seoul", matchedName: "서울", country: "South Korea", countryCode: "KR", population: "10,349,312",
                    coordinate: City.seoul.coordinate, timeZone: "Asia/Seoul"),
        ])
    }

    func testRowsShowTheUILanguagesNameAndTheMatchOnlyWhenItIsAnother() {
        let korean = TestObserver(makeOutput(.ko).state)
        events.send(.queryChanged("서울"))
        scheduler.advance()
        XCTAssertEqual(korean.last?.rows.prefix(5), [
            CityRow(cityID: 1835848, name: "서울", matchedName: nil, country: "대한민국", countryCode: "KR", population: "10,349,312",
                    coordinate: City.seoul.coordinate, timeZone: "Asia/Seoul"),
        ])
        XCTAssertEqual(korean.last?.summary, "도시 1개 / 전체 4개")
        events.send(.queryChanged("ソウル"))
        scheduler.advance()
        XCTAssertEqual(korean.last?.rows.prefix(5).map { [$0.name, $0.matchedName] }, [["서울", "ソウル"]])
        events.send(.queryChanged(""))
        scheduler.advance()
        XCTAssertEqual(korean.last?.rows.prefix(5).map(\.name), ["상파울루", "서울", "부산", "서귀포"])
    }

    func testNoMatchGivesAnEmptyMessage() {
        let state = TestObserver(makeOutput().state)
        events.send(.queryChanged("zzz"))
        scheduler.advance()
        XCTAssertEqual(state.values.map(\.emptyMessage), ["No city matches “zzz”"])
        XCTAssertEqual(state.values.map(\.rows.count), [0])
    }

    /// A query the catalogue has no city for says what the catalogue holds (the tier's threshold, as
    /// the tier says it) and, in the standard tier, how to get the larger one.
    func testNoMatchSaysWhatTheTierHoldsAndHowToGetTheLargerOne() {
        let cases: [(Language, CityCatalogueTier, String?)] = [
            (.en, .standard(least: 15000, large: 1000),
             "The catalogue lists places of 15,000 or more people. For places of 1,000 or more, build the large tier with "
             + "python3 scripts/build-resources.py --tier 1000 and start nimbus --tier large."),
            (.ko, .standard(least: 15000, large: 1000),
             "목록에는 인구 15,000명 이상인 곳만 있습니다. 인구 1,000명 이상인 곳까지 찾으려면 "
             + "python3 scripts/build-resources.py --tier 1000 명령으로 큰 목록을 만든 뒤 nimbus --tier large 명령으로 시작하세요."),
            (.ja, .standard(least: 15000, large: 1000),
             "一覧にあるのは人口15,000人以上の地名です。人口1,000人以上まで探すには "
             + "python3 scripts/build-resources.py --tier 1000 で大きな一覧を作り、nimbus --tier large で起動してください。"),
            // The thresholds are the tier's, not the words'.
            (.en, .standard(least: 5000, large: 500),
             "The catalogue lists places of 5,000 or more people. For places of 500 or more, build the large tier with "
             + "python3 scripts/build-resources.py --tier 500 and start nimbus --tier large."),
            (.en, .large(least: 1000), "The catalogue lists places of 1,000 or more people."),
            (.ja, .large(least: 1000), "一覧にあるのは人口1,000人以上の地名です。"),
            (.en, .other, nil),
        ]
        for (language, tier, hint) in cases {
            let state = TestObserver(makeOutput(language, tier: tier).state)
            events.send(.queryChanged("hallstatt"))
            scheduler.advance()
            XCTAssertEqual(state.last?.emptyHint, hint, "\(language) \(tier)")
            XCTAssertNotNil(state.last?.emptyMessage)
            events.send(.queryChanged("seoul"))
            scheduler.advance()
            XCTAssertNil(state.last?.emptyHint, "rows: no hint")
            state.cancel()
            setUp()  // a fresh query input for the next view model
        }
    }

    func testOpeningARowRoutesToThatCity() {
        let output = makeOutput()
        let state = TestObserver(output.state)
        let route = TestObserver(output.route)
        events.send(.queryChanged("se"))
        scheduler.advance()
        events.send(.rowOpened(1))
        events.send(.rowOpened(7))
        // The selection is part of the state now: opening a row selects it (one more state); past the end, nothing.
        XCTAssertEqual(state.values.map(\.selection), [0, 1])
        XCTAssertEqual(route.values, [.showDetail(.seogwipo)])
    }
}

/// Seconds of virtual time gone, for a clock that follows a test scheduler.
private final class Elapsed: @unchecked Sendable {
    var seconds = 0
}
