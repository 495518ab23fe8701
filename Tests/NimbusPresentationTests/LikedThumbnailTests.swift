import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// The Liked screen's map comes from its view model: the screen says how much room it has, the
/// view model draws one view of every liked city for it, the selected one marked and labelled, the
/// others marked, and a scale. The view follows the cities and the room, never the selection.
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
            format: WeatherFormatter(l10n: l10n, units: .metric, zones: SystemZoneDatabase.forTests),
            scheduler: scheduler.eraseToAnyScheduler(), map: ShowCityMapUseCase(repository: maps))
        let events = PassthroughSubject<LikedCitiesViewModel.Event, Never>()
        return (events, TestObserver(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state))
    }

    func testOneViewOfEveryCityIsDrawnOnceForEachRoomAndNoneWithoutRoom() throws {
        let scheduler = DispatchQueue.test
        let maps = FakeMapRepository()
        let (events, state) = make([.seoul, .busan], maps: maps, scheduler: scheduler)
        func map() -> String? {
            state.last?.map.map { map in
                let size = map.snapshot.key.size
                let marks = map.markers.map(\.label).joined(separator: ",")
                return "\(map.label) \(size.cols)×\(size.rows) zoom \(map.snapshot.key.zoom.level) [\(marks)]"
            }
        }
        events.send(.appeared)
        scheduler.advance()
        XCTAssertEqual(state.values.last?.rows.map { $0.cityID }, [City.seoul.id, City.busan.id])
        XCTAssertNil(map(), "no room said yet: no map")

        let size = MapSize(cols: 28, rows: 20)
        events.send(.mapRoomChanged(size))
        XCTAssertEqual(map(), "Seoul 28×20 zoom 4 [Busan]", "both cities at the country zoom, at once, Seoul selected")
        events.send(.mapRoomChanged(size)) // the same again: nothing new
        events.send(.rowSelected(1))
        XCTAssertEqual(map(), "Busan 28×20 zoom 4 [Seoul]", "the same view, Busan marked")
        events.send(.mapRoomChanged(nil))
        XCTAssertNil(map())
        events.send(.mapRoomChanged(MapSize(cols: 28, rows: 8)))
        XCTAssertEqual(map(), "Busan 28×8 zoom 3 [Seoul]", "a map too short for both at the country zoom zooms out")
        XCTAssertEqual(maps.renders.map(\.key.size.rows), [20, 8], "each view drawn once: none for the move")
    }

    /// A key held down through forty cities across the world: no map is drawn after the first, and
    /// each frame's marker is the selected city's cell on that one view, labelled with its name.
    func testMovesDrawNoMapAndTheMarkerFollowsTheSelection() throws {
        let scheduler = DispatchQueue.test
        let all: [City] = (0..<40).map { (i: Int) -> City in
            let latitude = Double((i * 37) % 140) - 65
            let longitude = Double((i * 97) % 360) - 180
            return City(id: 1000 + i, name: "City \(i)", countryCode: "ZZ", latitude: latitude, longitude: longitude,
                        population: 1000, timeZone: "UTC", alternateNames: [])
        }
        let maps = FakeMapRepository()
        let (events, state) = make(all, maps: maps, scheduler: scheduler)
        events.send(.appeared)
        scheduler.advance()
        events.send(.mapRoomChanged(MapSize(cols: 44, rows: 26)))
        XCTAssertEqual(maps.renders.count, 1)
        let rows = try XCTUnwrap(state.last?.rows.map(\.cityID))
        XCTAssertEqual(rows.count, 40)
        for (index, id) in rows.enumerated() {
            events.send(.rowSelected(index))
            scheduler.advance(by: .milliseconds(33))
            let map = try XCTUnwrap(state.last?.map, "row \(index)")
            let city = try XCTUnwrap(all.first { $0.id == id })
            let projection = try XCTUnwrap(map.snapshot.projection)
            XCTAssertEqual(state.last?.selection, index)
            XCTAssertEqual(map.label, city.name, "row \(index)")
            XCTAssertEqual(map.snapshot.marker.map { [$0.x, $0.y] }, projection.cell(of: city.coordinate).map { [$0.x, $0.y] },
                           "row \(index): the marker is on the selected city")
            XCTAssertFalse(map.markers.contains { $0.label == city.name }, "row \(index): not marked twice")
        }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(maps.renders.count, 1, "forty moves, and the keys' stop: still the one view")
    }
}
