import XCTest
import NimbusDomain
@testable import NimbusPresentation

/// `QuakeListViewModel.reduce` as a table: a state and an action give a state and effects, with no
/// scheduler and no clock.
final class QuakeListReduceTests: XCTestCase {
    typealias VM = QuakeListViewModel
    private let t0 = Date(timeIntervalSince1970: 1_782_000_000)
    private let day = QuakeFeed(magnitude: .twoAndAHalf, period: .day)

    private func quake(_ id: String, lat: Double) -> Quake {
        Quake(id: id, magnitude: 3, place: "", time: t0, updated: t0, timeZoneOffsetMinutes: nil,
              coordinate: Coordinate(latitude: lat, longitude: 0), depthKilometres: 10, url: nil, felt: nil, alert: nil,
              tsunami: false, significance: nil, magnitudeType: nil, kind: nil, reviewed: true)
    }

    private func loaded(_ quakes: [Quake], checkedAt: Date) -> VM.State {
        var s = VM.State(feed: day, now: t0)
        s.update = QuakeFeedUpdate(snapshot: QuakeFeedSnapshot(quakes: quakes, dropped: 0, generated: nil), origin: .fresh,
                                   checkedAt: checkedAt)
        s.requestedAt = checkedAt
        return s
    }

    private func apply(_ state: VM.State, _ action: VM.Action) -> (VM.State, [VM.Effect]) {
        var s = state
        let effects = VM.reduce(&s, action)
        return (s, effects)
    }

    /// "Near my places" is a round distance in the units shown, and the filter is that distance:
    /// 500 km, or 300 mi (482.8 km), never "within 311 mi" for 500 km.
    func testNearMyPlacesIsARoundDistanceInTheUnitsShown() {
        // One degree of latitude is 111.2 km: events 4.4° (489 km) and 4.2° (467 km) from the place.
        var state = loaded([quake("far", lat: 4.4), quake("close", lat: 4.2)], checkedAt: t0)
        state.places = [Coordinate(latitude: 0, longitude: 0)]
        state.near = true
        XCTAssertEqual(VM.shownQuakes(state).map(\.id), ["far", "close"], "metric: within 500 km")
        state = apply(state, .display(.init(system: .imperial))).0
        XCTAssertEqual(VM.shownQuakes(state).map(\.id), ["close"], "imperial: within 300 mi (482.8 km)")
        XCTAssertEqual(QuakeFormatter.nearRadiusKilometres(.imperial) / 1.609344, 300, accuracy: 1e-9)
        XCTAssertEqual(QuakeFormatter.nearRadiusKilometres(.metric), 500)
    }

    func testAppearingFetchesUnlessTheFeedWasCheckedWithinTheMinute() {
        let fresh = loaded([], checkedAt: t0.addingTimeInterval(-30))
        let stale = loaded([], checkedAt: t0.addingTimeInterval(-90))
        let cases: [(VM.State, [VM.Effect], Bool)] = [
            (VM.State(feed: day, now: t0), [.fetch(day)], true),
            (fresh, [], false),
            (stale, [.fetch(day)], true),
        ]
        for (i, (state, effects, loading)) in cases.enumerated() {
            let (after, got) = apply(state, .appeared(t0))
            XCTAssertEqual(got, effects, "case \(i)")
            XCTAssertEqual(after.loading, loading, "case \(i)")
            XCTAssertTrue(after.shown, "case \(i)")
        }
    }

    func testATickRefreshesOnlyWhileShownIdleNotStoppedAndAMinuteAfterTheLastRequest() {
        var shown = loaded([], checkedAt: t0)
        shown.shown = true
        var hidden = shown
        hidden.shown = false
        var stopped = shown
        stopped.stopped = true
        var busy = shown
        busy.loading = true
        let minute = t0.addingTimeInterval(VM.refreshInterval)
        let cases: [(String, VM.State, Date, [VM.Effect])] = [
            ("shown, a minute on", shown, minute, [.fetch(day)]),
            ("shown, too soon", shown, t0.addingTimeInterval(59), []),
            ("another tab", hidden, minute, []),
            ("stopped by Esc", stopped, minute, []),
            ("a request in flight", busy, minute, []),
        ]
        for (name, state, at, effects) in cases {
            XCTAssertEqual(apply(state, .tick(at)).1, effects, name)
        }
    }

    func testEscStopsOnlyARequestInFlight() {
        var busy = loaded([], checkedAt: t0)
        busy.loading = true
        let (stopped, effects) = apply(busy, .stop)
        XCTAssertEqual(effects, [.stopFetching])
        XCTAssertEqual([stopped.loading, stopped.stopped], [false, true])
        XCTAssertEqual(apply(loaded([], checkedAt: t0), .stop).1, [])
    }

    func testAChangeOfFilterDropsTheOldFeedAndAnswersForAnotherFeedAreIgnored() {
        let (switched, effects) = apply(loaded([quake("a", lat: 0)], checkedAt: t0), .magnitudeCycled(t0))
        let next = QuakeFeed(magnitude: .fourAndAHalf, period: .day)
        XCTAssertEqual(effects, [.fetch(next)])
        XCTAssertNil(switched.update)
        let late = QuakeFeedUpdate(snapshot: QuakeFeedSnapshot(quakes: [quake("old", lat: 0)], dropped: 0, generated: nil),
                                   origin: .fresh, checkedAt: t0)
        XCTAssertEqual(apply(switched, .answered(day, late)).0, switched)
        XCTAssertEqual(apply(switched, .finished(day, .offline)).0, switched)
    }

    func testAKeptCopyLeavesTheRequestLoadingAndTheFreshAnswerEndsIt() {
        var s = VM.State(feed: day, now: t0)
        _ = VM.reduce(&s, .refresh(t0))
        let kept = QuakeFeedUpdate(snapshot: QuakeFeedSnapshot(quakes: [], dropped: 0, generated: nil), origin: .cache, checkedAt: t0)
        _ = VM.reduce(&s, .answered(day, kept))
        XCTAssertTrue(s.loading)
        _ = VM.reduce(&s, .finished(day, .offline))
        XCTAssertEqual(s.error, .offline)
        XCTAssertFalse(s.loading)
    }

    func testSelectingAndOpeningFollowTheListsOrderNearestFirst() {
        var s = loaded([quake("far", lat: 40), quake("near", lat: 1)], checkedAt: t0)
        s.places = [Coordinate(latitude: 0, longitude: 0)]
        s.byDistance = true
        let (selected, none) = apply(s, .selected(0))
        XCTAssertEqual(selected.selected, "near")
        XCTAssertEqual(none, [])
        XCTAssertEqual(apply(s, .opened(1)).1, [.open(quake("far", lat: 40))])
        XCTAssertEqual(apply(s, .opened(2)).1, [], "no such row")
    }

    /// `f` likes the selected event's nearest city (the first row when none is selected); a like that
    /// could not be saved is told until the next key (one that is saved is said by the app's status line).
    func testLikingTheSelectedEventsCityAndAFailureUntilTheNextKey() {
        let a = quake("a", lat: 1), b = quake("b", lat: 2)
        var state = loaded([a, b], checkedAt: t0)
        XCTAssertEqual(apply(state, .likeToggled).1, [.toggleLike(a)], "nothing selected: the first row")
        state.selected = "b"
        XCTAssertEqual(apply(state, .likeToggled).1, [.toggleLike(b)])
        XCTAssertEqual(apply(loaded([], checkedAt: t0), .likeToggled).1, [], "no events: nothing to like")
        let (failed, none) = apply(state, .likeFailed)
        XCTAssertTrue(failed.likeFailed)
        XCTAssertEqual(none, [])
        let keys: [VM.Action] = [.selected(0), .opened(0), .refresh(t0), .stop, .magnitudeCycled(t0), .periodCycled(t0),
                                 .nearToggled, .sortToggled, .likeToggled]
        for key in keys { XCTAssertFalse(apply(failed, key).0.likeFailed, "\(key)") }
        for other: VM.Action in [.tick(t0), .places([]), .display(.init(system: .metric)), .finished(day, nil)] {
            XCTAssertTrue(apply(failed, other).0.likeFailed, "\(other) is not a key")
        }
    }
}

/// `QuakeDetailViewModel.reduce` as a table.
final class QuakeDetailReduceTests: XCTestCase {
    typealias VM = QuakeDetailViewModel

    func testTheLikeFollowsTheStoreAndFOnlyAsksToToggleANearestCity() {
        let cases: [(String, VM.State, VM.Action, VM.State, [VM.Effect])] = [
            ("the store holds it", VM.State(city: 7), .likes([3, 7]), VM.State(city: 7, liked: true), []),
            ("the store lost it", VM.State(city: 7, liked: true), .likes([3]), VM.State(city: 7), []),
            ("f", VM.State(city: 7), .likeToggled, VM.State(city: 7), [.toggleLike(7)]),
            ("f with no nearest city", VM.State(city: nil), .likeToggled, VM.State(city: nil), []),
            ("a failed save says so", VM.State(city: 7), .likeFailed, VM.State(city: 7, likeFailed: true), []),
            ("until the store speaks", VM.State(city: 7, likeFailed: true), .likes([7]), VM.State(city: 7, liked: true), []),
        ]
        for (name, before, action, after, effects) in cases {
            var state = before
            XCTAssertEqual(VM.reduce(&state, action), effects, name)
            XCTAssertEqual(state, after, name)
        }
    }
}
