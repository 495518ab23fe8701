import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusUI
import OpenCombineShim

/// The scene containers, each made from the container's shared services (kudoleh's scene containers).
extension AppDIContainer {
    @MainActor func makeCitiesSceneDIContainer() -> CitiesSceneDIContainer {
        CitiesSceneDIContainer(cities: cityRepository, l10n: l10n,
                               scheduler: configuration.scheduler, details: makeCityDetailFactory())
    }

    /// The Today tab opens cities, events and films with the screens of the tabs they belong to.
    @MainActor func makeTodaySceneDIContainer(quakes: QuakesSceneDIContainer,
                                              movies: MoviesSceneDIContainer) -> TodaySceneDIContainer {
        TodaySceneDIContainer(
            sources: { [unowned self] in
                TodayViewModel.Sources(
                    locate: makeLocateCurrentCityUseCase(), liked: GetLikedCitiesUseCase(likes: likesStore, lookup: cityLookup),
                    weather: GetPlacesTodayUseCase(repository: weatherRepository), quakes: makeQuakesUseCase(),
                    warnings: GetWarningsUseCase(repository: makeWarningsRepository(), now: configuration.now),
                    wishlist: movieServices.wishlist.contents, viewed: movieServices.history.viewed,
                    homeChanged: homeFollowingLocation.changes)
            },
            format: quakeFormatter, display: display, scheduler: configuration.scheduler, work: configuration.workScheduler ?? configuration.scheduler,
            now: configuration.now, details: makeCityDetailFactory(), quakes: quakes, movies: movies)
    }

    @MainActor func makeLikedSceneDIContainer() -> LikedSceneDIContainer {
        LikedSceneDIContainer(likes: likesStore, lookup: cityLookup, map: { [unowned self] in map.makeShowCityMapUseCase() },
                              dataStatus: userDatabase.status, format: weatherFormatter, display: display,
                              scheduler: configuration.scheduler, details: makeCityDetailFactory())
    }

    @MainActor func makeQuakesSceneDIContainer() -> QuakesSceneDIContainer {
        QuakesSceneDIContainer(
            quakes: makeQuakesUseCase(), likes: likesStore, lookup: cityLookup, locate: makeLocateCurrentCityUseCase(),
            format: quakeFormatter, display: display,
            mapPanel: { [unowned self] city, places in map.makeCityMapPanel(city: city, places: places) },
            scheduler: configuration.scheduler, now: configuration.now)
    }

    @MainActor func makeMoviesSceneDIContainer() -> MoviesSceneDIContainer {
        MoviesSceneDIContainer(services: { [unowned self] in movieServices }, l10n: l10n, scheduler: configuration.scheduler,
                               searchScheduler: configuration.workScheduler)
    }

    @MainActor func makeCityDetailFactory() -> CityDetailFactory {
        CityDetailFactory(weather: weatherRepository, air: airQualityRepository, warnings: makeWarningsRepository(),
                          normals: makeClimateNormalsRepository(), likes: likesStore, format: weatherFormatter, display: display,
                          scheduler: configuration.scheduler, work: configuration.workScheduler,
                          now: configuration.now, makePanel: { [weak self] city in self?.makeCityMapPanel(city: city) })
    }

    /// The settings overlay (`,` or F2), over whatever is shown.
    @MainActor func makeSettingsOverlay(tabTitles: [L10nKey]) -> OverlayScreen {
        let viewModel = SettingsViewModel(
            settings: SettingsUseCase(repository: settings),
            cities: SearchCitiesUseCase(repository: cityRepository, language: l10n.language.cityNames), lookup: cityLookup,
            environment: configuration.environment, tabTitles: tabTitles, l10n: l10n)
        return SettingsOverlay(viewModel: viewModel)
    }

    /// The UI language, the zone database and the settings' units and clock as they are now: view
    /// models are given `display` too and follow its changes; one-shot output writes in these.
    var weatherFormatter: WeatherFormatter { WeatherFormatter(l10n: l10n, display: display.value, zones: zones) }
    var quakeFormatter: QuakeFormatter { QuakeFormatter(weather: weatherFormatter) }

    /// The city's map, drawn inside its detail; `e` shows the recent earthquakes around it.
    @MainActor func makeCityMapPanel(city: City) -> ScreenPanel? {
        map.makeCityMapPanel(city: city, nearbyQuakes: { [unowned self] in recentQuakeMarkers() })
    }

    /// The feed a city map shows earthquakes from: M2.5+ of the past 7 days, the kept copy first, then
    /// the server's answer (asked conditionally); a failure leaves what was shown.
    static let mapQuakeFeed = QuakeFeed(magnitude: .twoAndAHalf, period: .week)

    private func recentQuakeMarkers() -> AnyPublisher<[MapMarker], Never> {
        makeQuakesUseCase().feed(Self.mapQuakeFeed)
            .map { update in update.snapshot.quakes.map(MapMarker.quake) }
            .catch { _ in Empty<[MapMarker], Never>() }
            .eraseToAnyPublisher()
    }
}
