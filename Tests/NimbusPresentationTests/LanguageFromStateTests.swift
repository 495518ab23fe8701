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
        for language in Self.languages {
            let state = WishlistViewModel.State(l10n: .bundled(language), entries: entries, loaded: true, confirming: true,
                                                message: .failed(.storage))
            let own = made(language).present(state)
            for other in Self.languages { #expect(made(other).present(state) == own, "a \(language) state, made in \(other)") }
            shown.append(own)
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
}
