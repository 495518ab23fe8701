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
        if let room, let city = s.cities.first(where: { $0.id == selected }) ?? s.cities.first {
            s.mapWanted = VM.MapWant(city: city, size: room)
        }
        return s
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
             [.fetchRanges([City.busan.coordinate]), .drawMap(VM.MapWant(city: .busan, size: room))]),
        ]
        for (name, state, contents, selected, expected) in cases {
            let (after, effects) = apply(state, .contents(contents))
            XCTAssertEqual(effects, expected, name)
            XCTAssertEqual(after.selected, selected, name)
            XCTAssertEqual(after.cities, contents, name)
            XCTAssertTrue(after.loaded, name)
        }
    }

    func testSelectingAndOpeningTakeOnlyRowsThatExistAndTheSelectedRowsMapIsAskedFor() {
        var failed = loaded(room: room)
        failed.removeFailed = true
        let cases: [(String, VM.Action, Int?, [VM.Effect])] = [
            ("select a row", .selected(1), City.busan.id, [.drawMap(VM.MapWant(city: .busan, size: room)), .awaitMapRest]),
            ("select the row already shown", .selected(0), City.seoul.id, [.awaitMapRest]),
            ("select past the end", .selected(3), nil, []),
            ("open a row", .opened(2), City.saoPaulo.id,
             [.open(.saoPaulo), .drawMap(VM.MapWant(city: .saoPaulo, size: room))]),
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
        XCTAssertEqual(apply(loaded(), .selected(1)).1, [.awaitMapRest], "without room there is no map to ask for")
    }

    /// A key held down: the first move's map at once, the next moves' none until the selection rests,
    /// then the map of where it rests (one map, not one per key).
    func testMovesThatComeQuicklyGetTheirMapWhenTheSelectionRests() {
        var state = loaded(room: room)
        var effects: [VM.Effect]
        (state, effects) = apply(state, .selected(1))
        XCTAssertEqual(effects, [.drawMap(VM.MapWant(city: .busan, size: room)), .awaitMapRest], "after a rest: at once")
        (state, effects) = apply(state, .selected(2))
        XCTAssertEqual(effects, [.awaitMapRest], "a quick second move waits")
        (state, effects) = apply(state, .selected(0))
        XCTAssertEqual(effects, [.awaitMapRest], "and a third")
        XCTAssertEqual(state.selected, City.seoul.id, "the selection itself moves with every key")
        (state, effects) = apply(state, .mapRested)
        XCTAssertEqual(effects, [.drawMap(VM.MapWant(city: .seoul, size: room))], "the map of where it rests")
        XCTAssertTrue(state.mapRests)
        (state, effects) = apply(state, .mapRested)
        XCTAssertEqual(effects, [], "resting again asks for nothing new")
        (_, effects) = apply(state, .selected(2))
        XCTAssertEqual(effects, [.drawMap(VM.MapWant(city: .saoPaulo, size: room)), .awaitMapRest], "after the rest: at once again")
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
        let want = VM.MapWant(city: .seoul, size: room)
        let (roomy, effects) = apply(loaded(), .mapRoom(room))
        XCTAssertEqual(effects, [.drawMap(want)])
        XCTAssertEqual(apply(roomy, .mapRoom(room)).1, [], "the same room again: nothing new")
        var drawn = roomy
        drawn.thumbnail = VM.Thumbnail(want: want, snapshot: nil)
        let (noRoom, none) = apply(drawn, .mapRoom(nil))
        XCTAssertEqual(none, [])
        XCTAssertNil(noRoom.mapWanted)
        XCTAssertNil(noRoom.thumbnail, "no room: no map")
        let stale = VM.Thumbnail(want: VM.MapWant(city: .busan, size: room), snapshot: nil)
        XCTAssertNil(apply(roomy, .mapDrawn(stale)).0.thumbnail, "a map for a row no longer selected is dropped")
        XCTAssertEqual(apply(roomy, .mapDrawn(VM.Thumbnail(want: want, snapshot: nil))).0.thumbnail?.want, want)
        XCTAssertNil(apply(loaded([]), .mapRoom(room)).0.mapWanted, "no rows: no map")
    }

    func testTheSettingsAreAnAction() {
        let display = DisplayUnits.Value(system: .imperial, clock: .h12)
        XCTAssertEqual(apply(loaded(), .display(display)).0.display, display)
    }
}
