import NimbusDomain
import NimbusPresentation
import NimbusUI

/// What the Current tab needs built for it.
@MainActor
protocol CurrentCoordinatorDependencies {
    func makeCurrentCityScreen(makeDetail: @escaping (City) -> Screen) -> Screen
    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen
}

/// Runs the Current tab: the nearest city's detail is the tab's root.
@MainActor
final class CurrentCoordinator {
    private let navigator: TabNavigator
    private let dependencies: CurrentCoordinatorDependencies

    init(navigator: TabNavigator, dependencies: CurrentCoordinatorDependencies) {
        self.navigator = navigator
        self.dependencies = dependencies
    }

    func start(title: String) {
        let dependencies = self.dependencies
        // The detail is the root here: "back" has nowhere to go, so its route is ignored.
        navigator.addTab(title: title) {
            dependencies.makeCurrentCityScreen { city in
                dependencies.makeCityDetailScreen(city: city) { _ in }
            }
        }
    }
}
