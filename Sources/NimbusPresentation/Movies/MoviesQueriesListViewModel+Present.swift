import Foundation

extension MoviesQueriesListViewModel {
    // MARK: Presenting

    static func present(_ state: State) -> MoviesQueriesListState {
        let l10n = state.l10n
        return MoviesQueriesListState(title: state.failure.map { l10n.format(.moviesHistoryNotRemoved, $0) } ?? l10n[.moviesSuggestions],
                                      queries: state.queries, selection: state.selection)
    }
}
