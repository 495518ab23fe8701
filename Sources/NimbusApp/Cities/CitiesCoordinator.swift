import NimbusPresentation
import NimbusUI

/// What the Cities tab needs built for it.
protocol CitiesCoordinatorDependencies {
    func makeCityListScreen(onRoute: @escaping (CityListRoute) -> Void) -> Screen
}

/// Runs the Cities tab: the list, and what opening a city leads to.
final class CitiesCoordinator {
    private let navigator: TabNavigator
    private let dependencies: CitiesCoordinatorDependencies

    init(navigator: TabNavigator, dependencies: CitiesCoordinatorDependencies) {
        self.navigator = navigator
        self.dependencies = dependencies
    }

    func start(title: String) {
        let list = dependencies.makeCityListScreen { [weak self] route in self?.handle(route) }
        navigator.addTab(title: title, root: list)
    }

    private func handle(_ route: CityListRoute) {
        switch route {
        case .showDetail:
            // The city detail screen is not part of this tab yet; the list emits no route until it is.
            break
        }
    }
}
