import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers

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

    public let query: String
    public let phase: Phase
    /// Every row loaded so far, each film once.
    public let rows: [MovieRow]
    /// "1,234 films" once results are in.
    public let summary: String
    /// The next page is loading (footer spinner).
    public let loadingMore: Bool
    /// The next page failed; `r` retries.
    public let moreError: String?
    /// Titles of the recently opened films, newest first.
    public let recent: [String]
    /// The filter the results are narrowed and ordered by (what the source applies of it).
    public var filter: MovieFilter = .none
    /// The filter as chips, in the order genre, years, sort ("Drama", "1990s", "sort: rating").
    public var chips: [MovieChip] = []
    /// Which filters the source applies (TMDB: one release year).
    public var filterSupport: MovieFilterSupport = .all
}

/// One active filter, as shown under the search field.
public struct MovieChip: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case genre, years, sort }
    public let kind: Kind
    public let text: String
}

public enum MovieListRoute: Equatable, Sendable {
    case showDetail(MovieSummary)
}

/// Search-as-you-type over films, paged, with recent queries and recently viewed films.
public final class MovieListViewModel {
    public struct Input {
        /// Every edit of the search field (debounced here for TMDB; the bundled catalogue searches every one).
        public let queryChanged: AnyPublisher<String, Never>
        /// Enter in the field or a chosen suggestion: searched at once.
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

        public init(queryChanged: AnyPublisher<String, Never>, querySubmitted: AnyPublisher<String, Never>,
                    selectionMoved: AnyPublisher<Int, Never>, rowOpened: AnyPublisher<Int, Never>,
                    recentOpened: AnyPublisher<Int, Never>, wishlistToggled: AnyPublisher<Int, Never>,
                    retried: AnyPublisher<Void, Never>,
                    filterChanged: AnyPublisher<MovieFilter, Never> = Empty().eraseToAnyPublisher(),
                    visibleRows: AnyPublisher<Int, Never> = Empty().eraseToAnyPublisher()) {
            self.filterChanged = filterChanged
            self.visibleRows = visibleRows
            self.queryChanged = queryChanged
            self.querySubmitted = querySubmitted
            self.selectionMoved = selectionMoved
            self.rowOpened = rowOpened
            self.recentOpened = recentOpened
            self.wishlistToggled = wishlistToggled
            self.retried = retried
        }
    }

    public struct Output {
        public let state: AnyPublisher<MovieListState, Never>
        public let route: AnyPublisher<MovieListRoute, Never>
        /// One-off messages ("Added … to the wishlist").
        public let message: AnyPublisher<String, Never>
    }

    /// Typing pause before a TMDB search starts (the bundled catalogue answers every keystroke).
    public static let debounce = DispatchQueue.SchedulerTimeType.Stride.milliseconds(250)
    /// The next page loads when the selection is this close to the last row (or half a screen, when more).
    public static let prefetchDistance = 3
    public static let recentLimit = 8

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
    /// Results follow every keystroke: the source is the bundled catalogue, not a rate-limited API.
    private var instant: Bool { search.source == .catalogue }
    private var cancellables: Set<AnyCancellable> = []

    // The model, touched only on the scheduler's queue.
    private let stateSubject = PassthroughSubject<MovieListState, Never>()
    private let routeSubject = PassthroughSubject<MovieListRoute, Never>()
    private let messageSubject = PassthroughSubject<String, Never>()
    private var started = false
    private var query = ""
    private var phase = MovieListState.Phase.idle("")
    private var pages: [Int: [MovieSummary]] = [:]
    private var lastPage = 0
    private var totalPages = 0
    private var totalResults = 0
    private var movies: [MovieSummary] = [] { didSet { rows = nil } }
    /// `movies` as rows, made when first emitted; a page that arrives below the others adds its own
    /// rows to them (paging down a long list never makes the rows above again).
    private var rows: [MovieRow]?
    /// The films of `movies`, by id (a film on two pages is listed once).
    private var listed: Set<MovieID> = []
    private var loadingPage: Int?
    private var moreError: String?
    private var load: AnyCancellable?
    private var wishlisted: Set<MovieID> = [] { didSet { rows = nil } }
    private var recent: [MovieSummary] = []
    /// The query was submitted: remember it once its first page has films.
    private var rememberWhenFound = false
    private var filter = MovieFilter.none
    private var visibleRows = 0
    /// Rows a page of the current query holds: with the catalogue, enough to fill the list in one
    /// search (pages of 20 that fill it in steps cost each keystroke a second search and frame).
    private var pageSize = MoviesPage.defaultSize
    /// Searches with one filter dropped, after a filtered search found nothing: which filter to drop.
    private var probes: [AnyCancellable] = []
    private var emptyHint: String?

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
        let instant = self.instant
        // Debounce (TMDB only) that lets an emptied field through at once.
        let typed = input.queryChanged
            .map(SearchMoviesUseCase.normalise)
            .map { query -> AnyPublisher<String, Never> in
                query.isEmpty || instant
                    ? Just(query).eraseToAnyPublisher()
                    : Just(query).delay(for: Self.debounce, scheduler: scheduler).eraseToAnyPublisher()
            }
            .switchToLatest()
        // Typed and submitted queries meet here; the same query twice in a row runs once. Only a submitted
        // query is remembered as a suggestion (when it finds films), not the prefixes typed on the way.
        typed
            .sink { [weak self] query in
                guard let self, !self.started || query != self.query else { return }
                self.run(query, remember: false)
            }
            .store(in: &cancellables)
        input.querySubmitted
            .map(SearchMoviesUseCase.normalise)
            .sink { [weak self] query in
                guard let self else { return }
                guard !self.started || query != self.query else {
                    self.rememberQuery()
                    self.emit()
                    return
                }
                self.run(query, remember: true)
            }
            .store(in: &cancellables)
        input.selectionMoved
            .sink { [weak self] in self?.selectionMoved(to: $0) }
            .store(in: &cancellables)
        input.rowOpened
            .sink { [weak self] index in
                guard let self, self.movies.indices.contains(index) else { return }
                // A film opened from a query's results makes the query worth remembering.
                self.rememberQuery()
                self.open(self.movies[index])
            }
            .store(in: &cancellables)
        input.recentOpened
            .sink { [weak self] index in
                guard let self, self.recent.indices.contains(index) else { return }
                self.open(self.recent[index])
            }
            .store(in: &cancellables)
        input.wishlistToggled
            .sink { [weak self] in self?.toggleWishlist($0) }
            .store(in: &cancellables)
        input.retried
            .sink { [weak self] in self?.retry() }
            .store(in: &cancellables)
        input.filterChanged
            .map { [search] in search.filterSupport.applicable($0) }
            .sink { [weak self] filter in
                guard let self, filter != self.filter else { return }
                self.filter = filter
                self.run(self.query, remember: false)
            }
            .store(in: &cancellables)
        input.visibleRows
            .sink { [weak self] rows in
                guard let self, rows != self.visibleRows else { return }
                self.visibleRows = max(0, rows)
                self.fillScreen()
            }
            .store(in: &cancellables)
        // The marks and the strip follow their stores, whichever screen changed them (the recent
        // searches are their own view model's: MoviesQueriesListViewModel).
        wishlist.contents
            .map { Set($0.map(\.id)) }
            .sink { [weak self] ids in
                guard let self, ids != self.wishlisted else { return }
                self.wishlisted = ids
                self.emit()
            }
            .store(in: &cancellables)
        details.viewed
            .map { Array($0.prefix(Self.recentLimit)) }
            .sink { [weak self] films in
                guard let self, films != self.recent else { return }
                self.recent = films
                self.emit()
            }
            .store(in: &cancellables)
        return Output(state: stateSubject.removeDuplicates().eraseToAnyPublisher(), route: routeSubject.eraseToAnyPublisher(),
                      message: messageSubject.eraseToAnyPublisher())
    }

    // MARK: Searching

    private func run(_ newQuery: String, remember: Bool) {
        let keepRows = instant && searchScheduler != nil && phase == .results
        started = true
        load?.cancel()
        load = nil
        query = newQuery
        pages = [:]
        lastPage = 0
        totalPages = 0
        totalResults = 0
        loadingPage = nil
        moreError = nil
        probes = []
        emptyHint = nil
        rememberWhenFound = remember
        pageSize = instant ? max(MoviesPage.defaultSize, (visibleRows + Self.prefetchDistance + 19) / 20 * 20) : MoviesPage.defaultSize
        // TMDB lists nothing before a query; the catalogue lists its most popular films.
        guard !newQuery.isEmpty || instant else {
            movies = []
            phase = .idle(idleMessage)
            emit()
            return
        }
        // A catalogue answer searched off the main thread comes a few milliseconds later: until then the
        // previous query's rows stay (no blank "loading" frame between two keystrokes).
        guard keepRows else {
            movies = []
            phase = .loading
            emit()
            fetch(page: 1)
            return
        }
        fetch(page: 1)
    }

    private func fetch(page: Int) {
        loadingPage = page
        if page > 1 { emit() }
        let query = self.query, filter = self.filter
        let request = search.execute(query: query, page: page, pageSize: pageSize, filter: filter)
        let searched = instant ? searchScheduler.map { request.subscribe(on: $0).eraseToAnyPublisher() } ?? request : request
        // A stale answer (the query changed meanwhile) is dropped: `load` is cancelled, and `query` checked.
        load = searched
            .receive(on: scheduler)
            .sink(receiveCompletion: { [weak self] completion in
                guard let self, self.query == query, self.filter == filter else { return }
                self.loadingPage = nil
                if case .failure(let error) = completion {
                    let text = self.l10n.format(.moviesError, self.l10n.describe(error))
                    if self.lastPage == 0 { self.movies = []; self.phase = .error(text) } else { self.moreError = text }
                }
                self.emit()
                self.fillScreen()
            }, receiveValue: { [weak self] result in
                guard let self, self.query == query, self.filter == filter else { return }
                self.receive(result, page: page)
            })
    }

    /// Page `page` (the page asked for) arrived; a cached page may be followed by the fresh one: it
    /// replaces it. Pages are kept under the number asked for, never the number the source put in the
    /// page, so a source answering the wrong page can't stall paging or make a bad range.
    private func receive(_ result: MoviesPage, page: Int) {
        // A page below every page held (paging down) adds its films at the end; any other makes the list again.
        let appending = !pages.isEmpty && pages.keys.allSatisfy { $0 < page }
        pages[page] = result.movies
        lastPage = max(lastPage, page)
        totalPages = max(0, result.totalPages)
        if appending {
            let added = result.movies.filter { listed.insert($0.id).inserted }
            var kept = rows.take()
            movies += added
            kept?.append(contentsOf: added.map(row))
            rows = kept
        } else {
            listed = []
            movies = pages.keys.sorted().flatMap { pages[$0] ?? [] }.filter { listed.insert($0.id).inserted }
        }
        totalResults = max(result.totalResults, movies.count)
        phase = !movies.isEmpty ? .results : query.isEmpty && !filter.narrows ? .idle(idleMessage) : .empty(emptyText)
        if page == 1 && rememberWhenFound && !result.movies.isEmpty { rememberQuery() }
        if page == 1 && movies.isEmpty && filter.narrows { probeWithoutEachFilter() }
        emit()
    }

    /// "Nothing matches …" and, with filters, which of them to drop (once the probes have answered).
    private var emptyText: String {
        guard filter.narrows else { return Self.emptyText(query: query, catalogueYears: instant ? catalogueYears : nil, l10n: l10n) }
        let active = chips(for: filter).filter { $0.kind != .sort }.map(\.text).joined(separator: " · ")
        let first = query.isEmpty ? l10n.format(.moviesEmptyFilteredAll, active) : l10n.format(.moviesEmptyFiltered, query, active)
        return first + "\n" + (emptyHint ?? l10n[.moviesEmptyFilterClear])
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

    /// After a filtered search found nothing: the same search without the genre, and without the years,
    /// to say which filter to drop (the one whose removal finds the most).
    private func probeWithoutEachFilter() {
        var variants: [(MovieChip.Kind, MovieFilter)] = []
        if filter.genre != nil { variants.append((.genre, MovieFilter(genre: nil, years: filter.years, sort: filter.sort))) }
        if filter.years != nil { variants.append((.years, MovieFilter(genre: filter.genre, years: nil, sort: filter.sort))) }
        guard variants.count > 1 || (variants.count == 1 && !query.isEmpty) else { return }
        let query = self.query, filter = self.filter
        var found: [(MovieChip.Kind, Int)] = []
        for (kind, variant) in variants {
            let request = search.execute(query: query, page: 1, filter: variant)
            let searched = instant ? searchScheduler.map { request.subscribe(on: $0).eraseToAnyPublisher() } ?? request : request
            probes.append(searched.first().receive(on: scheduler).sink(receiveCompletion: { _ in }, receiveValue: { [weak self] page in
                guard let self, self.query == query, self.filter == filter else { return }
                found.append((kind, page.totalResults))
                guard found.count == variants.count else { return }
                // The filter whose removal finds the most: say so, and with which key.
                if let best = found.filter({ $0.1 > 0 }).max(by: { $0.1 < $1.1 }) {
                    let chip = self.chips(for: filter).first { $0.kind == best.0 }?.text ?? ""
                    self.emptyHint = self.l10n.format(best.0 == .genre ? .moviesEmptyDropGenre : .moviesEmptyDropYears,
                                                      chip, self.l10n.number(best.1))
                }
                if case .empty = self.phase {
                    self.phase = .empty(self.emptyText)
                    self.emit()
                }
            }))
        }
    }

    /// Loads the next page while the rows do not fill the list (and a few more, to scroll into).
    private func fillScreen() {
        guard phase == .results, loadingPage == nil, moreError == nil, lastPage < totalPages,
              movies.count < visibleRows + Self.prefetchDistance else { return }
        fetch(page: lastPage + 1)
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

    /// Saves the current query as a suggestion if its first page found films; else waits for that page
    /// when it is still loading.
    private func rememberQuery() {
        guard !query.isEmpty else { return }
        guard let first = pages[1] else {
            rememberWhenFound = true
            return
        }
        rememberWhenFound = false
        search.remember(query, resultCount: first.isEmpty ? 0 : max(first.count, totalResults))
    }

    private func selectionMoved(to index: Int) {
        guard phase == .results, loadingPage == nil, moreError == nil, lastPage < totalPages,
              index >= movies.count - max(Self.prefetchDistance, visibleRows / 2) else { return }
        fetch(page: lastPage + 1)
    }

    private func retry() {
        if case .error = phase {
            phase = .loading
            emit()
            fetch(page: 1)
        } else if moreError != nil, loadingPage == nil {
            moreError = nil
            fetch(page: lastPage + 1)
        }
    }

    // MARK: Rows

    private func open(_ movie: MovieSummary) {
        details.recordViewed(movie)
        routeSubject.send(.showDetail(movie))
    }

    private func toggleWishlist(_ index: Int) {
        guard movies.indices.contains(index) else { return }
        let movie = movies[index]
        do {
            let change = try wishlist.toggle(movie)
            messageSubject.send(l10n.describe(change, title: movie.title))
        } catch {
            messageSubject.send(l10n.describeWishlistFailure(error))
        }
    }

    private func row(_ movie: MovieSummary) -> MovieRow {
        MovieRow(movie, inWishlist: wishlisted.contains(movie.id), l10n: l10n)
    }

    private func currentRows() -> [MovieRow] {
        if let rows { return rows }
        let made = movies.map(row)
        rows = made
        return made
    }

    private func emit() {
        guard started else { return }
        let summary: String
        switch phase {
        case .results where query.isEmpty && !filter.isEmpty: summary = l10n.format(.moviesSummary, l10n.number(totalResults))
        case .results where query.isEmpty: summary = l10n.format(.moviesPopular, l10n.number(totalResults))
        case .results: summary = l10n.format(.moviesSummary, l10n.number(totalResults))
        default: summary = ""
        }
        stateSubject.send(MovieListState(
            query: query, phase: phase,
            rows: currentRows(),
            summary: summary, loadingMore: loadingPage.map { $0 > 1 && pages[$0] == nil } ?? false, moreError: moreError,
            recent: recent.map(\.title), filter: filter, chips: chips(for: filter),
            filterSupport: search.filterSupport))
    }
}
