import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension MovieListViewModel {
    // MARK: Reduce

    /// How the screen's state follows from each action: pure, no scheduler, no I/O.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        if action.isUser { state.message = nil }
        switch action {
        case .edited(let text):
            state.fieldText = text
            keepFocusShown(&state, to: .field)
            return []
        case .typed(let query):
            // The same query twice in a row runs once.
            guard !state.started || query != state.query else { return [] }
            return run(&state, query, remember: false)
        case .submitted(let text):
            state.focus = .list
            // Only a submitted query is remembered (when it finds films), not the prefixes typed on the way.
            let query = SearchMoviesUseCase.normalise(text)
            guard !state.started || query != state.query else {
                // fzf's Enter: the query's only film (all of its results listed) opens.
                if state.phase == .results, state.movies.count == 1, state.totalResults <= 1 { return reduce(&state, .opened(0)) }
                return rememberQuery(&state)
            }
            return run(&state, query, remember: true)
        case .suggestionPicked(let text):
            state.fieldText = text
            return reduce(&state, .submitted(text))
        case .suggestionsAvailable(let available):
            state.hasSuggestions = available
            keepFocusShown(&state, to: .list)
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
        case .recentDeleted(let index):
            // The strip follows the store: the film goes when the store publishes the list without it.
            guard state.recent.indices.contains(index) else { return [] }
            return [.forgetViewed(state.recent[index].id)]
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
        case .wishlistFailed(let error):
            state.message = .wishlistFailed(error)
            return []
        case .historyFailed(let reason):
            state.message = .historyFailed(reason)
            return []
        }
    }

    /// The suggestions lose the focus to the field when they are no longer shown.
    /// The recent searches are hidden while they have the focus: the focus goes to `to`. Typing
    /// (the field's text no longer empty) gives it to the field; the last search deleted (or the
    /// list cleared by another process) gives it to the results, where keys are commands, so the
    /// `z` the status line offers undoes the delete instead of being typed into the field.
    static func keepFocusShown(_ state: inout State, to focus: MovieListState.Focus) {
        if state.focus == .suggestions && !state.showsSuggestions { state.focus = focus }
    }

    /// A new search: the query or the filter changed.
    static func run(_ state: inout State, _ query: String, remember: Bool) -> [Effect] {
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

    static func clear(_ state: inout State, phase: State.Phase) {
        state.movies = []
        state.listed = []
        state.listing += 1
        state.selection = 0
        state.holding = false
        state.phase = phase
    }

    static func fetch(_ state: inout State, page: Int) -> [Effect] {
        state.loadingPage = page
        return [.fetch(Request(query: state.query, page: page, pageSize: state.pageSize, filter: state.filter, search: state.search))]
    }

    /// Page `page` (the page asked for) arrived; a cached page may be followed by the fresh one: it
    /// replaces it. Pages are kept under the number asked for, never the number the source put in the
    /// page, so a source answering the wrong page can't stall paging or make a bad range.
    static func receive(_ state: inout State, _ result: MoviesPage, page: Int) -> [Effect] {
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
    static func probeWithoutEachFilter(_ state: inout State) -> [Effect] {
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
    static func fillScreen(_ state: inout State) -> [Effect] {
        guard state.phase == .results, state.loadingPage == nil, state.moreError == nil, state.lastPage < state.totalPages,
              state.movies.count < state.visibleRows + prefetchDistance else { return [] }
        return fetch(&state, page: state.lastPage + 1)
    }

    /// Saves the current query as a suggestion if its first page found films; else waits for that page
    /// when it is still loading.
    static func rememberQuery(_ state: inout State) -> [Effect] {
        guard !state.query.isEmpty else { return [] }
        guard let first = state.pages[1] else {
            state.rememberWhenFound = true
            return []
        }
        state.rememberWhenFound = false
        return [.remember(state.query, count: first.isEmpty ? 0 : max(first.count, state.totalResults))]
    }
}
