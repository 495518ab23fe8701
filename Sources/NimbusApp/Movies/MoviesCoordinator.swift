import NimbusDomain
import NimbusPresentation
import NimbusUI

/// What the Movies tab needs built for it.
@MainActor
protocol MoviesCoordinatorDependencies {
    /// The recent searches: a pick is reported through `onRoute`.
    func makeMoviesQueriesPanel(onRoute: @escaping (MoviesQueriesListRoute) -> Void) -> MoviesQueriesListPanel
    func makeMovieListScreen(queries: MoviesQueriesListPanel, onRoute: @escaping (MovieListRoute) -> Void) -> MovieListScreen
    func makeMovieDetailScreen(movie: MovieSummary) -> Screen
    /// Where the films come from, for the status bar.
    var statusSource: String { get }
}

/// Runs the Movies tab: search, then a film's details; a recent search picked in its panel is
/// handed to the search (two view models, joined here).
@MainActor
final class MoviesCoordinator {
    private let navigator: TabNavigator
    private let dependencies: MoviesCoordinatorDependencies
    private var tab = 0
    /// The tab's root, which a picked recent search goes to.
    private weak var list: MovieListScreen?

    init(navigator: TabNavigator, dependencies: MoviesCoordinatorDependencies) {
        self.navigator = navigator
        self.dependencies = dependencies
    }

    func start(title: String) {
        let dependencies = self.dependencies
        tab = navigator.addTab(title: title, source: { dependencies.statusSource }) { [weak self] in
            let queries = dependencies.makeMoviesQueriesPanel { route in self?.handle(route) }
            let list = dependencies.makeMovieListScreen(queries: queries) { route in self?.handle(route) }
            self?.list = list
            return list
        }
    }

    private func handle(_ route: MoviesQueriesListRoute) {
        switch route {
        case .picked(let query):
            list?.search(query)
        }
    }

    private func handle(_ route: MovieListRoute) {
        switch route {
        case .showDetail(let movie):
            navigator.push(dependencies.makeMovieDetailScreen(movie: movie), onTab: tab)
        }
    }
}

/// What the Wishlist tab needs built for it.
@MainActor
protocol WishlistCoordinatorDependencies {
    func makeWishlistScreen(onRoute: @escaping (WishlistRoute) -> Void) -> WishlistScreen
    /// "Delete all N saved films?", answered through `onAnswer`.
    func makeDeleteAllQuestion(count: Int, onAnswer: @escaping (Bool) -> Void) -> OverlayScreen
    func makeMovieDetailScreen(movie: MovieSummary) -> Screen
    var statusSource: String { get }
}

/// Runs the Wishlist tab: saved films, then a film's details.
@MainActor
final class WishlistCoordinator {
    private let navigator: TabNavigator
    private let overlays: OverlayPresenting
    private let dependencies: WishlistCoordinatorDependencies
    private var tab = 0
    /// The tab's root, which the "delete all?" answer goes back to.
    private weak var list: WishlistScreen?

    init(navigator: TabNavigator, overlays: OverlayPresenting, dependencies: WishlistCoordinatorDependencies) {
        self.navigator = navigator
        self.overlays = overlays
        self.dependencies = dependencies
    }

    func start(title: String) {
        let dependencies = self.dependencies
        tab = navigator.addTab(title: title, source: { dependencies.statusSource }) { [weak self] in
            let list = dependencies.makeWishlistScreen { route in self?.handle(route) }
            self?.list = list
            return list
        }
    }

    private func handle(_ route: WishlistRoute) {
        switch route {
        case .showDetail(let movie):
            navigator.push(dependencies.makeMovieDetailScreen(movie: movie), onTab: tab)
        case .confirmDeleteAll(let count):
            // The list asks; the question's overlay answers it (two view models, through this coordinator).
            overlays.present(dependencies.makeDeleteAllQuestion(count: count) { [weak self] yes in self?.list?.answerDeleteAll(yes) })
        }
    }
}
