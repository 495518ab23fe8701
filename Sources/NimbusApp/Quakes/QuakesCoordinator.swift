import NimbusDomain
import NimbusPresentation
import NimbusUI

/// What the Quakes tab needs built for it.
@MainActor
protocol QuakesCoordinatorDependencies {
    func makeQuakeListScreen(onRoute: @escaping (QuakeListRoute) -> Void) -> QuakeListScreen
    func makeQuakeDetailScreen(quake: Quake, place: QuakePlace?) -> Screen
}

/// Runs the Quakes tab: the feed, and the event one opens.
final class QuakesCoordinator: TabCoordinator<QuakeListRoute> {
    private let dependencies: QuakesCoordinatorDependencies

    init(navigator: TabNavigator, overlays: OverlayPresenting, dependencies: QuakesCoordinatorDependencies) {
        self.dependencies = dependencies
        super.init(navigator: navigator, overlays: overlays)
    }

    /// The status bar shows the feed's status while the tab is active.
    func start(title: L10nKey) {
        start(title: title, source: { [weak self] in (self?.root as? QuakeListScreen)?.status }, root: dependencies.makeQuakeListScreen)
    }

    override func open(_ route: QuakeListRoute) {
        switch route {
        case .showDetail(let quake, let place):
            navigator.push(dependencies.makeQuakeDetailScreen(quake: quake, place: place), onTab: tab)
        }
    }
}
