import Foundation
import Testing
import CombineSchedulers
import NimbusDomain
@testable import NimbusPresentation
import NimbusTerminal
import OpenCombineShim
import TestSupport
@testable import NimbusUI

/// The Movies screen's keys and clicks as a table: for a state on screen and a key (or a click),
/// the view model's events sent, in order, without drawing and without a view model.
@Suite @MainActor final class MovieListControlsTests {
    private var controls: MovieListControls!
    private var queries: MoviesQueriesListPanel!
    private var sent: [MovieListViewModel.Event] = []
    private var subscriptions: [AnyCancellable] = []

    /// Controls over an empty recent searches' panel, their inputs recorded.
    private func start() {
        let search = SearchMoviesUseCase(movies: NoFilms(), history: NoMovieHistory())
        let panel = MoviesQueriesListPanel(viewModel: MoviesQueriesListViewModel(search: search, l10n: L10n.bundled(.en),
                                                                                  scheduler: DispatchQueue.immediate.eraseToAnyScheduler()),
                                           onRoute: { _ in })
        queries = panel
        controls = MovieListControls(l10n: L10n.bundled(.en), queries: panel)
        let input = controls.input
        subscriptions.append(input.events.sink { [unowned self] in sent.append($0) })
        // Whether there are recent searches is told as soon as it is asked.
        var available: [Bool] = []
        subscriptions.append(input.suggestionsAvailable.sink { available.append($0) })
        #expect(available == [false])
        #expect(sent == [])
    }

    private static func row(_ n: Int) -> MovieRow {
        MovieRow(id: MovieID(source: .catalogue, value: n), title: "Film \(n)", year: "2000", genres: "", director: "", inWishlist: false)
    }

    /// Results of three films, the first selected, nothing viewed, no filter.
    private static let results = MovieListState(query: "film", phase: .results, rows: [row(1), row(2), row(3)], summary: "3 films",
                                                loadingMore: false, moreError: nil, recent: [])

    private static let years = MoviePicker(kind: .years, title: "Years", prompt: "1990-1995", typed: false,
                                           options: [MovieFilterOption(label: "any", filter: .none),
                                                     MovieFilterOption(label: "1990s", filter: MovieFilter(years: 1990...1999))],
                                           selection: 1)

    /// Shows `state` (as the screen's binding would), then presses `key` as the app does: its binding
    /// if the state has one for it, else the screen's text path. Returns whether it was taken.
    @discardableResult
    private func press(_ key: Key, on state: MovieListState, after old: MovieListState? = nil) -> Bool {
        controls.follow(old, state)
        sent = []
        let bindings = controls.bindings(state)
        if Binding.find(key, in: bindings) != nil {
            return Binding.press(key, in: bindings) { controls.perform($0, key: $1, state) } == .ran
        }
        return controls.handle(key, state)
    }

    private func with(_ change: (inout MovieListState) -> Void) -> MovieListState {
        var state = Self.results
        change(&state)
        return state
    }

    @Test func testTheResultsKeysSendTheSelectedRowAndOpenThePickers() {
        start()
        let selected = with { $0.selection = 1 }
        let table: [(Key, MovieListState, [MovieListViewModel.Event], Bool)] = [
            (.down, Self.results, [.selectionMoved(1)], true),
            (.end, Self.results, [.selectionMoved(2)], true),
            (.up, Self.results, [.selectionMoved(0)], true),
            (.up, with { $0.recent = ["Heat"] }, [.focusChanged(.recent)], true),
            (.up, selected, [.selectionMoved(0)], true),
            (.enter, selected, [.rowOpened(1)], true),
            (.char("w"), selected, [.wishlistToggled(1)], true),
            (.char("/"), Self.results, [.focusChanged(.field)], true),
            (.char("r"), Self.results, [.retried], true),
            (.char("g"), Self.results, [.pickerOpened(.genre)], true),
            (.char("p"), Self.results, [.pickerOpened(.years)], true),
            (.char("s"), Self.results, [.pickerOpened(.sort)], true),
            // Nothing to clear, nothing to open or mark: the key goes on to the app.
            (.char("x"), Self.results, [], false),
            (.char("x"), with { $0.filter = MovieFilter(years: 1990...1999) }, [.filterChanged(.none)], true),
            (.enter, with { $0.phase = .loading }, [], false),
            (.char("w"), with { $0.phase = .empty("nothing") }, [], false),
        ]
        for (key, state, expected, taken) in table {
            let wasTaken = press(key, on: state)
            #expect(sent == expected, "\(key) on selection \(state.selection)")
            #expect(wasTaken == taken, "\(key)")
        }
    }

    @Test func testTheFieldSendsEveryEditAndLeavesOnEnterAndDown() {
        start()
        let field = with { $0.focus = .field; $0.fieldText = "he" }
        #expect(press(.char("a"), on: field))
        #expect(sent == [.queryChanged("hea")])
        // The field keeps its own caret between keys while the state holds what was typed.
        let typed = with { $0.focus = .field; $0.fieldText = "hea" }
        #expect(press(.backspace, on: typed, after: field))
        #expect(sent == [.queryChanged("he")])
        // A text the state brings (a picked suggestion) replaces what was typed.
        #expect(press(.enter, on: with { $0.focus = .field; $0.fieldText = "heat" }, after: field))
        #expect(sent == [.querySubmitted("heat")])
        let empty = with { $0.focus = .field; $0.fieldText = ""; $0.showsSuggestions = true }
        #expect(press(.down, on: empty))
        #expect(sent == [.focusChanged(.suggestions)])
        // `q` and digits are text here, not commands.
        #expect(press(.char("q"), on: empty))
        #expect(sent == [.queryChanged("q")])
        // Out of the field, a character that no binding takes is not text.
        #expect(!press(.char("q"), on: Self.results))
        #expect(sent == [])
        // Esc (fzf's): the query is cleared and the field left, in one key.
        #expect(press(.escape, on: with { $0.focus = .field; $0.fieldText = "heat" }, after: field))
        #expect(sent == [.queryChanged(""), .focusChanged(.list)])
        #expect(press(.escape, on: empty))
        #expect(sent == [.queryChanged(""), .focusChanged(.list)])
    }

    @Test func testTheRecentStripChoosesOpensAndGoesBack() {
        start()
        let strip = with { $0.focus = .recent; $0.recent = ["Heat", "Ran", "Up"]; $0.recentSelection = 1 }
        let table: [(Key, [MovieListViewModel.Event])] = [
            (.left, [.recentSelected(0)]), (.char("h"), [.recentSelected(0)]),
            (.right, [.recentSelected(2)]), (.char("l"), [.recentSelected(2)]),
            (.enter, [.recentOpened(1)]),
            (.char("d"), [.recentDeleted(1)]),
            (.escape, [.focusChanged(.list)]), (.down, [.focusChanged(.list)]), (.char("j"), [.focusChanged(.list)]),
            (.char("/"), [.focusChanged(.field)]),
        ]
        for (key, expected) in table {
            #expect(press(key, on: strip), "\(key)")
            #expect(sent == expected, "\(key)")
        }
    }

    /// Recent searches that `d` takes off: the panel asks the store, and shows what the store then publishes.
    private final class Searches: MovieHistoryRepository {
        let saved = CurrentValueSubject<[String], Never>(["heat", "alien", "dune"])
        var forgotten: [String] = []
        func recentQueries(limit: Int) -> [String] { saved.value }
        func saveQuery(_ query: String) throws {}
        func recentlyViewed(limit: Int) -> [MovieSummary] { [] }
        func recordViewed(_ movie: MovieSummary) throws {}
        func forgetQuery(_ query: String) throws {
            forgotten.append(query)
            saved.send(saved.value.filter { $0 != query })
        }
        func forgetViewed(_ id: MovieID) throws {}
        var queries: AnyPublisher<[String], Never> { saved.eraseToAnyPublisher() }
        var viewed: AnyPublisher<[MovieSummary], Never> { Just([]).eraseToAnyPublisher() }
    }

    @Test func testDInTheRecentSearchesTakesTheHighlightedOneOffAndTheListFollowsTheStore() {
        let history = Searches()
        let search = SearchMoviesUseCase(movies: NoFilms(), history: history)
        let panel = MoviesQueriesListPanel(viewModel: MoviesQueriesListViewModel(search: search, l10n: L10n.bundled(.en),
                                                                                  scheduler: DispatchQueue.immediate.eraseToAnyScheduler()),
                                           onRoute: { _ in })
        queries = panel
        controls = MovieListControls(l10n: L10n.bundled(.en), queries: panel)
        let suggestions = with { $0.focus = .suggestions; $0.showsSuggestions = true }
        #expect(press(.down, on: suggestions))
        #expect(press(.char("d"), on: suggestions))
        #expect(history.forgotten == ["alien"])
        #expect(panel.state?.queries == ["heat", "dune"])
        // The highlight stays on its row: the next one down.
        #expect(panel.selection == 1)
        // With no suggestions shown, `d` is not bound here.
        #expect(!press(.char("d"), on: with { $0.focus = .suggestions; $0.showsSuggestions = false }))
        #expect(history.forgotten == ["alien"])
    }

    @Test func testAnOpenPickerTakesEveryKeyUntilItIsAnswered() {
        start()
        let open = with { $0.picker = Self.years }
        let table: [(Key, [MovieListViewModel.Event])] = [
            (.enter, [.filterChanged(MovieFilter(years: 1990...1999))]),
            (.escape, [.pickerClosed]),
            // The key that opened it closes it.
            (.char("p"), [.pickerClosed]),
            (.char("1"), [.pickerTyped("1")]),
            (.char("-"), [.pickerTyped("-")]),
            (.backspace, [.pickerErased]),
            (.up, [.pickerMoved(0)]),
            // Swallowed: `q`, a tab's digit in another picker, and the list's own keys do nothing here.
            (.char("q"), []),
            (.char("w"), []),
        ]
        for (key, expected) in table {
            #expect(press(key, on: open), "\(key)")
            #expect(sent == expected, "\(key)")
        }
        // No option selected: Enter closes it, the filter unchanged.
        let none = with {
            $0.picker = MoviePicker(kind: .sort, title: "Sort", prompt: nil, typed: false, options: [], selection: 0)
        }
        #expect(press(.enter, on: none))
        #expect(sent == [.pickerClosed])
    }

    @Test func testClicksFollowWhatTheLastFrameDrew() {
        start()
        let state = with { $0.recent = ["Heat"]; $0.chips = [MovieChip(kind: .years, text: "1990s")] }
        controls.follow(nil, state)
        controls.chipHits = [(.years, 1, 0..<7, 7..<8)]
        controls.recentHits = [(0, 2, 10..<14)]
        func click(_ x: Int, _ y: Int, count: Int = 1) -> Bool {
            sent = []
            return controls.handle(Pointer(.click(count: count), x: x, y: y - 1, screen: Point(x: x, y: y)), state)
        }
        #expect(click(3, 1))
        #expect(sent == [.pickerOpened(.years)])
        #expect(click(7, 1))
        #expect(sent == [.chipRemoved(.years)])
        #expect(click(12, 2))
        #expect(sent == [.recentOpened(0)])
        #expect(click(30, 1))
        #expect(sent == [.focusChanged(.field)], "the search line (the body's first row)")
        // The results, as the last frame drew them from row 4: a click selects, a second one opens.
        controls.list.drawnArea = Rect(x: 0, y: 4, width: 40, height: 3)
        #expect(click(5, 5))
        #expect(sent == [.selectionMoved(1)])
        #expect(click(5, 6, count: 2))
        #expect(sent == [.selectionMoved(2), .rowOpened(2)])
        #expect(!click(5, 20), "below the list")
        #expect(sent == [])
        // An open picker: a click outside closes it, a click on an option applies it, the wheel moves.
        let open = with { $0.picker = Self.years }
        controls.follow(state, open)
        controls.pickerList.drawnArea = Rect(x: 3, y: 5, width: 10, height: 2)
        sent = []
        #expect(controls.handle(Pointer(.click(count: 1), x: 30, y: 19, screen: Point(x: 30, y: 20)), open))
        #expect(sent == [.pickerClosed])
        sent = []
        #expect(controls.handle(Pointer(.click(count: 1), x: 4, y: 4, screen: Point(x: 4, y: 5)), open))
        #expect(sent == [.filterChanged(.none)])
        sent = []
        #expect(controls.handle(Pointer(.wheel(-1), x: 4, y: 4, screen: Point(x: 4, y: 5)), open))
        #expect(sent == [.pickerMoved(0)])
    }

    @Test func testTheRowsShownAreToldOnceAfterTheFrame() {
        start()
        controls.listRows = 12
        controls.frameShown()
        controls.frameShown()
        controls.listRows = 9
        controls.frameShown()
        #expect(sent == [.visibleRows(12), .visibleRows(9)])
    }
}

/// A catalogue with no films (with `NoMovieHistory`, the recent searches' panel stays empty).
private final class NoFilms: MovieRepository {
    let source = MovieSource.catalogue
    let filterSupport = MovieFilterSupport.all
    func search(query: String, page: Int, pageSize: Int, filter: MovieFilter) -> AnyPublisher<MoviesPage, MovieError> {
        Empty().eraseToAnyPublisher()
    }
    func details(_ id: MovieID) -> AnyPublisher<Movie, MovieError> { Empty().eraseToAnyPublisher() }
}

