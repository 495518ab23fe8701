import XCTest
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// `LikedCitiesViewModel.reduce` as a table: a state and an action give a state and effects, with no
/// scheduler, no store and no map renderer.
final class LikedCitiesReduceTests: XCTestCase {
    typealias VM = LikedCitiesViewModel
    private let cities: [City] = [.seoul, .busan, .saoPaulo]
    private let room = MapSize(cols: 28, rows: 20)

    private func apply(_ state: VM.State, _ action: VM.Action) -> (VM.State, [VM.Effect]) {
        var s = state
        let effects = VM.reduce(&s, action)
        return (s, effects)
    }

    /// The tab shown and the store answered with `cities`.
    private func loaded(_ cities: [City]? = nil, selected: Int? = nil, room: MapSize? = nil) -> VM.State {
        var s = VM.State()
        s.started = true
        s.loaded = true
        s.cities = cities ?? self.cities
        s.selected = selected
        s.mapRoom = room
        if let room { s.mapWanted = want(s.cities, room) }
        return s
    }

    /// The map of every one of `cities` in `room`.
    private func want(_ cities: [City], _ room: MapSize) -> VM.MapWant? {
        MapOverview.request(for: cities, size: room).map(VM.MapWant.init)
    }

    private var everywhere: [Coordinate] { cities.map(\.coordinate) }

    func testTheFirstAppearanceFollowsTheStoreAndALaterOneAsksAgainOnlyAfterAFailure() {
        let (started, effects) = apply(VM.State(), .appeared)
        XCTAssertEqual(effects, [.observe])
        XCTAssertTrue(started.started)
        var failed = loaded()
        failed.rangeError = .offline
        var oneFailed = loaded()
        oneFailed.rangeProblems = [City.busan.coordinate: .badResponse]
        let cases: [(String, VM.State, [VM.Effect])] = [
            ("shown again, all well", loaded(), []),
            ("shown again after the ranges failed", failed, [.fetchRanges(everywhere)]),
            ("shown again after one city failed", oneFailed, [.fetchRanges(everywhere)]),
        ]
        for (name, state, expected) in cases {
            XCTAssertEqual(apply(state, .appeared).1, expected, name)
        }
    }

    func testRAsksForEveryCityAndClearsTheRemovalMessage() {
        var state = loaded()
        state.removeFailed = true
        let (after, effects) = apply(state, .refresh)
        XCTAssertEqual(effects, [.fetchRanges(everywhere)])
        XCTAssertFalse(after.removeFailed)
    }

    func testTheStoresContentsAskForEveryRangeAndTheSelectionStaysOnTheRowThatTakesARemovedOnesPlace() {
        let cases: [(String, VM.State, [City], Int?, [VM.Effect])] = [
            ("the first answer", { var s = VM.State(); s.started = true; return s }(), cities, nil, [.fetchRanges(everywhere)]),
            ("the selected city removed", loaded(selected: City.busan.id), [.seoul, .saoPaulo], City.saoPaulo.id,
             [.fetchRanges([City.seoul.coordinate, City.saoPaulo.coordinate])]),
            ("the last row removed", loaded(selected: City.saoPaulo.id), [.seoul, .busan], City.busan.id,
             [.fetchRanges([City.seoul.coordinate, City.busan.coordinate])]),
            ("another city removed", loaded(selected: City.saoPaulo.id), [.busan, .saoPaulo], City.saoPaulo.id,
             [.fetchRanges([City.busan.coordinate, City.saoPaulo.coordinate])]),
            ("every city removed: the request in flight stops", loaded(selected: City.busan.id), [], nil, [.fetchRanges([])]),
            ("with a map: the new first row's", loaded(selected: nil, room: room), [.busan], nil,
             [.fetchRanges([City.busan.coordinate]), .drawMap(want([.busan], room)!)]),
        ]
        for (name, state, contents, selected, expected) in cases {
            let (after, effects) = apply(state, .contents(contents))
            XCTAssertEqual(effects, expected, name)
            XCTAssertEqual(after.selected, selected, name)
            XCTAssertEqual(after.cities, contents, name)
            XCTAssertTrue(after.loaded, name)
        }
    }

    func testSelectingAndOpeningTakeOnlyRowsThatExistAndAskForNoMap() {
        var failed = loaded(room: room)
        failed.removeFailed = true
        let cases: [(String, VM.Action, Int?, [VM.Effect])] = [
            ("select a row", .selected(1), City.busan.id, []),
            ("select the row already shown", .selected(0), City.seoul.id, []),
            ("select past the end", .selected(3), nil, []),
            ("open a row", .opened(2), City.saoPaulo.id, [.open(.saoPaulo)]),
            ("open before the start", .opened(-1), nil, []),
            ("remove a row", .remove(1), nil, [.remove(cityID: City.busan.id)]),
            ("remove past the end", .remove(5), nil, []),
        ]
        for (name, action, selected, expected) in cases {
            let (after, effects) = apply(failed, action)
            XCTAssertEqual(effects, expected, name)
            XCTAssertEqual(after.selected, selected, name)
            XCTAssertFalse(after.removeFailed, "\(name): a new action clears the removal message")
        }
        XCTAssertEqual(apply(loaded(), .selected(1)).1, [], "without room there is no map to ask for")
    }

    /// The map's view follows the set of cities, not the selection nor the order: a key held down
    /// asks for no map; the same cities in another order neither; a city more or less, its new view.
    func testTheMapIsAskedForWhenTheCitiesChangeNeverForAMove() {
        var state = loaded(room: room)
        var effects: [VM.Effect]
        for row in [1, 2, 0, 2, 1] {
            (state, effects) = apply(state, .selected(row))
            XCTAssertEqual(effects, [], "move to \(row)")
        }
        XCTAssertEqual(state.selected, City.busan.id, "the selection itself moves with every key")
        (state, effects) = apply(state, .contents([.saoPaulo, .seoul, .busan]))
        XCTAssertEqual(effects, [.fetchRanges([City.saoPaulo.coordinate, City.seoul.coordinate, City.busan.coordinate])],
                       "the same cities in another order: the same view")
        (state, effects) = apply(state, .contents([.seoul, .busan]))
        XCTAssertEqual(effects, [.fetchRanges([City.seoul.coordinate, City.busan.coordinate]), .drawMap(want([.seoul, .busan], room)!)],
                       "São Paulo removed: the view of the two left")
        XCTAssertNotEqual(want([.seoul, .busan], room), want(cities, room))
    }

    func testAnswersKeepEachCitysRangeOrWhyNotAndAWholeFailureIsKeptApart() {
        var state = loaded()
        state.rangeError = .offline
        state.rangeProblems = [City.saoPaulo.coordinate: .badResponse]
        let range = DayRange(coordinate: City.seoul.coordinate, high: 28, low: 17, condition: .clear)
        let (after, effects) = apply(state, .ranges([City.seoul.coordinate: .success(range),
                                                     City.busan.coordinate: .failure(.rateLimited)]))
        XCTAssertEqual(effects, [])
        XCTAssertEqual(after.ranges, [City.seoul.coordinate: range])
        XCTAssertEqual(after.rangeProblems, [City.busan.coordinate: .rateLimited], "the last answer says what failed")
        XCTAssertNil(after.rangeError)
        XCTAssertEqual(apply(loaded(), .rangesFailed(.timedOut)).0.rangeError, .timedOut)
        XCTAssertTrue(apply(loaded(), .removeFailed).0.removeFailed)
    }

    func testTheMeasuredRoomAsksForTheMapOnceAndAMapDrawnForAnotherWantIsDropped() {
        let want = self.want(cities, room)!
        let (roomy, effects) = apply(loaded(), .mapRoom(room))
        XCTAssertEqual(effects, [.drawMap(want)])
        XCTAssertEqual(apply(roomy, .mapRoom(room)).1, [], "the same room again: nothing new")
        var drawn = roomy
        drawn.thumbnail = VM.Thumbnail(want: want, snapshot: nil)
        let (noRoom, none) = apply(drawn, .mapRoom(nil))
        XCTAssertEqual(none, [])
        XCTAssertNil(noRoom.mapWanted)
        XCTAssertNil(noRoom.thumbnail, "no room: no map")
        let stale = VM.Thumbnail(want: self.want([.busan], room)!, snapshot: nil)
        XCTAssertNil(apply(roomy, .mapDrawn(stale)).0.thumbnail, "a map of other cities (or another room) is dropped")
        XCTAssertEqual(apply(roomy, .mapDrawn(VM.Thumbnail(want: want, snapshot: nil))).0.thumbnail?.want, want)
        XCTAssertNil(apply(loaded([]), .mapRoom(room)).0.mapWanted, "no rows: no map")
    }

    func testTheSettingsAreAnAction() {
        let display = DisplayUnits.Value(system: .imperial, clock: .h12)
        XCTAssertEqual(apply(loaded(), .display(display)).0.display, display)
    }
}
