import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

final class CityListTemperatureTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var weather: ScriptedWeatherRepository!
    private var likes: InMemoryLikes!
    private let events = PassthroughSubject<CityListViewModel.Event, Never>()
    private let repository = InMemoryCityRepository([.seoul, .saoPaulo, .busan, .seogwipo])

    override func setUp() {
        scheduler = DispatchQueue.test
        weather = ScriptedWeatherRepository()
        likes = InMemoryLikes()
    }

    private func makeOutput() -> CityListViewModel.Output {
        let l10n = L10n.bundled(.en)
        let viewModel = CityListViewModel(
            search: SearchCitiesUseCase(repository: repository), totalCount: repository.cityCount, l10n: l10n,
            scheduler: scheduler.eraseToAnyScheduler(),
            temperatures: GetCurrentTemperaturesUseCase(repository: weather),
            format: WeatherFormatter(l10n: l10n, units: .metric, zones: SystemZoneDatabase.forTests), likes: LikeCityUseCase(repository: likes))
        return viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
    }

    /// The view model's output observed, with the empty query's rows shown.
    private func showList() -> (state: TestObserver<CityListState>, temperatures: TestObserver<[Int: String]>) {
        let (state, all) = showListWithFailures()
        recorded = all
        return (state, TestObserver(all.publisher.map(\.texts).eraseToAnyPublisher()))
    }

    /// Kept for the test's length: the narrower observer of `showList` listens through it.
    private var recorded: Recorded?

    /// The whole temperature output (marks, failed rows and the message) observed.
    private func showListWithFailures() -> (state: TestObserver<CityListState>, temperatures: Recorded) {
        let output = makeOutput()
        let observers = (state: TestObserver(output.state), temperatures: Recorded(
            // The temperatures are part of the list's state now (one state): their history is the state's,
            // without repeats, from the first value that has any.
            output.state.map(\.temperatures).removeDuplicates().dropFirst().eraseToAnyPublisher()))
        events.send(.queryChanged(""))
        scheduler.advance()
        return observers
    }

    private func answer(_ celsius: [Double]) {
        let batch = weather.batches.last ?? []
        weather.batchSubject.send(zip(batch, celsius).map { CurrentTemperature(coordinate: $0, temperature: $1, condition: .clear) }.answers)
        weather.batchSubject.send(completion: .finished)
    }

    /// Every value of the temperatures output, and a publisher of them as they come (for a narrower observer).
    final class Recorded {
        let publisher = PassthroughSubject<CityTemperatures, Never>()
        private(set) var values: [CityTemperatures] = []
        private var subscription: AnyCancellable?
        init(_ source: AnyPublisher<CityTemperatures, Never>) {
            subscription = source.sink { [unowned self] value in
                values.append(value)
                publisher.send(value)
            }
        }
        var last: CityTemperatures? { values.last }
    }

    func testVisibleRowsGetTheirTemperaturesInOneBatchOnceTheyStayPut() {
        let (state, temperatures) = showList()
        events.send(.visibleRowsChanged(0..<2))
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(weather.batches.count, 0, "nothing before the rows have stayed put")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(weather.batches, [[City.saoPaulo.coordinate, City.seoul.coordinate]])
        answer([21.4, 23.6])
        scheduler.advance()
        XCTAssertEqual(temperatures.values, [[City.saoPaulo.id: "21°", City.seoul.id: "24°"]])
        // The temperatures are in the one state now: the state changed once more, the rows did not.
        XCTAssertEqual(state.values.count, 2)
        XCTAssertEqual(state.values.map(\.rows).map { $0.prefix(4) }.count, 2)
        XCTAssertEqual(state.values[0].rows.prefix(4), state.values[1].rows.prefix(4))
    }

    /// Temperatures are asked for only when they can be written: a list given the weather but no
    /// formatter asks for none, however long its rows stay put.
    func testAListWithoutAFormatterAsksForNoTemperatures() {
        let l10n = L10n.bundled(.en)
        let viewModel = CityListViewModel(
            search: SearchCitiesUseCase(repository: repository), totalCount: repository.cityCount, l10n: l10n,
            scheduler: scheduler.eraseToAnyScheduler(),
            temperatures: GetCurrentTemperaturesUseCase(repository: weather), likes: LikeCityUseCase(repository: likes))
        let state = TestObserver(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state)
        events.send(.queryChanged(""))
        events.send(.visibleRowsChanged(0..<2))
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(weather.batches.count, 0)
        XCTAssertFalse(state.values.isEmpty, "the list is shown")
    }

    func testTypingAndScrollingMakeNoRequestUntilTheRowsSettle() {
        let (state, temperatures) = showList()
        defer { state.cancel() }
        for step in 0..<20 {
            events.send(.visibleRowsChanged(step % 3..<(step % 3 + 2)))
            scheduler.advance(by: .milliseconds(100))
        }
        XCTAssertEqual(weather.batches.count, 0)
        scheduler.advance(by: .milliseconds(200))
        XCTAssertEqual(weather.batches.count, 1)
        XCTAssertEqual(repository.decoded.count, 2, "only the rows that stayed put are read, once")
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(repository.decoded.count, 2, "row sets that flashed by are never read later either")
        XCTAssertTrue(temperatures.values.isEmpty)
    }

    func testRowsScrollingAwayCancelTheirRequestAndKnownRowsAreNotAskedAgain() {
        let (state, temperatures) = showList()
        defer { state.cancel() }
        events.send(.visibleRowsChanged(0..<2))
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(weather.batches.count, 1)
        events.send(.visibleRowsChanged(2..<4))
        scheduler.advance()
        XCTAssertEqual(weather.cancellations, 1, "the request for rows that left the screen is cancelled at once")
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(weather.batches.last, [City.busan.coordinate, City.seogwipo.coordinate])
        answer([25, 27])
        scheduler.advance()
        events.send(.visibleRowsChanged(1..<3))
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(weather.batches.last, [City.seoul.coordinate], "Busan is known; only Seoul is asked for")
        answer([24])
        scheduler.advance()
        events.send(.visibleRowsChanged(2..<4))
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(weather.batches.count, 3, "rows already known cost no request")
        XCTAssertEqual(temperatures.values.last, [City.busan.id: "25°", City.seogwipo.id: "27°", City.seoul.id: "24°"])
    }

    func testAtMostTenRequestsASecondHoweverFastTheRowsChange() {
        let (state, temperatures) = showList()
        // Each page stays just long enough to be asked for; none is ever answered.
        for step in 0..<30 {
            events.send(.visibleRowsChanged(step % 4..<(step % 4 + 1)))
            scheduler.advance(by: .milliseconds(301))
        }
        let seconds = 30 * 0.301
        XCTAssertEqual(weather.batches.count, 30)
        XCTAssertLessThanOrEqual(Double(weather.batches.count) / seconds, 10)
        XCTAssertEqual(weather.cancellations, 29)
        XCTAssertEqual(state.values.count, 1)
        XCTAssertTrue(temperatures.values.isEmpty)
    }

    func testAFailedBatchMarksItsRowsSaysWhyAndRAsksAgainAtOnce() {
        let (state, temperatures) = showListWithFailures()
        defer { state.cancel() }
        events.send(.visibleRowsChanged(0..<4))
        scheduler.advance(by: .milliseconds(300))
        weather.batchSubject.send(completion: .failure(.rateLimited))
        scheduler.advance()
        let ids = [City.saoPaulo.id, City.seoul.id, City.busan.id, City.seogwipo.id]
        XCTAssertEqual(temperatures.values, [CityTemperatures(
            texts: Dictionary(uniqueKeysWithValues: ids.map { ($0, "n/a") }), failed: Set(ids),
            message: "Temperatures n/a: rate-limited · r retries")])
        events.send(.retryRequested)
        scheduler.advance()
        XCTAssertEqual(weather.batches.count, 2, "r asks again at once, without waiting for the rows to settle")
        answer([21, 22, 23, 24])
        scheduler.advance()
        XCTAssertEqual(temperatures.last, CityTemperatures(texts: [City.saoPaulo.id: "21°", City.seoul.id: "22°",
                                                                   City.busan.id: "23°", City.seogwipo.id: "24°"]))
        events.send(.retryRequested)
        scheduler.advance()
        XCTAssertEqual(weather.batches.count, 2, "nothing left to ask for")
    }

    func testAPlaceWithoutItsOwnAnswerIsMarkedAloneAndAskedAgainWhenShownAgain() {
        let (state, temperatures) = showListWithFailures()
        defer { state.cancel() }
        events.send(.visibleRowsChanged(0..<2))
        scheduler.advance(by: .milliseconds(300))
        weather.batchSubject.send([City.saoPaulo.coordinate: .success(CurrentTemperature(coordinate: City.saoPaulo.coordinate, temperature: 21, condition: .clear)),
                                   City.seoul.coordinate: .failure(.badResponse)])
        weather.batchSubject.send(completion: .finished)
        scheduler.advance()
        XCTAssertEqual(temperatures.last, CityTemperatures(texts: [City.saoPaulo.id: "21°", City.seoul.id: "n/a"],
                                                           failed: [City.seoul.id], message: "Temperatures n/a: bad response · r retries"))
        // Scrolled away, the words go (the mark stays with its row); shown again, the row is asked for.
        events.send(.visibleRowsChanged(2..<4))
        scheduler.advance()
        XCTAssertNil(temperatures.last?.message)
        scheduler.advance(by: .milliseconds(300))
        answer([25, 27])
        scheduler.advance()
        events.send(.visibleRowsChanged(1..<3))
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(weather.batches.last, [City.seoul.coordinate], "only the row that failed is asked again")
        answer([24])
        scheduler.advance()
        XCTAssertEqual(temperatures.last?.texts[City.seoul.id], "24°")
        XCTAssertEqual(temperatures.last?.failed, [])
    }

    func testFTogglesALikeOnTheSelectedRow() {
        let output = makeOutput()
        let state = TestObserver(output.state)
        defer { state.cancel() }
        let liked = TestObserver(output.state.map(\.likes).removeDuplicates())
        events.send(.queryChanged("seoul"))
        scheduler.advance()
        events.send(.likeToggled(0))
        scheduler.advance()
        events.send(.likeToggled(0))
        scheduler.advance()
        likes.failWrites = true
        events.send(.likeToggled(0))
        scheduler.advance()
        XCTAssertEqual(liked.values, [
            CityListLikes(ids: [], message: nil),
            CityListLikes(ids: [City.seoul.id], message: nil),
            CityListLikes(ids: [], message: nil),
            CityListLikes(ids: [], message: "Could not save the like: the database refused the write."),
        ])
    }
}
