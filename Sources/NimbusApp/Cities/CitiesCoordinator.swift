import NimbusDomain
import NimbusPresentation
import NimbusUI

/// What the Cities tab needs built for it.
@MainActor
protocol CitiesCoordinatorDependencies {
    func makeCityListScreen(onRoute: @escaping (CityListRoute) -> Void) -> Screen
    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen
}

/// Runs the Cities tab: the list, and the detail a city opens.
final class CitiesCoordinator: TabCoordinator<CityListRoute> {
    private let dependencies: CitiesCoordinatorDependencies

    init(navigator: TabNavigator, overlays: OverlayPresenting, dependencies: CitiesCoordinatorDependencies) {
        self.dependencies = dependencies
        super.init(navigator: navigator, overlays: overlays)
    }

    func start(title: L10nKey) {
        start(title: title, root: dependencies.makeCityListScreen)
    }

    override func open(_ route: CityListRoute) {
        let dependencies = self.dependencies
        switch route {
        case .showDetail(let city):
            navigator.pushCityDetail(onTab: tab, overlays: overlays) { dependencies.makeCityDetailScreen(city: city, onRoute: $0) }
        }
    }
}
