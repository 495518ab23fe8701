import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

final class MovieListViewModelTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var repository: ScriptedMovieRepository!
    private var history: InMemoryMovieHistory!
    private var wishlist: InMemoryWishlist!
    private var events: PassthroughSubject<MovieListViewModel.Event, Never>!
    private var viewModel: MovieListViewModel!

    override func setUp() {
        scheduler = DispatchQueue.test
        repository = ScriptedMovieRepository()
        history = InMemoryMovieHistory()
        wishlist = InMemoryWishlist()
        events = PassthroughSubject()
    }

    /// `movies` replaces the scripted repository, e.g. with one that must not be called.
    private func makeOutput(_ language: Language = .en, movies: MovieRepository? = nil,
                            searchScheduler: AnySchedulerOf<DispatchQueue>? = nil,
                            catalogueYears: ClosedRange<Int>? = nil) -> MovieListViewModel.Output {
        let movies = movies ?? repository!
        viewModel = MovieListViewModel(
            search: SearchMoviesUseCase(movies: movies, history: history),
            details: MovieDetailsUseCase(movies: movies, history: history),
            wishlist: WishlistUseCase(repository: wishlist), l10n: L10n.bundled(language),
            source: .tmdb(language: "en-US"), catalogueYears: catalogueYears, scheduler: scheduler.eraseToAnyScheduler(),
            searchScheduler: searchScheduler)
        return viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
    }

    /// A compact picture of a state, so whole histories read at a glance.
    private func describe(_ s: MovieListState) -> String {
        var parts: [String] = []
        switch s.phase {
        case .idle(let text): parts.append("idle(\(text))")
        case .loading: parts.append("loading(\(s.query))")
        case .results: parts.append("results(\(s.query)) \(s.rows.count) rows [\(s.summary)]")
        case .empty(let text): parts.append("empty(\(text))")
        case .error(let text): parts.append("error(\(text))")
        }
        if s.loadingMore { parts.append("+spinner") }
        if let e = s.moreError { parts.append("+moreError(\(e))") }
        if !s.recent.isEmpty { parts.append("recent\(s.recent)") }
        return parts.joined(separator: " ")
    }

    /// A state's history as `describe` pictures it. The state now also carries what follows the user's
    /// moves (the field's text, the focus, the selection), so one pictured state can be emitted several
    /// times in a row (a keystroke in the field, a move of the selection): those repeats are one entry.
    private func history(_ state: TestObserver<MovieListState>) -> [String] {
        state.values.map(describe).reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }

    func testNothingIsEmittedOrSearchedBeforeTheFirstQuery() {
        let state = TestObserver(makeOutput().state)
        scheduler.advance(by: .seconds(1))
        XCTAssertTrue(state.values.isEmpty)
        XCTAssertEqual(repository.requests, [])
    }

    func testOpeningTheTabAsksTheRepositoryNothing() {
        let output = makeOutput(movies: MovieRepositoryDouble.failing())
        let state = TestObserver(output.state)
        let route = TestObserver(output.route)
        scheduler.advance(by: .seconds(1))
        state.assertValues([])
        route.assertValues([])
    }

    func testFirstPageAfterTheDebounceFromTMDB() {
        repository = ScriptedMovieRepository(source: .tmdb)
        let state = TestObserver(makeOutput().state)
        events.send(.queryChanged(""))
        events.send(.queryChanged("b"))
        events.send(.queryChanged("ba"))
        events.send(.queryChanged("bat"))
        scheduler.advance(by: .milliseconds(200))
        XCTAssertEqual(repository.requests, [], "typing within the debounce searches nothing")
        scheduler.advance(by: .milliseconds(50))
        XCTAssertEqual(repository.requests, [.init(query: "bat", page: 1)])
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 45)))
        scheduler.advance()
        XCTAssertEqual(history(state), [
            "idle(Press / and type to search TMDB)",
            "loading(bat)",
            "results(bat) 20 rows [Results: 45]",
        ])
        XCTAssertEqual(history.recentQueries(limit: 50), [], "a typed query is not a suggestion until it is submitted")
        XCTAssertEqual(state.last?.rows.first, MovieRow(id: MovieID(source: .catalogue, value: 0), title: "Film 0",
                                                        year: "2000", genres: "Drama", director: "Director 0", inWishlist: false))
    }

    func testTheCatalogueSearchesEveryKeystrokeAndDropsStaleAnswers() {
        let state = TestObserver(makeOutput().state)
        events.send(.queryChanged("b"))
        events.send(.queryChanged("ba"))
        XCTAssertEqual(repository.requests, [.init(query: "b", page: 1), .init(query: "ba", page: 1)], "no debounce")
        XCTAssertEqual(repository.cancelled, [.init(query: "b", page: 1)])
        repository.respond("b", page: 1, with: .success(.page("b", 1, of: 45)))
        repository.respond("ba", page: 1, with: .success(.page("ba", 1, of: 3)))
        scheduler.advance()
        XCTAssertEqual(history(state), ["loading(b)", "loading(ba)", "results(ba) 3 rows [Results: 3]"])
    }

    func testCatalogueSearchesOffTheMainQueueKeepTheRowsUntilTheAnswer() {
        let work = DispatchQueue.test
        let state = TestObserver(makeOutput(searchScheduler: work.eraseToAnyScheduler()).state)
        events.send(.queryChanged("b"))
        work.advance()
        repository.respond("b", page: 1, with: .success(.page("b", 1, of: 45)))
        scheduler.advance()
        events.send(.queryChanged("ba"))
        work.advance()
        events.send(.queryChanged("bat"))  // typed before "ba" answered: "ba" is cancelled, its late answer dropped
        work.advance()
        repository.respond("ba", page: 1, with: .success(.page("ba", 1, of: 5)))
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 2)))
        scheduler.advance()
        XCTAssertEqual(repository.cancelled, [.init(query: "ba", page: 1)])
        XCTAssertEqual(history(state), [
            "loading(b)", "results(b) 20 rows [Results: 45]", "results(bat) 2 rows [Results: 2]",
        ], "no blank loading frame between keystrokes")
    }

    func testTheCatalogueOpensOnTheMostPopularFilmsAndTMDBOnItsHint() {
        let state = TestObserver(makeOutput().state)
        events.send(.queryChanged(""))
        repository.respond("", page: 1, with: .success(.page("", 1, of: 17_472)))
        scheduler.advance()
        XCTAssertEqual(history(state), ["loading()", "results() 20 rows [Most popular of 17,472 films]"])
        repository = ScriptedMovieRepository(source: .tmdb)
        let tmdb = TestObserver(makeOutput().state)
        events.send(.queryChanged(""))
        scheduler.advance()
        XCTAssertEqual(history(tmdb), ["idle(Press / and type to search TMDB)"])
        XCTAssertEqual(repository.requests, [])
    }

    func testTwoPagesWhenTheSelectionNearsTheEndWithoutDuplicates() {
        let state = TestObserver(makeOutput().state)
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 45)))
        scheduler.advance()
        events.send(.selectionMoved(15))
        XCTAssertEqual(repository.requests.count, 1, "16 of 20 rows: not yet near the end")
        events.send(.selectionMoved(17))
        events.send(.selectionMoved(18))
        XCTAssertEqual(repository.requests, [.init(query: "bat", page: 1), .init(query: "bat", page: 2)],
                       "within 3 rows of the end the next page loads, once")
        // Page 2 repeats one film of page 1: it is shown once.
        let repeated = MoviesPage(query: "bat", page: 2, totalPages: 3, totalResults: 45,
                                  movies: [.film(19)] + (20..<39).map { MovieSummary.film($0) })
        repository.respond("bat", page: 2, with: .success(repeated))
        scheduler.advance()
        XCTAssertEqual(history(state), [
            "loading(bat)",
            "results(bat) 20 rows [Results: 45]",
            "results(bat) 20 rows [Results: 45] +spinner",
            "results(bat) 39 rows [Results: 45]",
        ])
        XCTAssertEqual(Set(state.last!.rows.map(\.id)).count, 39)
    }

    func testTheLastPageStopsPaging() {
        let state = TestObserver(makeOutput().state)
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 25)))
        scheduler.advance()
        events.send(.selectionMoved(19))
        repository.respond("bat", page: 2, with: .success(.page("bat", 2, of: 25)))
        scheduler.advance()
        events.send(.selectionMoved(24))
        events.send(.selectionMoved(23))
        XCTAssertEqual(repository.requests, [.init(query: "bat", page: 1), .init(query: "bat", page: 2)])
        XCTAssertEqual(history(state).last, "results(bat) 25 rows [Results: 25]")
        XCTAssertEqual(history(state).count, 4, "loading, page 1, spinner, page 2")
    }

    func testAnErrorIsShownAndRetried() {
        let state = TestObserver(makeOutput().state)
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .failure(.offline))
        scheduler.advance()
        events.send(.retried)
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 3)))
        scheduler.advance()
        XCTAssertEqual(history(state), [
            "loading(bat)",
            "error(Could not load films: no connection)",
            "loading(bat)",
            "results(bat) 3 rows [Results: 3]",
        ])
        XCTAssertEqual(history.recentQueries(limit: 50), ["bat"], "saved once it found something")
    }

    func testANextPageErrorKeepsTheRowsAndRetries() {
        let state = TestObserver(makeOutput().state)
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 45)))
        scheduler.advance()
        events.send(.selectionMoved(19))
        repository.respond("bat", page: 2, with: .failure(.rateLimited))
        scheduler.advance()
        events.send(.selectionMoved(19))
        XCTAssertEqual(repository.requests.count, 2, "no automatic retry after a failed page")
        events.send(.retried)
        repository.respond("bat", page: 2, with: .success(.page("bat", 2, of: 45)))
        scheduler.advance()
        XCTAssertEqual(history(state), [
            "loading(bat)",
            "results(bat) 20 rows [Results: 45]",
            "results(bat) 20 rows [Results: 45] +spinner",
            "results(bat) 20 rows [Results: 45] +moreError(Could not load films: too many requests, try again shortly)",
            "results(bat) 20 rows [Results: 45] +spinner",
            "results(bat) 40 rows [Results: 45]",
        ])
    }

    func testACachedPageIsReplacedByTheFreshOne() {
        let state = TestObserver(makeOutput().state)
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 3)), finish: false)
        scheduler.advance()
        events.send(.selectionMoved(2))
        XCTAssertEqual(repository.requests.count, 1, "no next page while the first is still loading")
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 4, first: 100)))
        scheduler.advance()
        XCTAssertEqual(history(state), [
            "loading(bat)",
            "results(bat) 3 rows [Results: 3]",
            "results(bat) 4 rows [Results: 4]",
        ])
        XCTAssertEqual(state.last?.rows.map(\.id.value), [100, 101, 102, 103], "the fresh page replaced the cached one")
        XCTAssertEqual(history.recentQueries(limit: 50), ["bat"])
    }

    func testANewQueryCancelsTheOld() {
        let state = TestObserver(makeOutput().state)
        events.send(.queryChanged("bat"))
        scheduler.advance(by: .milliseconds(250))
        events.send(.queryChanged("heat"))
        scheduler.advance(by: .milliseconds(250))
        XCTAssertEqual(repository.cancelled, [.init(query: "bat", page: 1)])
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 5)))
        repository.respond("heat", page: 1, with: .success(.page("heat", 1, of: 2)))
        scheduler.advance()
        XCTAssertEqual(history(state), [
            "loading(bat)",
            "loading(heat)",
            "results(heat) 2 rows [Results: 2]",
        ])
        XCTAssertEqual(repository.requests.count, 2)
        XCTAssertEqual(history.recentQueries(limit: 50), [], "typed queries are not saved")
    }

    func testAnEmptyResultSaysSoAndIsNotSaved() {
        let state = TestObserver(makeOutput().state)
        events.send(.querySubmitted("zzzz"))
        repository.respond("zzzz", page: 1, with: .success(.page("zzzz", 1, of: 0)))
        scheduler.advance()
        XCTAssertEqual(history(state), ["loading(zzzz)", "empty(No film matches “zzzz”)"])
        XCTAssertEqual(history.recentQueries(limit: 50), [])
    }

    /// 기생충 and 올드보이 are not found offline: the empty state says the catalogue's titles are English, which
    /// years it holds, and that TMDB (with a key) searches titles in the UI's language; TMDB's own says neither.
    func testAnEmptyCatalogueResultNamesItsYearsAndLanguage() {
        let expected: [(Language, String, String)] = [
            (.en, "parasitee", "No film matches “parasitee”\n\nThe offline catalogue has films from 1940 to 2014, by their "
                + "English titles\nWith TMDB_API_KEY set, TMDB searches titles in English"),
            (.ko, "기생충", "“기생충”에 맞는 영화가 없습니다\n\n오프라인 목록에는 1940년부터 2014년까지의 영화가 영어 제목으로 "
                + "있습니다\nTMDB_API_KEY를 설정하면 TMDB에서 한국어 제목으로 검색합니다"),
            (.ja, "オールド・ボーイ", "「オールド・ボーイ」に一致する映画はありません\n\nオフラインの目録には1940〜2014年の映画が英語の題名"
                + "で入っています\nTMDB_API_KEY を設定すると TMDB で日本語の題名を検索します"),
        ]
        for (language, text, message) in expected {
            let state = TestObserver(makeOutput(language, catalogueYears: 1940...2014).state)
            events.send(.querySubmitted(text))
            repository.respond(text, page: 1, with: .success(.page(text, 1, of: 0)))
            scheduler.advance()
            XCTAssertEqual(state.last?.phase, .empty(message), "\(language)")
        }
        repository = ScriptedMovieRepository(source: .tmdb)
        let tmdb = TestObserver(makeOutput(catalogueYears: 1940...2014).state)
        events.send(.querySubmitted("zzzz"))
        scheduler.advance(by: .seconds(1))
        repository.respond("zzzz", page: 1, with: .success(.page("zzzz", 1, of: 0)))
        scheduler.advance()
        XCTAssertEqual(tmdb.last?.phase, .empty("No film matches “zzzz”"), "TMDB searches every year and language")
    }

    /// (The recent searches shown under the emptied field are MoviesQueriesListViewModel's.)
    func testClearingTheFieldShowsTheIdleHintAtOnce() {
        repository = ScriptedMovieRepository(source: .tmdb)
        let state = TestObserver(makeOutput().state)
        try? history.saveQuery("heat")
        try? history.saveQuery("batman")
        events.send(.queryChanged("bat"))
        events.send(.queryChanged(""))
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(history(state), ["idle(Press / and type to search TMDB)"])
        XCTAssertEqual(repository.requests, [], "the pending search for \"bat\" was dropped")
    }

    func testAQueryClearedWithinTheTMDBDebounceNeverReachesTheRepository() {
        // (Repeats removed: the field's text is part of the state; see `history`.)
        let state = TestObserver(makeOutput(movies: MovieRepositoryDouble.failing(source: .tmdb)).state.map(describe).removeDuplicates())
        events.send(.queryChanged("bat"))
        events.send(.queryChanged(""))
        scheduler.advance(by: .seconds(1))
        state.assertValues(["idle(Press / and type to search TMDB)"])
    }

    func testOpeningARowRoutesAndFillsTheRecentStrip() {
        let output = makeOutput()
        let state = TestObserver(output.state)
        let route = TestObserver(output.route)
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 3)))
        scheduler.advance()
        events.send(.rowOpened(1))
        events.send(.rowOpened(7))  // out of range: ignored
        events.send(.recentOpened(0))
        route.assertValues([.showDetail(.film(1)), .showDetail(.film(1))])
        XCTAssertEqual(history(state), [
            "loading(bat)",
            "results(bat) 3 rows [Results: 3]",
            "results(bat) 3 rows [Results: 3] recent[\"Film 1\"]",
        ])
    }

    func testDeletingFromTheRecentStripFollowsTheStoreAndLeavesTheWishlist() {
        let output = makeOutput()
        let state = TestObserver(output.state)
        try? wishlist.add(.film(1))
        try? history.recordViewed(.film(2))
        try? history.recordViewed(.film(1))
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 3)))
        scheduler.advance()
        XCTAssertEqual(state.last?.recent, ["Film 1", "Film 2"])
        events.send(.recentDeleted(5))  // out of range: ignored
        events.send(.recentDeleted(0))
        scheduler.advance()
        XCTAssertEqual(state.last?.recent, ["Film 2"])
        XCTAssertEqual(history.recentlyViewed(limit: 10).map(\.title), ["Film 2"])
        XCTAssertEqual(wishlist.saved.map(\.movie.title), ["Film 1"])
        // What the store publishes next (an undo putting the film back) is what the strip shows.
        try? history.recordViewed(.film(1))
        scheduler.advance()
        XCTAssertEqual(state.last?.recent, ["Film 1", "Film 2"])
    }

    func testWishlistToggleMarksTheRowAndRefusesADuplicateFromAnotherSource() {
        let output = makeOutput()
        let state = TestObserver(output.state)
        try? wishlist.add(MovieSummary(id: MovieID(source: .tmdb, value: 272), title: "Film 2", year: 2002,
                                       genres: [], directors: []))
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 3)))
        scheduler.advance()
        events.send(.wishlistToggled(0))
        scheduler.advance()
        XCTAssertEqual(state.last?.rows.map(\.inWishlist), [true, false, false])
        events.send(.wishlistToggled(0))
        events.send(.wishlistToggled(2))
        scheduler.advance()
        // Only the refusal is said here: a change that is saved is said once, on the app's status line.
        let messages = state.values.map(\.message).reduce(into: [String?]()) { if $0.last != $1 { $0.append($1) } }
        XCTAssertEqual(messages, [nil, "“Film 2” is already in the wishlist"])
        XCTAssertEqual(state.last?.rows.map(\.inWishlist), [false, false, false])
    }

    // MARK: Bad page numbers

    func testAPageNumberedZeroIsKeptUnderThePageAskedFor() {
        let state = TestObserver(makeOutput().state)
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .success(MoviesPage(query: "bat", page: 0, totalPages: 0, totalResults: 0,
                                                                     movies: [])))
        scheduler.advance()
        events.send(.querySubmitted("heat"))
        repository.respond("heat", page: 1, with: .success(MoviesPage(query: "heat", page: -4, totalPages: -1, totalResults: -9,
                                                                      movies: [.film(1)])))
        scheduler.advance()
        events.send(.selectionMoved(0))
        XCTAssertEqual(history(state), [
            "loading(bat)",
            "empty(No film matches “bat”)",
            "loading(heat)",
            "results(heat) 1 rows [Results: 1]",
        ])
        XCTAssertEqual(repository.requests.map(\.page), [1, 1], "no next page of a page count below one")
    }

    func testASourceAnsweringAnotherPageThanAskedCannotMakeTheListAskForeverOrHang() {
        let state = TestObserver(makeOutput().state)
        events.send(.querySubmitted("bat"))
        repository.respond("bat", page: 1, with: .success(.page("bat", 1, of: 100)))
        scheduler.advance()
        events.send(.selectionMoved(18))
        // Asked for page 2, the source sends page 1 again.
        repository.respond("bat", page: 2, with: .success(.page("bat", 1, of: 100)))
        scheduler.advance()
        events.send(.selectionMoved(19))
        XCTAssertEqual(repository.requests.map(\.page), [1, 2, 3], "page 2 came (if wrong): the next asked for is 3")
        // Page 3 claims to be page Int.max.
        repository.respond("bat", page: 3, with: .success(.page("bat", 3, of: 100).renumbered(Int.max)))
        scheduler.advance()
        events.send(.selectionMoved(39))
        XCTAssertEqual(repository.requests.map(\.page), [1, 2, 3, 4])
        XCTAssertEqual(history(state), [
            "loading(bat)",
            "results(bat) 20 rows [Results: 100]",
            "results(bat) 20 rows [Results: 100] +spinner",
            "results(bat) 20 rows [Results: 100]",
            "results(bat) 20 rows [Results: 100] +spinner",
            "results(bat) 40 rows [Results: 100]",
            "results(bat) 40 rows [Results: 100] +spinner",
        ])
    }

    // MARK: Suggestions

    func testTypedPrefixesAreNotSavedOnlyTheSubmittedQuery() {
        let state = TestObserver(makeOutput().state)
        for prefix in ["bat", "batm", "batman"] {
            events.send(.queryChanged(prefix))
            scheduler.advance(by: .milliseconds(250))
            repository.respond(prefix, page: 1, with: .success(.page(prefix, 1, of: 3)))
            scheduler.advance()
        }
        XCTAssertEqual(history.recentQueries(limit: 50), [], "every prefix rested 250 ms and found films; none is a suggestion")
        events.send(.querySubmitted("batman"))  // Enter in the field: the query already shown is not searched again
        scheduler.advance()
        XCTAssertEqual(history.recentQueries(limit: 50), ["batman"])
        XCTAssertEqual(repository.requests.map(\.query), ["bat", "batm", "batman"])
        events.send(.queryChanged(""))
        scheduler.advance()
        XCTAssertEqual(history(state), [
            "loading(bat)", "results(bat) 3 rows [Results: 3]",
            "loading(batm)", "results(batm) 3 rows [Results: 3]",
            "loading(batman)", "results(batman) 3 rows [Results: 3]",
            // (Saving "batman" no longer makes a state here: the recent searches are MoviesQueriesListViewModel's.)
            "loading()",  // the emptied field lists the most popular films
        ])
    }

    func testEnterWhileTheTypedQueryLoadsSavesItWhenItFindsFilms() {
        let state = TestObserver(makeOutput().state)
        events.send(.queryChanged("heat"))
        scheduler.advance(by: .milliseconds(250))
        events.send(.querySubmitted("heat"))
        XCTAssertEqual(history.recentQueries(limit: 50), [])
        repository.respond("heat", page: 1, with: .success(.page("heat", 1, of: 2)), finish: false)
        scheduler.advance()
        repository.respond("heat", page: 1, with: .success(.page("heat", 1, of: 2)))  // the fresh page after the cached one
        scheduler.advance()
        XCTAssertEqual(history.recentQueries(limit: 50), ["heat"])
        XCTAssertEqual(repository.requests.count, 1)
        XCTAssertEqual(history(state), ["loading(heat)", "results(heat) 2 rows [Results: 2]"])
    }

    func testASubmittedQueryThatFailsOrFindsNothingIsNotSaved() {
        // Held for the whole test: the view model runs while its state is subscribed.
        let state = TestObserver(makeOutput().state)
        defer { withExtendedLifetime(state) {} }
        events.send(.querySubmitted("heat"))
        repository.respond("heat", page: 1, with: .failure(.offline))
        scheduler.advance()
        events.send(.querySubmitted("heat"))  // Enter again on the error: still nothing found
        events.send(.querySubmitted("zzzz"))
        repository.respond("zzzz", page: 1, with: .success(.page("zzzz", 1, of: 0)))
        scheduler.advance()
        events.send(.querySubmitted("zzzz"))
        scheduler.advance()
        XCTAssertEqual(history.recentQueries(limit: 50), [])
    }

    func testOpeningAFilmFromATypedQuerySavesTheQuery() {
        let output = makeOutput()
        let state = TestObserver(output.state)
        let route = TestObserver(output.route)
        events.send(.queryChanged("heat"))
        scheduler.advance(by: .milliseconds(250))
        repository.respond("heat", page: 1, with: .success(.page("heat", 1, of: 2)))
        scheduler.advance()
        XCTAssertEqual(history.recentQueries(limit: 50), [])
        events.send(.rowOpened(1))
        XCTAssertEqual(route.values, [.showDetail(.film(1))])
        XCTAssertEqual(history.recentQueries(limit: 50), ["heat"])
        XCTAssertEqual(history(state).last, "results(heat) 2 rows [Results: 2] recent[\"Film 1\"]")
    }

    // MARK: Filters and screen-sized pages

    func testAFilterSearchesAgainAtOnceAndShowsAsChipsInEachLanguage() {
        let state = TestObserver(makeOutput(.ko).state)
        events.send(.queryChanged("heat"))
        repository.respond("heat", page: 1, with: .success(.page("heat", 1, of: 30)))
        scheduler.advance()
        let drama = MovieFilter(genre: "Drama", years: 1990...1999, sort: .rating)
        events.send(.filterChanged(drama))
        XCTAssertEqual(repository.requests.last, .init(query: "heat", page: 1, filter: drama))
        repository.respond("heat", page: 1, filter: drama, with: .success(.page("heat", 1, of: 4)))
        scheduler.advance()
        XCTAssertEqual(state.last?.filter, drama)
        XCTAssertEqual(state.last?.chips.map(\.text), ["드라마", "1990년대", "정렬: 평점순"])
        XCTAssertEqual(state.last?.rows.count, 4)
        // Typing keeps the filter.
        events.send(.queryChanged("heat w"))
        XCTAssertEqual(repository.requests.last, .init(query: "heat w", page: 1, filter: drama))
        // The same filter again searches nothing.
        let count = repository.requests.count
        events.send(.filterChanged(drama))
        XCTAssertEqual(repository.requests.count, count)
    }

    func testTMDBGetsOnlyOneYearAndNeverAGenreOrSort() {
        repository = ScriptedMovieRepository(source: .tmdb)
        let state = TestObserver(makeOutput().state)
        events.send(.querySubmitted("heat"))
        events.send(.filterChanged(MovieFilter(genre: "Drama", years: 1995...1995, sort: .year)))
        XCTAssertEqual(repository.requests.last, .init(query: "heat", page: 1, filter: MovieFilter(years: 1995...1995)))
        events.send(.filterChanged(MovieFilter(genre: "Drama", years: 1990...1999, sort: .rating)))
        XCTAssertEqual(repository.requests.last, .init(query: "heat", page: 1, filter: .none), "a decade is not pretended")
        repository.respond("heat", page: 1, with: .success(.page("heat", 1, of: 3)))
        scheduler.advance()
        XCTAssertEqual(state.last?.chips, [])
    }

    func testAnEmptyFilteredResultSaysWhichFilterToDrop() {
        let state = TestObserver(makeOutput().state)
        events.send(.queryChanged("pulp"))
        let narrow = MovieFilter(genre: "Western", years: 1994...1994)
        events.send(.filterChanged(narrow))
        repository.respond("pulp", page: 1, filter: narrow, with: .success(.page("pulp", 1, of: 0)))
        scheduler.advance()
        guard case .empty(let before)? = state.last?.phase else { return XCTFail("\(String(describing: state.last))") }
        XCTAssertEqual(before, "No film matches “pulp” with Western · 1994\nx removes the filters; g, p, s change them")
        repository.respond("pulp", page: 1, filter: MovieFilter(years: 1994...1994), with: .success(.page("pulp", 1, of: 2)))
        repository.respond("pulp", page: 1, filter: MovieFilter(genre: "Western"), with: .success(.page("pulp", 1, of: 0)))
        scheduler.advance()
        guard case .empty(let after)? = state.last?.phase else { return XCTFail("\(String(describing: state.last))") }
        XCTAssertEqual(after, "No film matches “pulp” with Western · 1994\n"
                       + "Without Western, 2 found (g changes the genre, x removes the filters)")
    }

    func testPagesLoadUntilTheyFillTheListAndBeforeTheSelectionReachesTheEnd() {
        let state = TestObserver(makeOutput().state)
        events.send(.queryChanged("the"))
        events.send(.visibleRows(45))
        repository.respond("the", page: 1, with: .success(.page("the", 1, of: 500)))
        scheduler.advance()
        XCTAssertEqual(repository.requests.last, .init(query: "the", page: 2), "20 rows do not fill 45")
        repository.respond("the", page: 2, with: .success(.page("the", 2, of: 500)))
        scheduler.advance()
        repository.respond("the", page: 3, with: .success(.page("the", 3, of: 500)))
        scheduler.advance()
        XCTAssertEqual(state.last?.rows.count, 60)
        XCTAssertEqual(repository.requests.count, 3, "60 rows fill 45 and leave some to scroll into")
        // Half a screen before the end, the next page is asked for.
        events.send(.selectionMoved(36))
        XCTAssertEqual(repository.requests.count, 3)
        events.send(.selectionMoved(38))
        XCTAssertEqual(repository.requests.last, .init(query: "the", page: 4))
        // A taller screen asks for more at once.
        repository.respond("the", page: 4, with: .success(.page("the", 4, of: 500)))
        scheduler.advance()
        events.send(.visibleRows(90))
        XCTAssertEqual(repository.requests.last, .init(query: "the", page: 5))
    }
}

private extension MoviesPage {
    /// The same films under another page number.
    func renumbered(_ number: Int) -> MoviesPage {
        MoviesPage(query: query, page: number, totalPages: totalPages, totalResults: totalResults, movies: movies)
    }
}
