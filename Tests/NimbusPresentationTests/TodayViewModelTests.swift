import NimbusData
import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// Seoul and Busan, with Pohang for placing events.
private let todayCities = InMemoryCityRepository([.seoul, .busan, City(
    id: 1839071, name: "Pohang", countryCode: "KR", latitude: 36.03, longitude: 129.37, population: 500_000,
    timeZone: "Asia/Seoul", alternateNames: ["포항"], localNames: CityLocalNames(japanese: nil, korean: "포항"))],
    search: .everything)

final class TodayViewModelTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_782_000_000)
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var weather: ScriptedWeatherRepository!
    private var quakes: ScriptedQuakes!
    private var likes: InMemoryLikes!
    /// The films' stores, as the app's publish them (what is saved now, then every change); while
    /// `filmsOpen` is false the wishlist has not answered yet (a films answer still on its way).
    private var wishlist: CurrentValueSubject<[WishlistEntry], Never>!
    private var filmsOpen: CurrentValueSubject<Bool, Never>!
    private var viewed: CurrentValueSubject<[MovieSummary], Never>!
    private var warnings: ScriptedWarningsRepository!
    /// The clock the view model and its warnings read.
    private var clock: Date = Date(timeIntervalSince1970: 1_782_000_000)
    private var viewModel: TodayViewModel?
    private let events = PassthroughSubject<TodayViewModel.Event, Never>()
    private let ticks = PassthroughSubject<Date, Never>()

    override func setUp() {
        scheduler = DispatchQueue.test
        weather = ScriptedWeatherRepository()
        quakes = ScriptedQuakes()
        likes = InMemoryLikes()
        likes.ids = [City.busan.id]
        wishlist = CurrentValueSubject([])
        filmsOpen = CurrentValueSubject(false)
        viewed = CurrentValueSubject([])
        warnings = ScriptedWarningsRepository(covered: [])
        clock = now
    }

    /// The view model over the test's sources; `wishlist` is the films' store as the test wants it
    /// (by default the wishlist once the films are opened), `work` where the nearest city is found.
    private func makeViewModel(language: Language = .en, wishlist films: AnyPublisher<[WishlistEntry], Never>? = nil,
                               work: AnySchedulerOf<DispatchQueue>? = nil, display: DisplayUnits? = nil) -> TodayViewModel {
        let cities = todayCities
        nonisolated(unsafe) let test = self // the clock is read on the test's one thread
        let lookup: @Sendable (Int) -> City? = { id in cities.cities.first { $0.id == id } }
        // The user is in Seoul.
        let here = FixedLocation(.argument(GeoPoint(latitude: 37.55, longitude: 126.99)!))
        return TodayViewModel(
            sources: .init(locate: LocateCurrentCityUseCase(provider: here, locator: cities, cities: cities),
                           liked: GetLikedCitiesUseCase(likes: likes, lookup: lookup),
                           weather: GetPlacesTodayUseCase(repository: weather),
                           quakes: QuakesUseCase(repository: quakes, locator: cities, cities: cities),
                           warnings: GetWarningsUseCase(repository: warnings, now: { test.clock }),
                           wishlist: films ?? filmsOpen.filter { $0 }.first().flatMap { [wishlist] _ in wishlist! }.eraseToAnyPublisher(),
                           viewed: viewed.eraseToAnyPublisher()),
            format: QuakeFormatter(weather: WeatherFormatter(l10n: L10n.bundled(language), units: .metric, zones: SystemZoneDatabase.forTests)),
            display: display, scheduler: scheduler.eraseToAnyScheduler(), work: work ?? scheduler.eraseToAnyScheduler(), now: { test.clock })
    }

    private func makeOutput(language: Language = .en, display: DisplayUnits? = nil) -> TodayViewModel.Output {
        let viewModel = makeViewModel(language: language, display: display)
        self.viewModel = viewModel
        return viewModel.transform(input: .init(events: events.eraseToAnyPublisher(), tick: ticks.eraseToAnyPublisher()))
    }

    // MARK: Answers

    private var places: Fetched<PlaceAnswers<PlaceWeather>> {
        Fetched(value: [PlaceWeather(coordinate: City.seoul.coordinate, temperature: 23, high: 28, low: 17, condition: .clear),
                        PlaceWeather(coordinate: City.busan.coordinate, temperature: 21, high: 25, low: 18, condition: .rain)].answers,
                fetchedAt: now, isCached: false)
    }

    private var feed: QuakeFeedUpdate {
        func quake(_ id: String, _ mag: Double, lat: Double, lon: Double) -> Quake {
            Quake(id: id, magnitude: mag, place: "feed's words", time: now.addingTimeInterval(-3600), updated: now,
                  timeZoneOffsetMinutes: nil, coordinate: Coordinate(latitude: lat, longitude: lon), depthKilometres: 10,
                  url: nil, felt: nil, alert: nil, tsunami: false, significance: nil, magnitudeType: nil, kind: nil,
                  reviewed: true)
        }
        // Near Pohang (~60 km from Busan), and one in California (far from every place).
        return QuakeFeedUpdate(snapshot: QuakeFeedSnapshot(quakes: [quake("kr", 4.1, lat: 35.9, lon: 129.2),
                                                                    quake("ca", 3.0, lat: 35.7, lon: -117.7)],
                                                           dropped: 0, generated: now),
                               origin: .fresh, checkedAt: now)
    }

    private let film = MovieSummary(id: MovieID(source: .catalogue, value: 1), title: "Oldboy", year: 2003, genres: [], directors: [])

    private func answer(_ section: Int) {
        switch section {
        case 1:
            weather.placesSubject.send(places)
            weather.placesSubject.send(completion: .finished)
        case 2:
            quakes.subject.send(feed)
            quakes.subject.send(completion: .finished)
        default:
            wishlist.send([WishlistEntry(movie: film, addedAt: now)])
            filmsOpen.send(true)
        }
        scheduler.advance()
    }

    /// Each section in a word: what a person would see of it.
    private func summary(_ state: TodayState) -> String {
        func word(_ status: TodaySectionStatus, rows: Int) -> String {
            switch status {
            case .loading: return rows > 0 ? "loading(\(rows))" : "loading"
            case .loaded: return "\(rows)"
            case .empty: return "empty"
            case .failed: return "failed"
            case .stale: return "stale(\(rows))"
            }
        }
        let weather = state.places.rows.map { $0.now ?? "…" }.joined(separator: ",")
        return "places \(word(state.places.status, rows: state.places.rows.count)) [\(weather)]"
            + " · quakes \(word(state.quakes.status, rows: state.quakes.rows.count))"
            + " · films \(word(state.films.status, rows: state.films.rows.count))"
    }

    // MARK: Tests

    func testNothingIsAskedUntilTheTabIsShownThenAllThreeAtOnce() {
        let state = TestObserver(makeOutput().state)
        XCTAssertTrue(state.values.isEmpty)
        XCTAssertEqual(quakes.requests, [])
        events.send(.appeared)
        scheduler.advance()
        // The quakes and films were asked in the same turn; the places as soon as the location was found.
        XCTAssertEqual(quakes.requests, [TodayViewModel.feed])
        XCTAssertEqual(weather.batches, [[City.seoul.coordinate, City.busan.coordinate]])
        XCTAssertEqual(state.last.map(summary), "places loading(2) […,…] · quakes loading · films loading")
    }

    func testAChangeOfUnitsInTheSettingsShowsInTheNextState() {
        let display = DisplayUnits(system: .metric)
        let state = TestObserver(makeOutput(display: display).state)
        events.send(.appeared)
        scheduler.advance()
        for section in 1...3 { answer(section) }
        XCTAssertEqual(state.last.map(summary), "places 2 [23°,21°] · quakes 1 · films 1")
        let quake = state.last?.quakes.rows.first
        XCTAssertTrue(quake?.distance.hasSuffix("km from Busan") == true, quake?.distance ?? "")
        XCTAssertTrue(quake?.place.contains(" km ") == true, quake?.place ?? "")
        let count = state.values.count
        display.value = .init(system: .imperial)
        XCTAssertEqual(state.values.count, count + 1, "one new state, at once")
        XCTAssertEqual(state.last.map(summary), "places 2 [73°,70°] · quakes 1 · films 1")
        let imperial = state.last?.quakes.rows.first
        XCTAssertTrue(imperial?.distance.hasSuffix("mi from Busan") == true, imperial?.distance ?? "")
        XCTAssertTrue(imperial?.place.contains(" mi ") == true, imperial?.place ?? "")
    }

    /// The point of the seed: whatever order the answers come in, each section is drawn the moment its
    /// own answer arrives, and the others are left as they were.
    func testEveryOrderOfAnswersGivesItsOwnHistoryAndTheSameEnd() {
        let orders = [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]]
        let after = [
            1: "places 2 [23°,21°]",
            2: "quakes 1",
            3: "films 1",
        ]
        for order in orders {
            setUp()
            let state = TestObserver(makeOutput().state)
            events.send(.appeared)
            scheduler.advance()
            var expected = ["places loading(2) […,…]", "quakes loading", "films loading"]
            var history: [String] = []
            for section in order {
                answer(section)
                // Only the answering section changed.
                let index = section - 1
                expected[index] = after[section]!
                history.append(expected.joined(separator: " · "))
                XCTAssertEqual(state.last.map(summary), history.last, "order \(order), after \(section)")
            }
            // The quakes section lists the event near Busan only, with where it is and how far.
            let row = state.last?.quakes.rows.first
            XCTAssertEqual(row?.place, "21 km SW of Pohang, South Korea", "order \(order)")
            XCTAssertEqual(row?.distance, "90 km from Busan", "order \(order)")
        }
    }

    func testASlowSectionNeverHoldsBackAFastOne() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        answer(3)
        answer(2)
        // The weather never answered: the other two are drawn anyway.
        XCTAssertEqual(state.last.map(summary), "places loading(2) […,…] · quakes 1 · films 1")
    }

    func testOneFailingSectionLeavesTheOthersLoadedAndRRetriesItAlone() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        answer(3)
        quakes.subject.send(completion: .failure(.offline))
        scheduler.advance()
        answer(1)
        XCTAssertEqual(state.last.map(summary), "places 2 [23°,21°] · quakes failed · films 1")
        guard case .failed(let message)? = state.last?.quakes.status else { return XCTFail("not failed") }
        XCTAssertEqual(message, "Cannot reach the earthquake server. Press r here to try this section again.")
        // `r` in the failed section asks only for it.
        let batches = weather.batches.count
        events.send(.refreshRequested(.quakes))
        scheduler.advance()
        XCTAssertEqual(quakes.requests.count, 2)
        XCTAssertEqual(weather.batches.count, batches)
        XCTAssertEqual(state.last.map(summary), "places 2 [23°,21°] · quakes loading · films 1")
        answer(2)
        XCTAssertEqual(state.last.map(summary), "places 2 [23°,21°] · quakes 1 · films 1")
        // `r` in a loaded section reloads everything.
        events.send(.refreshRequested(.places))
        scheduler.advance()
        XCTAssertEqual(quakes.requests.count, 3)
        XCTAssertEqual(weather.batches.count, batches + 1)
    }

    func testAKeptAnswerIsShownAsStaleWhenTheServerCannotBeReached() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        weather.placesSubject.send(Fetched(value: places.value, fetchedAt: now.addingTimeInterval(-3 * 3600), isCached: true))
        weather.placesSubject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.last?.places.status, .stale("offline · cached 3 h ago"))
        XCTAssertEqual(state.last?.places.rows.map(\.now), ["23°", "21°"])
    }

    /// One place's bad item fails its own row, with the reason, and leaves the other its weather and
    /// the section loaded; `r` asks again for the section, and a good answer clears the row.
    func testAPlaceWithoutItsOwnAnswerSaysSoOnItsRowAlone() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        var answers = places.value
        answers[City.busan.coordinate] = .failure(.badResponse)
        weather.placesSubject.send(Fetched(value: answers, fetchedAt: now, isCached: false))
        weather.placesSubject.send(completion: .finished)
        scheduler.advance()
        XCTAssertEqual(state.last?.places.status, .loaded(note: "updated just now"))
        XCTAssertEqual(state.last?.places.rows.map(\.now), ["23°", "n/a"])
        XCTAssertEqual(state.last?.places.rows.map(\.problem), [nil, "bad response"])
        XCTAssertEqual(state.last?.places.rows.last?.range, nil)
        events.send(.refreshRequested(.places))
        scheduler.advance()
        answer(1)
        XCTAssertEqual(state.last?.places.rows.map(\.now), ["23°", "21°"])
        XCTAssertEqual(state.last?.places.rows.map(\.problem), [nil, nil])
    }

    /// A whole request that failed with nothing kept: every place says why, not a bare "…" forever.
    func testPlacesOfAFailedRequestSayWhyOnTheirRows() {
        let state = TestObserver(makeOutput(language: .ko).state)
        events.send(.appeared)
        scheduler.advance()
        weather.placesSubject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.last?.places.rows.map(\.now), ["없음", "없음"])
        // Issue 24: offline, a row also says nothing was saved for it (a kept copy would be shown),
        // as the city's own screen does.
        XCTAssertEqual(state.last?.places.rows.map(\.problem), ["오프라인, 저장된 날씨 없음", "오프라인, 저장된 날씨 없음"])
        XCTAssertEqual(state.last?.places.status, .failed("날씨 서버에 연결할 수 없습니다. 여기서 r 키를 누르면 이 부분만 다시 시도합니다."))
    }

    /// Issue 24: an answer whose every place failed keeps nothing: when the request then fails the
    /// section says why and offers r, not "offline · cached just now" over rows that have no weather.
    func testAnAnswerWithNothingUsableIsNotACachedCopy() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        let failed: PlaceAnswers<PlaceWeather> = [City.seoul.coordinate: .failure(.offline), City.busan.coordinate: .failure(.offline)]
        weather.placesSubject.send(Fetched(value: failed, fetchedAt: now, isCached: false))
        weather.placesSubject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.last?.places.status,
                       .failed("Cannot reach the weather server. Press r here to try this section again."))
        XCTAssertEqual(state.last?.places.rows.map(\.problem), ["offline, no weather saved yet", "offline, no weather saved yet"])
        // With one place's weather to show, the section is stale and says how old it is.
        setUp()
        let other = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        var some = failed
        some[City.seoul.coordinate] = places.value[City.seoul.coordinate]
        weather.placesSubject.send(Fetched(value: some, fetchedAt: now, isCached: false))
        weather.placesSubject.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(other.last?.places.status, .stale("offline · cached just now"))
        XCTAssertEqual(other.last?.places.rows.map(\.problem), [nil, "offline, no weather saved yet"])
    }

    func testAnAnswerOfALoadThatWasAskedAgainIsIgnored() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        let first = quakes.subject
        events.send(.refreshRequested(.films)) // films are loading, not failed: everything again
        scheduler.advance()
        XCTAssertEqual(quakes.requests.count, 2)
        first.send(QuakeFeedUpdate(snapshot: QuakeFeedSnapshot(quakes: [], dropped: 0, generated: now), origin: .fresh,
                                   checkedAt: now))
        scheduler.advance()
        XCTAssertEqual(state.last.map(summary)?.contains("quakes loading"), true, "the older load's answer counts for nothing")
        answer(2)
        XCTAssertEqual(state.last?.quakes.rows.count, 1)
    }

    /// A like changes the places (one new request for their weather) and the quakes near them (from
    /// the feed already here: the event near Busan is now nearest to Seoul), and nothing else.
    func testALikeUpdatesThePlacesWithoutReloadingTheOthers() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        answer(1)
        answer(2)
        answer(3)
        XCTAssertEqual(state.last.map(summary), "places 2 [23°,21°] · quakes 1 · films 1")
        likes.ids = []
        scheduler.advance()
        XCTAssertEqual(quakes.requests.count, 1, "the feed is not asked again")
        XCTAssertEqual(weather.batches.last, [City.seoul.coordinate])
        // Busan is gone; Seoul keeps its weather while it reloads.
        XCTAssertEqual(state.last.map(summary), "places loading(1) [23°] · quakes 1 · films 1")
        XCTAssertEqual(state.last?.quakes.rows.first?.distance, "271 km from Seoul")
    }

    func testAWishlistChangeUpdatesTheFilmsAlone() {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        answer(1)
        answer(2)
        answer(3)
        let requests = (quakes.requests.count, weather.batches.count)
        viewed.send([film])
        wishlist.send([])
        scheduler.advance()
        XCTAssertEqual(state.last?.viewed.map(\.title), ["Oldboy (2003)"])
        XCTAssertEqual(state.last?.films.rows, [])
        XCTAssertEqual(quakes.requests.count, requests.0)
        XCTAssertEqual(weather.batches.count, requests.1)
    }

    /// Found by the benchmark (1 run in 10 never showed its places): with the nearest city found on a
    /// concurrent queue, `receive(on:)` could hand over the completion before the value.
    func testThePlacesArriveWhateverQueueFindsTheNearestCity() {
        for _ in 0..<200 {
            setUp()
            let viewModel = makeViewModel(wishlist: wishlist.eraseToAnyPublisher(), work: DispatchQueue.global().eraseToAnyScheduler())
            let state = TestObserver(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state)
            events.send(.appeared)
            // The nearest city is found on a real concurrent queue (the race needs one): wait for it,
            // moving the test clock for what follows on the view model's scheduler.
            waitUntil("the places, with the nearest city found on a global queue", timeout: 2, every: 0.001) {
                scheduler.advance()
                return state.last?.places.rows.isEmpty == false
            }
            XCTAssertEqual(state.last?.places.rows.map(\.name), ["Seoul", "Busan"])
            withExtendedLifetime(viewModel) {}
        }
    }

    func testNoPlacesSaysHowToHaveSome() {
        likes.ids = []
        let state = TestObserver(makeOutput(language: .ko).state)
        events.send(.appeared)
        scheduler.advance()
        answer(1)
        // Seoul is still "here": the empty message is for a user with no location and no likes, below.
        XCTAssertEqual(state.last?.places.rows.map(\.name), ["서울"])
        XCTAssertEqual(state.last?.places.rows.first?.isHere, true)
    }

    func testOpeningAnItemRoutesToItsScreen() {
        let output = makeOutput()
        let state = TestObserver(output.state)
        let routes = TestObserver(output.route)
        events.send(.appeared)
        scheduler.advance()
        answer(1)
        answer(2)
        answer(3)
        XCTAssertEqual(state.values.isEmpty, false)
        events.send(.opened(.place(1)))
        events.send(.opened(.wishlist(0)))
        events.send(.opened(.quake(0)))
        events.send(.opened(.quake(5))) // not there: nothing
        XCTAssertEqual(routes.values.count, 3)
        XCTAssertEqual(routes.values.first, .city(.busan))
        XCTAssertEqual(routes.values.dropFirst().first, .film(film))
        guard case .quake(let quake, let place)? = routes.values.last else { return XCTFail("no quake route") }
        XCTAssertEqual(quake.id, "kr")
        XCTAssertEqual(place?.city.name, "Pohang")
    }

    // MARK: Warnings

    private func warning(_ event: String, _ severity: WeatherWarning.Severity, expires: Date?) -> WeatherWarning {
        WeatherWarning(id: event, source: .nws, event: event, severity: severity, headline: nil, description: nil,
                       instruction: nil, sender: nil, effective: now.addingTimeInterval(-3600), onset: nil, expires: expires,
                       language: "en-US")
    }

    private func report(_ warnings: [WeatherWarning], cached: Bool = false) -> WarningsReport {
        WarningsReport(warnings: warnings, source: .nws, checkedAt: now, isCached: cached)
    }

    /// Issue 30: a place with warnings in force is marked with the worst of them (its level and its
    /// words, and how many more); a covered place with none, and a place no service covers, are not,
    /// and the uncovered one is never asked about.
    func testPlacesWithWarningsInForceAreMarkedWithTheWorst() {
        warnings.covered = [City.seoul.id, City.busan.id]
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        XCTAssertEqual(warnings.asked, [City.seoul.id, City.busan.id])
        answer(1)
        warnings.subjects[City.seoul.id]?.send(report([
            warning("Wind Advisory", .minor, expires: now.addingTimeInterval(3600)),
            warning("Winter Storm Warning", .severe, expires: now.addingTimeInterval(7200)),
            warning("Dense Fog Advisory", .extreme, expires: now.addingTimeInterval(-60)), // expired
        ]))
        warnings.subjects[City.seoul.id]?.send(completion: .finished)
        warnings.subjects[City.busan.id]?.send(report([]))
        warnings.subjects[City.busan.id]?.send(completion: .finished)
        scheduler.advance()
        XCTAssertEqual(state.last?.places.rows.map(\.warning), [
            TodayPlaceWarning(level: 3, text: "Winter Storm Warning +1 more"), nil,
        ])
        XCTAssertEqual(state.last.map(summary), "places 2 [23°,21°] · quakes loading · films loading")

        // A place no service covers: no request, no mark.
        setUp()
        warnings.covered = [City.busan.id]
        let other = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        answer(1)
        XCTAssertEqual(warnings.asked, [City.busan.id])
        XCTAssertEqual(other.last?.places.rows.map(\.warning), [nil, nil])
    }

    /// Issue 30: the warnings failing (offline, a bad answer, nothing kept) changes nothing of the
    /// weather part of the section: the same rows, the same status, as for places no service covers.
    func testAFailingWarningsSourceNeverChangesTheWeather() {
        func run(covered: Set<Int>, fail: WarningsError?) -> TodayState? {
            setUp()
            warnings.covered = covered
            let state = TestObserver(makeOutput().state)
            events.send(.appeared)
            scheduler.advance()
            if let fail {
                for id in covered { warnings.subjects[id]?.send(completion: .failure(fail)) }
                scheduler.advance()
            }
            answer(1)
            answer(2)
            answer(3)
            if let fail {
                // After the weather too.
                events.send(.refreshRequested(.places))
                scheduler.advance()
                for id in covered { warnings.subjects[id]?.send(completion: .failure(fail)) }
                answer(1)
            }
            return state.last
        }
        let uncovered = run(covered: [], fail: nil)
        XCTAssertNotNil(uncovered)
        for error in [WarningsError.offline, .badResponse, .server(status: 500), .timedOut, .regionUnknown] {
            let failing = run(covered: [City.seoul.id, City.busan.id], fail: error)
            XCTAssertEqual(failing?.places, uncovered?.places, "\(error)")
            XCTAssertEqual(failing?.placesNotes, uncovered?.placesNotes, "\(error)")
        }
    }

    /// A kept copy marks the place at once; the service failing afterwards leaves the mark as it was;
    /// the warning expiring while the tab is shown takes the mark away at the next tick.
    func testAWarningKeepsItsMarkUntilItExpires() {
        warnings.covered = [City.busan.id]
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        scheduler.advance()
        answer(1)
        warnings.subjects[City.busan.id]?.send(report([warning("Heavy Rain Warning", .moderate,
                                                               expires: now.addingTimeInterval(1800))], cached: true))
        warnings.subjects[City.busan.id]?.send(completion: .failure(.offline))
        scheduler.advance()
        XCTAssertEqual(state.last?.places.rows.last?.warning, TodayPlaceWarning(level: 2, text: "Heavy Rain Warning"))
        clock = now.addingTimeInterval(1700)
        ticks.send(clock)
        XCTAssertEqual(state.last?.places.rows.last?.warning?.level, 2)
        clock = now.addingTimeInterval(1900)
        ticks.send(clock)
        XCTAssertNil(state.last?.places.rows.last?.warning)
        XCTAssertEqual(state.last?.places.rows.map(\.now), ["23°", "21°"])
    }

    // MARK: Selection

    /// The selection is part of the state: moved by keys, kept by identity while other sections
    /// answer, and moved to its section's first stop when its rows go.
    func testTheSelectionIsKeptByIdentityAsSectionsAnswer() {
        let viewModel = makeViewModel(wishlist: wishlist.eraseToAnyPublisher())
        let state = TestObserver(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state)
        events.send(.appeared)
        scheduler.advance()
        // The places are known before their weather: the first place is selected.
        XCTAssertEqual(state.last?.selection, .item(.place(0)))
        events.send(.moved(.by(1)))
        XCTAssertEqual(state.last?.selection, .item(.place(1)))
        // The quakes arriving above nothing, and the weather, leave it where it is.
        answer(2)
        answer(1)
        XCTAssertEqual(state.last?.selection, .item(.place(1)))
        events.send(.moved(.section(1)))
        XCTAssertEqual(state.last?.selection, .item(.quake(0)))
        // Busan unliked: the event is now near Seoul and still the first; Busan's row is gone.
        events.send(.moved(.section(-1)))
        events.send(.moved(.last))
        XCTAssertEqual(state.last?.selection, .section(.films))
        events.send(.moved(.first))
        events.send(.moved(.by(1)))
        likes.ids = []
        scheduler.advance()
        XCTAssertEqual(state.last?.selection, .item(.place(0)), "the section's first stop once its row went")
        withExtendedLifetime(viewModel) {}
    }
}
