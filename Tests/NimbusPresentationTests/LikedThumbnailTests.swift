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
    func testTheSelectedCitysMapIsDrawnOnceForEachRoomAndSelectionAndNoneWithoutRoom() {
        let scheduler = DispatchQueue.test
        let likes = InMemoryLikes()
        likes.ids = [City.seoul.id, City.busan.id]
        let all: [City] = [.seoul, .busan]
        let maps = FakeMapRepository()
        maps.projected = true
        let l10n = L10n.bundled(.en)
        let viewModel = LikedCitiesViewModel(
            liked: GetLikedCitiesUseCase(likes: likes, lookup: { id in all.first { $0.id == id } }),
            like: LikeCityUseCase(repository: likes), ranges: GetTodayRangesUseCase(repository: ScriptedWeatherRepository()),
            format: WeatherFormatter(l10n: l10n, units: .metric, zones: SystemZoneDatabase.forTests), countries: CountryNames(locale: l10n.locale),
            scheduler: scheduler.eraseToAnyScheduler(), map: ShowCityMapUseCase(repository: maps))
        let events = PassthroughSubject<LikedCitiesViewModel.Event, Never>()
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        let state = TestObserver(output.state)
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
}
