import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers
import OpenCombineShim

/// Makes the Quakes tab's use cases, view models and screens.
@MainActor
final class QuakesSceneDIContainer: QuakesCoordinatorDependencies {
    private let quakes: QuakesUseCase
    private let likes: LikesRepository
    private let lookup: @Sendable (Int) -> City?
    private let locate: LocateCurrentCityUseCase
    private let format: QuakeFormatter
    /// The map panel of a place, made when an event is opened (the map services load on first use).
    private let mapPanel: (City) -> ScreenPanel
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date

    init(quakes: QuakesUseCase, likes: LikesRepository, lookup: @escaping @Sendable (Int) -> City?,
         locate: LocateCurrentCityUseCase, format: QuakeFormatter, mapPanel: @escaping (City) -> ScreenPanel,
         scheduler: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date) {
        self.quakes = quakes
        self.likes = likes
        self.lookup = lookup
        self.locate = locate
        self.format = format
        self.mapPanel = mapPanel
        self.scheduler = scheduler
        self.now = now
    }

    /// My places: the liked cities as they change, and where I am (found once, offline).
    private func places() -> AnyPublisher<[Coordinate], Never> {
        let lookup = self.lookup
        let locate = self.locate
        return Deferred { () -> AnyPublisher<[Coordinate], Never> in
            let here: [Coordinate]
            if case .success(let current) = locate.execute() { here = [current.city.coordinate] } else { here = [] }
            return LikeCityUseCase(repository: self.likes).contents
                .map { ids in here + ids.compactMap(lookup).map(\.coordinate) }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    func makeQuakeListScreen(onRoute: @escaping (QuakeListRoute) -> Void) -> QuakeListScreen {
        let viewModel = QuakeListViewModel(quakes: quakes, places: places(), format: format, scheduler: scheduler, now: now)
        return QuakeListScreen(viewModel: viewModel, l10n: format.l10n, onRoute: onRoute)
    }

    func makeQuakeDetailScreen(quake: Quake, place: QuakePlace?) -> Screen {
        let viewModel = QuakeDetailViewModel(quake: quake, place: place, likes: LikeCityUseCase(repository: likes),
                                             format: format, now: now)
        // The map of the epicentre: the map panel of a "city" there, marked with the magnitude.
        let epicentre = City(id: Self.mapID(quake.id), name: "M " + QuakeFormatter.magnitude(quake.magnitude),
                             countryCode: place?.city.countryCode ?? "", latitude: quake.coordinate.latitude,
                             longitude: quake.coordinate.longitude, population: 0,
                             timeZone: place?.city.timeZone ?? "UTC", alternateNames: [])
        return QuakeDetailScreen(viewModel: viewModel, l10n: format.l10n, panel: mapPanel(epicentre))
    }

    /// A map cache key for an event that no catalogue city has (GeoNames ids are positive).
    static func mapID(_ eventID: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in eventID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return -Int(hash % 1_000_000_000) - 1
    }
}
