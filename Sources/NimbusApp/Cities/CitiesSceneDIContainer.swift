import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers

/// Makes the Cities tab's use cases, view models and screens.
@MainActor
final class CitiesSceneDIContainer: CitiesCoordinatorDependencies {
    private let cities: CityRepository
    private let countries: CountryNames
    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let details: CityDetailFactory

    init(cities: CityRepository, countries: CountryNames, l10n: L10n, scheduler: AnySchedulerOf<DispatchQueue>,
         details: CityDetailFactory) {
        self.cities = cities
        self.countries = countries
        self.l10n = l10n
        self.scheduler = scheduler
        self.details = details
    }

    func makeSearchCitiesUseCase() -> SearchCitiesUseCase {
        SearchCitiesUseCase(repository: cities, language: l10n.language.cityNames)
    }

    func makeCityListViewModel() -> CityListViewModel {
        CityListViewModel(search: makeSearchCitiesUseCase(), totalCount: cities.cityCount, l10n: l10n,
                          countries: countries, scheduler: scheduler,
                          temperatures: GetCurrentTemperaturesUseCase(repository: details.weather),
                          format: details.format, likes: details.likes.map { LikeCityUseCase(repository: $0) },
                          now: details.now)
    }

    func makeCityListScreen(onRoute: @escaping (CityListRoute) -> Void) -> Screen {
        CityListScreen(viewModel: makeCityListViewModel(), l10n: l10n, onRoute: onRoute)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        details.makeCityDetailScreen(city: city, onRoute: onRoute)
    }
}
