import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers

/// Makes the Current tab's view model and screens.
@MainActor
final class CurrentSceneDIContainer: CurrentCoordinatorDependencies {
    private let locate: LocateCurrentCityUseCase
    private let format: WeatherFormatter
    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let details: CityDetailFactory

    init(locate: LocateCurrentCityUseCase, format: WeatherFormatter, l10n: L10n,
         scheduler: AnySchedulerOf<DispatchQueue>, details: CityDetailFactory) {
        self.locate = locate
        self.format = format
        self.l10n = l10n
        self.scheduler = scheduler
        self.details = details
    }

    func makeCurrentLocationViewModel() -> CurrentLocationViewModel {
        CurrentLocationViewModel(locate: locate, format: format, scheduler: scheduler)
    }

    func makeCurrentCityScreen(makeDetail: @escaping (City) -> Screen) -> Screen {
        CurrentCityScreen(viewModel: makeCurrentLocationViewModel(), l10n: l10n, makeDetail: makeDetail)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        details.makeCityDetailScreen(city: city, onRoute: onRoute)
    }
}
