import NimbusData
import Foundation
import Testing
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// The language is in each view model's state: a view model made in one language shows a state in
/// another exactly as one made in that language does (rows, summaries, messages, country names,
/// dates), and the three languages show three different things (so that the test would fail if
/// nothing followed the state). The city detail's property (`PresentFromStateTests`) mixes
/// languages in its random states too.
@Suite struct LanguageFromStateTests {
    static let languages: [Language] = [.en, .ko, .ja]
    static let now = Date(timeIntervalSince1970: 1_782_000_720)

    static func last<T>(_ publisher: AnyPublisher<T, Never>) -> T? {
        var last: T?
        _ = publisher.sink { last = $0 }
        return last
    }

    @Test func aWishlistShowsItsStatesLanguage() {
        let entries = [WishlistEntry(movie: MovieSummary(id: MovieID(source: .catalogue, value: 1), title: "Parasite", year: 2019,
                                                         genres: ["Drama", "Thriller"], directors: ["Bong Joon-ho"]),
                                     addedAt: Self.now)]
        func made(_ language: Language) -> WishlistViewModel {
            WishlistViewModel(wishlist: WishlistUseCase(repository: InMemoryWishlist()), l10n: .bundled(language),
                              scheduler: DispatchQueue.immediate.eraseToAnyScheduler(), timeZone: TimeZone(identifier: "UTC")!)
        }
        var shown: [WishlistState] = []
        var states: [WishlistViewModel.State] = []
        for language in Self.languages {
            let state = WishlistViewModel.State(l10n: .bundled(language), entries: entries, loaded: true, confirming: true,
                                                message: .failed(.storage))
            let own = made(language).present(state)
            for other in Self.languages { #expect(made(other).present(state) == own, "a \(language) state, made in \(other)") }
            shown.append(own)
            states.append(state)
        }
        // One view model shown the three in turn (en, ko, ja, en): its dates' formatter is made again
        // when the language changes, never kept from the language before.
        let one = made(.ko)
        for (i, state) in (states + [states[0]]).enumerated() {
            #expect(one.present(state) == shown[i % 3], "the \(i + 1)th state of one view model")
        }
        #expect(Set(shown.map(\.summary)).count == 3 && Set(shown.map { $0.rows[0].added }).count == 3
                && Set(shown.map { $0.rows[0].genres }).count == 3, "\(shown.map(\.summary))")
    }

    static func withoutClock(_ state: CityListState) -> CityListState {
        var state = state
        state.clock = nil
        return state
    }

    @Test func aCityListShowsItsStatesLanguage() throws {
        let catalog = try CityCatalog.bundled()
        let search = SearchCitiesUseCase(repository: catalog)
        func made(_ language: Language) -> CityListViewModel {
            CityListViewModel(search: search, totalCount: catalog.cityCount, l10n: .bundled(language),
                              scheduler: DispatchQueue.immediate.eraseToAnyScheduler(), tier: .large(least: 1_000),
                              format: WeatherFormatter(l10n: .bundled(language), units: .metric, zones: SystemZoneDatabase.forTests))
        }
        // Namesakes (their places told apart), a place narrowed to a region, and nothing found.
        for query in ["springfield", "springfield, il", "qqqzzx"] {
            var shown: [CityListState] = []
            var states: [CityListViewModel.State] = []
            for language in Self.languages {
                var state = CityListViewModel.State()
                state.typed = query
                state.matches = search.execute(query: query)
                state.display = DisplayUnits.Value(system: .metric, clock: .h12) // "오전 9:12", "午前9:12": the clock speaks too
                state.now = Self.now
                state.l10n = .bundled(language)
                if let first = state.matches?.listed.first { state.celsius = [catalog.city(first).id: 21.5] }
                let own = try #require(Self.last(made(language).present(Just(state).eraseToAnyPublisher())))
                for other in Self.languages {
                    let theirs = try #require(Self.last(made(other).present(Just(state).eraseToAnyPublisher())))
                    // A clock is one view model's (its local times are kept in it): compared by what it shows.
                    #expect(Self.withoutClock(theirs) == Self.withoutClock(own), "“\(query)”: a \(language) state, made in \(other)")
                    #expect(theirs.rows.prefix(10) == own.rows.prefix(10), "“\(query)”: rows of a \(language) state, made in \(other)")
                    for row in own.rows.prefix(10) {
                        #expect(theirs.clock?.time(in: row.timeZone) == own.clock?.time(in: row.timeZone))
                    }
                }
                shown.append(own)
                states.append(state)
            }
            // One view model shown the three in turn (en, ko, ja, en): its memos keep nothing of the
            // language before.
            var sequence: [CityListState] = []
            let one = made(.ko)
            _ = one.present(Publishers.Sequence(sequence: states + [states[0]]).eraseToAnyPublisher()).sink { sequence.append($0) }
            #expect(sequence.count == 4, "“\(query)”: \(sequence.count) states")
            for (i, state) in sequence.enumerated() where i < 4 {
                let own = shown[i % 3]
                #expect(Self.withoutClock(state) == Self.withoutClock(own), "“\(query)”: the \(i + 1)th state of one view model")
                #expect(state.rows.prefix(10) == own.rows.prefix(10), "“\(query)”: rows of the \(i + 1)th state")
                for row in own.rows.prefix(10) { #expect(state.clock?.time(in: row.timeZone) == own.clock?.time(in: row.timeZone)) }
            }
            #expect(Set(shown.map(\.summary)).count == 3, "“\(query)”: \(shown.map(\.summary))")
            if query != "qqqzzx" {
                #expect(Set(shown.map { $0.rows.prefix(1).map(\.country) }).count == 3, "“\(query)”: \(shown.map { $0.rows.prefix(1) })")
            }
        }
    }

    /// What the help is given is keys and key names: its lines are said in the state's language.
    @Test func theHelpSaysItsLinesInItsStatesLanguage() {
        let screen = [HelpEntry(key: .text("↑ ↓  j k"), label: .key(.helpKeyMove)), HelpEntry(key: .text("PgUp PgDn"), label: .key(.helpKeyPage))]
        let global = [HelpEntry(key: .key(.helpMouseClick), label: .key(.helpMouseClickLabel))]
        func made(_ language: Language) -> HelpViewModel { HelpViewModel(screen: screen, global: global, l10n: .bundled(language)) }
        var shown: [HelpState] = []
        for language in Self.languages {
            let state = HelpViewModel.State(l10n: .bundled(language))
            let own = made(language).present(state)
            for other in Self.languages { #expect(made(other).present(state) == own, "a \(language) help, made in \(other)") }
            #expect(own.allScreen.map(\.label) == [L10n.bundled(language)[.helpKeyMove], L10n.bundled(language)[.helpKeyPage]])
            shown.append(own)
        }
        #expect(Set(shown.map { $0.allScreen.map(\.label) }).count == 3 && Set(shown.map { $0.allGlobal.map(\.key) }).count == 3,
                "\(shown.map(\.allGlobal))")
        // The overlay's own words (title, headings) are the state's too.
        #expect(shown.map(\.labels.title) == Self.languages.map { L10n.bundled($0)[.helpTitle] })
        #expect(Set(shown.map(\.labels.screenHeading)).count == 3)
        // One help shown in one language after another, filtered on the way: what it says is
        // remembered for a language, and said again when the language changes.
        let one = made(.en)
        for (language, filter) in [(Language.en, ""), (.ko, ""), (.ko, "g"), (.ja, ""), (.en, "")] {
            var state = HelpViewModel.State(l10n: .bundled(language))
            state.filter = filter
            #expect(one.present(state) == made(language).present(state), "\(language), filter '\(filter)'")
        }
    }

    /// A map is given cities, not names: its places are named in the state's language.
    @Test func aMapNamesItsPlacesInItsStatesLanguage() throws {
        let busan = City(id: 1838524, name: "Busan", countryCode: "KR", latitude: 35.1028, longitude: 129.0403, population: 3_678_555,
                         timeZone: "Asia/Seoul", alternateNames: ["부산", "釜山"], localNames: CityLocalNames(japanese: "釜山", korean: "부산"))
        let immediate = DispatchQueue.immediate.eraseToAnyScheduler()
        func made(_ language: Language) -> CityMapViewModel {
            CityMapViewModel(city: .seoul, showMap: ShowCityMapUseCase(repository: FakeMapRepository()), l10n: .bundled(language),
                             units: .metric, scheduler: immediate, renderScheduler: immediate)
        }
        var labels: [[String]] = []
        for language in Self.languages {
            var state = CityMapViewModel.State(city: .seoul, l10n: .bundled(language), zoom: .country, style: .braille, canShowQuakes: false)
            _ = CityMapViewModel.reduce(&state, .sized(MapSize(cols: 40, rows: 20)))
            let request = try #require(state.request)
            let snapshot = MapSnapshot(key: request.key, rows: [], marker: (x: 20, y: 10), kilometresPerColumn: 10,
                                       projection: MapProjection(request))
            _ = CityMapViewModel.reduce(&state, .cached(request, snapshot))
            _ = CityMapViewModel.reduce(&state, .places([MapMarker.place(busan)]))
            let own = try #require(made(language).present(state))
            for other in Self.languages { #expect(made(other).present(state) == own, "a \(language) map, made in \(other)") }
            labels.append(own.markers.map(\.label))
        }
        #expect(labels == [["Busan"], ["부산"], ["釜山"]])
    }

    /// A city's warnings are given as data: the overlay says them in its state's language, the same
    /// as an overlay made in that language, whatever its first language was.
    @Test func theWarningsAreSaidInTheirStatesLanguage() {
        let warning = WeatherWarning(id: "w", source: .meteoAlarm, event: "Heat Warning", severity: .moderate, headline: nil,
                                     description: "Hot.", instruction: "Drink water.", sender: "KMA", effective: Self.now,
                                     onset: nil, expires: Self.now.addingTimeInterval(86_400), language: "en")
        let zone = WeatherFormatter(l10n: .bundled(.en), units: .metric, zones: SystemZoneDatabase.forTests).zone(for: .seoul)
        let shown = WarningsShown(warnings: [warning], city: .seoul, now: Self.now, clock: .h12, zone: zone)
        var texts: [WarningsText] = []
        for language in Self.languages {
            let state = WarningsViewModel.State(l10n: .bundled(language), scroll: 2)
            let own = WarningsViewModel(shown: shown, l10n: .bundled(language)).present(state)
            for other in Self.languages {
                #expect(WarningsViewModel(shown: shown, l10n: .bundled(other)).present(state) == own, "\(language) warnings, made in \(other)")
            }
            #expect(own.text.title.contains(CityNameChoice.name(.seoul, language: language)) && own.scroll == 2)
            texts.append(own.text)
        }
        #expect(Set(texts.map(\.title)).count == 3 && Set(texts.map { $0.lines.map(\.text) }).count == 3, "\(texts.map(\.title))")
        // One overlay shown the three in turn says each in its own language.
        let one = WarningsViewModel(shown: shown, l10n: .bundled(.ko))
        for (i, language) in (Self.languages + [.en]).enumerated() {
            #expect(one.present(WarningsViewModel.State(l10n: .bundled(language))).text == texts[i % 3], "the \(i + 1)th state")
        }
    }
}
