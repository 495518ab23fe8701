import XCTest
import NimbusDomain
import OpenCombineShim
@testable import NimbusPresentation
import TestSupport

/// My places (where I am, then the liked cities, as they change) and an event's map "city".
final class MyPlacesTests: XCTestCase {
    private let cities = InMemoryCityRepository([.seoul, .saoPaulo, .busan, .seogwipo])

    func testWhereIAmComesFirstThenTheLikedCitiesAsTheyChange() {
        let likes = InMemoryLikes()
        likes.ids = [City.seoul.id, 999]
        let locate = LocateCurrentCityUseCase(provider: FixedLocation(.argument(GeoPoint(latitude: 35.2, longitude: 129.1)!)),
                                              locator: cities, cities: cities)
        let all = [City.seoul, .saoPaulo, .busan, .seogwipo]
        let places = MyPlacesUseCase(locate: locate, liked: GetLikedCitiesUseCase(likes: likes, lookup: { id in all.first { $0.id == id } }))
        let seen = TestObserver(places.contents.map { $0.map(\.id) }.eraseToAnyPublisher())
        try? likes.setLiked(City.saoPaulo.id, true)
        XCTAssertEqual(seen.values, [[City.busan.id, City.seoul.id], [City.busan.id, City.saoPaulo.id, City.seoul.id]],
                       "an unknown id is skipped")
        let nowhere = MyPlacesUseCase(locate: LocateCurrentCityUseCase(provider: FixedLocation(.unknown), locator: cities, cities: cities),
                                      liked: GetLikedCitiesUseCase(likes: likes, lookup: { id in all.first { $0.id == id } }))
        XCTAssertEqual(TestObserver(nowhere.coordinates).values, [[City.saoPaulo.coordinate, City.seoul.coordinate]])
    }

    /// The epicentre's map key never meets a catalogue city's (GeoNames ids are positive) and is the same each time.
    func testAnEventsMapKeyIsNegativeAndStable() {
        for id in ["us7000abcd", "", "ak0251xyz", "한국"] {
            XCTAssertLessThan(QuakeDetailViewModel.mapID(id), 0, id)
            XCTAssertEqual(QuakeDetailViewModel.mapID(id), QuakeDetailViewModel.mapID(id))
        }
        XCTAssertNotEqual(QuakeDetailViewModel.mapID("us7000abcd"), QuakeDetailViewModel.mapID("us7000abce"))
    }
}
