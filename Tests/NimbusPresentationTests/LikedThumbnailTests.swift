import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// The Liked screen's map comes from its view model: the screen says how much room it has, the
/// view model draws the selected city's map for it, labelled, with the other liked cities in view
/// and a scale.
final class LikedThumbnailTests: XCTestCase {
    /// A Liked view model over `cities` (liked, in that order) with maps drawn by `maps`, on `scheduler`.
    private func make(_ cities: [City], maps: FakeMapRepository, scheduler: TestSchedulerOf<DispatchQueue>)
        -> (events: PassthroughSubject<LikedCitiesViewModel.Event, Never>, state: TestObserver<LikedCitiesState>) {
        let likes = InMemoryLikes()
        likes.ids = cities.map(\.id)
        maps.projected = true
        let l10n = L10n.bundled(.en)
        let viewModel = LikedCitiesViewModel(
            liked: GetLikedCitiesUseCase(likes: likes, lookup: { id in cities.first { $0.id == id } }),
            like: LikeCityUseCase(repository: likes), ranges: GetTodayRangesUseCase(repository: ScriptedWeatherRepository()),
            format: WeatherFormatter(l10n: l10n, units: .metric, zones: SystemZoneDatabase.forTests), countries: CountryNames(locale: l10n.locale),
            scheduler: scheduler.eraseToAnyScheduler(), map: ShowCityMapUseCase(repository: maps))
        let events = PassthroughSubject<LikedCitiesViewModel.Event, Never>()
        return (events, TestObserver(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state))
    }

    func testTheSelectedCitysMapIsDrawnOnceForEachRoomAndSelectionAndNoneWithoutRoom() {
        let scheduler = DispatchQueue.test
        let maps = FakeMapRepository()
        let (events, state) = make([.seoul, .busan], maps: maps, scheduler: scheduler)
        func map() -> String? {
            state.last?.map.map { map in
                let size = map.snapshot.key.size
                let marks = map.markers.map(\.label).joined(separator: ",")
                return "\(map.label) \(size.cols)×\(size.rows) [\(marks)] \(map.scale?.label ?? "-")"
            }
        }
        events.send(.appeared)
        scheduler.advance()
        XCTAssertEqual(state.values.last?.rows.map { $0.cityID }, [City.seoul.id, City.busan.id])
        XCTAssertNil(map(), "no room said yet: no map")

        let size = MapSize(cols: 28, rows: 20)
        events.send(.mapRoomChanged(size))
        XCTAssertEqual(map(), "Seoul 28×20 [Busan] 200 km", "the first row's map, at once, with Busan in view")
        events.send(.mapRoomChanged(size)) // the same again: nothing new
        events.send(.rowSelected(1))
        XCTAssertEqual(map(), "Busan 28×20 [Seoul] 200 km")
        events.send(.mapRoomChanged(nil))
        XCTAssertNil(map())
        events.send(.mapRoomChanged(MapSize(cols: 28, rows: 8)))
        XCTAssertEqual(map(), "Busan 28×8 [] 200 km", "a map too short for Seoul marks no other city")
        XCTAssertEqual(maps.renders.map(\.key.size.rows), [20, 20, 8], "each map drawn once")
        XCTAssertEqual(maps.renders.map(\.key.cityID), [City.seoul.id, City.busan.id, City.busan.id])
    }

    /// A key held down (moves closer than `mapRest`): the first move's map at once, then none until
    /// the keys stop, then the map of where the selection rests; a single move after a rest, at once.
    func testMovesThatComeQuicklyDrawOneMapWhenTheyStop() {
        let scheduler = DispatchQueue.test
        let all: [City] = [.seoul, .busan, .seogwipo, .saoPaulo]
        let maps = FakeMapRepository()
        let (events, state) = make(all, maps: maps, scheduler: scheduler)
        events.send(.appeared)
        scheduler.advance()
        events.send(.mapRoomChanged(MapSize(cols: 28, rows: 20)))
        let first = state.last?.rows.first?.cityID
        XCTAssertEqual(maps.renders.map(\.key.cityID), [first].compactMap { $0 })
        let rows = state.last?.rows.map(\.cityID) ?? []
        XCTAssertEqual(rows.count, 4)
        // Three moves 33 ms apart (a key's repeat): the first draws its map, the others wait.
        events.send(.rowSelected(1))
        scheduler.advance(by: .milliseconds(33))
        events.send(.rowSelected(2))
        scheduler.advance(by: .milliseconds(33))
        events.send(.rowSelected(3))
        XCTAssertEqual(state.last?.selection, 3, "the selection follows every key")
        XCTAssertEqual(maps.renders.map(\.key.cityID), [rows[0], rows[1]])
        XCTAssertEqual(state.last?.map?.label, CityNameChoice.name(all.first { $0.id == rows[1] }!, language: .en),
                       "meanwhile the last map drawn stays")
        scheduler.advance(by: .milliseconds(149))
        XCTAssertEqual(maps.renders.count, 2, "not yet: 149 ms since the last move")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(maps.renders.map(\.key.cityID), [rows[0], rows[1], rows[3]], "the keys stopped: where the selection rests")
        // After the rest, a single move gets its map at once.
        scheduler.advance(by: .seconds(1))
        events.send(.rowSelected(0))
        XCTAssertEqual(state.last?.map?.label, CityNameChoice.name(all.first { $0.id == rows[0] }!, language: .en),
                       "at once (from the cache: drawn at the start)")
    }
}
