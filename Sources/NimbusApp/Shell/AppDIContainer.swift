import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers
import Logging
import OpenCombineShim

/// The composition root: the long-lived services, each made when first used (a one-shot command
/// builds only what it uses), and the scene containers that make each tab's objects from them.
public final class AppDIContainer {
    public let configuration: Configuration
    public let l10n: L10n
    let catalog: CityCatalog
    public var cityRepository: CityRepository { catalog }
    /// Offline reverse geocoding over the catalogue (its k-d tree is built on first use); thread-safe.
    let locator: CatalogCityLocator
    public var cityLocator: CityLocating { locator }
    private let retrying: RetryingHTTPClient

    /// Loads the city catalogue and the strings; throws a `CityCatalogError` when the catalogue can't be read.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        l10n = L10n.bundled(Language.resolve(environment: configuration.environment))
        switch configuration.catalog {
        case .bundled: catalog = try CityCatalog.bundled()
        case .large: catalog = try CityCatalog(contentsOf: CityCatalog.largeTierURL(environment: configuration.environment))
        case .file(let url): catalog = try CityCatalog(contentsOf: url)
        }
        locator = CatalogCityLocator(catalog: catalog)
        retrying = RetryingHTTPClient(configuration.httpClient, scheduler: configuration.scheduler, now: configuration.now,
                                      jitter: configuration.retryJitter,
                                      logger: configuration.log.isOn ? configuration.log.logger(.http) : nil)
    }

    // MARK: Settings

    /// `config.toml` under the command line and the environment: what every screen and the app
    /// follow. Its changes go on the user database's change log, so `z` undoes them in turn with the rest.
    public private(set) lazy var settings: SettingsStore = {
        let catalog = self.catalog
        return SettingsStore(file: ConfigFile(environment: configuration.environment, isCity: { catalog.ref(forID: $0) != nil }),
                             flags: configuration.settingsFlags, environment: configuration.environment,
                             io: configuration.settingsScheduler ?? configuration.scheduler, deliver: configuration.scheduler,
                             changeLog: userDatabase.changeLog)
    }()
    /// The settings as the frame uses them, with the terminal's colours.
    public private(set) lazy var preferences = AppPreferences(
        settings: settings, environment: configuration.environment,
        monochrome: !configuration.colors || !(configuration.environment["NO_COLOR"] ?? "").isEmpty)
    /// Temperatures, speeds and the clock as the settings say now: every formatter reads them.
    public private(set) lazy var display: DisplayUnits = {
        let environment = configuration.environment
        let units = DisplayUnits(preferences.resolved.units)
        displayFollowsSettings = settings.contents
            .map { ResolvedSettings($0.effective, environment: environment).units }
            .sink { units.value = $0 }
        return units
    }()
    private var displayFollowsSettings: AnyCancellable?

    /// The system's zone database (`$TZDIR`, else /usr/share/zoneinfo): every local time is read from it.
    public private(set) lazy var zones: SystemZoneDatabase = {
        let zones = SystemZoneDatabase(environment: configuration.environment)
        logger(.weather)?.info("\(zones.summary)")
        return zones
    }()

    // MARK: Network

    /// The shared client as the service for `subject` uses it: retried after a 429, a 503 or a failed
    /// connection (waits timed by the app's scheduler; the status bar counts them down and names
    /// `subject`), and logged with `for=` its subsystem when logging is on.
    func httpClient(for subject: RequestSubject) -> HTTPClient {
        let client = retrying.client(for: subject)
        guard configuration.log.isOn else { return client }
        let subsystem: LogSubsystem = subject == .earthquakes ? .quakes : subject == .films ? .tmdb : .weather
        return LoggingHTTPClient(client, logger: configuration.log.logger(.http), subsystem: subsystem.rawValue)
    }

    /// The retries being waited for, for the status bar.
    public var retryStatus: HTTPRetryStatus { retrying.status }

    func logger(_ subsystem: LogSubsystem) -> Logger? { configuration.log.isOn ? configuration.log.logger(subsystem) : nil }

    private var cacheDirectory: URL { WeatherCache.defaultDirectory(environment: configuration.environment) }

    /// Open-Meteo (or `NIMBUS_WEATHER_URL`) with the forecast and Today caches under `$XDG_CACHE_HOME/nimbus`.
    public private(set) lazy var weatherRepository: WeatherRepository = {
        let baseURL = OpenMeteoWeatherRepository.baseURL(environment: configuration.environment)
        logger(.weather)?.info("forecasts from \(LogRedaction.url(baseURL)), kept in \(cacheDirectory.path)")
        return OpenMeteoWeatherRepository(
            client: httpClient(for: .forecast), baseURL: baseURL, cache: WeatherCache(directory: cacheDirectory),
            placesCache: WeatherCache(directory: cacheDirectory, folder: "today"), now: configuration.now, logger: logger(.weather))
    }()
    /// Open-Meteo's air-quality API (or `NIMBUS_AIR_URL`), kept under `$XDG_CACHE_HOME/nimbus/air`.
    public private(set) lazy var airQualityRepository: AirQualityRepository = {
        let baseURL = OpenMeteoAirQualityRepository.baseURL(environment: configuration.environment)
        logger(.weather)?.info("air quality from \(LogRedaction.url(baseURL))")
        return OpenMeteoAirQualityRepository(
            client: httpClient(for: .airQuality), baseURL: baseURL,
            cache: WeatherCache(directory: cacheDirectory, folder: "air", maxBytes: OpenMeteoAirQualityRepository.maxBytes),
            now: configuration.now, logger: logger(.weather))
    }()
    /// The USGS feeds (or `NIMBUS_QUAKES_URL`), kept under `$XDG_CACHE_HOME/nimbus/quakes`.
    public private(set) lazy var quakeRepository: QuakeRepository = {
        let baseURL = USGSQuakeRepository.baseURL(environment: configuration.environment)
        logger(.quakes)?.info("earthquake feeds from \(LogRedaction.url(baseURL))")
        return USGSQuakeRepository(client: httpClient(for: .earthquakes), baseURL: baseURL,
                                   cache: QuakeFeedCache(directory: cacheDirectory), now: configuration.now, logger: logger(.quakes))
    }()

    // MARK: Data

    /// The user's own data, opened on first use; every store's migration is listed here, in a fixed order.
    public var userDatabase: UserDatabase {
        if let openedUserDatabase { return openedUserDatabase }
        let database = UserDatabase.openOrKeepInMemory(
            environment: configuration.environment,
            migrations: [WishlistStore.migration] + MovieHistoryStore.migrations + [LikesStore.migration])
        logger(.db)?.info("user database \(database.url?.path ?? "in memory"): \(database.status)")
        openedUserDatabase = database
        return database
    }
    private var openedUserDatabase: UserDatabase?

    /// Has the stores read the user database again if another process changed it (see
    /// `UserDatabase.refreshIfChangedElsewhere`); nothing when no screen has opened it yet.
    func refreshUserDataChangedElsewhere() {
        openedUserDatabase?.refreshIfChangedElsewhere()
    }
    public private(set) lazy var likesStore: LikesRepository = LikesStore(database: userDatabase, now: configuration.now)

    private var openedMovies: MovieCatalogue?
    /// The bundled film catalogue, opened when first asked for; commands that must say why it can't
    /// be opened ask `openMovieCatalogue()` first.
    public var movieCatalogue: MovieCatalogue {
        // Every entry point opens it with `openMovieCatalogue()` before it is needed, and stops there when it fails.
        // swiftlint:disable:next force_try
        openedMovies ?? (try! openMovieCatalogue())
    }

    /// Opens the film catalogue now; throws a `MovieError` when it can't be.
    @discardableResult
    public func openMovieCatalogue() throws -> MovieCatalogue {
        if let openedMovies { return openedMovies }
        let movies = try MovieCatalogue.bundled()
        openedMovies = movies
        return movies
    }

    lazy var movieServices = MovieSources.services(container: self)

    /// The saved films as the app's wishlist store publishes them (what its screens show).
    public var wishlistContents: AnyPublisher<[WishlistEntry], Never> { movieServices.wishlist.contents }

    /// The catalogue's city with GeoNames id `id`, if the loaded catalogue has it: the one lookup of the app.
    public var cityLookup: @Sendable (Int) -> City? {
        let catalog = self.catalog
        return { id in catalog.ref(forID: id).map { catalog.city($0) } }
    }

    public func city(id: Int) -> City? { cityLookup(id) }

    /// Events near the catalogue's cities and my places.
    func makeQuakesUseCase() -> QuakesUseCase {
        QuakesUseCase(repository: quakeRepository, locator: locator, cities: catalog, regions: FlinnEngdahlRegions.onFirstUse)
    }

    /// `locationProvider` as the settings change it (Home), for the screens that locate the user.
    lazy var homeFollowingLocation: HomeFollowingLocation = followHome()
    var homeChanges: AnyCancellable?

    /// City maps: the snapshot cache and the land data, made on first use (never before the first frame).
    public private(set) lazy var map: MapSceneDIContainer = {
        let cache = MapSnapshotCache(countLimit: MapSceneDIContainer.countLimit, totalCostLimit: MapSceneDIContainer.totalCostLimit)
        // The map container lives inside this one: its questions about the settings come back here.
        return MapSceneDIContainer(
            repository: .bundled(cache: cache, nearestPlace: { [locator] in locator.nearestPlace(to: $0) }),
            l10n: l10n, currentUnits: { [unowned self] in display.value.system }, scheduler: configuration.scheduler,
            renderScheduler: configuration.renderScheduler ?? configuration.scheduler,
            mapStyle: { [unowned self] in preferences.mapStyle },
            mapStyleChanged: { [unowned self] style in
                SettingsUseCase(repository: settings).choose { $0.mapStyle = style == .braille ? .braille : .blocks }
            },
            mouse: { [unowned self] in preferences.mouse }, towns: mapTowns)
    }()
}
