import NimbusDomain
import NimbusPresentation
import NimbusUI

/// What the Today tab needs built for it.
@MainActor
protocol TodayCoordinatorDependencies {
    func makeTodayScreen(onRoute: @escaping (TodayRoute) -> Void) -> Screen
    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen
    func makeQuakeDetailScreen(quake: Quake, place: QuakePlace?) -> Screen
    func makeMovieDetailScreen(movie: MovieSummary) -> Screen
}

/// Runs the Today tab: the three sections, and the city, event or film one opens from them.
final class TodayCoordinator: TabCoordinator<TodayRoute> {
    private let dependencies: TodayCoordinatorDependencies

    init(navigator: TabNavigator, overlays: OverlayPresenting, dependencies: TodayCoordinatorDependencies) {
        self.dependencies = dependencies
        super.init(navigator: navigator, overlays: overlays)
    }

    func start(title: L10nKey) {
        start(title: title, root: dependencies.makeTodayScreen)
    }

    override func open(_ route: TodayRoute) {
        let dependencies = self.dependencies
        switch route {
        case .city(let city):
            navigator.pushCityDetail(onTab: tab, overlays: overlays) { dependencies.makeCityDetailScreen(city: city, onRoute: $0) }
        case .quake(let quake, let place):
            navigator.push(dependencies.makeQuakeDetailScreen(quake: quake, place: place), onTab: tab)
        case .film(let movie):
            navigator.push(dependencies.makeMovieDetailScreen(movie: movie), onTab: tab)
        }
    }
}
