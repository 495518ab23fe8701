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
    private let query = PassthroughSubject<String, Never>()
    private let opened = PassthroughSubject<Int, Never>()
    private let visible = PassthroughSubject<Range<Int>, Never>()
    private let like = PassthroughSubject<Int, Never>()
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
            countries: CountryNames(locale: l10n.locale), scheduler: scheduler.eraseToAnyScheduler(),
            temperatures: GetCurrentTemperaturesUseCase(repository: weather),
            format: WeatherFormatter(l10n: l10n, units: .metric), likes: LikeCityUseCase(repository: likes))
        return viewModel.transform(input: .init(
            queryChanged: query.eraseToAnyPublisher(), rowOpened: opened.eraseToAnyPublisher(),
            visibleRowsChanged: visible.eraseToAnyPublisher(), likeToggled: like.eraseToAnyPublisher()))
    }

    /// The view model's output observed, with the empty query's rows shown.
    private func showList() -> (state: TestObserver<CityListState>, temperatures: TestObserver<[Int: String]>) {
        let output = makeOutput()
        let observers = (state: TestObserver(output.state), temperatures: TestObserver(output.temperatures))
        query.send("")
        scheduler.advance()
        return observers
    }

    private func answer(_ celsius: [Double]) {
        let batch = weather.batches.last ?? []
        weather.batchSubject.send(zip(batch, celsius).map { CurrentTemperature(coordinate: $0, temperature: $1, condition: .clear) })
        weather.batchSubject.send(completion: .finished)
    }

    func testVisibleRowsGetTheirTemperaturesInOneBatchOnceTheyStayPut() {
        let (state, temperatures) = showList()
        visible.send(0..<2)
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(weather.batches.count, 0, "nothing before the rows have stayed put")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(weather.batches, [[City.saoPaulo.coordinate, City.seoul.coordinate]])
        answer([21.4, 23.6])
        scheduler.advance()
        XCTAssertEqual(temperatures.values, [[City.saoPaulo.id: "21°", City.seoul.id: "24°"]])
        XCTAssertEqual(state.values.count, 1, "temperatures never touch the list state")
    }

    func testTypingAndScrollingMakeNoRequestUntilTheRowsSettle() {
        let (state, temperatures) = showList()
        defer { state.cancel() }
        for step in 0..<20 {
            visible.send(step % 3..<(step % 3 + 2))
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
        visible.send(0..<2)
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(weather.batches.count, 1)
        visible.send(2..<4)
        scheduler.advance()
        XCTAssertEqual(weather.cancellations, 1, "the request for rows that left the screen is cancelled at once")
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(weather.batches.last, [City.busan.coordinate, City.seogwipo.coordinate])
        answer([25, 27])
        scheduler.advance()
        visible.send(1..<3)
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(weather.batches.last, [City.seoul.coordinate], "Busan is known; only Seoul is asked for")
        answer([24])
        scheduler.advance()
        visible.send(2..<4)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(weather.batches.count, 3, "rows already known cost no request")
        XCTAssertEqual(temperatures.values.last, [City.busan.id: "25°", City.seogwipo.id: "27°", City.seoul.id: "24°"])
    }

    func testAtMostTenRequestsASecondHoweverFastTheRowsChange() {
        let (state, temperatures) = showList()
        // Each page stays just long enough to be asked for; none is ever answered.
        for step in 0..<30 {
            visible.send(step % 4..<(step % 4 + 1))
            scheduler.advance(by: .milliseconds(301))
        }
        let seconds = 30 * 0.301
        XCTAssertEqual(weather.batches.count, 30)
        XCTAssertLessThanOrEqual(Double(weather.batches.count) / seconds, 10)
        XCTAssertEqual(weather.cancellations, 29)
        XCTAssertEqual(state.values.count, 1)
        XCTAssertTrue(temperatures.values.isEmpty)
    }

    func testAFailedBatchLeavesTheRowsWithoutTemperatures() {
        let (state, temperatures) = showList()
        defer { state.cancel() }
        visible.send(0..<4)
        scheduler.advance(by: .milliseconds(300))
        weather.batchSubject.send(completion: .failure(.rateLimited))
        scheduler.advance()
        XCTAssertEqual(temperatures.values, [[:]])
    }

    func testFTogglesALikeOnTheSelectedRow() {
        let output = makeOutput()
        let state = TestObserver(output.state)
        defer { state.cancel() }
        let liked = TestObserver(output.likes)
        query.send("seoul")
        scheduler.advance()
        like.send(0)
        scheduler.advance()
        like.send(0)
        scheduler.advance()
        likes.failWrites = true
        like.send(0)
        scheduler.advance()
        XCTAssertEqual(liked.values, [
            CityListLikes(ids: [], message: nil),
            CityListLikes(ids: [City.seoul.id], message: nil),
            CityListLikes(ids: [], message: nil),
            CityListLikes(ids: [], message: "Could not save the like: the database refused the write."),
        ])
    }
}
