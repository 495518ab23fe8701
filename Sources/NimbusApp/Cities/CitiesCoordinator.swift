import NimbusDomain
import NimbusPresentation
import NimbusUI

/// What the Cities tab needs built for it.
protocol CitiesCoordinatorDependencies {
    func makeCityListScreen(onRoute: @escaping (CityListRoute) -> Void) -> Screen
    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen
}

/// Runs the Cities tab: the list, and the detail a city opens.
final class CitiesCoordinator {
    private let navigator: TabNavigator
    private let dependencies: CitiesCoordinatorDependencies
    private var tab = 0

    init(navigator: TabNavigator, dependencies: CitiesCoordinatorDependencies) {
        self.navigator = navigator
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
            let detail = dependencies.makeCityDetailScreen(city: city) { [weak self] route in
                guard let self else { return }
                switch route {
                case .back: self.navigator.pop(onTab: self.tab)
                }
            }
            navigator.push(detail, onTab: tab)
        }
    }
}
