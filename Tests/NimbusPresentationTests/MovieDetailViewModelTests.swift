import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

final class MovieDetailViewModelTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var repository: ScriptedMovieRepository!
    private var wishlist: InMemoryWishlist!
    private let events = PassthroughSubject<MovieDetailViewModel.Event, Never>()
    private var viewModel: MovieDetailViewModel!

    private let heat = Movie(
        id: MovieID(source: .catalogue, value: 1), title: "Heat", year: 1995, runtime: 170, genres: ["Crime", "Drama"],
        directors: ["Michael Mann"], writers: ["Michael Mann"], cast: ["Al Pacino", "Robert De Niro"],
        languages: ["English", "Spanish"], countries: ["United States"], rated: "R",
        ratings: MovieRatings(metacritic: 76, tomatometer: 88, criticAverage: 7.8, reviewCount: 1234))

    override func setUp() {
        scheduler = DispatchQueue.test
        repository = ScriptedMovieRepository()
        wishlist = InMemoryWishlist()
    }

    private func makeOutput(_ movie: MovieSummary, language: Language = .en) -> MovieDetailViewModel.Output {
        viewModel = MovieDetailViewModel(movie: movie, details: MovieDetailsUseCase(movies: repository, history: InMemoryMovieHistory()),
                                         wishlist: WishlistUseCase(repository: wishlist), l10n: .bundled(language),
                                         scheduler: scheduler.eraseToAnyScheduler())
        return viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
    }

    private func describe(_ s: MovieDetailState) -> String {
        let phase: String
        switch s.phase {
        case .loading(let text): phase = "loading(\(text))"
        case .loaded: phase = "loaded"
        case .error(let text): phase = "error(\(text))"
        }
        return "\(s.title) \(phase) \(s.fields.count + (s.cast == nil ? 0 : 1)) fields" + (s.inWishlist ? " ♥" : "") + (s.message.map { " said(\($0))" } ?? "")
    }

    func testLoadsEveryFieldAndTogglesTheWishlist() {
        repository.movieDetails[heat.id] = heat
        let output = makeOutput(heat.summary)
        let state = TestObserver(output.state)
        events.send(.appeared)
        scheduler.advance()
        events.send(.wishlistToggled)
        scheduler.advance()
        events.send(.wishlistToggled)
        scheduler.advance()
        // The mark follows the store; a saved change is said on the status line by the app, not here.
        XCTAssertEqual(state.values.map(describe), [
            "Heat loading(Loading…) 0 fields",
            "Heat loaded 13 fields",
            "Heat loaded 13 fields ♥",
            "Heat loaded 13 fields",
        ])
        let fields = state.values[1].fields
        XCTAssertEqual(fields.first, .init(label: "Year", value: "1995"))
        XCTAssertTrue(fields.contains(.init(label: "Runtime", value: "170 min")))
        XCTAssertEqual(state.values[1].cast, MovieDetailState.Cast(label: "Cast", names: ["Al Pacino", "Robert De Niro"],
                                                                   bestKnownFirst: true, expanded: false, unknown: "unknown"),
                       "the catalogue's cast is not in billing order, and says so; it comes after the facts, shortened")
        XCTAssertFalse(fields.contains { $0.label == "Cast" }, "the cast is not among the facts")
        XCTAssertTrue(fields.contains(.init(label: "Tomatometer", value: "88%")))
        XCTAssertTrue(fields.contains(.init(label: "Metacritic", value: "76/100")))
    }

    func testAFailureIsShownAndRetried() {
        let summary = MovieSummary.film(5)
        let state = TestObserver(makeOutput(summary, language: .ko).state)
        events.send(.appeared)
        scheduler.advance()
        repository.movieDetails[summary.id] = Movie(
            id: summary.id, title: "Film 5", year: nil, runtime: nil, genres: [], directors: [], writers: [], cast: [],
            languages: [], countries: [], rated: nil, ratings: MovieRatings())
        events.send(.retried)
        scheduler.advance()
        XCTAssertEqual(state.values.map(describe), [
            "Film 5 loading(불러오는 중…) 0 fields",
            "Film 5 error(영화를 불러오지 못했습니다: 영화를 찾을 수 없습니다) 0 fields",
            "Film 5 loading(불러오는 중…) 0 fields",
            "Film 5 loaded 13 fields",
        ])
        XCTAssertEqual(state.last?.fields.first, .init(label: "연도", value: "알 수 없음"))
        XCTAssertEqual(state.last?.cast?.names, [])
        XCTAssertEqual(state.last?.hasCast, false, "no cast: nothing for c to show")
    }

    func testCTogglesTheWholeCast() {
        repository.movieDetails[heat.id] = heat
        let state = TestObserver(makeOutput(heat.summary).state)
        events.send(.appeared)
        scheduler.advance()
        events.send(.castToggled)
        scheduler.advance()
        XCTAssertEqual(state.last?.cast?.expanded, true)
        events.send(.castToggled)
        scheduler.advance()
        XCTAssertEqual(state.last?.cast?.expanded, false)
    }
}
