import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers
import OpenCombineShim

/// Makes the Cities tab's use cases, view models and screens.
@MainActor
final class CitiesSceneDIContainer: CitiesCoordinatorDependencies {
    private let cities: CityRepository
    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let details: CityDetailFactory

    init(cities: CityRepository, l10n: L10n, scheduler: AnySchedulerOf<DispatchQueue>,
         details: CityDetailFactory) {
        self.cities = cities
        self.l10n = l10n
        self.scheduler = scheduler
        self.details = details
    }

    func makeSearchCitiesUseCase() -> SearchCitiesUseCase {
        SearchCitiesUseCase(repository: cities, language: l10n.language.cityNames)
    }

    func makeCityListViewModel() -> CityListViewModel {
        CityListViewModel(search: makeSearchCitiesUseCase(), totalCount: cities.cityCount, l10n: l10n,
                          scheduler: scheduler, tier: Self.tier(of: cities),
                          temperatures: GetCurrentTemperaturesUseCase(repository: details.weather),
                          format: details.format, display: details.display, likes: details.likes.map { LikeCityUseCase(repository: $0) })
    }

    func makeCityListScreen(onRoute: @escaping (CityListRoute) -> Void) -> Screen {
        CityListScreen(viewModel: makeCityListViewModel(), l10n: l10n, ticks: MinuteTicks.publisher(on: scheduler, now: details.now),
                       onRoute: onRoute)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        details.makeCityDetailScreen(city: city, onRoute: onRoute)
    }

    /// Which tier `cities` is, by the file it was loaded from (the names `scripts/build-resources.py`
    /// gives them: `cities15000.bin` bundled, `cities1000.bin` for `--tier large`), with the
    /// population each holds from, read off those names; any other catalogue is one given by path.
    nonisolated static func tier(of cities: CityRepository) -> CityCatalogueTier {
        guard let catalog = cities as? CityCatalog,
              let standard = least(CityCatalog.bundledName + ".bin"), let large = least(CityCatalog.largeTierFileName)
        else { return .other }
        switch catalog.url.lastPathComponent {
        case CityCatalog.bundledName + ".bin": return .standard(least: standard, large: large)
        case CityCatalog.largeTierFileName: return .large(least: large)
        default: return .other
        }
    }

    /// The population a GeoNames tier file holds places from, as its name says: "cities15000.bin" → 15000.
    nonisolated static func least(_ fileName: String) -> Int? {
        guard fileName.hasPrefix("cities"), fileName.hasSuffix(".bin") else { return nil }
        return Int(fileName.dropFirst("cities".count).dropLast(".bin".count))
    }
}

extension CitiesSceneDIContainer {
    /// The Cities tab's coordinator, given what it runs in (kudoleh's `makeMoviesSearchFlowCoordinator`).
    func makeCitiesCoordinator(navigator: TabNavigator, overlays: OverlayPresenting) -> CitiesCoordinator {
        CitiesCoordinator(navigator: navigator, overlays: overlays, dependencies: self)
    }
}
