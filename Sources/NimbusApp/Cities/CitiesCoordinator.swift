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
@MainActor
final class CitiesCoordinator {
    private let navigator: TabNavigator
    private let overlays: OverlayPresenting
    private let dependencies: CitiesCoordinatorDependencies
    private var tab = 0

    init(navigator: TabNavigator, overlays: OverlayPresenting, dependencies: CitiesCoordinatorDependencies) {
        self.navigator = navigator
        self.overlays = overlays
        self.dependencies = dependencies
    }

    func start(title: String) {
        let dependencies = self.dependencies
        tab = navigator.addTab(title: title) { [weak self] in
            dependencies.makeCityListScreen { route in self?.handle(route) }
        }
    }

    private func handle(_ route: CityListRoute) {
        switch route {
        case .showDetail(let city):
            navigator.pushCityDetail(onTab: tab, overlays: overlays) { dependencies.makeCityDetailScreen(city: city, onRoute: $0) }
        }
    }
}
