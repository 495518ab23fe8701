import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// What the recent-searches panel shows: the queries saved after they found films, newest first.
public struct MoviesQueriesListState: Equatable, Sendable {
    /// "Recent searches", or why the last delete failed ("Not removed: database or disk is full")
    /// until the next key.
    public let title: String
    public let queries: [String]
    /// The highlighted query (0 when there are none).
    public let selection: Int
}

public enum MoviesQueriesListRoute: Equatable, Sendable {
    /// A query was picked: the coordinator hands it to the search.
    case picked(String)
}

/// The recent searches under an empty search field: follows the saved queries and reports the one
/// picked through its route (the search is another view model's; the coordinator joins the two).
public final class MoviesQueriesListViewModel {
    /// What the user does in the panel, sent through one stream.
    public enum Event: Equatable, Sendable {
        /// The panel is made: the saved queries are followed from now on.
        case appeared
        /// The row the highlight moved to.
        case rowSelected(Int)
        /// Enter or a click on a row: that query is searched.
        case rowPicked(Int)
        /// `d`: that query is taken off the list (the list follows the store; `z` puts it back).
        case rowDeleted(Int)
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) { self.events = events }
    }

    public struct Output {
        public let state: AnyPublisher<MoviesQueriesListState, Never>
        public let route: AnyPublisher<MoviesQueriesListRoute, Never>
    }

    public struct State: Equatable {
        /// The language the list speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
        var queries: [String] = []
        var selection = 0
        var observing = false
        /// Why the last delete was refused, until the next action of the user.
        var failure: String?
    }

    public enum Action: Equatable {
        case appeared
        case queries([String])
        case selected(Int)
        case picked(Int)
        case deleted(Int)
        case forgetFailed(String)
    }

    public enum Effect: Equatable {
        /// Follow the saved queries.
        case observe
        case pick(String)
        case forget(String)
    }

    public static let limit = 10

    private let search: SearchMoviesUseCase
    /// The language of the first state.
    private let firstLanguage: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>

    public init(search: SearchMoviesUseCase, l10n: L10n, scheduler: AnySchedulerOf<DispatchQueue>) {
        self.search = search
        self.firstLanguage = l10n
        self.scheduler = scheduler
    }

    public func transform(input: Input) -> Output {
        let actions = input.events.map { event -> Action in
            switch event {
            case .appeared: .appeared
            case .rowSelected(let row): .selected(row)
            case .rowPicked(let row): .picked(row)
            case .rowDeleted(let row): .deleted(row)
            }
        }.eraseToAnyPublisher()
        let loop = EffectRunner.run(initial: State(l10n: firstLanguage), actions: actions, scheduler: scheduler,
                                    reduce: Self.reduce, perform: perform)
        let state = loop.state
            .map(Self.present)
            .removeDuplicates()
            .eraseToAnyPublisher()
        return Output(state: state, route: loop.route)
    }

    // MARK: Reduce

    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .selected, .picked, .deleted: state.failure = nil
        case .appeared, .queries, .forgetFailed: break
        }
        switch action {
        case .appeared:
            guard !state.observing else { return [] }
            state.observing = true
            return [.observe]
        case .queries(let queries):
            // The highlight stays on its row, within the list (the newest query comes in at the top,
            // while the panel is hidden: it opens on the row it was left on).
            state.queries = Array(queries.prefix(limit))
            state.selection = min(state.selection, max(0, state.queries.count - 1))
            return []
        case .selected(let index):
            guard state.queries.indices.contains(index) else { return [] }
            state.selection = index
            return []
        case .picked(let index):
            guard state.queries.indices.contains(index) else { return [] }
            state.selection = index
            return [.pick(state.queries[index])]
        case .deleted(let index):
            guard state.queries.indices.contains(index) else { return [] }
            state.selection = index
            return [.forget(state.queries[index])]
        case .forgetFailed(let reason):
            state.failure = reason
            return []
        }
    }

    // MARK: Effects

    private func perform(_ effect: Effect) -> Work<Action, MoviesQueriesListRoute> {
        switch effect {
        case .observe:
            return .run(search.recentQueries.map(Action.queries).eraseToAnyPublisher(), id: "queries", immediate: true)
        case .pick(let query):
            return .route(.picked(query))
        case .forget(let query):
            let search = self.search
            return .answer {
                do {
                    try search.forget(query)
                    return nil
                } catch {
                    return .forgetFailed((error as? MovieHistoryNotSaved)?.reason ?? "\(error)")
                }
            }
        }
    }
}
