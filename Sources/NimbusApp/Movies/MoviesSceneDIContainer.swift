import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers

/// The long-lived services the Movies and Wishlist tabs share (owned by `AppDIContainer`).
struct MovieServices {
    let movies: MovieRepository
    /// Sources that can still open saved films when searches go elsewhere (the catalogue under TMDB).
    let others: [MovieRepository]
    let history: MovieHistoryRepository
    let wishlist: WishlistRepository
    /// Adds a CSV or JSON file's films to the wishlist (the Wishlist tab's `i`).
    let importer: WishlistImporting
    /// TMDB or the bundled catalogue (the status bar and the search's hint say which).
    let source: FilmSource
    /// Whether likes, the wishlist and recent queries are being saved.
    let dataStatus: UserDataStatus
    /// The bundled catalogue's first and last release year when searches go to it (nil under TMDB).
    var catalogueYears: ClosedRange<Int>? = nil
}

/// Makes the Movies and Wishlist tabs' use cases, view models and screens.
///
/// The services are made when one of the two tabs is first shown: start-up, which shows the Cities
/// tab, doesn't pay for the film catalogue's queries.
@MainActor
final class MoviesSceneDIContainer: MoviesCoordinatorDependencies, WishlistCoordinatorDependencies {
    private let makeServices: () -> MovieServices
    private lazy var services: MovieServices = makeServices()
    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// Where catalogue searches run (the app's serial work queue); nil: on `scheduler` (tapes, tests).
    private let searchScheduler: AnySchedulerOf<DispatchQueue>?

    init(services: @escaping () -> MovieServices, l10n: L10n, scheduler: AnySchedulerOf<DispatchQueue>,
         searchScheduler: AnySchedulerOf<DispatchQueue>? = nil) {
        makeServices = services
        self.l10n = l10n
        self.scheduler = scheduler
        self.searchScheduler = searchScheduler
    }

    var statusSource: String { services.source.status(l10n) }

    func makeSearchMoviesUseCase() -> SearchMoviesUseCase {
        SearchMoviesUseCase(movies: services.movies, history: services.history)
    }

    func makeMovieDetailsUseCase() -> MovieDetailsUseCase {
        MovieDetailsUseCase(movies: services.movies, others: services.others, history: services.history)
    }

    func makeWishlistUseCase() -> WishlistUseCase {
        WishlistUseCase(repository: services.wishlist)
    }

    func makeMoviesQueriesPanel(onRoute: @escaping (MoviesQueriesListRoute) -> Void) -> MoviesQueriesListPanel {
        let viewModel = MoviesQueriesListViewModel(search: makeSearchMoviesUseCase(), l10n: l10n, scheduler: scheduler)
        return MoviesQueriesListPanel(viewModel: viewModel, onRoute: onRoute)
    }

    func makeMovieListScreen(queries: MoviesQueriesListPanel, onRoute: @escaping (MovieListRoute) -> Void) -> MovieListScreen {
        let viewModel = MovieListViewModel(search: makeSearchMoviesUseCase(), details: makeMovieDetailsUseCase(),
                                           wishlist: makeWishlistUseCase(), l10n: l10n,
                                           source: services.source, catalogueYears: services.catalogueYears,
                                           scheduler: scheduler,
                                           searchScheduler: searchScheduler)
        return MovieListScreen(viewModel: viewModel, queries: queries, l10n: l10n, scheduler: scheduler, onRoute: onRoute)
    }

    func makeMovieDetailScreen(movie: MovieSummary) -> Screen {
        let viewModel = MovieDetailViewModel(movie: movie, details: makeMovieDetailsUseCase(),
                                             wishlist: makeWishlistUseCase(), l10n: l10n, scheduler: scheduler)
        return MovieDetailScreen(viewModel: viewModel, l10n: l10n)
    }

    func makeDeleteAllQuestion(count: Int, onAnswer: @escaping (Bool) -> Void) -> OverlayScreen {
        ConfirmOverlay(viewModel: .deleteAllWishlist(count: count, l10n: l10n), onAnswer: onAnswer)
    }

    func makeWishlistScreen(onRoute: @escaping (WishlistRoute) -> Void) -> WishlistScreen {
        let viewModel = WishlistViewModel(wishlist: makeWishlistUseCase(), importer: WishlistImportUseCase(importer: services.importer),
                                          l10n: l10n, scheduler: scheduler,
                                          dataStatus: services.dataStatus)
        return WishlistScreen(viewModel: viewModel, l10n: l10n, onRoute: onRoute)
    }
}

extension MoviesSceneDIContainer {
    /// The Movies tab's coordinator, given what it runs in (kudoleh's `makeMoviesSearchFlowCoordinator`).
    func makeMoviesCoordinator(navigator: TabNavigator, overlays: OverlayPresenting) -> MoviesCoordinator {
        MoviesCoordinator(navigator: navigator, overlays: overlays, dependencies: self)
    }

    /// The Wishlist tab's coordinator, given what it runs in (kudoleh's `makeMoviesSearchFlowCoordinator`).
    /// `tell` puts an error on the status line until the next key.
    func makeWishlistCoordinator(navigator: TabNavigator, overlays: OverlayPresenting,
                                 tell: @escaping (String) -> Void) -> WishlistCoordinator {
        WishlistCoordinator(navigator: navigator, overlays: overlays, dependencies: self, tell: tell)
    }
}
