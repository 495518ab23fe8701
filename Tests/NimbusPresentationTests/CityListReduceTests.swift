import XCTest
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// `CityListViewModel.reduce` as a table: a state and an action give a state and effects, with no
/// scheduler, no clock and no catalogue.
final class CityListReduceTests: XCTestCase {
    typealias VM = CityListViewModel
    private let refs = (0..<5).map { CityRef(Int32($0)) }

    private func apply(_ state: VM.State, _ action: VM.Action) -> (VM.State, [VM.Effect]) {
        var s = state
        let effects = VM.reduce(&s, action)
        return (s, effects)
    }

    /// A list that searched `query` and found the first `count` refs.
    private func listed(_ query: String = "s", count: Int = 5, selection: Int = 0) -> VM.State {
        var s = VM.State()
        s.typed = query
        s.followingLikes = true
        s.matches = CityMatches(query: query, refs: Array(refs.prefix(count)))
        s.selection = selection
        return s
    }

    private func row(_ i: Int) -> VM.TemperatureRow {
        VM.TemperatureRow(ref: refs[i], cityID: 100 + i, coordinate: Coordinate(latitude: Double(i), longitude: 0))
    }

    func testTheFirstQueryFollowsTheLikesThenEachNewQuerySearchesAndARepeatDoesNothing() {
        let (first, effects) = apply(VM.State(), .typed(""))
        XCTAssertEqual(effects, [.followLikes, .search("")])
        XCTAssertEqual(first.typed, "")
        XCTAssertTrue(first.followingLikes)
        let cases: [(String, VM.State, String, [VM.Effect])] = [
            ("a new query", listed("s"), "se", [.search("se")]),
            ("the same query", listed("s"), "s", []),
            ("back to empty", listed("s"), "", [.search("")]),
        ]
        for (name, state, query, expected) in cases {
            let (after, got) = apply(state, .typed(query))
            XCTAssertEqual(got, expected, name)
            XCTAssertEqual(after.typed, query, name)
        }
    }

    func testANewQuerysMatchesSelectTheFirstRowAndTheSameQuerysKeepTheSelectionInsideTheRows() {
        let cases: [(String, VM.State, CityMatches, Int)] = [
            ("another query", listed("s", selection: 3), CityMatches(query: "se", refs: Array(refs.prefix(4))), 0),
            ("the same query again", listed("s", selection: 3), CityMatches(query: "s", refs: Array(refs.prefix(5))), 3),
            ("the same query, fewer rows", listed("s", selection: 3), CityMatches(query: "s", refs: Array(refs.prefix(2))), 1),
            ("no rows", listed("s", selection: 3), CityMatches(query: "s", refs: []), 0),
            ("the first answer", VM.State(), CityMatches(query: "", refs: refs), 0),
        ]
        for (name, state, matches, selection) in cases {
            let (after, effects) = apply(state, .searched(matches))
            XCTAssertEqual(effects, [], name)
            XCTAssertEqual(after.matches, matches, name)
            XCTAssertEqual(after.selection, selection, name)
        }
    }

    func testSelectingOpeningAndLikingTakeOnlyRowsThatExist() {
        let state = listed(count: 3, selection: 1)
        let cases: [(String, VM.Action, Int, [VM.Effect])] = [
            ("select a row", .selected(2), 2, []),
            ("select past the end", .selected(3), 1, []),
            ("select before the start", .selected(-1), 1, []),
            ("open a row", .opened(0), 0, [.open(refs[0])]),
            ("open past the end", .opened(7), 1, []),
            ("like a row", .likeToggled(2), 1, [.toggleLike(refs[2])]),
            ("like past the end", .likeToggled(3), 1, []),
        ]
        for (name, action, selection, expected) in cases {
            let (after, effects) = apply(state, action)
            XCTAssertEqual(effects, expected, name)
            XCTAssertEqual(after.selection, selection, name)
        }
        XCTAssertEqual(apply(VM.State(), .opened(0)).1, [], "before the first answer there are no rows")
        XCTAssertEqual(apply(VM.State(), .likeToggled(0)).1, [], "before the first answer there are no rows")
    }

    func testFocusIsState() {
        XCTAssertTrue(apply(listed(), .focused(true)).0.searching)
        var searching = listed()
        searching.searching = true
        XCTAssertFalse(apply(searching, .focused(false)).0.searching)
    }

    /// Enter in the field (fzf's): back to the list, and a query that found exactly one city opens it;
    /// the cities a query that found none may have meant are not a result.
    func testEnterInTheFieldOpensTheOnlyCityFound() {
        func searching(_ state: VM.State) -> VM.State { var s = state; s.searching = true; return s }
        var suggested = listed("pariss", count: 0)
        suggested.matches = CityMatches(query: "pariss", refs: []).suggesting([refs[2]])
        let cases: [(String, VM.State, [VM.Effect])] = [
            ("one city", searching(listed("busan", count: 1)), [.open(refs[0])]),
            ("two cities", searching(listed("s", count: 2, selection: 1)), []),
            ("none", searching(listed("zzz", count: 0)), []),
            ("one city only suggested", searching(suggested), []),
            ("before the first answer", searching(VM.State()), []),
        ]
        for (name, state, expected) in cases {
            let (after, effects) = apply(state, .submitted)
            XCTAssertEqual(effects, expected, name)
            XCTAssertFalse(after.searching, "\(name): Enter leaves the field")
            XCTAssertEqual(after.selection, expected.isEmpty ? state.selection : 0, name)
        }
    }

    /// `/` from a list that found nothing ends the hint that it searches again (for this run); `/`
    /// from a list with rows does not.
    func testSlashOnAnEmptyListEndsItsSearchAgainHint() {
        XCTAssertTrue(apply(listed("zzz", count: 0), .focused(true)).0.searchHintDone)
        XCTAssertFalse(apply(listed("s", count: 3), .focused(true)).0.searchHintDone)
        XCTAssertFalse(apply(listed("zzz", count: 0), .focused(false)).0.searchHintDone)
        var done = listed("s", count: 3)
        done.searchHintDone = true
        XCTAssertTrue(apply(done, .typed("zzz")).0.searchHintDone, "once done, for the run")
    }

    func testNewRowsOnScreenWaitToSettleTheSameRowsDoNothingAndRangesAreClampedToTheMatches() {
        let state = listed(count: 5)
        var showing = state
        showing.shown = [refs[1], refs[2]]
        let cases: [(String, VM.State, Range<Int>, [CityRef], [VM.Effect])] = [
            ("new rows", state, 0..<2, [refs[0], refs[1]], [.settle([refs[0], refs[1]], wait: true)]),
            ("the same rows", showing, 1..<3, [refs[1], refs[2]], []),
            ("past the end", state, 3..<9, [refs[3], refs[4]], [.settle([refs[3], refs[4]], wait: true)]),
            ("none left", showing, 5..<9, [], [.settle([], wait: true)]),
        ]
        for (name, state, range, shown, expected) in cases {
            let (after, effects) = apply(state, .visible(range))
            XCTAssertEqual(effects, expected, name)
            XCTAssertEqual(after.shown, shown, name)
        }
        XCTAssertEqual(apply(VM.State(), .visible(0..<3)).1, [], "no matches: nothing on screen, as before")
    }

    func testRAsksAtOnceForTheRowsOnScreenAndNothingWithoutRows() {
        var showing = listed()
        showing.shown = [refs[0], refs[1]]
        XCTAssertEqual(apply(showing, .retry).1, [.settle([refs[0], refs[1]], wait: false)])
        XCTAssertEqual(apply(listed(), .retry).1, [])
    }

    func testSettledRowsAskOnlyForTemperaturesNotKnown() {
        var known = listed()
        known.celsius = [100: 21]
        let cases: [(String, VM.State, [VM.TemperatureRow], [VM.Effect])] = [
            ("none known", listed(), [row(0), row(1)], [.fetchTemperatures([row(0), row(1)])]),
            ("one known", known, [row(0), row(1)], [.fetchTemperatures([row(1)])]),
            ("all known", known, [row(0)], []),
            ("a failed row is asked again", {
                var s = listed()
                s.failures = [100: VM.TemperatureFailure(ref: refs[0], error: .offline)]
                return s
            }(), [row(0)], [.fetchTemperatures([row(0)])]),
        ]
        for (name, state, rows, expected) in cases {
            XCTAssertEqual(apply(state, .settled(rows)).1, expected, name)
        }
    }

    func testAnswersKeepTemperaturesAndFailuresByCityAndASuccessClearsTheFailure() {
        var failed = listed()
        failed.failures = [100: VM.TemperatureFailure(ref: refs[0], error: .offline)]
        let (after, effects) = apply(failed, .temperatures([
            VM.TemperatureAnswer(ref: refs[0], cityID: 100, celsius: .success(21.5)),
            VM.TemperatureAnswer(ref: refs[1], cityID: 101, celsius: .failure(.rateLimited)),
        ]))
        XCTAssertEqual(effects, [])
        XCTAssertEqual(after.celsius, [100: 21.5])
        XCTAssertEqual(after.failures, [101: VM.TemperatureFailure(ref: refs[1], error: .rateLimited)])
    }

    func testPastTheLimitTheKnownTemperaturesAreForgottenBeforeTheNewOnesAreKept() {
        var full = listed()
        full.celsius = Dictionary(uniqueKeysWithValues: (0...VM.temperatureLimit).map { ($0 + 1000, 20.0) })
        let (after, _) = apply(full, .temperatures([VM.TemperatureAnswer(ref: refs[0], cityID: 100, celsius: .success(3))]))
        XCTAssertEqual(after.celsius, [100: 3])
    }

    func testTheLikesStoreTheClockAndTheSettingsAreActions() {
        var failed = listed()
        failed.likeFailed = true
        let (liked, none) = apply(failed, .liked([3, 1]))
        XCTAssertEqual(none, [])
        XCTAssertEqual(liked.liked, [1, 3])
        XCTAssertFalse(liked.likeFailed, "the store's next change clears the failure")
        XCTAssertTrue(apply(listed(), .likeFailed).0.likeFailed)
        let now = Date(timeIntervalSince1970: 1_782_000_000)
        XCTAssertEqual(apply(listed(), .tick(now)).0.now, now)
        let display = DisplayUnits.Value(system: .imperial, clock: .h12)
        XCTAssertEqual(apply(listed(), .display(display)).0.display, display)
    }
}
