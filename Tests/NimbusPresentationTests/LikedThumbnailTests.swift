import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// The Liked screen's map comes from its view model: the screen says which city and size it has
/// room for, the view model answers with the snapshot.
final class LikedThumbnailTests: XCTestCase {
    func testTheWantedCitysMapIsPublishedOnceForEachNewRequestAndNoneWhenThereIsNoRoom() {
        let scheduler = DispatchQueue.test
        let likes = InMemoryLikes()
        likes.ids = [City.seoul.id, City.busan.id]
        let all: [City] = [.seoul, .busan]
        let maps = FakeMapRepository()
        let l10n = L10n.bundled(.en)
        let viewModel = LikedCitiesViewModel(
            liked: GetLikedCitiesUseCase(likes: likes, lookup: { id in all.first { $0.id == id } }),
            like: LikeCityUseCase(repository: likes), ranges: GetTodayRangesUseCase(repository: ScriptedWeatherRepository()),
            format: WeatherFormatter(l10n: l10n, units: .metric), countries: CountryNames(locale: l10n.locale),
            scheduler: scheduler.eraseToAnyScheduler(), startupNotice: nil, map: ShowCityMapUseCase(repository: maps))
        let appeared = PassthroughSubject<Void, Never>()
        let wanted = PassthroughSubject<LikedThumbnailRequest?, Never>()
        let output = viewModel.transform(input: .init(
            appeared: appeared.eraseToAnyPublisher(), rowOpened: Empty().eraseToAnyPublisher(),
            removeRequested: Empty().eraseToAnyPublisher(), refreshRequested: Empty().eraseToAnyPublisher(),
            thumbnailWanted: wanted.eraseToAnyPublisher()))
        let state = TestObserver(output.state)
        let thumbnail = TestObserver(output.thumbnail.map { $0.map { "\($0.cityID) \($0.snapshot.key.size.cols)×\($0.snapshot.key.size.rows)" } })
        appeared.send()
        scheduler.advance()
        XCTAssertEqual(state.values.last?.rows.map(\.cityID), [City.seoul.id, City.busan.id])

        let size = MapSize(cols: 28, rows: 10)
        wanted.send(LikedThumbnailRequest(cityID: City.seoul.id, size: size))
        wanted.send(LikedThumbnailRequest(cityID: City.seoul.id, size: size)) // the same again: nothing new
        wanted.send(LikedThumbnailRequest(cityID: City.busan.id, size: size))
        wanted.send(nil)
        wanted.send(LikedThumbnailRequest(cityID: 999, size: size)) // not a liked city
        thumbnail.assertValues(["\(City.seoul.id) 28×10", "\(City.busan.id) 28×10", nil, nil])
        XCTAssertEqual(maps.renders.count, 2, "each map drawn once")
    }
}
