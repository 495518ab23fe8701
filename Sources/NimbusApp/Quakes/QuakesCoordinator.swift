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
@MainActor
final class QuakesCoordinator {
    private let navigator: TabNavigator
    private let dependencies: QuakesCoordinatorDependencies
    private var tab = 0
    /// The tab's root, whose feed status the status bar shows while the tab is active.
    private weak var list: QuakeListScreen?

    init(navigator: TabNavigator, dependencies: QuakesCoordinatorDependencies) {
        self.navigator = navigator
        self.dependencies = dependencies
    }

    func start(title: String) {
        let dependencies = self.dependencies
        tab = navigator.addTab(title: title, source: { [weak self] in self?.list?.status }) { [weak self] in
            let list = dependencies.makeQuakeListScreen { route in self?.handle(route) }
            self?.list = list
            return list
        }
    }

    private func handle(_ route: QuakeListRoute) {
        switch route {
        case .showDetail(let quake, let place):
            navigator.push(dependencies.makeQuakeDetailScreen(quake: quake, place: place), onTab: tab)
        }
    }
}
