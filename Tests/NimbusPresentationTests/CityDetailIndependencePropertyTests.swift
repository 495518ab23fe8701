import NimbusData
import Foundation
import Testing
import PropertyBased
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// The forecast and the air are independent on the detail: for any interleaving of their answers,
/// failures and refreshes, the weather part of the screen is what it would be with no air at all,
/// and the air part is what it would be with a forecast that never came. The official warnings and
/// the archive's normals are independent of the forecast too: whatever they answer or however they
/// fail, the forecast part is what it would be without them.
@Suite struct CityDetailIndependencePropertyTests {
    enum Step: CaseIterable {
        case forecastCached, forecastFresh, forecastFinished, forecastFailed
        case airCached, airFresh, airFinished, airFailed
        case warningsAnswered, warningsFailed, normalFailed
        case refresh
    }

    static let errors: [WeatherError] = [.offline, .timedOut, .server(status: 502), .badResponse, .rateLimited]
    static let warningsErrors: [WarningsError] = [.offline, .timedOut, .server(status: 503), .badResponse, .tooLarge, .regionUnknown]
    static let climateErrors: [ClimateError] = [.offline, .timedOut, .server(status: 500), .badResponse]
    static let now = Date(timeIntervalSince1970: 1_782_000_720)

    /// One detail on scripted repositories: `air` nil for a detail with no air source.
    final class Harness {
        let weather = ScriptedWeatherRepository()
        let air = ScriptedAirRepository()
        let warnings = ScriptedWarningsRepository()
        let normals = ScriptedNormalsRepository()
        let events = PassthroughSubject<CityDetailViewModel.Event, Never>()
        let scheduler = DispatchQueue.test
        var last: CityDetailState?
        var cancellable: AnyCancellable?

        /// `withExtras`: the warnings and the normals too.
        init(withAir: Bool, withExtras: Bool = false) {
            let viewModel = CityDetailViewModel(
                city: .seoul, forecast: GetForecastUseCase(repository: weather),
                air: withAir ? GetAirQualityUseCase(repository: air) : nil,
                warnings: withExtras ? GetWarningsUseCase(repository: warnings, now: { CityDetailIndependencePropertyTests.now }) : nil,
                normals: withExtras ? GetClimateNormalsUseCase(repository: normals) : nil, likes: nil,
                format: WeatherFormatter(l10n: L10n.bundled(.en), units: .metric, zones: SystemZoneDatabase.forTests),
                scheduler: scheduler.eraseToAnyScheduler(), now: { CityDetailIndependencePropertyTests.now })
            cancellable = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
                .state.sink { [weak self] in self?.last = $0 }
            events.send(.appeared)
            scheduler.advance()
        }

        func settle() { scheduler.advance() }
    }

    @Test func eitherSideNeverChangesTheOther() async {
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Gen.int().array(of: 1...25)) { seeds in
            let both = Harness(withAir: true)
            let weatherOnly = Harness(withAir: false)
            let airOnly = Harness(withAir: true)
            for seed in seeds {
                let step = Step.allCases[abs(seed) % Step.allCases.count]
                let value = Double(abs(seed / 16) % 40)
                let error = Self.errors[abs(seed / 3) % Self.errors.count]
                let age = Double(abs(seed / 5) % 7200)
                let forecast = Fetched(value: Forecast.sample(temperature: value), fetchedAt: Self.now.addingTimeInterval(-age),
                                       isCached: step == .forecastCached)
                let air = Fetched(value: AirQuality.sample(us: value * 7), fetchedAt: Self.now.addingTimeInterval(-age),
                                  isCached: step == .airCached)
                switch step {
                case .forecastCached, .forecastFresh:
                    for h in [both, weatherOnly] { h.weather.subject.send(forecast) }
                case .forecastFinished:
                    for h in [both, weatherOnly] { h.weather.subject.send(completion: .finished) }
                case .forecastFailed:
                    for h in [both, weatherOnly] { h.weather.subject.send(completion: .failure(error)) }
                case .airCached, .airFresh:
                    for h in [both, airOnly] { h.air.subject.send(air) }
                case .airFinished:
                    for h in [both, airOnly] { h.air.subject.send(completion: .finished) }
                case .airFailed:
                    for h in [both, airOnly] { h.air.subject.send(completion: .failure(error)) }
                case .warningsAnswered, .warningsFailed, .normalFailed:
                    break // (the extras' own property, below)
                case .refresh:
                    for h in [both, weatherOnly, airOnly] { h.events.send(.refreshRequested) }
                }
                for h in [both, weatherOnly, airOnly] { h.settle() }
                #expect(both.last?.weather == weatherOnly.last?.weather, "\(step)")
                #expect(both.last?.notice == weatherOnly.last?.notice, "\(step)")
                #expect(both.last?.air == airOnly.last?.air, "\(step)")
                #expect(weatherOnly.last?.air == nil)
                #expect(both.weather.requests.count == both.air.requests.count, "one air request with each forecast request")
            }
        }
    }

    @Test func theWarningsAndTheArchiveNeverChangeTheForecast() async {
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Gen.int().array(of: 1...25)) { seeds in
            let extras = Harness(withAir: false, withExtras: true)
            let plain = Harness(withAir: false)
            for seed in seeds {
                let step = Step.allCases[abs(seed) % Step.allCases.count]
                let value = Double(abs(seed / 16) % 40)
                let age = Double(abs(seed / 5) % 7200)
                let error = Self.errors[abs(seed / 3) % Self.errors.count]
                let forecast = Fetched(value: Forecast.sample(temperature: value), fetchedAt: Self.now.addingTimeInterval(-age),
                                       isCached: step == .forecastCached)
                switch step {
                case .forecastCached, .forecastFresh:
                    for h in [extras, plain] { h.weather.subject.send(forecast) }
                case .forecastFinished:
                    for h in [extras, plain] { h.weather.subject.send(completion: .finished) }
                case .forecastFailed:
                    for h in [extras, plain] { h.weather.subject.send(completion: .failure(error)) }
                case .warningsAnswered:
                    let expires = Self.now.addingTimeInterval(age - 3600)
                    let warning = CityDetailReduceTests.warning(String(seed), .severe, expires: expires)
                    extras.warnings.subject.send(WarningsReport(warnings: [warning], source: .nws, checkedAt: Self.now.addingTimeInterval(-age),
                                                                isCached: seed % 2 == 0))
                case .warningsFailed:
                    extras.warnings.subject.send(completion: .failure(Self.warningsErrors[abs(seed / 3) % Self.warningsErrors.count]))
                case .normalFailed:
                    extras.normals.subject.send(completion: .failure(Self.climateErrors[abs(seed / 3) % Self.climateErrors.count]))
                case .airCached, .airFresh, .airFinished, .airFailed:
                    break
                case .refresh:
                    for h in [extras, plain] { h.events.send(.refreshRequested) }
                }
                for h in [extras, plain] { h.settle() }
                #expect(extras.last?.weather == plain.last?.weather, "\(step)")
                #expect(extras.last?.notice == plain.last?.notice, "\(step)")
                #expect(plain.last?.warnings == nil)
                #expect(extras.weather.requests.count == plain.weather.requests.count, "the extras ask for no forecast")
            }
        }
    }
}
