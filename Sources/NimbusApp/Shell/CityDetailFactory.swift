import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers
import OpenCombineShim

/// Makes city detail screens; every tab that opens a city shares one.
@MainActor
final class CityDetailFactory {
    let weather: WeatherRepository
    let air: AirQualityRepository?
    /// The official warnings and the climate normals (nil: the detail shows neither).
    let warnings: WarningsRepository?
    let normals: ClimateNormalsRepository?
    let likes: LikesRepository?
    let format: WeatherFormatter
    /// The settings' units and clock, which the details follow.
    let display: DisplayUnits
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// The app's work queue (nil in tapes and tests: everything at once).
    private let work: AnySchedulerOf<DispatchQueue>?
    let now: @Sendable () -> Date
    private let makePanel: (City) -> ScreenPanel?

    init(weather: WeatherRepository, air: AirQualityRepository?, warnings: WarningsRepository? = nil,
         normals: ClimateNormalsRepository? = nil, likes: LikesRepository?, format: WeatherFormatter, display: DisplayUnits,
         scheduler: AnySchedulerOf<DispatchQueue>, work: AnySchedulerOf<DispatchQueue>? = nil, now: @escaping @Sendable () -> Date,
         makePanel: @escaping (City) -> ScreenPanel?) {
        self.weather = weather
        self.air = air
        self.warnings = warnings
        self.normals = normals
        self.likes = likes
        self.format = format
        self.display = display
        self.scheduler = scheduler
        self.work = work
        self.now = now
        self.makePanel = makePanel
    }

    /// - Parameters:
    ///   - withAir: whether the view model asks for the air too (one-line output shows none).
    ///   - withExtras: whether it asks for the official warnings and the normal for the date too
    ///     (the screen does; output that does not wait for them does not).
    func makeCityDetailViewModel(city: City, withAir: Bool = true, withExtras: Bool = false) -> CityDetailViewModel {
        CityDetailViewModel(city: city, forecast: GetForecastUseCase(repository: weather),
                            air: withAir ? air.map { GetAirQualityUseCase(repository: $0) } : nil,
                            warnings: withExtras ? warnings.map { GetWarningsUseCase(repository: $0, now: now) } : nil,
                            normals: withExtras ? normals.map { GetClimateNormalsUseCase(repository: $0) } : nil,
                            likes: likes.map { LikeCityUseCase(repository: $0) }, format: format,
                            display: display, scheduler: scheduler, work: work, now: now)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        CityDetailScreen(viewModel: makeCityDetailViewModel(city: city, withExtras: true), l10n: format.l10n, panel: makePanel(city),
                         scheduler: scheduler, ticks: Self.minutes(scheduler, now: now), onRoute: onRoute)
    }

    /// The clock a city's detail runs on: at the start of each minute of `now` (the local time moves
    /// on, a warning that expired goes).
    static func minutes(_ scheduler: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date) -> AnyPublisher<Date, Never> {
        Deferred { () -> AnyPublisher<Date, Never> in
            let untilNextMinute = 60 - now().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
            return scheduler.timerPublisher(every: .milliseconds(max(1, Int((untilNextMinute * 1000).rounded(.up)))))
                .autoconnect()
                .first()
                .flatMap { _ in scheduler.timerPublisher(every: .seconds(60)).autoconnect().map { _ in () }.prepend(()) }
                // (A hair past the minute: a timer that fires on the boundary reads a time just before it.)
                .map { _ in now().addingTimeInterval(0.001) }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
