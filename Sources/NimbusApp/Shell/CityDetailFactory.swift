import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers

/// Makes city detail screens; every tab that opens a city shares one.
@MainActor
final class CityDetailFactory {
    let weather: WeatherRepository
    let air: AirQualityRepository?
    let likes: LikesRepository?
    let format: WeatherFormatter
    private let countries: CountryNames
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// The app's work queue (nil in tapes and tests: everything at once).
    private let work: AnySchedulerOf<DispatchQueue>?
    let now: @Sendable () -> Date
    private let makePanel: (City) -> ScreenPanel?

    init(weather: WeatherRepository, air: AirQualityRepository?, likes: LikesRepository?, format: WeatherFormatter, countries: CountryNames,
         scheduler: AnySchedulerOf<DispatchQueue>, work: AnySchedulerOf<DispatchQueue>? = nil, now: @escaping @Sendable () -> Date,
         makePanel: @escaping (City) -> ScreenPanel?) {
        self.weather = weather
        self.air = air
        self.likes = likes
        self.format = format
        self.countries = countries
        self.scheduler = scheduler
        self.work = work
        self.now = now
        self.makePanel = makePanel
    }

    /// - Parameter withAir: whether the view model asks for the air too (one-line output shows none).
    func makeCityDetailViewModel(city: City, withAir: Bool = true) -> CityDetailViewModel {
        CityDetailViewModel(city: city, forecast: GetForecastUseCase(repository: weather),
                            air: withAir ? air.map { GetAirQualityUseCase(repository: $0) } : nil,
                            likes: likes.map { LikeCityUseCase(repository: $0) }, format: format,
                            countries: countries, scheduler: scheduler, work: work, now: now)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        CityDetailScreen(viewModel: makeCityDetailViewModel(city: city), l10n: format.l10n, panel: makePanel(city),
                         scheduler: scheduler, onRoute: onRoute)
    }
}
