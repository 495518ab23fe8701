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
            navigator.pushCityDetail(onTab: tab) { dependencies.makeCityDetailScreen(city: city, onRoute: $0) }
        }
    }
}

extension TabNavigator {
    /// Pushes the city detail `make` builds on tab `index`; the detail's back route pops it.
    /// (The Cities and Liked tabs open a city the same way.)
    func pushCityDetail(onTab index: Int, make: (@escaping (CityDetailRoute) -> Void) -> Screen) {
        let detail = make { [weak self] route in
            switch route {
            case .back: self?.pop(onTab: index)
            }
        }
        push(detail, onTab: index)
    }
}
