import XCTest
import NimbusDomain
@testable import NimbusPresentation

/// `TodayViewModel.reduce` as a table: a state and an action give a state and effects, with no
/// scheduler and no clock.
final class TodayReduceTests: XCTestCase {
    typealias VM = TodayViewModel
    private let t0 = Date(timeIntervalSince1970: 1_782_000_000)

    private static let pohang = City(id: 1839071, name: "Pohang", countryCode: "KR", latitude: 36.03, longitude: 129.37,
                                     population: 500_000, timeZone: "Asia/Seoul", alternateNames: [])
    private let film = MovieSummary(id: MovieID(source: .catalogue, value: 1), title: "Oldboy", year: 2003, genres: [], directors: [])

    private var here: Result<CurrentCity, LocateCityError> {
        .success(CurrentCity(city: .seoul, location: .argument(GeoPoint(latitude: 37.55, longitude: 126.99)!),
                             distance: 1_000, ignored: []))
    }

    private func quake(_ id: String, lat: Double, lon: Double, hoursAgo: Double = 1) -> Quake {
        Quake(id: id, magnitude: 4, place: "", time: t0.addingTimeInterval(-hoursAgo * 3600), updated: t0,
              timeZoneOffsetMinutes: nil, coordinate: Coordinate(latitude: lat, longitude: lon), depthKilometres: 10,
              url: nil, felt: nil, alert: nil, tsunami: false, significance: nil, magnitudeType: nil, kind: nil,
              reviewed: true)
    }

    private func feed(_ quakes: [Quake], origin: QuakeFeedOrigin = .fresh) -> QuakeFeedUpdate {
        QuakeFeedUpdate(snapshot: QuakeFeedSnapshot(quakes: quakes, dropped: 0, generated: t0), origin: origin, checkedAt: t0)
    }

    /// Shown once, the likes known (Busan), nothing answered yet.
    private var started: VM.State {
        var s = VM.State(now: t0)
        _ = VM.reduce(&s, .likes([.busan]))
        _ = VM.reduce(&s, .appeared(t0))
        return s
    }

    /// Every section answered: Seoul and Busan with weather, one quake near Busan, one wishlist film
    /// and three viewed.
    private var loaded: VM.State {
        var s = started
        _ = VM.reduce(&s, .located(here, liked: [.busan], t0))
        let weather = [PlaceWeather(coordinate: City.seoul.coordinate, temperature: 23, high: 28, low: 17, condition: .clear),
                       PlaceWeather(coordinate: City.busan.coordinate, temperature: 21, high: 25, low: 18, condition: .rain)]
        _ = VM.reduce(&s, .weather(Fetched(value: Dictionary(uniqueKeysWithValues: weather.map { ($0.coordinate, .success($0)) }),
                                           fetchedAt: t0, isCached: false), t0))
        _ = VM.reduce(&s, .finished(.places, nil, t0))
        _ = VM.reduce(&s, .quakes(feed([quake("kr", lat: 35.9, lon: 129.2)]), t0))
        _ = VM.reduce(&s, .finished(.quakes, nil, t0))
        _ = VM.reduce(&s, .wishlist([WishlistEntry(movie: film, addedAt: t0)]))
        _ = VM.reduce(&s, .viewed([film, film, film]))
        return s
    }

    private func apply(_ state: VM.State, _ action: VM.Action) -> (VM.State, [VM.Effect]) {
        var s = state
        let effects = VM.reduce(&s, action)
        return (s, effects)
    }

    // MARK: Loads

    func testTheFirstAppearanceAsksForThePlacesAndTheQuakesAtOnceAndLaterOnesRetryOnlyWhatFailed() {
        var failedQuakes = loaded
        failedQuakes.quakesSource.error = .quakes(.offline)
        var failedBoth = failedQuakes
        failedBoth.placesSource.error = .weather(.timedOut)
        var busy = failedBoth
        busy.placesSource.loading = true
        let cases: [(String, VM.State, [VM.Effect])] = [
            ("first time", { var s = VM.State(now: t0); _ = VM.reduce(&s, .likes([.busan])); return s }(),
             [.loadPlaces(liked: [.busan]), .loadQuakes]),
            ("all loaded", loaded, []),
            ("the quakes failed", failedQuakes, [.loadQuakes]),
            ("both failed", failedBoth, [.loadPlaces(liked: [.busan]), .loadQuakes]),
            ("the places failed but are being asked again", busy, [.loadQuakes]),
        ]
        for (name, state, effects) in cases {
            let (after, got) = apply(state, .appeared(t0))
            XCTAssertEqual(got, effects, name)
            XCTAssertTrue(after.started, name)
            if effects.contains(.loadQuakes) { XCTAssertEqual(after.quakesSource, .init(loading: true, error: nil), name) }
        }
    }

    func testAnAppearanceBeforeTheLikesAnsweredWaitsForThem() {
        let (waiting, effects) = apply(VM.State(now: t0), .appeared(t0))
        XCTAssertEqual(effects, [.loadQuakes])
        XCTAssertTrue(waiting.placesWaiting)
        XCTAssertTrue(waiting.placesSource.loading)
        let (asked, then) = apply(waiting, .likes([.busan]))
        XCTAssertEqual(then, [.loadPlaces(liked: [.busan])])
        XCTAssertFalse(asked.placesWaiting)
    }

    func testRRetriesAFailedSectionAloneElseEverything() {
        var failedQuakes = loaded
        failedQuakes.quakesSource.error = .quakes(.offline)
        let cases: [(String, VM.State, TodaySection, [VM.Effect])] = [
            ("r on the failed quakes", failedQuakes, .quakes, [.loadQuakes]),
            ("r on the places, the quakes failed", failedQuakes, .places, [.loadPlaces(liked: [.busan]), .loadQuakes]),
            ("r on the films", loaded, .films, [.loadPlaces(liked: [.busan]), .loadQuakes]),
            ("r on loaded places", loaded, .places, [.loadPlaces(liked: [.busan]), .loadQuakes]),
        ]
        for (name, state, section, effects) in cases {
            XCTAssertEqual(apply(state, .refresh(section, t0)).1, effects, name)
        }
    }

    func testALikeOrUnlikeReloadsThePlacesOnceShownAndOnlyWhenTheLikesChanged() {
        let cases: [(String, VM.State, [City], [VM.Effect])] = [
            ("an unlike", loaded, [], [.loadPlaces(liked: [])]),
            ("a like", loaded, [.busan, Self.pohang], [.loadPlaces(liked: [.busan, Self.pohang])]),
            ("the same likes again", loaded, [.busan], []),
            ("before the tab was shown", { var s = VM.State(now: t0); _ = VM.reduce(&s, .likes([.busan])); return s }(),
             [Self.pohang], []),
        ]
        for (name, state, likes, effects) in cases {
            let (after, got) = apply(state, .likes(likes))
            XCTAssertEqual(got, effects, name)
            XCTAssertEqual(after.likes, likes, name)
            XCTAssertEqual(after.quakesSource, state.quakesSource, "\(name): the quakes are not asked again")
        }
    }

    /// Home changed in the settings: the places are found again once the tab was shown, and only they.
    func testAChangeOfHomeReloadsThePlaces() {
        let fresh = { var s = VM.State(now: t0); _ = VM.reduce(&s, .likes([.busan])); return s }()
        let cases: [(String, VM.State, [VM.Effect])] = [
            ("shown", loaded, [.loadPlaces(liked: [.busan])]),
            ("not shown yet", fresh, []),
        ]
        for (name, state, effects) in cases {
            let (after, got) = apply(state, .homeChanged)
            XCTAssertEqual(got, effects, name)
            XCTAssertEqual(after.quakesSource, state.quakesSource, "\(name): the quakes are not asked again")
        }
        XCTAssertTrue(apply(loaded, .homeChanged).0.placesSource.loading)
    }

    // MARK: Answers

    func testThePlacesAskForTheirWarningsAndFindTheQuakesNearThem() {
        var s = started
        _ = VM.reduce(&s, .quakes(feed([quake("near busan", lat: 35.9, lon: 129.2), quake("far", lat: 35.7, lon: -117.7),
                                        quake("old", lat: 35.9, lon: 129.2, hoursAgo: 30)]), t0))
        XCTAssertEqual(s.near, [], "no places yet")
        let effects = VM.reduce(&s, .located(here, liked: [.busan], t0))
        XCTAssertEqual(effects, [.loadWarnings([.seoul, .busan])])
        XCTAssertEqual(s.near.map(\.quake.id), ["near busan"])
        XCTAssertEqual(s.near.first?.place, .busan)
        // Where the user is not known and nothing is liked: no place, no warnings to ask for.
        var nowhere = started
        XCTAssertEqual(VM.reduce(&nowhere, .located(.failure(.noLocation(zone: nil, ignored: [])), liked: [], t0)), [])
    }

    func testAFreshWeatherAnswerEndsTheLoadAndABadItemFailsItsOwnPlace() {
        var s = started
        _ = VM.reduce(&s, .located(here, liked: [.busan], t0))
        let seoul = PlaceWeather(coordinate: City.seoul.coordinate, temperature: 23, high: 28, low: 17, condition: .clear)
        let kept: PlaceAnswers<PlaceWeather> = [City.seoul.coordinate: .success(seoul), City.busan.coordinate: .failure(.badResponse)]
        var cached = s
        _ = VM.reduce(&cached, .weather(Fetched(value: kept, fetchedAt: t0, isCached: true), t0))
        XCTAssertTrue(cached.placesSource.loading, "a kept copy: still asking")
        XCTAssertEqual(cached.weatherProblems, [:], "a kept copy's bad item is no verdict")
        _ = VM.reduce(&s, .weather(Fetched(value: kept, fetchedAt: t0, isCached: false), t0))
        XCTAssertFalse(s.placesSource.loading)
        XCTAssertEqual(s.weather, [City.seoul.coordinate: seoul])
        XCTAssertEqual(s.weatherProblems, [City.busan.coordinate: .badResponse])
    }

    func testAKeptFeedKeepsTheQuakesLoadingAndAFailureEndsThem() {
        var s = started
        _ = VM.reduce(&s, .located(here, liked: [.busan], t0))
        _ = VM.reduce(&s, .quakes(feed([], origin: .cache), t0))
        XCTAssertEqual(s.quakesSource, .init(loading: true, error: nil))
        _ = VM.reduce(&s, .finished(.quakes, .quakes(.offline), t0))
        XCTAssertEqual(s.quakesSource, .init(loading: false, error: .quakes(.offline)))
        XCTAssertTrue(s.quakesSource.needsRetry)
        _ = VM.reduce(&s, .quakes(feed([], origin: .notModified), t0))
        XCTAssertEqual(s.quakesSource, .init(loading: false, error: nil))
    }

    func testWarningsAreKeptByPlaceAndChangeNothingElse() {
        let warnings = CityWarnings(coverage: .covered(.nws), active: [], report: nil)
        let (after, effects) = apply(loaded, .warnings(cityID: City.busan.id, warnings))
        XCTAssertEqual(effects, [])
        XCTAssertEqual(after.warnings, [City.busan.id: warnings])
        var same = after
        same.warnings = [:]
        XCTAssertEqual(same, loaded)
    }

    // MARK: Selection

    func testMovesTakeTheSelectionAlongTheStops() {
        // Stops: place 0, place 1, quake 0, wishlist 0, the viewed strip (viewed 0 … 2).
        let s = loaded
        let cases: [(TodayTarget?, TodayMove, TodayTarget?)] = [
            (.item(.place(0)), .by(1), .item(.place(1))),
            (.item(.place(0)), .by(-1), .item(.place(0))),
            (.item(.place(1)), .by(10), .item(.viewed(0))),
            (.item(.viewed(2)), .by(-1), .item(.wishlist(0))),
            (.item(.viewed(2)), .by(0), .item(.viewed(0))),
            (.item(.quake(0)), .first, .item(.place(0))),
            (.item(.place(0)), .last, .item(.viewed(0))),
            (.item(.place(1)), .section(1), .item(.quake(0))),
            (.item(.quake(0)), .section(1), .item(.wishlist(0))),
            (.item(.viewed(1)), .section(1), .item(.place(0))),
            (.item(.place(0)), .section(-1), .item(.wishlist(0))),
            (.item(.viewed(0)), .along(1), .item(.viewed(1))),
            (.item(.viewed(2)), .along(1), .item(.viewed(2))),
            (.item(.viewed(0)), .along(-1), .item(.viewed(0))),
            (.item(.place(0)), .along(1), .item(.place(0))),
        ]
        for (from, move, to) in cases {
            var state = s
            state.selection = from
            XCTAssertEqual(apply(state, .moved(move)).0.selection, to, "\(String(describing: from)) \(move)")
        }
    }

    func testTheSelectionStaysOnItsStopAndFallsBackToItsSectionWhenTheStopGoes() {
        var onBusan = loaded
        onBusan.selection = .item(.place(1))
        // The feed answering again leaves a place's selection alone.
        XCTAssertEqual(apply(onBusan, .quakes(feed([]), t0)).0.selection, .item(.place(1)))
        // Busan unliked: its row goes, the selection goes to the places' first stop.
        XCTAssertEqual(apply(onBusan, .located(here, liked: [], t0)).0.selection, .item(.place(0)))
        // The quakes' only row goes: the section's message is the stop.
        var onQuake = loaded
        onQuake.selection = .item(.quake(0))
        XCTAssertEqual(apply(onQuake, .quakes(feed([]), t0)).0.selection, .section(.quakes))
        // Nothing selected yet: the first stop of all.
        XCTAssertEqual(apply(VM.State(now: t0), .appeared(t0)).0.selection, .section(.places))
        // A click on a stop that is there selects it; on one that is not, nothing.
        XCTAssertEqual(apply(loaded, .selected(.item(.quake(0)))).0.selection, .item(.quake(0)))
        var first = loaded
        first.selection = .item(.place(0))
        XCTAssertEqual(apply(first, .selected(.item(.quake(7)))).0.selection, .item(.place(0)))
    }

    func testOpeningAnItemAsksForItsScreen() {
        let cases: [(TodayItem, [VM.Effect])] = [
            (.place(0), [.openCity(.seoul)]),
            (.place(1), [.openCity(.busan)]),
            (.place(2), []),
            (.quake(0), [.openQuake(quake("kr", lat: 35.9, lon: 129.2))]),
            (.quake(1), []),
            (.wishlist(0), [.openFilm(film)]),
            (.viewed(2), [.openFilm(film)]),
            (.viewed(3), []),
        ]
        for (item, effects) in cases {
            XCTAssertEqual(apply(loaded, .opened(item)).1, effects, "\(item)")
        }
    }

    /// The reduce is pure: the same state and action give the same state and effects, and a tick
    /// changes only the clock.
    func testATickMovesOnlyTheClock() {
        let later = t0.addingTimeInterval(60)
        let (after, effects) = apply(loaded, .tick(later))
        XCTAssertEqual(effects, [])
        var expected = loaded
        expected.now = later
        XCTAssertEqual(after, expected)
    }
}
