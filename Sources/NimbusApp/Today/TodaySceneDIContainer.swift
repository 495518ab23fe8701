import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers
import OpenCombineShim

/// Makes the Today tab's view model and screen; the screens it opens come from the containers of
/// the tabs they belong to.
@MainActor
final class TodaySceneDIContainer: TodayCoordinatorDependencies {
    private let sources: () -> TodayViewModel.Sources
    private let format: QuakeFormatter
    /// The settings' units and clock, which the tab follows.
    private let display: DisplayUnits
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let work: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date
    private let details: CityDetailFactory
    private let quakes: QuakesSceneDIContainer
    private let movies: MoviesSceneDIContainer

    /// `sources` is asked when the tab is first shown (the films' store opens then, not at start-up).
    init(sources: @escaping () -> TodayViewModel.Sources, format: QuakeFormatter, display: DisplayUnits, scheduler: AnySchedulerOf<DispatchQueue>,
         work: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date, details: CityDetailFactory, quakes: QuakesSceneDIContainer,
         movies: MoviesSceneDIContainer) {
        self.sources = sources
        self.format = format
        self.display = display
        self.scheduler = scheduler
        self.work = work
        self.now = now
        self.details = details
        self.quakes = quakes
        self.movies = movies
    }

    func makeTodayViewModel() -> TodayViewModel {
        TodayViewModel(sources: sources(), format: format, display: display, scheduler: scheduler, work: work, now: now)
    }

    func makeTodayScreen(onRoute: @escaping (TodayRoute) -> Void) -> Screen {
        TodayScreen(viewModel: makeTodayViewModel(), l10n: format.l10n, scheduler: scheduler,
                    ticks: Self.ticks(scheduler, now: now), onRoute: onRoute)
    }

    /// The clock Today runs on: every minute, the ages ("updated 3 min ago") move on and warnings
    /// that expired lose their mark.
    static func ticks(_ scheduler: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date) -> AnyPublisher<Date, Never> {
        scheduler.timerPublisher(every: .seconds(60)).autoconnect().map { _ in now() }.eraseToAnyPublisher()
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        details.makeCityDetailScreen(city: city, onRoute: onRoute)
    }

    func makeQuakeDetailScreen(quake: Quake, place: QuakePlace?) -> Screen {
        quakes.makeQuakeDetailScreen(quake: quake, place: place)
    }

    func makeMovieDetailScreen(movie: MovieSummary) -> Screen {
        movies.makeMovieDetailScreen(movie: movie)
    }
}

extension TodaySceneDIContainer {
    /// The Today tab's coordinator, given what it runs in (kudoleh's `makeMoviesSearchFlowCoordinator`).
    func makeTodayCoordinator(navigator: TabNavigator, overlays: OverlayPresenting) -> TodayCoordinator {
        TodayCoordinator(navigator: navigator, overlays: overlays, dependencies: self)
    }
}
