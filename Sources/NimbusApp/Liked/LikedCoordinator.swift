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
final class LikedCoordinator: TabCoordinator<LikedCitiesRoute> {
    private let dependencies: LikedCoordinatorDependencies

    init(navigator: TabNavigator, overlays: OverlayPresenting, dependencies: LikedCoordinatorDependencies) {
        self.dependencies = dependencies
        super.init(navigator: navigator, overlays: overlays)
    }

    func start(title: L10nKey) {
        start(title: title, root: dependencies.makeLikedCitiesScreen)
    }

    override func open(_ route: LikedCitiesRoute) {
        let dependencies = self.dependencies
        switch route {
        case .showDetail(let city):
            navigator.pushCityDetail(onTab: tab, overlays: overlays) { dependencies.makeCityDetailScreen(city: city, onRoute: $0) }
        }
    }
}
