import Foundation
import Testing
import PropertyBased
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
import NimbusData
@testable import NimbusPresentation
import TestSupport

/// A city list under random use (queries typed, rows scrolled into view, selections, likes, `r`,
/// time passing), made with the weather and with or without a formatter. Invariants: a list that
/// cannot write temperatures (no formatter) asks for none; one that can asks only for cities of rows
/// it was shown. `NIMBUS_PROPERTY_COUNT` raises the number of cases.
@MainActor
struct CityListTemperaturePropertyTests {
    private enum Step {
        case event(CityListViewModel.Event)
        case advance(milliseconds: Int)
    }

    private static let queries = ["", "s", "se", "seo", "busan", "xyz"]

    private static func step(_ seed: Int) -> Step {
        let n = abs(seed % 1_000_000)
        switch n % 7 {
        case 0: return .event(.queryChanged(queries[n / 7 % queries.count]))
        case 1, 2:
            let start = n / 7 % 4
            return .event(.visibleRowsChanged(start..<(start + n / 28 % 4)))
        case 3: return .event(n / 7 % 2 == 0 ? .rowSelected(n / 14 % 4) : .likeToggled(n / 14 % 4))
        case 4: return .event(.retryRequested)
        default: return .advance(milliseconds: n / 7 % 8 * 100)
        }
    }

    @Test func temperaturesAreAskedForOnlyWhenTheyCanBeWrittenAndOnlyForRowsShown() async {
        await propertyCheck(count: PropertyCount.scaled(default: 100),
                            input: Gen.int().array(of: 1...40), Gen.bool()) { seeds, withFormatter in
            let l10n = L10n.bundled(.en)
            let repository = InMemoryCityRepository([.seoul, .saoPaulo, .busan, .seogwipo])
            let weather = ScriptedWeatherRepository()
            let scheduler = DispatchQueue.test
            let events = PassthroughSubject<CityListViewModel.Event, Never>()
            let viewModel = CityListViewModel(
                search: SearchCitiesUseCase(repository: repository), totalCount: repository.cityCount, l10n: l10n,
                scheduler: scheduler.eraseToAnyScheduler(),
                temperatures: GetCurrentTemperaturesUseCase(repository: weather),
                format: withFormatter ? WeatherFormatter(l10n: l10n, units: .metric, zones: SystemZoneDatabase.forTests) : nil,
                likes: LikeCityUseCase(repository: InMemoryLikes()))
            let state = TestObserver(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state)
            // Every city a row showed, by coordinate: the only places a request may name.
            var shown = Set<String>()
            func key(_ c: Coordinate) -> String { "\(c.latitude),\(c.longitude)" }
            func note() {
                for row in state.values.last?.rows.prefix(8) ?? [] {
                    if let city = repository.cities.first(where: { $0.id == row.cityID }) { shown.insert(key(city.coordinate)) }
                }
            }
            events.send(.queryChanged(""))
            scheduler.advance()
            note()
            for step in seeds.map(Self.step) {
                switch step {
                case .event(let event): events.send(event)
                case .advance(let milliseconds): scheduler.advance(by: .milliseconds(milliseconds))
                }
                note()
            }
            scheduler.advance(by: .seconds(2))
            if !withFormatter {
                #expect(weather.batches.isEmpty, "no formatter, yet asked for \(weather.batches)")
            }
            for place in weather.batches.joined() {
                #expect(shown.contains(key(place)), "asked for \(place), which no row showed")
            }
        }
    }
}
