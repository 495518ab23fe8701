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
final class MoviesCoordinator: TabCoordinator<MovieListRoute> {
    private let dependencies: MoviesCoordinatorDependencies

    init(navigator: TabNavigator, overlays: OverlayPresenting, dependencies: MoviesCoordinatorDependencies) {
        self.dependencies = dependencies
        super.init(navigator: navigator, overlays: overlays)
    }

    func start(title: L10nKey) {
        let dependencies = self.dependencies
        start(title: title, source: { dependencies.statusSource }) { [weak self] onRoute in
            let queries = dependencies.makeMoviesQueriesPanel { route in self?.picked(route) }
            return dependencies.makeMovieListScreen(queries: queries, onRoute: onRoute)
        }
    }

    private func picked(_ route: MoviesQueriesListRoute) {
        switch route {
        case .picked(let query):
            (root as? MovieListScreen)?.search(query)
        }
    }

    override func open(_ route: MovieListRoute) {
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
final class WishlistCoordinator: TabCoordinator<WishlistRoute> {
    private let dependencies: WishlistCoordinatorDependencies
    /// Puts an error on the status line until the next key.
    private let tell: (String) -> Void

    init(navigator: TabNavigator, overlays: OverlayPresenting, dependencies: WishlistCoordinatorDependencies,
         tell: @escaping (String) -> Void) {
        self.dependencies = dependencies
        self.tell = tell
        super.init(navigator: navigator, overlays: overlays)
    }

    func start(title: L10nKey) {
        let dependencies = self.dependencies
        start(title: title, source: { dependencies.statusSource }, root: dependencies.makeWishlistScreen)
    }

    override func open(_ route: WishlistRoute) {
        switch route {
        case .showDetail(let movie):
            navigator.push(dependencies.makeMovieDetailScreen(movie: movie), onTab: tab)
        case .confirmDeleteAll(let count):
            // The list asks; the question's overlay answers it (two view models, through this coordinator).
            overlays.present(dependencies.makeDeleteAllQuestion(count: count) { [weak self] yes in
                (self?.root as? WishlistScreen)?.answerDeleteAll(yes)
            })
        case .tell(let message):
            tell(message)
        }
    }
}
