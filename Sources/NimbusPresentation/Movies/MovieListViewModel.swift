import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// Search-as-you-type over films, paged, with filters, the recently viewed strip and the wishlist's
/// marks; the recent searches are their own view model's (MoviesQueriesListViewModel), whose pick
/// the coordinator hands to this one (`suggestionPicked`).
public final class MovieListViewModel {
    /// What the user does on the screen, sent through one stream (and the rows the last frame showed).
    public enum Event: Equatable, Sendable {
        /// Every edit of the search field (debounced here for TMDB; the bundled catalogue searches every one).
        case queryChanged(String)
        /// Enter in the field: searched at once.
        case querySubmitted(String)
        /// The selected row's index, after every move.
        case selectionMoved(Int)
        case rowOpened(Int)
        case recentOpened(Int)
        /// `d` in the recently viewed strip: that film leaves the strip (not the wishlist).
        case recentDeleted(Int)
        case wishlistToggled(Int)
        case retried
        /// A new genre, year range or sort (the whole filter): the search runs again at once.
        case filterChanged(MovieFilter)
        /// How many rows the list shows: pages load until they fill it.
        case visibleRows(Int)
        /// Where the keys go now (`/`, Esc, ↓, a click).
        case focusChanged(MovieListState.Focus)
        /// The selected title of the recently viewed strip.
        case recentSelected(Int)
        /// A chip's × was clicked: that filter alone is dropped.
        case chipRemoved(MovieChip.Kind)
        /// `g`, `p`, `s` or a click on a chip: that picker opens.
        case pickerOpened(MovieChip.Kind)
        /// Esc (or the key that opened it): the picker closes, the filter unchanged.
        case pickerClosed
        /// The picker's selected option.
        case pickerMoved(Int)
        /// A character typed in the years picker ("1990-1995").
        case pickerTyped(Character)
        /// Backspace in the years picker.
        case pickerErased
        /// A recent search picked in its panel (through the coordinator): it fills the field and is searched.
        case suggestionPicked(String)
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        /// Whether there are recent searches to show under the emptied field.
        public let suggestionsAvailable: AnyPublisher<Bool, Never>

        public init(events: AnyPublisher<Event, Never>,
                    suggestionsAvailable: AnyPublisher<Bool, Never> = Empty().eraseToAnyPublisher()) {
            self.events = events
            self.suggestionsAvailable = suggestionsAvailable
        }
    }

    public struct Output {
        /// Every change of what the screen shows, a message ("Not saved: …") included.
        public let state: AnyPublisher<MovieListState, Never>
        public let route: AnyPublisher<MovieListRoute, Never>
    }

    /// Typing pause before a TMDB search starts (the bundled catalogue answers every keystroke).
    public static let debounce = DispatchQueue.SchedulerTimeType.Stride.milliseconds(250)
    /// The next page loads when the selection is this close to the last row (or half a screen, when more).
    public static let prefetchDistance = 3
    public static let recentLimit = 8

    /// Everything the screen depends on.
    public struct State: Equatable {
        /// The language it speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
        enum Phase: Equatable { case idle, loading, results, empty, failed(MovieError) }
        /// A filter dropped after a filtered search found nothing, and what the search found without it.
        struct Probe: Equatable {
            let kind: MovieChip.Kind
            let found: Int
        }
        enum Message: Equatable {
            /// A wishlist change that failed (one that is saved is said on the status line).
            case wishlistFailed(WishlistError)
            /// A film that could not be taken off the recently viewed, and why.
            case historyFailed(String)
            /// A genre or sort asked of TMDB.
            case catalogueOnly
        }
        struct Picker: Equatable {
            let kind: MovieChip.Kind
            var typed = ""
            /// nil: the option of the filter in force (or the typed range).
            var selection: Int?
        }

        // The source, fixed: results follow every keystroke (the bundled catalogue), searched off the
        // main thread, and the filters it applies.
        let instant: Bool
        let offMain: Bool
        let support: MovieFilterSupport

        /// Nothing is shown before the first query.
        var started = false
        var query = ""
        var phase = Phase.idle
        /// Counts the searches: an answer to an older one is dropped.
        var search = 0
        /// Pages by the number asked for (never the number the source put in the page).
        var pages: [Int: [MovieSummary]] = [:]
        var lastPage = 0
        var totalPages = 0
        var totalResults = 0
        /// Every film loaded, each once; `listed` holds their ids.
        var movies: PagedList<MovieSummary> = []
        var listed: Set<MovieID> = []
        /// Counts the times `movies` was made again (not appended to): the rows are formatted again.
        var listing = 0
        /// A catalogue search off the main thread is on its way: the previous query's rows stay
        /// shown until it answers (no blank frame between two keystrokes).
        var holding = false
        /// The film selected when the same query was searched again (a filter changed) while holding:
        /// it stays selected when it is still listed, else the row at its place.
        var kept: (id: MovieID, index: Int)? {
            get { keptID.map { ($0, keptIndex) } }
            set { keptID = newValue?.id; keptIndex = newValue?.index ?? 0 }
        }
        var keptID: MovieID?
        var keptIndex = 0
        var loadingPage: Int?
        var moreError: MovieError?
        /// The query was submitted: remember it once its first page has films.
        var rememberWhenFound = false
        var filter = MovieFilter.none
        var visibleRows = 0
        /// Rows a page of the current query holds: with the catalogue, enough to fill the list in one search.
        var pageSize = MoviesPage.defaultSize
        /// After a filtered search found nothing: the searches without each filter, and their answers.
        var probing = 0
        var probes: [Probe] = []
        var dropHint: Probe?
        var wishlisted: Set<MovieID> = []
        var recent: [MovieSummary] = []
        // What the screen shows of the user's moves.
        var focus = MovieListState.Focus.list
        var selection = 0
        var recentSelection = 0
        var fieldText = ""
        var hasSuggestions = false
        var picker: Picker?
        var message: Message?

        init(l10n: L10n = .bundled(.en), instant: Bool, offMain: Bool, support: MovieFilterSupport) {
            self.l10n = l10n
            self.instant = instant
            self.offMain = offMain
            self.support = support
        }

        var showsSuggestions: Bool { (focus == .field || focus == .suggestions) && fieldText.isEmpty && hasSuggestions }
    }

    public enum Action {
        /// The field's text as typed; `typed`, the query it searches (debounced for TMDB).
        case edited(String), typed(String)
        case submitted(String), suggestionPicked(String), suggestionsAvailable(Bool)
        case focused(MovieListState.Focus)
        case selected(Int), opened(Int), recentSelected(Int), recentOpened(Int), recentDeleted(Int)
        case wishlistToggled(Int), retried, visibleRows(Int)
        case filterChanged(MovieFilter), chipRemoved(MovieChip.Kind)
        case pickerOpened(MovieChip.Kind), pickerClosed, pickerMoved(Int), pickerTyped(Character), pickerErased
        /// The stores followed: the wishlist's films and the recently viewed ones.
        case wishlist(Set<MovieID>), viewed([MovieSummary])
        /// A search's answers: a page (a cached one may come before the fresh one), then the end.
        case page(search: Int, page: Int, MoviesPage), finished(search: Int, page: Int, MovieError?)
        /// How many films a search without one of the filters found.
        case probed(search: Int, MovieChip.Kind, Int)
        case wishlistFailed(WishlistError), historyFailed(String)

        /// What the user did (a key, a click): a message lasts until then.
        var isUser: Bool {
            switch self {
            case .edited, .submitted, .suggestionPicked, .focused, .selected, .opened, .recentSelected, .recentOpened,
                 .recentDeleted, .wishlistToggled, .retried, .filterChanged, .chipRemoved, .pickerOpened, .pickerClosed, .pickerMoved,
                 .pickerTyped, .pickerErased:
                return true
            default:
                return false
            }
        }
    }

    public struct Request: Equatable {
        let query: String
        let page: Int
        let pageSize: Int
        let filter: MovieFilter
        let search: Int
    }

    public enum Effect: Equatable {
        /// Ask for a page, replacing the request in flight.
        case fetch(Request)
        /// Stop the request in flight, and the probes.
        case stopFetching
        /// Search without one filter (page 1): how many would be found.
        case probe(Request, MovieChip.Kind)
        /// Save the query as a recent search (it found `count` films).
        case remember(String, count: Int)
        case open(MovieSummary)
        case toggleWishlist(MovieSummary)
        /// Take a film off the recently viewed.
        case forgetViewed(MovieID)
    }

    let search: SearchMoviesUseCase
    let details: MovieDetailsUseCase
    let wishlist: WishlistUseCase
    /// The language of the first state.
    private let firstLanguage: L10n
    /// Where the films come from: what the tab says before a query names it.
    let source: FilmSource
    /// The bundled catalogue's first and last release year (nil under TMDB): a query it does not
    /// match is told which years and which language its titles are in.
    let catalogueYears: ClosedRange<Int>?
    let scheduler: AnySchedulerOf<DispatchQueue>
    /// Where catalogue searches run (off the main thread in the app); nil: where they are asked for.
    let searchScheduler: AnySchedulerOf<DispatchQueue>?

    /// `source` is named when the query is empty (the catalogue or TMDB).
    public init(search: SearchMoviesUseCase, details: MovieDetailsUseCase, wishlist: WishlistUseCase, l10n: L10n,
                source: FilmSource, catalogueYears: ClosedRange<Int>? = nil, scheduler: AnySchedulerOf<DispatchQueue>,
                searchScheduler: AnySchedulerOf<DispatchQueue>? = nil) {
        self.catalogueYears = catalogueYears
        self.search = search
        self.searchScheduler = searchScheduler
        self.details = details
        self.wishlist = wishlist
        self.firstLanguage = l10n
        self.source = source
        self.scheduler = scheduler
    }

    public func transform(input: Input) -> Output {
        let scheduler = self.scheduler
        let instant = search.source == .catalogue
        // Debounce (TMDB only) that lets an emptied field through at once.
        let typed = input.events
            .compactMap { event -> String? in if case .queryChanged(let query) = event { query } else { nil } }
            .map(SearchMoviesUseCase.normalise)
            .map { query -> AnyPublisher<String, Never> in
                query.isEmpty || instant
                    ? Just(query).eraseToAnyPublisher()
                    : Just(query).delay(for: Self.debounce, scheduler: scheduler).eraseToAnyPublisher()
            }
            .switchToLatest()
        let actions: [AnyPublisher<Action, Never>] = [
            // (An edit's own action first, then its search.)
            input.events.map(Self.action).eraseToAnyPublisher(),
            typed.map(Action.typed).eraseToAnyPublisher(),
            input.suggestionsAvailable.map(Action.suggestionsAvailable).eraseToAnyPublisher(),
            // The marks and the strip follow their stores, whichever screen changed them.
            wishlist.contents.map { Action.wishlist(Set($0.map(\.id))) }.eraseToAnyPublisher(),
            details.viewed.map { Action.viewed(Array($0.prefix(Self.recentLimit))) }.eraseToAnyPublisher(),
        ]
        let initial = State(l10n: firstLanguage, instant: instant, offMain: searchScheduler != nil, support: search.filterSupport)
        let loop = EffectRunner.run(initial: initial, actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
                                    scheduler: scheduler, reduce: Self.reduce, perform: perform)
        return Output(state: present(loop.state), route: loop.route)
    }

    /// The action an event is.
    static func action(_ event: Event) -> Action {
        switch event {
        case .queryChanged(let query): .edited(query)
        case .querySubmitted(let query): .submitted(query)
        case .selectionMoved(let row): .selected(row)
        case .rowOpened(let row): .opened(row)
        case .recentOpened(let index): .recentOpened(index)
        case .recentDeleted(let index): .recentDeleted(index)
        case .wishlistToggled(let row): .wishlistToggled(row)
        case .retried: .retried
        case .filterChanged(let filter): .filterChanged(filter)
        case .visibleRows(let rows): .visibleRows(rows)
        case .focusChanged(let focus): .focused(focus)
        case .recentSelected(let index): .recentSelected(index)
        case .chipRemoved(let kind): .chipRemoved(kind)
        case .pickerOpened(let kind): .pickerOpened(kind)
        case .pickerClosed: .pickerClosed
        case .pickerMoved(let option): .pickerMoved(option)
        case .pickerTyped(let c): .pickerTyped(c)
        case .pickerErased: .pickerErased
        case .suggestionPicked(let query): .suggestionPicked(query)
        }
    }

    // MARK: Effects

    enum Job: Hashable { case fetch, probe(MovieChip.Kind) }

    func perform(_ effect: Effect) -> Work<Action, MovieListRoute> {
        switch effect {
        case .fetch(let request):
            let answers = searched(request)
                .map { Action.page(search: request.search, page: request.page, $0) }
                .append(Just(.finished(search: request.search, page: request.page, nil)).setFailureType(to: MovieError.self))
                .catch { Just(Action.finished(search: request.search, page: request.page, $0)) }
                .eraseToAnyPublisher()
            return .run(answers, id: Job.fetch)
        case .stopFetching:
            return .all([.cancel(Job.fetch), .cancel(Job.probe(.genre)), .cancel(Job.probe(.years))])
        case .probe(let request, let kind):
            let answers = searched(request).first()
                .map { Action.probed(search: request.search, kind, $0.totalResults) }
                .catch { _ in Empty<Action, Never>() }
                .eraseToAnyPublisher()
            return .run(answers, id: Job.probe(kind))
        case .remember(let query, let count):
            let search = self.search
            return .answer {
                _ = search.remember(query, resultCount: count)
                return nil
            }
        case .open(let movie):
            let details = self.details
            let recorded = Work<Action, MovieListRoute>.answer {
                details.recordViewed(movie)
                return nil
            }
            return .all([recorded, .route(.showDetail(movie))])
        case .toggleWishlist(let movie):
            let wishlist = self.wishlist
            return .answer {
                do {
                    _ = try wishlist.toggle(movie)
                    return nil
                } catch {
                    return .wishlistFailed((error as? WishlistError) ?? .storage)
                }
            }
        case .forgetViewed(let id):
            let details = self.details
            return .answer {
                do {
                    try details.forgetViewed(id)
                    return nil
                } catch {
                    return .historyFailed((error as? MovieHistoryNotSaved)?.reason ?? "\(error)")
                }
            }
        }
    }

    /// The search, off the main thread for the catalogue when a scheduler for it was given.
    func searched(_ request: Request) -> AnyPublisher<MoviesPage, MovieError> {
        let answers = search.execute(query: request.query, page: request.page, pageSize: request.pageSize, filter: request.filter)
        guard search.source == .catalogue, let searchScheduler else { return answers }
        return answers.subscribe(on: searchScheduler).eraseToAnyPublisher()
    }
}
