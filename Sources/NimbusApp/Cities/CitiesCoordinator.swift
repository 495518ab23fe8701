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
        let list = dependencies.makeCityListScreen { [weak self] route in self?.handle(route) }
        navigator.addTab(title: title, root: list)
        tab = navigator.tabs.count - 1
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
