import NimbusData
import Foundation
import Testing
import PropertyBased
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// What a view model shows follows from its state alone: the settings' units and clock, and the
/// language, are in the state (a change of them is an action like any other; a view model made in
/// one language shows a state in another as one made in that language does), and the memos that
/// spare work between states never show what an earlier state made.
@Suite struct PresentFromStateTests {
    static let now = Date(timeIntervalSince1970: 1_782_000_720) // 2026-06-21 09:12 KST

    /// Every choice of the settings: 2 systems × 2 temperatures × 3 winds × 2 clocks.
    static let displays: [DisplayUnits.Value] = [UnitSystem.metric, .imperial].flatMap { system in
        [UserSettings.Temperature.c, .f].flatMap { temperature in
            [UserSettings.Wind.kmh, .mph, .ms].flatMap { wind in
                [UserSettings.Clock.h24, .h12].map { DisplayUnits.Value(system: system, temperature: temperature, wind: wind, clock: $0) }
            }
        }
    }

    /// The strings of each language, loaded once.
    static let l10n: [Language: L10n] = Dictionary(uniqueKeysWithValues: [Language.en, .ko, .ja].map { ($0, L10n.bundled($0)) })

    static func detail(_ language: Language) -> CityDetailViewModel {
        CityDetailViewModel(city: .seoul, forecast: GetForecastUseCase(repository: WeatherRepositoryDouble.failing()),
                            air: GetAirQualityUseCase(repository: ScriptedAirRepository()), likes: nil,
                            format: WeatherFormatter(l10n: l10n[language]!, units: .metric, zones: SystemZoneDatabase.forTests),
                            scheduler: DispatchQueue.immediate.eraseToAnyScheduler(),
                            now: { Self.now })
    }

    /// A detail's state from one number: the settings, the language, the clock, the forecast (fresh,
    /// kept, failed or on its way), the air and the like all vary; the time is one of three minutes,
    /// so that states in other units or languages often come in the same minute.
    static func detailState(_ seed: Int) -> CityDetailViewModel.State {
        let n = abs(seed)
        var state = CityDetailViewModel.State(cityID: City.seoul.id, now: now.addingTimeInterval(Double(n / 23 % 3) * 60),
                                              display: displays[n % displays.count], l10n: l10n[[.en, .ko, .ja][n / 29 % 3]]!)
        state.started = true
        let errors: [WeatherError] = [.offline, .timedOut, .server(status: 502), .badResponse]
        switch n / 7 % 4 {
        case 0: break
        case 1: state.forecast.fetched = Fetched(value: .sample(temperature: Double(n % 80) - 30), fetchedAt: now, isCached: false)
        case 2: state.forecast.fetched = Fetched(value: .sample(temperature: Double(n % 45)), fetchedAt: now.addingTimeInterval(-7200),
                                                 isCached: true)
        default: state.forecast.error = errors[n / 3 % errors.count]
        }
        state.forecast.loading = n % 3 == 0
        if n / 11 % 2 == 0 { state.air.fetched = Fetched(value: .sample(us: Double(n % 300)), fetchedAt: now, isCached: n % 2 == 0) }
        state.liked = n / 13 % 2 == 0
        state.likeFailed = n / 17 % 5 == 0
        state.refreshAsked = n / 19 % 2 == 0
        return state
    }

    static func last(_ model: CityDetailViewModel, _ states: [CityDetailViewModel.State]) -> CityDetailState? {
        var last: CityDetailState?
        _ = model.present(Publishers.Sequence(sequence: states).eraseToAnyPublisher()).sink { last = $0 }
        return last
    }

    /// The same state shows the same, whatever states the detail showed before it (in other units,
    /// clocks, languages, minutes, forecasts) and whatever language the view model was made in:
    /// `present` is a function of the state.
    @Test func theSameStateShowsTheSameWhateverCameBefore() async {
        await propertyCheck(count: PropertyCount.scaled(default: 100), input: Gen.int().array(of: 1...12)) { seeds in
            let language = [Language.en, .ko, .ja][abs(seeds[0]) % 3]
            let states = seeds.map(Self.detailState)
            let alone = Self.last(Self.detail(language), [states.last!])
            let afterOthers = Self.last(Self.detail(language), states)
            #expect(alone != nil)
            #expect(afterOthers == alone, "\(states.map(\.display)) \(states.map(\.l10n.language))")
            // Made in the state's own language: the same.
            #expect(Self.last(Self.detail(states.last!.l10n.language), [states.last!]) == alone, "made in \(language)")
            // The same detail shown the same state twice in a row.
            #expect(Self.last(Self.detail(language), states + [states.last!]) == alone)
        }
    }

    /// A change in the settings reaches an open event's detail at once: its depth, its distance to the
    /// nearest town and its local time are written again.
    @Test func aQuakeDetailFollowsTheSettings() throws {
        let catalog = try CityCatalog.bundled()
        let pohang = catalog.city(try #require(catalog.ref(forID: 1839071)))
        let quake = Quake(id: "q", magnitude: 5.1, place: "feed's words", time: Date(timeIntervalSince1970: 1_782_000_000),
                          updated: Date(timeIntervalSince1970: 1_782_000_000), timeZoneOffsetMinutes: nil,
                          coordinate: Coordinate(latitude: 35.9, longitude: 129.2), depthKilometres: 10, url: nil, felt: nil,
                          alert: nil, tsunami: false, significance: nil, magnitudeType: nil, kind: nil, reviewed: true)
        let place = QuakePlace(city: pohang, kilometres: 20, bearing: 225, zone: "Asia/Seoul")
        let display = DisplayUnits(system: .metric)
        let model = QuakeDetailViewModel(
            quake: quake, place: place, likes: nil,
            format: QuakeFormatter(weather: WeatherFormatter(l10n: L10n.bundled(.en), units: .metric, zones: SystemZoneDatabase.forTests)),
            display: display, now: { quake.time })
        let states = TestObserver(model.transform(input: .init(events: Empty().eraseToAnyPublisher())).state)
        defer { states.cancel() }
        let metric = try #require(states.last)
        #expect(metric.title == "M 5.1 · 20 km SW of Pohang, South Korea")
        #expect(metric.facts.first == "Jun 21, 2026 00:00 UTC · Jun 21 09:00 at the epicentre")
        #expect(metric.facts.contains { $0.hasSuffix("· 10 km deep") || $0.contains("10 km") })
        display.value = .init(system: .imperial, clock: .h12)
        #expect(states.values.count == 2, "one new state, at once")
        let imperial = try #require(states.last)
        #expect(imperial.title == "M 5.1 · 12 mi SW of Pohang, South Korea")
        #expect(imperial.facts.first == "Jun 21, 2026 12:00 AM UTC · Jun 21 9:00 AM at the epicentre")
        #expect(imperial.facts.contains { $0.contains("6.2 mi") })
        #expect(!imperial.facts.joined().contains(" km"))
    }
}
