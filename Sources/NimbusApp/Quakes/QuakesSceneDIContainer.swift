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
    /// The map panel of a place with my places marked on it, made when an event is opened (the map
    /// services load on first use).
    private let mapPanel: (City, AnyPublisher<[MapMarker], Never>) -> ScreenPanel
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date

    init(quakes: QuakesUseCase, likes: LikesRepository, lookup: @escaping @Sendable (Int) -> City?,
         locate: LocateCurrentCityUseCase, format: QuakeFormatter,
         mapPanel: @escaping (City, AnyPublisher<[MapMarker], Never>) -> ScreenPanel,
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

    /// My places: where I am (found once, offline) and the liked cities as they change.
    private func myPlaces() -> AnyPublisher<[City], Never> {
        let lookup = self.lookup
        let locate = self.locate
        let likes = self.likes
        return Deferred { () -> AnyPublisher<[City], Never> in
            let here: [City]
            if case .success(let current) = locate.execute() { here = [current.city] } else { here = [] }
            return LikeCityUseCase(repository: likes).contents
                .map { ids in here + ids.compactMap(lookup) }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    private func places() -> AnyPublisher<[Coordinate], Never> {
        myPlaces().map { $0.map(\.coordinate) }.eraseToAnyPublisher()
    }

    func makeQuakeListScreen(onRoute: @escaping (QuakeListRoute) -> Void) -> QuakeListScreen {
        let viewModel = QuakeListViewModel(quakes: quakes, likes: LikeCityUseCase(repository: likes), places: places(),
                                            format: format, scheduler: scheduler, now: now)
        return QuakeListScreen(viewModel: viewModel, l10n: format.l10n, ticks: Self.ticks(scheduler, now: now), onRoute: onRoute)
    }

    func makeQuakeDetailScreen(quake: Quake, place: QuakePlace?) -> Screen {
        let viewModel = QuakeDetailViewModel(quake: quake, place: place, likes: LikeCityUseCase(repository: likes),
                                             format: format, now: now)
        // The map of the epicentre: the map panel of a "city" there, marked with the magnitude.
        let epicentre = City(id: Self.mapID(quake.id), name: "M " + QuakeFormatter.magnitude(quake.magnitude),
                             countryCode: place?.city.countryCode ?? "", latitude: quake.coordinate.latitude,
                             longitude: quake.coordinate.longitude, population: 0,
                             timeZone: place?.city.timeZone ?? "UTC", alternateNames: [])
        let language = format.l10n.language
        let places = myPlaces().map { $0.map { MapMarker.place($0, language: language) } }.eraseToAnyPublisher()
        return QuakeDetailScreen(viewModel: viewModel, l10n: format.l10n, panel: mapPanel(epicentre, places))
    }

    /// The clock the Quakes list runs on: every 15 s (the feed is asked again once a minute has passed).
    static func ticks(_ scheduler: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date) -> AnyPublisher<Date, Never> {
        scheduler.timerPublisher(every: .seconds(15)).autoconnect().map { _ in now() }.eraseToAnyPublisher()
    }

    /// A map cache key for an event that no catalogue city has (GeoNames ids are positive).
    static func mapID(_ eventID: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in eventID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return -Int(hash % 1_000_000_000) - 1
    }
}
