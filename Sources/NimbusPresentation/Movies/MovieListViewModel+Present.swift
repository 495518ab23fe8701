import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension MovieListViewModel {
    // MARK: Presenting

    /// What the rows, the phase and the summary are made from: a change of focus, selection or field
    /// formats nothing again.
    struct Listing: Equatable {
        let listing: Int, count: Int, wishlisted: Set<MovieID>
        let query: String, phase: State.Phase, totalResults: Int, loadingMore: Bool, moreError: MovieError?
        let filter: MovieFilter, dropHint: State.Probe?, l10n: L10n
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
            l10n = s.l10n
        }
    }

    /// The state as last presented, with what its listing and its picker were made from.
    struct Presented {
        let listing: Listing
        let view: MovieListState
        let picker: MadePicker?
    }

    /// An open picker's options (localised and sorted) and texts, and what they were made from: a
    /// move in the picker, a page or a wishlist change makes none of them again.
    struct MadePicker {
        struct Source: Equatable {
            let kind: MovieChip.Kind, typed: String, filter: MovieFilter, support: MovieFilterSupport, l10n: L10n
        }
        let source: Source
        let options: [MovieFilterOption]
        /// The option of the filter in force (or of the typed range): selected until the user moves.
        let selected: Int
        let title: String, prompt: String?
    }

    func present(_ states: AnyPublisher<State, Never>) -> AnyPublisher<MovieListState, Never> {
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
                       previous.listing.l10n == listing.l10n, previous.listing.count <= listing.count {
                        // The same rows, or a page appended below them (paging down never makes the rows above again).
                        rows = previous.view.rows
                        if previous.listing.count < listing.count {
                            rows.append(contentsOf: state.movies[previous.listing.count...].map { Self.row($0, state.wishlisted, state.l10n) })
                        }
                    } else {
                        rows = PagedList(state.movies.map { Self.row($0, state.wishlisted, state.l10n) })
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

    static func row(_ movie: MovieSummary, _ wishlisted: Set<MovieID>, _ l10n: L10n) -> MovieRow {
        MovieRow(movie, inWishlist: wishlisted.contains(movie.id), l10n: l10n)
    }

    func view(_ state: State, rows: PagedList<MovieRow>, loadingMore: Bool) -> MovieListState {
        let l10n = state.l10n
        let phase: MovieListState.Phase
        switch state.phase {
        case .idle: phase = .idle(source.idleMessage(l10n))
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
            recent: [], filter: state.filter, chips: Self.chips(for: state.filter, l10n: l10n), filterSupport: state.support)
    }

    /// What follows the user's moves at once: focus, selections, the field, the picker and the message.
    func screenParts(_ state: State, picker made: MadePicker?, into view: inout MovieListState) {
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
        view.message = state.message.map { Self.text($0, l10n: state.l10n) }
    }

    /// The picker's options for the filter in force (each one the whole filter it would make),
    /// made again only when what they are made from changed.
    func madePicker(_ picker: State.Picker, _ state: State, previous: MadePicker?) -> MadePicker {
        let l10n = state.l10n
        let source = MadePicker.Source(kind: picker.kind, typed: picker.typed, filter: state.filter, support: state.support, l10n: l10n)
        if let previous, previous.source == source { return previous }
        let made = MovieFilterOptions.options(picker.kind, current: state.filter, typed: picker.typed, support: state.support, l10n: l10n)
        return MadePicker(source: source, options: made.options, selected: made.selected,
                          title: MovieFilterOptions.title(picker.kind, l10n: l10n),
                          prompt: MovieFilterOptions.prompt(picker.kind, typed: picker.typed, support: state.support, l10n: l10n))
    }

    static func text(_ message: State.Message, l10n: L10n) -> String {
        switch message {
        case .wishlistFailed(let error): return l10n.describe(error)
        case .historyFailed(let reason): return l10n.format(.moviesHistoryNotRemoved, reason)
        case .catalogueOnly: return l10n[.moviesFilterCatalogueOnly]
        }
    }

    /// "Nothing matches …" and, with filters, which of them to drop (once the probes have answered).
    func emptyText(_ state: State) -> String {
        let l10n = state.l10n
        guard state.filter.narrows else {
            return Self.emptyText(query: state.query, catalogueYears: state.instant ? catalogueYears : nil, l10n: l10n)
        }
        let chips = Self.chips(for: state.filter, l10n: l10n)
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
    static func chips(for filter: MovieFilter, l10n: L10n) -> [MovieChip] {
        var chips: [MovieChip] = []
        if let genre = filter.genre { chips.append(MovieChip(kind: .genre, text: l10n.genre(genre))) }
        if let years = filter.years { chips.append(MovieChip(kind: .years, text: l10n.years(years))) }
        if filter.sort != .relevance {
            chips.append(MovieChip(kind: .sort, text: l10n.format(.moviesSortChip, l10n.sortName(filter.sort))))
        }
        return chips
    }
}
