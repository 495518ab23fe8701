import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// `MoviesQueriesListViewModel.reduce` as a table: a state and an action give a state and effects,
/// with no scheduler.
final class MoviesQueriesListReduceTests: XCTestCase {
    typealias VM = MoviesQueriesListViewModel

    private func state(_ queries: [String], selection: Int = 0, observing: Bool = true) -> VM.State {
        VM.State(queries: queries, selection: selection, observing: observing)
    }

    private func failed(_ queries: [String], _ reason: String) -> VM.State {
        var s = state(queries)
        s.failure = reason
        return s
    }

    func testEveryActionOnEveryKindOfState() {
        let three = ["heat", "batman", "alien"]
        let eleven = (1...11).map { "q\($0)" }
        let cases: [(String, VM.State, VM.Action, VM.State, [VM.Effect])] = [
            ("appearing follows the store", VM.State(), .appeared, state([]), [.observe]),
            ("once", state(three), .appeared, state(three), []),
            ("queries come in", state([]), .queries(three), state(three), []),
            ("at most ten", state([]), .queries(eleven), state(Array(eleven.prefix(10))), []),
            ("a new query on top: the highlight keeps its row", state(three, selection: 1), .queries(["dune"] + three),
             state(["dune"] + three, selection: 1), []),
            ("fewer rows: the new last", state(three, selection: 2), .queries(["heat"]), state(["heat"]), []),
            ("none left", state(three, selection: 2), .queries([]), state([]), []),
            ("a move", state(three), .selected(2), state(three, selection: 2), []),
            ("a move past the end does nothing", state(three), .selected(3), state(three), []),
            ("a move with none does nothing", state([]), .selected(0), state([]), []),
            ("a pick searches that query", state(three), .picked(1), state(three, selection: 1), [.pick("batman")]),
            ("a pick past the end does nothing", state(three, selection: 2), .picked(5), state(three, selection: 2), []),
            ("a pick with none does nothing", state([]), .picked(0), state([]), []),
            ("a delete forgets that query; the list follows the store", state(three), .deleted(2), state(three, selection: 2),
             [.forget("alien")]),
            ("a delete past the end does nothing", state(three), .deleted(3), state(three), []),
            ("a delete with none does nothing", state([]), .deleted(0), state([]), []),
            ("a refused delete is said", state(three), .forgetFailed("disk full"), failed(three, "disk full"), []),
            ("until the next move", failed(three, "disk full"), .selected(1), state(three, selection: 1), []),
            ("the store's answer does not clear it", failed(three, "disk full"), .queries(three), failed(three, "disk full"), []),
        ]
        for (name, before, action, after, effects) in cases {
            var s = before
            XCTAssertEqual(VM.reduce(&s, action), effects, name)
            XCTAssertEqual(s, after, name)
        }
    }

    /// The whole loop: the saved queries shown newest first, a move, and a pick reported as a route.
    func testThePanelFollowsTheStoreAndReportsAPick() {
        let scheduler = DispatchQueue.test
        let history = InMemoryMovieHistory()
        try? history.saveQuery("alien")
        try? history.saveQuery("heat")
        let events = PassthroughSubject<VM.Event, Never>()
        let viewModel = VM(search: SearchMoviesUseCase(movies: ScriptedMovieRepository(), history: history),
                           l10n: L10n.bundled(.ko), scheduler: scheduler.eraseToAnyScheduler())
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        let state = TestObserver(output.state)
        let route = TestObserver(output.route)
        events.send(.appeared)
        events.send(.rowSelected(1))
        try? history.saveQuery("batman")
        events.send(.rowPicked(2))
        XCTAssertEqual(state.values, [
            MoviesQueriesListState(title: "최근 검색어", queries: [], selection: 0),  // appeared, before the store answers
            MoviesQueriesListState(title: "최근 검색어", queries: ["heat", "alien"], selection: 0),
            MoviesQueriesListState(title: "최근 검색어", queries: ["heat", "alien"], selection: 1),
            MoviesQueriesListState(title: "최근 검색어", queries: ["batman", "heat", "alien"], selection: 1),
            MoviesQueriesListState(title: "최근 검색어", queries: ["batman", "heat", "alien"], selection: 2),
        ])
        XCTAssertEqual(route.values, [.picked("alien")])
    }

    /// A delete the store refuses: the panel's title says why until the next key; the rows stay.
    func testARefusedDeleteIsSaidInTheTitle() {
        final class Full: MovieHistoryRepository {
            func recentQueries(limit: Int) -> [String] { ["heat"] }
            func saveQuery(_ query: String) throws {}
            func recentlyViewed(limit: Int) -> [MovieSummary] { [] }
            func recordViewed(_ movie: MovieSummary) throws {}
            func forgetQuery(_ query: String) throws { throw MovieHistoryNotSaved(reason: "database or disk is full") }
            func forgetViewed(_ id: MovieID) throws {}
            var queries: AnyPublisher<[String], Never> { Just(["heat"]).eraseToAnyPublisher() }
            var viewed: AnyPublisher<[MovieSummary], Never> { Just([]).eraseToAnyPublisher() }
        }
        let events = PassthroughSubject<VM.Event, Never>()
        let viewModel = VM(search: SearchMoviesUseCase(movies: ScriptedMovieRepository(), history: Full()),
                           l10n: L10n.bundled(.en), scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
        let state = TestObserver(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state)
        events.send(.appeared)
        events.send(.rowDeleted(0))
        XCTAssertEqual(state.values.last, MoviesQueriesListState(title: "Not removed: database or disk is full", queries: ["heat"], selection: 0))
        events.send(.rowSelected(0))
        XCTAssertEqual(state.values.last, MoviesQueriesListState(title: "Recent searches", queries: ["heat"], selection: 0))
    }
}
