import XCTest
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// `MovieDetailViewModel.reduce` as a table: loading once, the answer, a failure and its retry, the
/// wishlist mark as the store says it, `w` and its message until the next key, the scroll.
final class MovieDetailReduceTests: XCTestCase {
    typealias VM = MovieDetailViewModel

    static let summary = MovieSummary(id: MovieID(source: .catalogue, value: 1), title: "Heat", year: 1995,
                                      genres: ["Crime"], directors: ["Michael Mann"])
    static let heat = Movie(
        id: MovieID(source: .catalogue, value: 1), title: "Heat", year: 1995, runtime: 170, genres: ["Crime", "Drama"],
        directors: ["Michael Mann"], writers: ["Michael Mann"], cast: ["Al Pacino"], languages: ["English"],
        countries: ["United States"], rated: "R", ratings: MovieRatings(metacritic: 76, criticAverage: 7.8))
    static var refused: VM.Message { .failed(.duplicate(title: "Heat")) }

    private func state(_ phase: VM.State.Phase = .idle, movie: Movie? = nil, inWishlist: Bool = false, scroll: Int = 0,
                       message: VM.Message? = nil) -> VM.State {
        VM.State(summary: Self.summary, movie: movie, phase: phase, inWishlist: inWishlist, scroll: scroll, message: message)
    }

    func testLoadingAnsweringFailingAndRetrying() {
        let id = Self.summary.id
        let cases: [(String, VM.State, VM.Action, VM.State, [VM.Effect])] = [
            ("appearing loads", state(), .appeared, state(.loading), [.load(id)]),
            ("appearing again while loading does not ask twice", state(.loading), .appeared, state(.loading), []),
            ("appearing again once loaded keeps the details", state(.loaded, movie: Self.heat), .appeared,
             state(.loaded, movie: Self.heat), []),
            ("appearing after a failure asks again", state(.failed(.offline)), .appeared, state(.loading), [.load(id)]),
            ("retry after a failure", state(.failed(.timedOut)), .retried, state(.loading), [.load(id)]),
            ("retry before anything", state(), .retried, state(.loading), [.load(id)]),
            ("retry while loading", state(.loading), .retried, state(.loading), []),
            ("retry once loaded", state(.loaded, movie: Self.heat), .retried, state(.loaded, movie: Self.heat), []),
            ("the answer", state(.loading), .loaded(Self.heat), state(.loaded, movie: Self.heat), []),
            ("an answer after a failure still shows", state(.failed(.offline)), .loaded(Self.heat),
             state(.loaded, movie: Self.heat), []),
            ("the failure", state(.loading), .failed(.notFound), state(.failed(.notFound)), []),
            ("a failure after the details leaves them shown", state(.loaded, movie: Self.heat), .failed(.connectionLost),
             state(.loaded, movie: Self.heat), []),
            ("a second failure replaces the first", state(.failed(.offline)), .failed(.storage), state(.failed(.storage)), []),
        ]
        for (name, before, action, after, effects) in cases {
            var s = before
            XCTAssertEqual(VM.reduce(&s, action), effects, name)
            XCTAssertEqual(s, after, name)
        }
    }

    func testTheWishlistMarkFollowsTheStoreAndWTogglesTheFilmShown() {
        let cases: [(String, VM.State, VM.Action, VM.State, [VM.Effect])] = [
            ("the store holds it", state(.loading), .stored(true), state(.loading, inWishlist: true), []),
            ("the store lost it", state(.loading, inWishlist: true), .stored(false), state(.loading), []),
            ("the store again", state(inWishlist: true), .stored(true), state(inWishlist: true), []),
            // Before the details, the summary the list gave; after, the film's own.
            ("w before the details", state(.loading), .wishlistToggled, state(.loading), [.toggle(Self.summary)]),
            ("w after the details", state(.loaded, movie: Self.heat), .wishlistToggled, state(.loaded, movie: Self.heat),
             [.toggle(Self.heat.summary)]),
            ("w after a failure", state(.failed(.offline)), .wishlistToggled, state(.failed(.offline)), [.toggle(Self.summary)]),
            ("w does not change the mark: the store does", state(.loaded, movie: Self.heat, inWishlist: true), .wishlistToggled,
             state(.loaded, movie: Self.heat, inWishlist: true), [.toggle(Self.heat.summary)]),
            ("why w failed", state(.loaded), .saved(Self.refused), state(.loaded, message: Self.refused), []),
            ("a new failure replaces the old", state(.loaded, message: Self.refused), .saved(.failed(.storage)),
             state(.loaded, message: .failed(.storage)), []),
        ]
        for (name, before, action, after, effects) in cases {
            var s = before
            XCTAssertEqual(VM.reduce(&s, action), effects, name)
            XCTAssertEqual(s, after, name)
        }
    }

    func testScrolling() {
        let cases: [(String, VM.State, VM.Action, VM.State)] = [
            ("down", state(.loaded, movie: Self.heat), .scrolled(3), state(.loaded, movie: Self.heat, scroll: 3)),
            ("back to the top", state(.loaded, scroll: 3), .scrolled(0), state(.loaded)),
            ("never above the first line", state(.loaded, scroll: 3), .scrolled(-4), state(.loaded)),
            ("nor at Int.min", state(.loaded), .scrolled(Int.min), state(.loaded)),
        ]
        for (name, before, action, after) in cases {
            var s = before
            XCTAssertEqual(VM.reduce(&s, action), [], name)
            XCTAssertEqual(s, after, name)
        }
    }

    /// The message lasts until the next key (appearing, retrying, `w`, scrolling); what the store,
    /// the loader and the answer send are not keys and leave it.
    func testTheMessageLastsUntilTheNextKey() {
        let shown = state(.loaded, movie: Self.heat, message: Self.refused)
        for key: VM.Action in [.appeared, .retried, .wishlistToggled, .scrolled(1)] {
            var s = shown
            _ = VM.reduce(&s, key)
            XCTAssertNil(s.message, "\(key)")
        }
        for other: VM.Action in [.stored(true), .stored(false), .loaded(Self.heat), .failed(.offline)] {
            var s = shown
            _ = VM.reduce(&s, other)
            XCTAssertEqual(s.message, Self.refused, "\(other) is not a key")
        }
    }
}

/// Any sequence of keys and answers: at most one load asked while one is in flight or the details
/// are in, details once in stay in, and the scroll is never above the first line.
@Suite struct MovieDetailReducePropertyTests {
    static var actions: [MovieDetailViewModel.Action] { [
        .appeared, .retried, .wishlistToggled, .scrolled(-1), .scrolled(4), .stored(true), .stored(false),
        .loaded(MovieDetailReduceTests.heat), .failed(.offline), .failed(.notFound), .saved(MovieDetailReduceTests.refused),
    ] }

    @Test func loadsAreAskedOnlyWhenNothingIsInFlightOrIn() async {
        await propertyCheck(count: PropertyCount.scaled(default: 100), input: Gen.int().array(of: 1...40)) { seeds in
            var state = MovieDetailViewModel.State(summary: MovieDetailReduceTests.summary)
            for seed in seeds {
                let action = Self.actions[Int(UInt(bitPattern: seed) % UInt(Self.actions.count))]
                let before = state
                let effects = MovieDetailViewModel.reduce(&state, action)
                let loads = effects.filter { if case .load = $0 { true } else { false } }
                if before.phase == .loading || before.phase == .loaded { #expect(loads.isEmpty, "\(before) \(action)") }
                if !loads.isEmpty { #expect(state.phase == .loading) }
                if before.movie != nil { #expect(state.movie != nil && state.phase == .loaded, "\(before) \(action)") }
                #expect(state.scroll >= 0)
            }
        }
    }
}
