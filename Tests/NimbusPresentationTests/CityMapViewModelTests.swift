import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

final class CityMapViewModelTests: XCTestCase {
    private var main: TestSchedulerOf<DispatchQueue>!
    private var background: TestSchedulerOf<DispatchQueue>!
    private var repository: FakeMapRepository!
    private var events: PassthroughSubject<CityMapViewModel.Event, Never>!
    private var observer: TestObserver<CityMapState>!

    override func setUp() {
        main = DispatchQueue.test
        background = DispatchQueue.test
        repository = FakeMapRepository()
        events = .init()
    }

    private func start(language: Language = .en, units: UnitSystem = .metric, towns: MapTownFinder? = nil) {
        let viewModel = CityMapViewModel(
            city: .seoul, showMap: ShowCityMapUseCase(repository: repository), l10n: .bundled(language), units: units,
            initialZoom: .country, scheduler: main.eraseToAnyScheduler(), renderScheduler: background.eraseToAnyScheduler(),
            towns: towns)
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        observer = TestObserver(output.state)
    }

    private func settle() {
        background.advance()
        main.advance()
    }

    /// One line per state: loading or shown, the snapshot's key, the status, the scale and any message.
    private func history() -> [String] {
        observer.values.map { s in
            let key = s.snapshot.map { "z\($0.key.zoom.level) \($0.key.size.cols)x\($0.key.size.rows) \($0.key.style.rawValue) (\($0.key.offset.x),\($0.key.offset.y))" } ?? "-"
            let scale = s.scaleBar.map { "\($0.columns) \($0.label)" } ?? "-"
            return "\(s.isLoading ? "loading" : "shown") | \(key) | \(s.status) | \(scale) | \(s.message ?? "-")"
        }
    }

    private let z4 = "zoom 4/12 · braille"

    func testNothingBeforeTheFirstLayoutThenLoadingThenTheMap() {
        start()
        events.send(.zoomed(1))
        main.advance()
        XCTAssertEqual(history(), [])
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        XCTAssertEqual(history(), ["loading | - | zoom 5/12 · braille | - | Drawing the map…"])
        main.advance()
        XCTAssertEqual(repository.renders.count, 0, "rendering waits for the render queue")
        settle()
        XCTAssertEqual(history(), [
            "loading | - | zoom 5/12 · braille | - | Drawing the map…",
            "shown | z5 30x8 braille (0,0) | zoom 5/12 · braille | 10 100 km | -",
        ])
        XCTAssertEqual(observer.last?.cityName, "Seoul")
    }

    func testTownsAreFoundOnTheRenderQueueAndRememberedForTheCachedMap() {
        repository.projected = true
        let scans = LockedCounter()
        let seoul = City.seoul
        // One town a degree east of Seoul (five columns at zoom 4), one on Seoul's own cell.
        let points = [GeoPoint(latitude: seoul.coordinate.latitude, longitude: seoul.coordinate.longitude + 1)!,
                      GeoPoint(latitude: seoul.coordinate.latitude, longitude: seoul.coordinate.longitude)!]
        let finder = MapTownFinder(count: 2, position: { scans.add(); return points[$0] }, city: { _ in seoul })
        start(towns: finder)
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        main.advance()
        XCTAssertEqual(scans.value, 0, "nothing on the main queue")
        settle()
        XCTAssertEqual(scans.value, 2)
        XCTAssertEqual(observer.last?.markers.map(\.kind), [.town])
        XCTAssertEqual(observer.last?.markers.first?.x, 20)
        events.send(.zoomed(1))
        settle()
        events.send(.zoomed(-1))  // back to zoom 4: cached, its towns remembered, no scan
        XCTAssertEqual(observer.last?.markers.map(\.kind), [.town])
        XCTAssertEqual(scans.value, 4)
        // Another panel on the same cached map: the map at once, its towns after a scan off the main queue.
        start(towns: finder)
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        XCTAssertEqual(observer.last?.markers, [])
        main.advance()
        XCTAssertEqual(scans.value, 4)
        settle()
        XCTAssertEqual(scans.value, 6)
        XCTAssertEqual(observer.last?.markers.map(\.kind), [.town])
        // None at world zoom.
        events.send(.zoomed(-4))
        settle()
        XCTAssertEqual(observer.last?.zoom, .world)
        XCTAssertEqual(observer.last?.markers, [])
    }

    func testRevisitedViewsComeFromTheCacheAtOnce() {
        start()
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        settle()
        events.send(.zoomed(1))
        settle()
        events.send(.zoomed(-1))  // back to zoom 4: cached, no loading state, no render, no scheduler hop
        XCTAssertEqual(history(), [
            "loading | - | \(z4) | - | Drawing the map…",
            "shown | z4 30x8 braille (0,0) | \(z4) | 10 100 km | -",
            "loading | z4 30x8 braille (0,0) | zoom 5/12 · braille | 10 100 km | Drawing the map…",
            "shown | z5 30x8 braille (0,0) | zoom 5/12 · braille | 10 100 km | -",
            "shown | z4 30x8 braille (0,0) | \(z4) | 10 100 km | -",
        ])
        XCTAssertEqual(repository.renders.count, 2)
    }

    func testANewViewCancelsTheRenderInFlight() {
        start()
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        events.send(.panned(.right))
        events.send(.panned(.down))
        settle()
        // (The three views' loading states look the same: one is sent.)
        XCTAssertEqual(history(), [
            "loading | - | \(z4) | - | Drawing the map…",
            "shown | z4 30x8 braille (1,1) | \(z4) | 10 100 km | -",
        ])
        XCTAssertEqual(repository.renders.filter { !$0.cancel.isCancelled }.map(\.key.offset), [MapOffset(x: 1, y: 1)])
    }

    /// Views panned past before the render queue came to them are never drawn, nor their towns found:
    /// each used to be drawn in full later, one after another, every view holding its subscription
    /// until then (the live app's memory grew by ~4 KB a view, and its render queue ran for minutes).
    func testViewsLeftBeforeTheRenderQueueCameToThemAreNeverDrawn() {
        repository.projected = true
        let scans = LockedCounter()
        let seoul = City.seoul
        let finder = MapTownFinder(count: 1, position: { _ in scans.add(); return GeoPoint(latitude: 38, longitude: 128)! },
                                   city: { _ in seoul })
        start(towns: finder)
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        for _ in 0..<100 { events.send(.panned(.right)) }
        settle()
        XCTAssertEqual(repository.renders.map(\.key.offset), [MapOffset(x: 100, y: 0)], "only the view on screen is drawn")
        XCTAssertEqual(scans.value, 1)
        // Cached views flicked through: the towns of the last alone are looked for.
        events.send(.panned(.left))
        settle()
        for i in 0..<100 { events.send(.panned(i % 2 == 0 ? .right : .left)) }
        settle()
        XCTAssertEqual(repository.renders.count, 2)
        XCTAssertEqual(scans.value, 2, "the towns of cached views flicked past are not looked for")
        XCTAssertEqual(observer.last?.snapshot?.key.offset, MapOffset(x: 99, y: 0))
    }

    func testDismissingCancelsTheRenderAndEndsTheOutput() {
        start()
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        background.advance()  // the render ran...
        events.send(.dismissed)  // ...but the screen left before its result was delivered
        main.advance()
        events.send(.zoomed(1))
        settle()
        XCTAssertEqual(history(), ["loading | - | \(z4) | - | Drawing the map…"])
        XCTAssertTrue(observer.finished)
        XCTAssertEqual(repository.renders.count, 1)
        XCTAssertTrue(repository.renders[0].cancel.isCancelled)
    }

    func testStyleResetAndZoomLimits() {
        start(units: .imperial)
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        settle()
        events.send(.styleToggled)
        settle()
        events.send(.panned(.left))
        settle()
        events.send(.resetRequested)  // back to the start: still blocks, cached
        for _ in 0..<20 { events.send(.zoomed(-1)) }
        settle()
        XCTAssertEqual(history(), [
            "loading | - | \(z4) | - | Drawing the map…",
            "shown | z4 30x8 braille (0,0) | \(z4) | 8 50 mi | -",
            "loading | z4 30x8 braille (0,0) | zoom 4/12 · blocks | 8 50 mi | Drawing the map…",
            "shown | z4 30x8 blocks (0,0) | zoom 4/12 · blocks | 8 50 mi | -",
            "loading | z4 30x8 blocks (0,0) | zoom 4/12 · blocks | 8 50 mi | Drawing the map…",
            "shown | z4 30x8 blocks (-1,0) | zoom 4/12 · blocks | 8 50 mi | -",
            "shown | z4 30x8 blocks (0,0) | zoom 4/12 · blocks | 8 50 mi | -",
            "loading | z4 30x8 blocks (0,0) | zoom 3/12 · blocks | 8 50 mi | Drawing the map…",
            "loading | z4 30x8 blocks (0,0) | zoom 2/12 · blocks | 8 50 mi | Drawing the map…",
            "loading | z4 30x8 blocks (0,0) | zoom 1/12 · blocks | 8 50 mi | Drawing the map…",
            "loading | z4 30x8 blocks (0,0) | zoom 0/12 · blocks | 8 50 mi | Drawing the map…",
            "shown | z0 30x8 blocks (0,0) | zoom 0/12 · blocks | 8 50 mi | -",
        ])
    }

    func testMissingDataIsShownLocalised() {
        repository.failure = .dataMissing("landmask.bin")
        start(language: .ko)
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        settle()
        XCTAssertEqual(history(), [
            "loading | - | 확대 4/12 · 도트 | - | 지도를 그리는 중…",
            "shown | - | 확대 4/12 · 도트 | - | 지도 데이터가 없습니다: landmask.bin",
        ])
    }

    func testRealQueuesOnlyTheLastOfManyQuickViewsIsShown() {
        repository.delay = 0.01
        let viewModel = CityMapViewModel(
            city: .seoul, showMap: ShowCityMapUseCase(repository: repository), l10n: .bundled(.en), units: .metric,
            scheduler: DispatchQueue.main.eraseToAnyScheduler(),
            renderScheduler: DispatchQueue(label: "test.map", attributes: .concurrent).eraseToAnyScheduler())
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        observer = TestObserver(output.state)
        events.send(.sizeChanged(MapSize(cols: 30, rows: 8)))
        for _ in 0..<8 { events.send(.zoomed(1)) }
        let shown = expectation(description: "the last view is shown")
        // Polled on the main queue only, where this test runs.
        nonisolated(unsafe) let observer = self.observer!
        @Sendable func poll() {
            if observer.values.contains(where: { !$0.isLoading }) { shown.fulfill() }
            else { DispatchQueue.main.asyncAfter(deadline: .now() + 0.005, execute: poll) }
        }
        poll()
        wait(for: [shown], timeout: 5)
        let done = observer.values.filter { !$0.isLoading }
        XCTAssertEqual(done.map { $0.snapshot?.key.zoom }, [MapZoom(12)])
        XCTAssertTrue(observer.values.dropLast().allSatisfy(\.isLoading))
        XCTAssertEqual(repository.renders.filter { !$0.cancel.isCancelled }.map(\.key.zoom), [MapZoom(12)])
    }

    func testScaleBarPicksRoundDistancesThatFit() {
        let en = L10n.bundled(.en)
        XCTAssertEqual(MapScaleBar.make(kilometresPerColumn: 10, maxColumns: 24, units: .metric, l10n: en),
                       MapScaleBar(columns: 20, label: "200 km"))
        XCTAssertEqual(MapScaleBar.make(kilometresPerColumn: 1.609344 * 3, maxColumns: 10, units: .imperial, l10n: en),
                       MapScaleBar(columns: 7, label: "20 mi"))
        XCTAssertEqual(MapScaleBar.make(kilometresPerColumn: 0.07, maxColumns: 24, units: .metric, l10n: en),
                       MapScaleBar(columns: 14, label: "1 km"))
        XCTAssertEqual(MapScaleBar.make(kilometresPerColumn: 0.01, maxColumns: 24, units: .metric, l10n: en),
                       MapScaleBar(columns: 20, label: "0.2 km"))
        XCTAssertEqual(MapScaleBar.make(kilometresPerColumn: 2_000, maxColumns: 24, units: .metric, l10n: .bundled(.ko)),
                       MapScaleBar(columns: 10, label: "20,000 km"))
        XCTAssertNil(MapScaleBar.make(kilometresPerColumn: 10, maxColumns: 1, units: .metric, l10n: en))
        XCTAssertNil(MapScaleBar.make(kilometresPerColumn: .infinity, maxColumns: 20, units: .metric, l10n: en))
    }

    func testUnitsWithNoRegionAreMetricUnlessOverridden() {
        XCTAssertEqual(UnitSystem.resolve(environment: [:], language: .en), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: [:], language: .ko), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: [:], language: .ja), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: ["NIMBUS_UNITS": "metric"], language: .en), .metric)
        XCTAssertEqual(UnitSystem.resolve(environment: ["NIMBUS_UNITS": "Imperial"], language: .ko), .imperial)
        XCTAssertEqual(UnitSystem.resolve(environment: ["NIMBUS_UNITS": "kelvin"], language: .ko), .metric)
    }
}

private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    func add() { lock.lock(); count += 1; lock.unlock() }
}
