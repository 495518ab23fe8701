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
    /// The settings' units and clock, which the screens follow.
    private let display: DisplayUnits
    /// The map panel of a place with my places marked on it, made when an event is opened (the map
    /// services load on first use).
    private let mapPanel: (City, AnyPublisher<[MapMarker], Never>) -> ScreenPanel
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date

    init(quakes: QuakesUseCase, likes: LikesRepository, lookup: @escaping @Sendable (Int) -> City?,
         locate: LocateCurrentCityUseCase, format: QuakeFormatter, display: DisplayUnits,
         mapPanel: @escaping (City, AnyPublisher<[MapMarker], Never>) -> ScreenPanel,
         scheduler: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date) {
        self.quakes = quakes
        self.likes = likes
        self.lookup = lookup
        self.locate = locate
        self.format = format
        self.display = display
        self.mapPanel = mapPanel
        self.scheduler = scheduler
        self.now = now
    }

    private var myPlaces: MyPlacesUseCase {
        MyPlacesUseCase(locate: locate, liked: GetLikedCitiesUseCase(likes: likes, lookup: lookup))
    }

    func makeQuakeListScreen(onRoute: @escaping (QuakeListRoute) -> Void) -> QuakeListScreen {
        let viewModel = QuakeListViewModel(quakes: quakes, likes: LikeCityUseCase(repository: likes), places: myPlaces.coordinates,
                                            format: format, display: display, scheduler: scheduler, now: now)
        return QuakeListScreen(viewModel: viewModel, l10n: format.l10n, ticks: Self.ticks(scheduler, now: now), onRoute: onRoute)
    }

    func makeQuakeDetailScreen(quake: Quake, place: QuakePlace?) -> Screen {
        let viewModel = QuakeDetailViewModel(quake: quake, place: place, likes: LikeCityUseCase(repository: likes),
                                             format: format, display: display, now: now)
        let places = MapMarker.places(myPlaces.contents)
        let panel = mapPanel(QuakeDetailViewModel.epicentre(of: quake, near: place), places)
        return QuakeDetailScreen(viewModel: viewModel, l10n: format.l10n, panel: panel)
    }

    /// The clock the Quakes list runs on: every 15 s (the feed is asked again once a minute has passed).
    static func ticks(_ scheduler: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date) -> AnyPublisher<Date, Never> {
        scheduler.timerPublisher(every: .seconds(15)).autoconnect().map { _ in now() }.eraseToAnyPublisher()
    }
}

extension QuakesSceneDIContainer {
    /// The Quakes tab's coordinator, given what it runs in (kudoleh's `makeMoviesSearchFlowCoordinator`).
    func makeQuakesCoordinator(navigator: TabNavigator, overlays: OverlayPresenting) -> QuakesCoordinator {
        QuakesCoordinator(navigator: navigator, overlays: overlays, dependencies: self)
    }
}
