import XCTest
import NimbusDomain
@testable import NimbusPresentation

/// `MovieListViewModel.reduce` as tables: a state and an action give a state and effects, with no
/// scheduler, no repository and no strings in a language.
final class MovieListReduceTests: XCTestCase {
    typealias VM = MovieListViewModel

    private func catalogue(offMain: Bool = false) -> VM.State {
        VM.State(instant: true, offMain: offMain, support: .all)
    }

    private func tmdb() -> VM.State {
        VM.State(instant: false, offMain: false, support: MovieFilterSupport(genre: false, yearRange: false, sort: false))
    }

    private func apply(_ state: VM.State, _ actions: VM.Action...) -> (VM.State, [VM.Effect]) {
        var s = state
        var effects: [VM.Effect] = []
        for action in actions { effects = VM.reduce(&s, action) }
        return (s, effects)
    }

    private func request(_ query: String, page: Int = 1, pageSize: Int = 20, filter: MovieFilter = .none, search: Int = 1) -> VM.Request {
        VM.Request(query: query, page: page, pageSize: pageSize, filter: filter, search: search)
    }

    /// "bat" searched and its first page in: `total` results, 20 a page.
    private func loaded(_ state: VM.State = VM.State(instant: true, offMain: false, support: .all), total: Int = 45) -> VM.State {
        apply(state, .typed("bat"), .page(search: 1, page: 1, .page("bat", 1, of: total)), .finished(search: 1, page: 1, nil)).0
    }

    // MARK: Searching

    func testWhatEachQueryAsks() {
        let cases: [(String, VM.State, VM.Action, [VM.Effect], VM.State.Phase)] = [
            ("catalogue, first query", catalogue(), .typed(""), [.stopFetching, .fetch(request(""))], .loading),
            ("TMDB, empty query: its hint, no request", tmdb(), .typed(""), [.stopFetching], .idle),
            ("TMDB, a query", tmdb(), .typed("heat"), [.stopFetching, .fetch(request("heat"))], .loading),
            ("the same query typed again", loaded(), .typed("bat"), [], .results),
            ("the shown query submitted: remembered, not searched", loaded(), .submitted("bat"), [.remember("bat", count: 45)], .results),
            ("a submitted query is normalised", catalogue(), .submitted("  bat   man "), [.stopFetching, .fetch(request("bat man"))], .loading),
        ]
        for (name, state, action, effects, phase) in cases {
            let (after, got) = apply(state, action)
            XCTAssertEqual(got, effects, name)
            XCTAssertEqual(after.phase, phase, name)
        }
    }

    func testACatalogueSearchOffTheMainThreadKeepsTheRowsUntilItAnswers() {
        let shown = loaded(catalogue(offMain: true))
        let (typing, effects) = apply(shown, .typed("batm"))
        XCTAssertEqual(effects, [.stopFetching, .fetch(request("batm", search: 2))])
        XCTAssertTrue(typing.holding)
        XCTAssertEqual(typing.movies.count, 20, "the previous rows stay")
        XCTAssertEqual(typing.phase, .results)
        let (answered, _) = apply(typing, .page(search: 2, page: 1, .page("batm", 1, of: 3)))
        XCTAssertFalse(answered.holding)
        XCTAssertEqual(answered.movies.count, 3)
        XCTAssertEqual(answered.selection, 0)
        // On the main thread (tests, TMDB) the list empties at once.
        XCTAssertEqual(apply(loaded(), .typed("batm")).0.phase, .loading)
    }

    func testAnotherFilterOnTheSameQueryKeepsTheSelectedFilmWhereItIsStillListed() {
        let shown = apply(loaded(catalogue(offMain: true)), .selected(5)).0
        let drama = MovieFilter(genre: "Drama")
        let (holding, _) = apply(shown, .filterChanged(drama))
        // Film 5 is listed third now; then, with another filter, not at all: the row at its place.
        let narrowed = MoviesPage(query: "bat", page: 1, totalPages: 1, totalResults: 8, movies: (3..<11).map { MovieSummary.film($0) })
        XCTAssertEqual(apply(holding, .page(search: 2, page: 1, narrowed)).0.selection, 2)
        let without = MoviesPage(query: "bat", page: 1, totalPages: 1, totalResults: 8, movies: (30..<38).map { MovieSummary.film($0) })
        XCTAssertEqual(apply(holding, .page(search: 2, page: 1, without)).0.selection, 5)
        // A new query starts at the top.
        let (typed, _) = apply(shown, .typed("batm"))
        XCTAssertEqual(apply(typed, .page(search: 2, page: 1, narrowed)).0.selection, 0)
    }

    func testAnAnswerToAnOlderSearchIsDropped() {
        let (s, _) = apply(catalogue(), .typed("b"), .typed("ba"))
        let (after, effects) = apply(s, .page(search: 1, page: 1, .page("b", 1, of: 45)))
        XCTAssertEqual(effects, [])
        XCTAssertEqual(after, s)
    }

    func testPagingAsksForTheNextPageNearTheEndOnlyOnce() {
        let s = loaded()
        let cases: [(String, Int, [VM.Effect])] = [
            ("far from the end", 15, []),
            ("within 3 rows of the end", 17, [.fetch(request("bat", page: 2))]),
        ]
        for (name, index, effects) in cases {
            let (after, got) = apply(s, .selected(index))
            XCTAssertEqual(got, effects, name)
            XCTAssertEqual(after.selection, index, name)
        }
        let (asked, _) = apply(s, .selected(18))
        XCTAssertEqual(apply(asked, .selected(19)).1, [], "page 2 is on its way")
        XCTAssertEqual(apply(loaded(total: 20), .selected(19)).1, [], "the last page")
        XCTAssertEqual(apply(s, .selected(99)).0.selection, 19, "kept within the rows")
    }

    func testAPageBelowTheOthersIsAppendedAndARepeatedFilmListedOnce() {
        let (s, _) = apply(loaded(), .selected(18))
        let page2 = MoviesPage(query: "bat", page: 2, totalPages: 3, totalResults: 45,
                               movies: [.film(19)] + (20..<39).map { MovieSummary.film($0) })
        let (after, _) = apply(s, .page(search: 1, page: 2, page2))
        XCTAssertEqual(after.movies.count, 39)
        XCTAssertEqual(after.listing, s.listing, "appended: the rows above are not made again")
        XCTAssertEqual(after.selection, 18)
    }

    func testAFreshFirstPageKeepsTheSelectedFilmSelected() {
        var s = apply(catalogue(), .typed("bat"), .page(search: 1, page: 1, .page("bat", 1, of: 3))).0
        s = apply(s, .selected(2)).0
        // The fresh page puts a new film first: film 2 is now the fourth row.
        let fresh = MoviesPage(query: "bat", page: 1, totalPages: 1, totalResults: 4, movies: [.film(9), .film(0), .film(1), .film(2)])
        let (after, _) = apply(s, .page(search: 1, page: 1, fresh))
        XCTAssertEqual(after.selection, 3)
        XCTAssertNotEqual(after.listing, s.listing)
    }

    func testFailuresOfTheFirstAndTheNextPageAndTheirRetries() {
        let first = apply(catalogue(), .typed("bat"), .finished(search: 1, page: 1, .offline)).0
        XCTAssertEqual(first.phase, .failed(.offline))
        let (retrying, effects) = apply(first, .retried)
        XCTAssertEqual(effects, [.fetch(request("bat"))])
        XCTAssertEqual(retrying.phase, .loading)

        let next = apply(loaded(), .selected(18), .finished(search: 1, page: 2, .rateLimited)).0
        XCTAssertEqual(next.moreError, .rateLimited)
        XCTAssertEqual(next.phase, .results)
        XCTAssertEqual(apply(next, .selected(19)).1, [], "no automatic retry")
        let (again, retried) = apply(next, .retried)
        XCTAssertEqual(retried, [.fetch(request("bat", page: 2))])
        XCTAssertNil(again.moreError)
        XCTAssertEqual(apply(loaded(), .retried).1, [], "nothing failed")
    }

    func testPagesLoadUntilTheyFillTheList() {
        let s = loaded(total: 500)
        XCTAssertEqual(apply(s, .visibleRows(45)).1, [.fetch(request("bat", page: 2))])
        XCTAssertEqual(apply(s, .visibleRows(10)).1, [], "20 rows fill 10 and leave some to scroll into")
        // A catalogue query asks for pages that fill the list in one search.
        let tall = apply(catalogue(), .visibleRows(45), .typed("the")).1
        XCTAssertEqual(tall, [.stopFetching, .fetch(request("the", pageSize: 60))])
    }

    func testASubmittedQueryIsRememberedOnceItsFirstPageHasFilms() {
        let (waiting, asked) = apply(catalogue(), .submitted("heat"))
        XCTAssertTrue(waiting.rememberWhenFound)
        XCTAssertEqual(asked, [.stopFetching, .fetch(request("heat"))])
        XCTAssertEqual(apply(waiting, .page(search: 1, page: 1, .page("heat", 1, of: 2))).1, [.remember("heat", count: 2)])
        XCTAssertEqual(apply(waiting, .page(search: 1, page: 1, .page("heat", 1, of: 0))).1, [], "nothing found: not kept")
        // A film opened from a typed query's results keeps the query.
        let (_, opened) = apply(loaded(), .opened(1))
        XCTAssertEqual(opened, [.remember("bat", count: 45), .open(.film(1))])
    }

    // MARK: Filters

    func testFiltersSearchAgainOnlyWhenTheyChangeWhatTheSourceApplies() {
        let drama = MovieFilter(genre: "Drama", years: 1990...1999, sort: .rating)
        let cases: [(String, VM.State, VM.Action, [VM.Effect], MovieFilter)] = [
            ("a new filter", loaded(), .filterChanged(drama), [.stopFetching, .fetch(request("bat", filter: drama, search: 2))], drama),
            ("the same filter", apply(loaded(), .filterChanged(drama)).0, .filterChanged(drama), [], drama),
            ("TMDB: one year, no genre or sort", apply(tmdb(), .typed("heat")).0,
             .filterChanged(MovieFilter(genre: "Drama", years: 1995...1995, sort: .year)),
             [.stopFetching, .fetch(request("heat", filter: MovieFilter(years: 1995...1995), search: 2))], MovieFilter(years: 1995...1995)),
            ("TMDB: a decade is not pretended", apply(tmdb(), .typed("heat")).0, .filterChanged(MovieFilter(years: 1990...1999)), [], .none),
            ("a chip's × drops that filter alone", apply(loaded(), .filterChanged(drama)).0, .chipRemoved(.years),
             [.stopFetching, .fetch(request("bat", filter: MovieFilter(genre: "Drama", sort: .rating), search: 3))],
             MovieFilter(genre: "Drama", sort: .rating)),
        ]
        for (name, state, action, effects, filter) in cases {
            let (after, got) = apply(state, action)
            XCTAssertEqual(got, effects, name)
            XCTAssertEqual(after.filter, filter, name)
        }
    }

    func testAnEmptyFilteredResultProbesWithoutEachFilterAndNamesTheBestToDrop() {
        let narrow = MovieFilter(genre: "Western", years: 1994...1994)
        let s = apply(catalogue(), .typed("pulp"), .filterChanged(narrow)).0
        let (empty, probes) = apply(s, .page(search: 2, page: 1, .page("pulp", 1, of: 0)))
        XCTAssertEqual(empty.phase, .empty)
        XCTAssertEqual(probes, [.probe(request("pulp", filter: MovieFilter(years: 1994...1994), search: 2), .genre),
                                .probe(request("pulp", filter: MovieFilter(genre: "Western"), search: 2), .years)])
        let one = apply(empty, .probed(search: 2, .genre, 2)).0
        XCTAssertNil(one.dropHint, "until both have answered")
        XCTAssertEqual(apply(one, .probed(search: 2, .years, 0)).0.dropHint, VM.State.Probe(kind: .genre, found: 2))
        XCTAssertNil(apply(one, .probed(search: 2, .years, 0), .typed("pulp f")).0.dropHint, "a new search forgets it")
        // Without a query, one narrowing filter says nothing more than "x removes the filters".
        let years = apply(catalogue(), .typed(""), .filterChanged(MovieFilter(years: 1994...1994))).0
        XCTAssertEqual(apply(years, .page(search: 2, page: 1, .page("", 1, of: 0))).1, [])
    }

    func testThePickers() {
        let s = loaded()
        let cases: [(String, VM.State, [VM.Action], VM.State.Picker?, VM.State.Message?)] = [
            ("g opens the genre picker", s, [.pickerOpened(.genre)], VM.State.Picker(kind: .genre), nil),
            ("TMDB: genre is the catalogue's", apply(tmdb(), .typed("heat")).0, [.pickerOpened(.genre)], nil, .catalogueOnly),
            ("TMDB: years open", apply(tmdb(), .typed("heat")).0, [.pickerOpened(.years)], VM.State.Picker(kind: .years), nil),
            ("years take digits and a dash", s, [.pickerOpened(.years), .pickerTyped("1"), .pickerTyped("9"), .pickerTyped("-")],
             VM.State.Picker(kind: .years, typed: "19-"), nil),
            ("and nothing else", s, [.pickerOpened(.years), .pickerTyped("x"), .pickerTyped("q")], VM.State.Picker(kind: .years), nil),
            ("nine at most", s, [.pickerOpened(.years)] + Array(repeating: VM.Action.pickerTyped("1"), count: 12),
             VM.State.Picker(kind: .years, typed: "111111111"), nil),
            ("the genre picker takes no typing", s, [.pickerOpened(.genre), .pickerTyped("1")], VM.State.Picker(kind: .genre), nil),
            ("Backspace erases; a move is kept", s, [.pickerOpened(.years), .pickerTyped("1"), .pickerErased, .pickerMoved(3)],
             VM.State.Picker(kind: .years, typed: "", selection: 3), nil),
            ("typing selects the typed range again", s, [.pickerOpened(.years), .pickerMoved(3), .pickerTyped("2")],
             VM.State.Picker(kind: .years, typed: "2"), nil),
            ("Esc closes", s, [.pickerOpened(.sort), .pickerClosed], nil, nil),
            ("a choice closes", s, [.pickerOpened(.sort), .filterChanged(MovieFilter(sort: .rating))], nil, nil),
        ]
        for (name, state, actions, picker, message) in cases {
            var after = state
            for action in actions { _ = VM.reduce(&after, action) }
            XCTAssertEqual(after.picker, picker, name)
            XCTAssertEqual(after.message, message, name)
        }
    }

    // MARK: Focus, the strip and messages

    func testWhereTheFocusGoes() {
        var withSuggestions = loaded()
        withSuggestions.hasSuggestions = true
        var recent = loaded()
        recent.recent = [.film(7)]
        let cases: [(String, VM.State, [VM.Action], MovieListState.Focus)] = [
            ("/ focuses the field", loaded(), [.focused(.field)], .field),
            ("↓ from an empty field: the suggestions", withSuggestions, [.focused(.field), .focused(.suggestions)], .suggestions),
            ("↓ without suggestions: the results", loaded(), [.focused(.field), .focused(.suggestions)], .list),
            ("↓ from a typed field: the results", withSuggestions, [.focused(.field), .edited("b"), .focused(.suggestions)], .list),
            // The last one deleted: the results, where z (which the status line offers) is a command, not text.
            ("suggestions gone: the results", withSuggestions, [.focused(.field), .focused(.suggestions), .suggestionsAvailable(false)], .list),
            ("typing from the suggestions: the field", withSuggestions, [.focused(.field), .focused(.suggestions), .edited("b")], .field),
            ("↑ to the strip", recent, [.focused(.recent)], .recent),
            ("no strip: stays", loaded(), [.focused(.recent)], .list),
            ("the strip emptied: the results", recent, [.focused(.recent), .viewed([])], .list),
            ("Enter in the field: the results", loaded(), [.focused(.field), .submitted("bat")], .list),
            ("a picked suggestion: the results", withSuggestions, [.focused(.suggestions), .suggestionPicked("heat")], .list),
        ]
        for (name, state, actions, focus) in cases {
            var after = state
            for action in actions { _ = VM.reduce(&after, action) }
            XCTAssertEqual(after.focus, focus, name)
        }
        let picked = apply(withSuggestions, .suggestionPicked("heat")).0
        XCTAssertEqual(picked.fieldText, "heat", "the pick fills the field")
        XCTAssertEqual(picked.query, "heat")
        XCTAssertTrue(picked.rememberWhenFound)
    }

    func testTheRecentlyViewedStrip() {
        var s = loaded()
        s = apply(s, .viewed([.film(7), .film(8), .film(9)])).0
        XCTAssertEqual(apply(s, .recentSelected(5)).0.recentSelection, 2)
        XCTAssertEqual(apply(s, .recentSelected(-1)).0.recentSelection, 0)
        let (opened, effects) = apply(s, .recentOpened(1))
        XCTAssertEqual(effects, [.open(.film(8))])
        XCTAssertEqual(opened.focus, .recent)
        XCTAssertEqual(apply(s, .recentOpened(3)).1, [])
        XCTAssertEqual(apply(apply(s, .recentSelected(2)).0, .viewed([.film(1)])).0.recentSelection, 0)
    }

    /// Enter in the field (fzf's): the query's only film opens; with more, or before the answer, the
    /// field is left for the results.
    func testEnterOnASingleResultOpensIt() {
        let one = loaded(total: 1)
        XCTAssertEqual(one.movies.count, 1)
        let (opened, effects) = apply(one, .submitted("bat"))
        XCTAssertEqual(effects.last, .open(one.movies[0]), "\(effects)")
        XCTAssertEqual(opened.focus, .list)
        XCTAssertEqual(opened.selection, 0)
        XCTAssertFalse(apply(loaded(total: 45), .submitted("bat")).1.contains { if case .open = $0 { true } else { false } },
                       "many results: Enter goes to them")
        XCTAssertFalse(apply(one, .submitted("batm")).1.contains { if case .open = $0 { true } else { false } },
                       "another query: it runs first")
        let loading = apply(VM.State(instant: true, offMain: false, support: .all), .typed("bat")).0
        XCTAssertFalse(apply(loading, .submitted("bat")).1.contains { if case .open = $0 { true } else { false } },
                       "no answer yet")
    }

    func testAMessageLastsUntilTheNextUserActionNotTheNextAnswer() {
        let s = apply(loaded(), .wishlistToggled(0)).0
        XCTAssertEqual(apply(s, .wishlistToggled(0)).1, [.toggleWishlist(.film(0))])
        let said = apply(s, .wishlistFailed(.storage)).0
        XCTAssertEqual(said.message, .wishlistFailed(.storage))
        let stores: [VM.Action] = [.wishlist([MovieID(source: .catalogue, value: 0)]), .viewed([.film(0)]), .visibleRows(30),
                                   .page(search: 1, page: 2, .page("bat", 2, of: 45)), .suggestionsAvailable(true)]
        for action in stores {
            XCTAssertNotNil(apply(said, action).0.message, "\(action)")
        }
        let user: [VM.Action] = [.selected(1), .focused(.field), .edited("x"), .retried, .pickerOpened(.years), .opened(0)]
        for action in user {
            XCTAssertNil(apply(said, action).0.message, "\(action)")
        }
        XCTAssertEqual(apply(s, .wishlistFailed(.duplicate(title: "Film 2"))).0.message, .wishlistFailed(.duplicate(title: "Film 2")))
        XCTAssertEqual(apply(s, .wishlistToggled(20)).1, [], "no such row")
    }
}
