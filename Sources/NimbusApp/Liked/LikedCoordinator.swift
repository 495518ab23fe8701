import NimbusDomain
import NimbusPresentation
import NimbusUI

/// What the Liked tab needs built for it.
@MainActor
protocol LikedCoordinatorDependencies {
    func makeLikedCitiesScreen(onRoute: @escaping (LikedCitiesRoute) -> Void) -> Screen
    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen
}

/// Runs the Liked tab: liked cities, and the detail one opens.
@MainActor
final class LikedCoordinator {
    private let navigator: TabNavigator
    private let overlays: OverlayPresenting
    private let dependencies: LikedCoordinatorDependencies
    private var tab = 0

    init(navigator: TabNavigator, overlays: OverlayPresenting, dependencies: LikedCoordinatorDependencies) {
        self.navigator = navigator
        self.overlays = overlays
        self.dependencies = dependencies
    }

    func start(title: String) {
        let dependencies = self.dependencies
        tab = navigator.addTab(title: title) { [weak self] in
            dependencies.makeLikedCitiesScreen { route in self?.handle(route) }
        }
    }

    private func handle(_ route: LikedCitiesRoute) {
        switch route {
        case .showDetail(let city):
            navigator.pushCityDetail(onTab: tab, overlays: overlays) { dependencies.makeCityDetailScreen(city: city, onRoute: $0) }
        }
    }
}
