import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers

/// Makes the Liked tab's use cases, view model and screens.
@MainActor
final class LikedSceneDIContainer: LikedCoordinatorDependencies {
    private let likes: LikesRepository
    private let lookup: @Sendable (Int) -> City?
    /// City maps for the selected row's thumbnail, made when the tab is first shown.
    private let map: () -> ShowCityMapUseCase
    private let dataStatus: UserDataStatus
    private let format: WeatherFormatter
    /// The settings' units and clock, which the list follows.
    private let display: DisplayUnits
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let details: CityDetailFactory

    init(likes: LikesRepository, lookup: @escaping @Sendable (Int) -> City?,
         map: @escaping () -> ShowCityMapUseCase, dataStatus: UserDataStatus, format: WeatherFormatter, display: DisplayUnits,
         scheduler: AnySchedulerOf<DispatchQueue>, details: CityDetailFactory) {
        self.likes = likes
        self.lookup = lookup
        self.map = map
        self.dataStatus = dataStatus
        self.format = format
        self.display = display
        self.scheduler = scheduler
        self.details = details
    }

    func makeLikedCitiesViewModel() -> LikedCitiesViewModel {
        LikedCitiesViewModel(liked: GetLikedCitiesUseCase(likes: likes, lookup: lookup),
                             like: LikeCityUseCase(repository: likes),
                             ranges: GetTodayRangesUseCase(repository: details.weather), format: format, display: display,
                             scheduler: scheduler, dataStatus: dataStatus,
                             map: map())
    }

    func makeLikedCitiesScreen(onRoute: @escaping (LikedCitiesRoute) -> Void) -> Screen {
        LikedCitiesScreen(viewModel: makeLikedCitiesViewModel(), l10n: format.l10n, onRoute: onRoute)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        details.makeCityDetailScreen(city: city, onRoute: onRoute)
    }
}

extension LikedSceneDIContainer {
    /// The Liked tab's coordinator, given what it runs in (kudoleh's `makeMoviesSearchFlowCoordinator`).
    func makeLikedCoordinator(navigator: TabNavigator, overlays: OverlayPresenting) -> LikedCoordinator {
        LikedCoordinator(navigator: navigator, overlays: overlays, dependencies: self)
    }
}
