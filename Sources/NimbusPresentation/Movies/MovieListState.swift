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
    /// There are results: Enter opens the selected one, `w` marks it.
    public var hasResults: Bool { phase == .results }
    /// The recently viewed strip has films.
    public var hasRecent: Bool { !recent.isEmpty }
    /// There is a list (or an empty one) to filter: the bar shows the filters' keys.
    public var filterable: Bool {
        switch phase {
        case .results, .empty: true
        case .idle, .loading, .error: false
        }
    }
    /// A filter is in force: `x` clears it.
    public var hasFilter: Bool { !filter.isEmpty }
    /// The bar's hints for `x`, `g` and `s`.
    public var clearsFilters: Bool { filterable && hasFilter }
    public var filtersByGenre: Bool { filterable && filterSupport.genre }
    public var sorts: Bool { filterable && filterSupport.sort }
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
