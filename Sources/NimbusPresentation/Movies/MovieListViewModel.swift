import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// What the movie search screen shows.
public struct MovieListState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// No query: a hint instead of results.
        case idle(String)
        /// The first page is on its way.
        case loading
        case results
        /// The query matched nothing.
        case empty(String)
        /// The first page failed; `r` retries.
        case error(String)
    }

    /// Where the keys go: the results, the search field, the recent searches under the emptied
    /// field, or the recently viewed strip.
    public enum Focus: Equatable, Sendable { case list, field, suggestions, recent }

    public var query: String
    public var phase: Phase
    /// Every row loaded so far, each film once.
    public var rows: PagedList<MovieRow>
    /// "1,234 films" once results are in.
    public var summary: String
    /// The next page is loading (footer spinner).
    public var loadingMore: Bool
    /// The next page failed; `r` retries.
    public var moreError: String?
    /// Titles of the recently opened films, newest first.
    public var recent: [String]
    /// The filter the results are narrowed and ordered by (what the source applies of it).
    public var filter: MovieFilter = .none
    /// The filter as chips, in the order genre, years, sort ("Drama", "1990s", "sort: rating").
    public var chips: [MovieChip] = []
    /// Which filters the source applies (TMDB: one release year).
    public var filterSupport: MovieFilterSupport = .all
    public var focus: Focus = .list
    /// The selected row of the results (0 when there are none).
    public var selection = 0
    /// The selected title of the recently viewed strip.
    public var recentSelection = 0
    /// The search field's text, as typed (or filled by a picked suggestion).
    public var fieldText = ""
    /// The recent searches show instead of the results (the field is focused and empty, and there are some).
    public var showsSuggestions = false
    /// The open genre, years or sort picker.
    public var picker: MoviePicker?
    /// What the last `w` did, or why a picker did not open, until the next key.
    public var message: String?
    /// `r` retries the first page or the next one.
    public var canRetry: Bool {
        if case .error = phase { return true }
        return moreError != nil
    }
    /// Something loads: the first page or the next.
    public var isLoading: Bool { phase == .loading || loadingMore }
}

/// One active filter, as shown under the search field.
public struct MovieChip: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case genre, years, sort }
    public let kind: Kind
    public let text: String
}

/// An open filter picker: its title, the years picker's prompt (what to type, or what is typed), its
/// options (each the whole filter it makes) and the selected one.
public struct MoviePicker: Equatable, Sendable {
    public let kind: MovieChip.Kind
    public let title: String
    public let prompt: String?
    /// Something is typed (the years picker): the prompt shows it.
    public let typed: Bool
    public let options: [MovieFilterOption]
    public let selection: Int
}

public enum MovieListRoute: Equatable, Sendable {
    case showDetail(MovieSummary)
}

/// Search-as-you-type over films, paged, with filters, the recently viewed strip and the wishlist's
/// marks; the recent searches are their own view model's (MoviesQueriesListViewModel), whose pick
/// the coordinator hands to this one (`suggestionPicked`).
public final class MovieListViewModel {
    public struct Input {
        /// Every edit of the search field (debounced here for TMDB; the bundled catalogue searches every one).
        public let queryChanged: AnyPublisher<String, Never>
        /// Enter in the field: searched at once.
        public let querySubmitted: AnyPublisher<String, Never>
        /// The selected row's index, after every move.
        public let selectionMoved: AnyPublisher<Int, Never>
        public let rowOpened: AnyPublisher<Int, Never>
        public let recentOpened: AnyPublisher<Int, Never>
        public let wishlistToggled: AnyPublisher<Int, Never>
        public let retried: AnyPublisher<Void, Never>
        /// A new genre, year range or sort (the whole filter): the search runs again at once.
        public let filterChanged: AnyPublisher<MovieFilter, Never>
        /// How many rows the list shows: pages load until they fill it.
        public let visibleRows: AnyPublisher<Int, Never>
        /// Where the keys go now (`/`, Esc, ↓, a click).
        public let focusChanged: AnyPublisher<MovieListState.Focus, Never>
        /// The selected title of the recently viewed strip.
        public let recentSelected: AnyPublisher<Int, Never>
        /// A chip's × was clicked: that filter alone is dropped.
        public let chipRemoved: AnyPublisher<MovieChip.Kind, Never>
        /// `g`, `p`, `s` or a click on a chip: that picker opens.
        public let pickerOpened: AnyPublisher<MovieChip.Kind, Never>
        /// Esc (or the key that opened it): the picker closes, the filter unchanged.
        public let pickerClosed: AnyPublisher<Void, Never>
        /// The picker's selected option.
        public let pickerMoved: AnyPublisher<Int, Never>
        /// A character typed in the years picker ("1990-1995").
        public let pickerTyped: AnyPublisher<Character, Never>
        /// Backspace in the years picker.
        public let pickerErased: AnyPublisher<Void, Never>
        /// A recent search picked in its panel (through the coordinator): it fills the field and is searched.
        public let suggestionPicked: AnyPublisher<String, Never>
        /// Whether there are recent searches to show under the emptied field.
        public let suggestionsAvailable: AnyPublisher<Bool, Never>

        public init(queryChanged: AnyPublisher<String, Never>, querySubmitted: AnyPublisher<String, Never>,
                    selectionMoved: AnyPublisher<Int, Never>, rowOpened: AnyPublisher<Int, Never>,
                    recentOpened: AnyPublisher<Int, Never>, wishlistToggled: AnyPublisher<Int, Never>,
                    retried: AnyPublisher<Void, Never>,
                    filterChanged: AnyPublisher<MovieFilter, Never> = Empty().eraseToAnyPublisher(),
                    visibleRows: AnyPublisher<Int, Never> = Empty().eraseToAnyPublisher(),
                    focusChanged: AnyPublisher<MovieListState.Focus, Never> = Empty().eraseToAnyPublisher(),
                    recentSelected: AnyPublisher<Int, Never> = Empty().eraseToAnyPublisher(),
                    chipRemoved: AnyPublisher<MovieChip.Kind, Never> = Empty().eraseToAnyPublisher(),
                    pickerOpened: AnyPublisher<MovieChip.Kind, Never> = Empty().eraseToAnyPublisher(),
                    pickerClosed: AnyPublisher<Void, Never> = Empty().eraseToAnyPublisher(),
                    pickerMoved: AnyPublisher<Int, Never> = Empty().eraseToAnyPublisher(),
                    pickerTyped: AnyPublisher<Character, Never> = Empty().eraseToAnyPublisher(),
                    pickerErased: AnyPublisher<Void, Never> = Empty().eraseToAnyPublisher(),
                    suggestionPicked: AnyPublisher<String, Never> = Empty().eraseToAnyPublisher(),
                    suggestionsAvailable: AnyPublisher<Bool, Never> = Empty().eraseToAnyPublisher()) {
            self.queryChanged = queryChanged
            self.querySubmitted = querySubmitted
            self.selectionMoved = selectionMoved
            self.rowOpened = rowOpened
            self.recentOpened = recentOpened
            self.wishlistToggled = wishlistToggled
            self.retried = retried
            self.filterChanged = filterChanged
            self.visibleRows = visibleRows
            self.focusChanged = focusChanged
            self.recentSelected = recentSelected
            self.chipRemoved = chipRemoved
            self.pickerOpened = pickerOpened
            self.pickerClosed = pickerClosed
            self.pickerMoved = pickerMoved
            self.pickerTyped = pickerTyped
            self.pickerErased = pickerErased
            self.suggestionPicked = suggestionPicked
            self.suggestionsAvailable = suggestionsAvailable
        }
    }

    public struct Output {
        /// Every change of what the screen shows, a message ("Added … to the wishlist") included.
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
        enum Phase: Equatable { case idle, loading, results, empty, failed(MovieError) }
        /// A filter dropped after a filtered search found nothing, and what the search found without it.
        struct Probe: Equatable {
            let kind: MovieChip.Kind
            let found: Int
        }
        enum Message: Equatable {
            case wishlist(WishlistUseCase.Toggle, title: String)
            case wishlistFailed(WishlistError)
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
        private var keptID: MovieID?
        private var keptIndex = 0
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

        init(instant: Bool, offMain: Bool, support: MovieFilterSupport) {
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
        case selected(Int), opened(Int), recentSelected(Int), recentOpened(Int)
        case wishlistToggled(Int), retried, visibleRows(Int)
        case filterChanged(MovieFilter), chipRemoved(MovieChip.Kind)
        case pickerOpened(MovieChip.Kind), pickerClosed, pickerMoved(Int), pickerTyped(Character), pickerErased
        /// The stores followed: the wishlist's films and the recently viewed ones.
        case wishlist(Set<MovieID>), viewed([MovieSummary])
        /// A search's answers: a page (a cached one may come before the fresh one), then the end.
        case page(search: Int, page: Int, MoviesPage), finished(search: Int, page: Int, MovieError?)
        /// How many films a search without one of the filters found.
        case probed(search: Int, MovieChip.Kind, Int)
        case wishlistChanged(WishlistUseCase.Toggle, title: String), wishlistFailed(WishlistError)

        /// What the user did (a key, a click): a message lasts until then.
        var isUser: Bool {
            switch self {
            case .edited, .submitted, .suggestionPicked, .focused, .selected, .opened, .recentSelected, .recentOpened,
                 .wishlistToggled, .retried, .filterChanged, .chipRemoved, .pickerOpened, .pickerClosed, .pickerMoved,
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
    }

    private let search: SearchMoviesUseCase
    private let details: MovieDetailsUseCase
    private let wishlist: WishlistUseCase
    private let l10n: L10n
    private let idleMessage: String
    /// The bundled catalogue's first and last release year (nil under TMDB): a query it does not
    /// match is told which years and which language its titles are in.
    private let catalogueYears: ClosedRange<Int>?
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// Where catalogue searches run (off the main thread in the app); nil: where they are asked for.
    private let searchScheduler: AnySchedulerOf<DispatchQueue>?

    /// `idleMessage` is shown when the query is empty (it names the catalogue or TMDB).
    public init(search: SearchMoviesUseCase, details: MovieDetailsUseCase, wishlist: WishlistUseCase, l10n: L10n,
                idleMessage: String, catalogueYears: ClosedRange<Int>? = nil, scheduler: AnySchedulerOf<DispatchQueue>,
                searchScheduler: AnySchedulerOf<DispatchQueue>? = nil) {
        self.catalogueYears = catalogueYears
        self.search = search
        self.searchScheduler = searchScheduler
        self.details = details
        self.wishlist = wishlist
        self.l10n = l10n
        self.idleMessage = idleMessage
        self.scheduler = scheduler
    }

    public func transform(input: Input) -> Output {
        let scheduler = self.scheduler
        let instant = search.source == .catalogue
        // Debounce (TMDB only) that lets an emptied field through at once.
        let typed = input.queryChanged
            .map(SearchMoviesUseCase.normalise)
            .map { query -> AnyPublisher<String, Never> in
                query.isEmpty || instant
                    ? Just(query).eraseToAnyPublisher()
                    : Just(query).delay(for: Self.debounce, scheduler: scheduler).eraseToAnyPublisher()
            }
            .switchToLatest()
        let actions: [AnyPublisher<Action, Never>] = [
            input.queryChanged.map(Action.edited).eraseToAnyPublisher(),
            typed.map(Action.typed).eraseToAnyPublisher(),
            input.querySubmitted.map(Action.submitted).eraseToAnyPublisher(),
            input.suggestionPicked.map(Action.suggestionPicked).eraseToAnyPublisher(),
            input.suggestionsAvailable.map(Action.suggestionsAvailable).eraseToAnyPublisher(),
            input.focusChanged.map(Action.focused).eraseToAnyPublisher(),
            input.selectionMoved.map(Action.selected).eraseToAnyPublisher(),
            input.rowOpened.map(Action.opened).eraseToAnyPublisher(),
            input.recentSelected.map(Action.recentSelected).eraseToAnyPublisher(),
            input.recentOpened.map(Action.recentOpened).eraseToAnyPublisher(),
            input.wishlistToggled.map(Action.wishlistToggled).eraseToAnyPublisher(),
            input.retried.map { Action.retried }.eraseToAnyPublisher(),
            input.filterChanged.map(Action.filterChanged).eraseToAnyPublisher(),
            input.chipRemoved.map(Action.chipRemoved).eraseToAnyPublisher(),
            input.visibleRows.map(Action.visibleRows).eraseToAnyPublisher(),
            input.pickerOpened.map(Action.pickerOpened).eraseToAnyPublisher(),
            input.pickerClosed.map { Action.pickerClosed }.eraseToAnyPublisher(),
            input.pickerMoved.map(Action.pickerMoved).eraseToAnyPublisher(),
            input.pickerTyped.map(Action.pickerTyped).eraseToAnyPublisher(),
            input.pickerErased.map { Action.pickerErased }.eraseToAnyPublisher(),
            // The marks and the strip follow their stores, whichever screen changed them.
            wishlist.contents.map { Action.wishlist(Set($0.map(\.id))) }.eraseToAnyPublisher(),
            details.viewed.map { Action.viewed(Array($0.prefix(Self.recentLimit))) }.eraseToAnyPublisher(),
        ]
        let initial = State(instant: instant, offMain: searchScheduler != nil, support: search.filterSupport)
        let loop = EffectRunner.run(initial: initial, actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
                                    scheduler: scheduler, reduce: Self.reduce, perform: perform)
        return Output(state: present(loop.state), route: loop.route)
    }

    // MARK: Reduce

    /// How the screen's state follows from each action: pure, no scheduler, no I/O.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        if action.isUser { state.message = nil }
        switch action {
        case .edited(let text):
            state.fieldText = text
            keepFocusShown(&state)
            return []
        case .typed(let query):
            // The same query twice in a row runs once.
            guard !state.started || query != state.query else { return [] }
            return run(&state, query, remember: false)
        case .submitted(let text):
            state.focus = .list
            // Only a submitted query is remembered (when it finds films), not the prefixes typed on the way.
            let query = SearchMoviesUseCase.normalise(text)
            guard !state.started || query != state.query else { return rememberQuery(&state) }
            return run(&state, query, remember: true)
        case .suggestionPicked(let text):
            state.fieldText = text
            return reduce(&state, .submitted(text))
        case .suggestionsAvailable(let available):
            state.hasSuggestions = available
            keepFocusShown(&state)
            return []
        case .focused(let focus):
            switch focus {
            case .suggestions: state.focus = state.fieldText.isEmpty && state.hasSuggestions ? .suggestions : .list
            case .recent: state.focus = state.recent.isEmpty ? .list : .recent
            case .list, .field: state.focus = focus
            }
            return []
        case .selected(let index):
            guard !state.movies.isEmpty else { return [] }
            state.focus = .list
            state.selection = min(max(0, index), state.movies.count - 1)
            guard state.phase == .results, state.loadingPage == nil, state.moreError == nil, state.lastPage < state.totalPages,
                  index >= state.movies.count - max(prefetchDistance, state.visibleRows / 2) else { return [] }
            return fetch(&state, page: state.lastPage + 1)
        case .opened(let index):
            guard state.movies.indices.contains(index) else { return [] }
            state.focus = .list
            state.selection = index
            // A film opened from a query's results makes the query worth remembering.
            return rememberQuery(&state) + [.open(state.movies[index])]
        case .recentSelected(let index):
            state.recentSelection = min(max(0, index), max(0, state.recent.count - 1))
            return []
        case .recentOpened(let index):
            guard state.recent.indices.contains(index) else { return [] }
            state.focus = .recent
            state.recentSelection = index
            return [.open(state.recent[index])]
        case .wishlistToggled(let index):
            guard state.movies.indices.contains(index) else { return [] }
            return [.toggleWishlist(state.movies[index])]
        case .retried:
            if case .failed = state.phase {
                state.phase = .loading
                return fetch(&state, page: 1)
            }
            guard state.moreError != nil, state.loadingPage == nil else { return [] }
            state.moreError = nil
            return fetch(&state, page: state.lastPage + 1)
        case .visibleRows(let rows):
            guard rows != state.visibleRows else { return [] }
            state.visibleRows = max(0, rows)
            return fillScreen(&state)
        case .filterChanged(let wanted):
            state.picker = nil
            let filter = state.support.applicable(wanted)
            guard filter != state.filter else { return [] }
            state.filter = filter
            return run(&state, state.query, remember: false)
        case .chipRemoved(let kind):
            var filter = state.filter
            switch kind {
            case .genre: filter.genre = nil
            case .years: filter.years = nil
            case .sort: filter.sort = .relevance
            }
            return reduce(&state, .filterChanged(filter))
        case .pickerOpened(let kind):
            // With TMDB, genre and sort say they are the catalogue's only.
            if (kind == .genre && !state.support.genre) || (kind == .sort && !state.support.sort) {
                state.message = .catalogueOnly
                return []
            }
            state.picker = State.Picker(kind: kind)
            return []
        case .pickerClosed:
            state.picker = nil
            return []
        case .pickerMoved(let index):
            state.picker?.selection = max(0, index)
            return []
        case .pickerTyped(let c):
            guard var picker = state.picker, picker.kind == .years, MovieFilterOptions.isYearCharacter(c),
                  picker.typed.count < MovieFilterOptions.typedLimit else { return [] }
            picker.typed.append(c)
            picker.selection = nil
            state.picker = picker
            return []
        case .pickerErased:
            guard var picker = state.picker, !picker.typed.isEmpty else { return [] }
            picker.typed.removeLast()
            picker.selection = nil
            state.picker = picker
            return []
        case .wishlist(let ids):
            state.wishlisted = ids
            return []
        case .viewed(let films):
            state.recent = films
            state.recentSelection = min(state.recentSelection, max(0, films.count - 1))
            if state.focus == .recent && films.isEmpty { state.focus = .list }
            return []
        case .page(let search, let page, let result):
            guard search == state.search else { return [] }
            return receive(&state, result, page: page)
        case .finished(let search, _, let error):
            guard search == state.search else { return [] }
            state.loadingPage = nil
            if let error {
                if state.lastPage == 0 {
                    state.movies = []
                    state.listed = []
                    state.listing += 1
                    state.selection = 0
                    state.holding = false
                    state.phase = .failed(error)
                } else {
                    state.moreError = error
                }
            }
            return fillScreen(&state)
        case .probed(let search, let kind, let found):
            guard search == state.search else { return [] }
            state.probes.append(State.Probe(kind: kind, found: found))
            guard state.probes.count == state.probing else { return [] }
            // The filter whose removal finds the most.
            state.dropHint = state.probes.filter { $0.found > 0 }.max { $0.found < $1.found }
            return []
        case .wishlistChanged(let change, let title):
            state.message = .wishlist(change, title: title)
            return []
        case .wishlistFailed(let error):
            state.message = .wishlistFailed(error)
            return []
        }
    }

    /// The suggestions lose the focus to the field when they are no longer shown.
    private static func keepFocusShown(_ state: inout State) {
        if state.focus == .suggestions && !state.showsSuggestions { state.focus = .field }
    }

    /// A new search: the query or the filter changed.
    private static func run(_ state: inout State, _ query: String, remember: Bool) -> [Effect] {
        let keepRows = state.instant && state.offMain && state.phase == .results
        state.kept = keepRows && query == state.query && state.movies.indices.contains(state.selection)
            ? (state.movies[state.selection].id, state.selection) : nil
        state.started = true
        state.search += 1
        state.query = query
        state.pages = [:]
        state.lastPage = 0
        state.totalPages = 0
        state.totalResults = 0
        state.loadingPage = nil
        state.moreError = nil
        state.probing = 0
        state.probes = []
        state.dropHint = nil
        state.rememberWhenFound = remember
        state.pageSize = state.instant
            ? max(MoviesPage.defaultSize, (state.visibleRows + prefetchDistance + 19) / 20 * 20) : MoviesPage.defaultSize
        // TMDB lists nothing before a query; the catalogue lists its most popular films.
        guard !query.isEmpty || state.instant else {
            clear(&state, phase: .idle)
            return [.stopFetching]
        }
        if keepRows {
            state.holding = true
        } else {
            clear(&state, phase: .loading)
        }
        return [.stopFetching] + fetch(&state, page: 1)
    }

    private static func clear(_ state: inout State, phase: State.Phase) {
        state.movies = []
        state.listed = []
        state.listing += 1
        state.selection = 0
        state.holding = false
        state.phase = phase
    }

    private static func fetch(_ state: inout State, page: Int) -> [Effect] {
        state.loadingPage = page
        return [.fetch(Request(query: state.query, page: page, pageSize: state.pageSize, filter: state.filter, search: state.search))]
    }

    /// Page `page` (the page asked for) arrived; a cached page may be followed by the fresh one: it
    /// replaces it. Pages are kept under the number asked for, never the number the source put in the
    /// page, so a source answering the wrong page can't stall paging or make a bad range.
    private static func receive(_ state: inout State, _ result: MoviesPage, page: Int) -> [Effect] {
        // A page below every page held (paging down) adds its films at the end; any other makes the list again.
        let appending = !state.pages.isEmpty && state.pages.keys.allSatisfy { $0 < page }
        state.pages[page] = result.movies
        state.lastPage = max(state.lastPage, page)
        state.totalPages = max(0, result.totalPages)
        if appending {
            state.movies.append(contentsOf: result.movies.filter { state.listed.insert($0.id).inserted })
        } else {
            // The selected film stays selected where it is still listed (a fresh page after the cached one,
            // another filter on the same query); else the row at its place. A new query starts at the top.
            let selected: MovieID?, place: Int
            if state.holding {
                (selected, place) = (state.kept?.id, state.kept?.index ?? 0)
            } else {
                selected = state.movies.indices.contains(state.selection) ? state.movies[state.selection].id : nil
                place = state.selection
            }
            state.listed = []
            state.movies = PagedList(state.pages.keys.sorted().flatMap { state.pages[$0] ?? [] }.filter { state.listed.insert($0.id).inserted })
            state.listing += 1
            if let selected, state.movies.indices.contains(place), state.movies[place].id == selected {
                state.selection = place
            } else if let selected, let index = state.movies.firstIndex(where: { $0.id == selected }) {
                state.selection = index
            } else {
                state.selection = min(place, max(0, state.movies.count - 1))
            }
            state.holding = false
            state.kept = nil
        }
        state.totalResults = max(result.totalResults, state.movies.count)
        state.phase = !state.movies.isEmpty ? .results : state.query.isEmpty && !state.filter.narrows ? .idle : .empty
        var effects: [Effect] = []
        if page == 1 && state.rememberWhenFound && !result.movies.isEmpty { effects += rememberQuery(&state) }
        if page == 1 && state.movies.isEmpty && state.filter.narrows { effects += probeWithoutEachFilter(&state) }
        return effects
    }

    /// After a filtered search found nothing: the same search without the genre, and without the years,
    /// to say which filter to drop (the one whose removal finds the most).
    private static func probeWithoutEachFilter(_ state: inout State) -> [Effect] {
        let filter = state.filter
        var variants: [(MovieChip.Kind, MovieFilter)] = []
        if filter.genre != nil { variants.append((.genre, MovieFilter(genre: nil, years: filter.years, sort: filter.sort))) }
        if filter.years != nil { variants.append((.years, MovieFilter(genre: filter.genre, years: nil, sort: filter.sort))) }
        guard variants.count > 1 || (variants.count == 1 && !state.query.isEmpty) else { return [] }
        state.probing = variants.count
        return variants.map { kind, variant in
            .probe(Request(query: state.query, page: 1, pageSize: MoviesPage.defaultSize, filter: variant, search: state.search), kind)
        }
    }

    /// Loads the next page while the rows do not fill the list (and a few more, to scroll into).
    private static func fillScreen(_ state: inout State) -> [Effect] {
        guard state.phase == .results, state.loadingPage == nil, state.moreError == nil, state.lastPage < state.totalPages,
              state.movies.count < state.visibleRows + prefetchDistance else { return [] }
        return fetch(&state, page: state.lastPage + 1)
    }

    /// Saves the current query as a suggestion if its first page found films; else waits for that page
    /// when it is still loading.
    private static func rememberQuery(_ state: inout State) -> [Effect] {
        guard !state.query.isEmpty else { return [] }
        guard let first = state.pages[1] else {
            state.rememberWhenFound = true
            return []
        }
        state.rememberWhenFound = false
        return [.remember(state.query, count: first.isEmpty ? 0 : max(first.count, state.totalResults))]
    }

    // MARK: Effects

    private enum Job: Hashable { case fetch, probe(MovieChip.Kind) }

    private func perform(_ effect: Effect) -> Work<Action, MovieListRoute> {
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
                    return .wishlistChanged(try wishlist.toggle(movie), title: movie.title)
                } catch {
                    return .wishlistFailed((error as? WishlistError) ?? .storage)
                }
            }
        }
    }

    /// The search, off the main thread for the catalogue when a scheduler for it was given.
    private func searched(_ request: Request) -> AnyPublisher<MoviesPage, MovieError> {
        let answers = search.execute(query: request.query, page: request.page, pageSize: request.pageSize, filter: request.filter)
        guard search.source == .catalogue, let searchScheduler else { return answers }
        return answers.subscribe(on: searchScheduler).eraseToAnyPublisher()
    }

    // MARK: Presenting

    /// What the rows, the phase and the summary are made from: a change of focus, selection or field
    /// formats nothing again.
    private struct Listing: Equatable {
        let listing: Int, count: Int, wishlisted: Set<MovieID>
        let query: String, phase: State.Phase, totalResults: Int, loadingMore: Bool, moreError: MovieError?
        let filter: MovieFilter, dropHint: State.Probe?
        init(_ s: State) {
            listing = s.listing
            count = s.movies.count
            wishlisted = s.wishlisted
            query = s.query
            phase = s.phase
            totalResults = s.totalResults
            loadingMore = s.loadingPage.map { $0 > 1 && s.pages[$0] == nil } ?? false
            moreError = s.moreError
            filter = s.filter
            dropHint = s.dropHint
        }
    }

    /// The state as last presented, with what its listing and its picker were made from.
    private struct Presented {
        let listing: Listing
        let view: MovieListState
        let picker: MadePicker?
    }

    /// An open picker's options (localised and sorted) and texts, and what they were made from: a
    /// move in the picker, a page or a wishlist change makes none of them again.
    private struct MadePicker {
        struct Source: Equatable {
            let kind: MovieChip.Kind, typed: String, filter: MovieFilter, support: MovieFilterSupport
        }
        let source: Source
        let options: [MovieFilterOption]
        /// The option of the filter in force (or of the typed range): selected until the user moves.
        let selected: Int
        let title: String, prompt: String?
    }

    private func present(_ states: AnyPublisher<State, Never>) -> AnyPublisher<MovieListState, Never> {
        states
            .filter(\.started)
            .scan(nil as Presented?) { [self] previous, state in
                var view: MovieListState
                let listing: Listing
                if let previous, state.holding {
                    // Until a catalogue search off the main thread answers, the previous results stay.
                    (listing, view) = (previous.listing, previous.view)
                } else if let previous, previous.listing == Listing(state) {
                    (listing, view) = (previous.listing, previous.view)
                } else {
                    listing = Listing(state)
                    var rows: PagedList<MovieRow>
                    if let previous, previous.listing.listing == listing.listing, previous.listing.wishlisted == listing.wishlisted,
                       previous.listing.count <= listing.count {
                        // The same rows, or a page appended below them (paging down never makes the rows above again).
                        rows = previous.view.rows
                        if previous.listing.count < listing.count {
                            rows.append(contentsOf: state.movies[previous.listing.count...].map { row($0, state.wishlisted) })
                        }
                    } else {
                        rows = PagedList(state.movies.map { row($0, state.wishlisted) })
                    }
                    view = self.view(state, rows: rows, loadingMore: listing.loadingMore)
                }
                let picker = state.picker.map { madePicker($0, state, previous: previous?.picker) }
                screenParts(state, picker: picker, into: &view)
                return Presented(listing: listing, view: view, picker: picker)
            }
            .compactMap { $0?.view }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    private func row(_ movie: MovieSummary, _ wishlisted: Set<MovieID>) -> MovieRow {
        MovieRow(movie, inWishlist: wishlisted.contains(movie.id), l10n: l10n)
    }

    private func view(_ state: State, rows: PagedList<MovieRow>, loadingMore: Bool) -> MovieListState {
        let phase: MovieListState.Phase
        switch state.phase {
        case .idle: phase = .idle(idleMessage)
        case .loading: phase = .loading
        case .results: phase = .results
        case .empty: phase = .empty(emptyText(state))
        case .failed(let error): phase = .error(l10n.format(.moviesError, l10n.describe(error)))
        }
        let summary: String
        switch state.phase {
        case .results where state.query.isEmpty && !state.filter.isEmpty: summary = l10n.format(.moviesSummary, l10n.number(state.totalResults))
        case .results where state.query.isEmpty: summary = l10n.format(.moviesPopular, l10n.number(state.totalResults))
        case .results: summary = l10n.format(.moviesSummary, l10n.number(state.totalResults))
        default: summary = ""
        }
        return MovieListState(
            query: state.query, phase: phase, rows: rows, summary: summary,
            loadingMore: loadingMore,
            moreError: state.moreError.map { l10n.format(.moviesError, l10n.describe($0)) },
            recent: [], filter: state.filter, chips: chips(for: state.filter), filterSupport: state.support)
    }

    /// What follows the user's moves at once: focus, selections, the field, the picker and the message.
    private func screenParts(_ state: State, picker made: MadePicker?, into view: inout MovieListState) {
        view.recent = state.recent.map(\.title)
        view.focus = state.focus
        if !state.holding { view.selection = state.selection }
        view.recentSelection = state.recentSelection
        view.fieldText = state.fieldText
        view.showsSuggestions = state.showsSuggestions
        if let picker = state.picker, let made {
            view.picker = MoviePicker(kind: picker.kind, title: made.title, prompt: made.prompt, typed: !picker.typed.isEmpty,
                                      options: made.options,
                                      selection: min(picker.selection ?? made.selected, max(0, made.options.count - 1)))
        } else {
            view.picker = nil
        }
        view.message = state.message.map(text)
    }

    /// The picker's options for the filter in force (each one the whole filter it would make),
    /// made again only when what they are made from changed.
    private func madePicker(_ picker: State.Picker, _ state: State, previous: MadePicker?) -> MadePicker {
        let source = MadePicker.Source(kind: picker.kind, typed: picker.typed, filter: state.filter, support: state.support)
        if let previous, previous.source == source { return previous }
        let made = MovieFilterOptions.options(picker.kind, current: state.filter, typed: picker.typed, support: state.support, l10n: l10n)
        return MadePicker(source: source, options: made.options, selected: made.selected,
                          title: MovieFilterOptions.title(picker.kind, l10n: l10n),
                          prompt: MovieFilterOptions.prompt(picker.kind, typed: picker.typed, support: state.support, l10n: l10n))
    }

    private func text(_ message: State.Message) -> String {
        switch message {
        case .wishlist(let change, let title): return l10n.describe(change, title: title)
        case .wishlistFailed(let error): return l10n.describe(error)
        case .catalogueOnly: return l10n[.moviesFilterCatalogueOnly]
        }
    }

    /// "Nothing matches …" and, with filters, which of them to drop (once the probes have answered).
    private func emptyText(_ state: State) -> String {
        guard state.filter.narrows else {
            return Self.emptyText(query: state.query, catalogueYears: state.instant ? catalogueYears : nil, l10n: l10n)
        }
        let chips = chips(for: state.filter)
        let active = chips.filter { $0.kind != .sort }.map(\.text).joined(separator: " · ")
        let first = state.query.isEmpty ? l10n.format(.moviesEmptyFilteredAll, active) : l10n.format(.moviesEmptyFiltered, state.query, active)
        let hint = state.dropHint.map { best in
            l10n.format(best.kind == .genre ? .moviesEmptyDropGenre : .moviesEmptyDropYears,
                        chips.first { $0.kind == best.kind }?.text ?? "", l10n.number(best.found))
        }
        return first + "\n" + (hint ?? l10n[.moviesEmptyFilterClear])
    }

    /// "No film matches “기생충”" and, for the bundled catalogue, the years it holds, that its titles are
    /// English, and that TMDB (with a key) searches titles in the UI's language.
    static func emptyText(query: String, catalogueYears: ClosedRange<Int>?, l10n: L10n) -> String {
        let first = l10n.format(.moviesEmpty, query)
        guard let years = catalogueYears else { return first }
        return [first, "",
                l10n.format(.moviesEmptyCatalogueYears, String(years.lowerBound), String(years.upperBound)),
                l10n[.moviesEmptyCatalogueTmdb]].joined(separator: "\n")
    }

    /// The filter's chips, in the UI language.
    func chips(for filter: MovieFilter) -> [MovieChip] {
        var chips: [MovieChip] = []
        if let genre = filter.genre { chips.append(MovieChip(kind: .genre, text: l10n.genre(genre))) }
        if let years = filter.years { chips.append(MovieChip(kind: .years, text: l10n.years(years))) }
        if filter.sort != .relevance {
            chips.append(MovieChip(kind: .sort, text: l10n.format(.moviesSortChip, l10n.sortName(filter.sort))))
        }
        return chips
    }
}
