import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI
import CombineSchedulers
import Logging
import OpenCombineShim

/// Which city catalogue to load.
public enum CatalogChoice: Equatable, Sendable {
    /// The bundled cities15000 tier (~34k cities).
    case bundled
    /// The cities1000 tier generated into the user's data directory.
    case large
    /// A catalogue file given on the command line.
    case file(URL)
}

/// Builds and owns the long-lived services; per-tab containers make each tab's objects.
public final class AppDIContainer {
    public struct Configuration {
        public var environment: [String: String]
        public var catalog: CatalogChoice
        /// The position given with `--location`.
        public var location: GeoPoint?
        public var scheduler: AnySchedulerOf<DispatchQueue>
        public var colors: Bool
        /// How requests go out: the one HTTP client of the app, shared by weather and films. Offline
        /// by default (every request fails as unreachable), so nothing but the real app (`Run`, a
        /// `LiveHTTPClient`) and tapes with `Serve` ever makes a request.
        public var httpClient: HTTPClient
        /// Scales each retry's backoff (a number in 0..<1): random, but fixed in tapes so their
        /// retries, timed by the virtual clock, come at the same moment every run.
        public var retryJitter: @Sendable () -> Double = { Double.random(in: 0..<1) }
        /// The log (`NIMBUS_LOG`, `--log-file`): off unless the real app was asked for one.
        public var log: NimbusLog = .off
        /// The wall clock (tapes pin it).
        public var now: @Sendable () -> Date
        /// Where maps are drawn; nil draws them on `scheduler` (tapes and tests: deterministic).
        public var renderScheduler: AnySchedulerOf<DispatchQueue>?
        /// Where other work leaves the main thread (finding the nearest city); nil does it on `scheduler`.
        /// A serial queue: `receive(on:)` a concurrent one may deliver a completion before the value.
        public var workScheduler: AnySchedulerOf<DispatchQueue>?
        /// Settings given on the command line (`--units`, `--theme`, `--map-style`): above all others.
        public var settingsFlags = UserSettings()
        /// Mouse reporting: clicks, the wheel and drags reach the screens (`--no-mouse`, `NIMBUS_MOUSE=0` turn it off).
        public var mouse: Bool = true

        public init(environment: [String: String], catalog: CatalogChoice = .bundled, location: GeoPoint? = nil,
                    scheduler: AnySchedulerOf<DispatchQueue>, colors: Bool = true, httpClient: HTTPClient = OfflineHTTPClient(),
                    now: @escaping @Sendable () -> Date = { Date() },
                    renderScheduler: AnySchedulerOf<DispatchQueue>? = nil, workScheduler: AnySchedulerOf<DispatchQueue>? = nil) {
            self.environment = environment
            self.catalog = catalog
            self.location = location
            self.scheduler = scheduler
            self.colors = colors
            self.httpClient = httpClient
            self.now = now
            self.renderScheduler = renderScheduler
            self.workScheduler = workScheduler
        }
    }

    public let configuration: Configuration
    public let l10n: L10n
    /// The theme and map style, as they are now (the one place they change).
    public var preferences: AppPreferences
    public let cityRepository: CityRepository
    let catalog: CityCatalog
    /// Country names in the UI language, shared by every screen that shows them.
    public let countryNames: CountryNames
    /// Temperatures, speeds and the clock as the settings say now: every formatter reads them.
    public let display: DisplayUnits
    /// The units system now (pressures, distances).
    public var units: UnitSystem { display.value.system }
    /// `config.toml`.
    public let configFile: ConfigFile
    /// The settings as saved in the file (what the settings screen changes and saves).
    public private(set) var savedSettings: UserSettings
    /// What was wrong with the file when it was read; while there is anything, it is never written.
    public private(set) var configProblems: [ConfigFile.Problem]
    private var configWritable: Bool
    /// Keys changed on the settings screen whose save failed: written with the next change.
    private var unsavedKeys: [UserSettings.Key] = []
    /// Open-Meteo (or `NIMBUS_WEATHER_URL`) with the forecast and Today caches under `$XDG_CACHE_HOME/nimbus`.
    public private(set) lazy var weatherRepository: WeatherRepository = {
        let baseURL = OpenMeteoWeatherRepository.baseURL(environment: configuration.environment)
        let directory = WeatherCache.defaultDirectory(environment: configuration.environment)
        configuration.log.logger(.weather).info("forecasts from \(LogRedaction.url(baseURL)), kept in \(directory.path)")
        return OpenMeteoWeatherRepository(
            client: httpClient(for: .weather), baseURL: baseURL, cache: WeatherCache(directory: directory),
            placesCache: WeatherCache(directory: directory, folder: "today"), now: configuration.now,
            logger: configuration.log.isOn ? configuration.log.logger(.weather) : nil)
    }()
    /// Open-Meteo's air-quality API (or `NIMBUS_AIR_URL`), kept under `$XDG_CACHE_HOME/nimbus/air`.
    public private(set) lazy var airQualityRepository: AirQualityRepository = {
        let baseURL = OpenMeteoAirQualityRepository.baseURL(environment: configuration.environment)
        let directory = WeatherCache.defaultDirectory(environment: configuration.environment)
        configuration.log.logger(.weather).info("air quality from \(LogRedaction.url(baseURL))")
        return OpenMeteoAirQualityRepository(
            client: httpClient(for: .weather), baseURL: baseURL,
            cache: WeatherCache(directory: directory, folder: "air", maxBytes: OpenMeteoAirQualityRepository.maxBytes),
            now: configuration.now, logger: configuration.log.isOn ? configuration.log.logger(.weather) : nil)
    }()
    /// The USGS feeds (or `NIMBUS_QUAKES_URL`), kept under `$XDG_CACHE_HOME/nimbus/quakes`.
    public private(set) lazy var quakeRepository: QuakeRepository = {
        let baseURL = USGSQuakeRepository.baseURL(environment: configuration.environment)
        configuration.log.logger(.quakes).info("earthquake feeds from \(LogRedaction.url(baseURL))")
        return USGSQuakeRepository(
            client: httpClient(for: .quakes), baseURL: baseURL,
            cache: QuakeFeedCache(directory: WeatherCache.defaultDirectory(environment: configuration.environment)),
            now: configuration.now, logger: configuration.log.isOn ? configuration.log.logger(.quakes) : nil)
    }()
    /// The bundled film catalogue.
    public let movieCatalogue: MovieCatalogue
    /// The user's own data, opened on first use; every store's migration is listed here, in a fixed order.
    public var userDatabase: UserDatabase {
        if let openedUserDatabase { return openedUserDatabase }
        let database = UserDatabase.openOrKeepInMemory(
            environment: configuration.environment,
            migrations: [WishlistStore.migration, MovieHistoryStore.migration, LikesStore.migration])
        configuration.log.logger(.db).info("user database \(database.url?.path ?? "in memory"): \(database.status)")
        openedUserDatabase = database
        return database
    }
    private var openedUserDatabase: UserDatabase?

    /// Has the stores read the user database again if another process changed it (see
    /// `UserDatabase.refreshIfChangedElsewhere`); nothing when no screen has opened it yet.
    func refreshUserDataChangedElsewhere() {
        openedUserDatabase?.refreshIfChangedElsewhere()
    }
    private lazy var movieServices: MovieServices = makeMovieServices()

    /// The saved films as the app's wishlist store publishes them (what its screens show).
    public var wishlistContents: AnyPublisher<[WishlistEntry], Never> { movieServices.wishlist.contents }

    /// Loads the catalogue and strings; throws a `CityCatalogError` when the catalogue can't be read.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        retryingClient = RetryingHTTPClient(configuration.httpClient, scheduler: configuration.scheduler,
                                            now: configuration.now, jitter: configuration.retryJitter,
                                            logger: configuration.log.isOn ? configuration.log.logger(.http) : nil)
        l10n = L10n.bundled(Language.resolve(environment: configuration.environment))
        let noColor = !(configuration.environment["NO_COLOR"] ?? "").isEmpty
        let catalog: CityCatalog
        switch configuration.catalog {
        case .bundled: catalog = try CityCatalog.bundled()
        case .large: catalog = try CityCatalog(contentsOf: CityCatalog.largeTierURL(environment: configuration.environment))
        case .file(let url): catalog = try CityCatalog(contentsOf: url)
        }
        self.catalog = catalog
        configFile = ConfigFile(environment: configuration.environment, isCity: { catalog.ref(forID: $0) != nil })
        let loaded = configFile.load()
        savedSettings = loaded.settings
        configProblems = loaded.problems
        configWritable = loaded.writable
        let resolved = ResolvedSettings.resolve(flags: configuration.settingsFlags, environment: configuration.environment,
                                                file: loaded.settings)
        preferences = AppPreferences(theme: .color, mapStyle: resolved.mapStyle)
        preferences.monochrome = !configuration.colors || noColor
        preferences.themeSetting = resolved.theme
        preferences.mouse = resolved.mouse
        preferences.defaultTab = resolved.defaultTab
        preferences.home = resolved.home
        preferences.updateTheme()
        countryNames = CountryNames(locale: l10n.locale)
        display = DisplayUnits(resolved.units)
        cityRepository = catalog
        locator = CatalogCityLocator(catalog: catalog)
        movieCatalogue = try MovieCatalogue.bundled()
    }

    /// The shared HTTP client: the configured one (the app's, a tape's scripted network, or offline),
    /// sending again what a 429, a 503 or a failed connection asks to wait for. Its waits are timed
    /// by the app's scheduler (the virtual clock in tapes and tests), which the status bar's
    /// countdown reads too.
    public var httpClient: HTTPClient { httpClient(for: nil) }
    private let retryingClient: RetryingHTTPClient

    /// The shared client as `subsystem` uses it: with logging on, each request is logged on the
    /// `http` logger with `for=subsystem`; off, the shared client itself (nothing in between).
    func httpClient(for subsystem: LogSubsystem?) -> HTTPClient {
        guard configuration.log.isOn else { return retryingClient }
        return LoggingHTTPClient(retryingClient, logger: configuration.log.logger(.http), subsystem: subsystem?.rawValue)
    }

    /// The retries being waited for, for the status bar.
    public var retryStatus: HTTPRetryStatus { retryingClient.status }

    /// TMDB when `TMDB_API_KEY` is set, else the bundled catalogue.
    private func makeMovieServices() -> MovieServices {
        let history = MovieHistoryStore(database: userDatabase, now: configuration.now)
        let wishlist = WishlistStore(database: userDatabase, now: configuration.now)
        let language = Self.tmdbLanguage(l10n.language)
        if let tmdb = TMDBMovieRepository.Configuration.from(environment: configuration.environment, language: language) {
            configuration.log.logger(.tmdb).info("films from TMDB at \(LogRedaction.url(tmdb.baseURL))")
            let logger = configuration.log.isOn ? configuration.log.logger(.tmdb) : nil
            return MovieServices(movies: TMDBMovieRepository(configuration: tmdb, client: httpClient(for: .tmdb), logger: logger),
                                 others: [movieCatalogue], history: history,
                                 wishlist: wishlist, statusSource: l10n.format(.statusSourceMoviesTmdb, language),
                                 idleMessage: l10n[.moviesIdleTmdb], dataStatus: userDatabase.status)
        }
        let count = l10n.number(movieCatalogue.movieCount)
        return MovieServices(movies: movieCatalogue, others: [], history: history, wishlist: wishlist,
                             statusSource: l10n.format(.statusSourceMoviesCatalogue, count),
                             idleMessage: l10n.format(.moviesIdleCatalogue, count),
                             dataStatus: userDatabase.status)
    }

    /// TMDB's `language` parameter for the UI language.
    static func tmdbLanguage(_ language: Language) -> String {
        switch language {
        case .en: "en-US"
        case .ko: "ko-KR"
        case .ja: "ja-JP"
        }
    }

    /// Offline reverse geocoding over the catalogue (its k-d tree is built on first use).
    public var cityLocator: CityLocating { locator }
    /// Thread-safe, and cheap until its k-d tree is first asked for (by the Today and Quakes tabs, or `warmUp`).
    let locator: CatalogCityLocator

    /// Where the user is: `--location`, `NIMBUS_LOCATION`, the home setting, then the system time zone.
    public var locationProvider: DeviceLocationProviding {
        var home: GeoPoint?
        switch preferences.home {
        case .point(let p)?: home = p
        case .city(let id)?: home = city(id: id).flatMap { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        case nil: break
        }
        return SystemLocationProvider(argument: configuration.location, environment: configuration.environment, home: home)
    }

    func makeLocateCurrentCityUseCase() -> LocateCurrentCityUseCase {
        LocateCurrentCityUseCase(provider: locationProvider, locator: cityLocator, cities: cityRepository)
    }

    public private(set) lazy var likesStore: LikesRepository = LikesStore(database: userDatabase, now: configuration.now)

    /// The notice for a database that was moved aside or could not be opened, in the UI language.
    var databaseNotice: String? {
        UserDataNotice.message(userDatabase.status, l10n: l10n)
    }

    /// City maps: the snapshot cache and the land data, made on first use (never before the first frame).
    public private(set) lazy var map: MapSceneDIContainer = {
        let cache = MapSnapshotCache(countLimit: MapSceneDIContainer.countLimit,
                                     totalCostLimit: MapSceneDIContainer.totalCostLimit)
        return MapSceneDIContainer(
            repository: .bundled(cache: cache,
                                 nearestPlace: { [locator] in locator.nearestPlace(to: $0) }),
            l10n: l10n, currentUnits: { [display] in display.value.system },
            scheduler: configuration.scheduler,
            renderScheduler: configuration.renderScheduler ?? configuration.scheduler,
            mapStyle: { [unowned self] in self.preferences.mapStyle },
            mapStyleChanged: { [unowned self] in self.preferences.mapStyle = $0 },
            mouse: configuration.mouse, towns: mapTowns)
    }()

    /// The catalogue's cities for the maps' town dots, named in the UI language's script.
    public var mapTowns: MapTownFinder {
        let catalog = self.catalog, language = l10n.language
        return MapTownFinder(count: catalog.cityCount, position: { catalog.position(at: $0) },
                             city: { catalog.city(CityRef(Int32($0))) }, language: language)
    }

    /// Switches to the colourless theme (the terminal has no colours).
    public func useMonochrome() {
        preferences.monochrome = true
        preferences.updateTheme()
    }

    /// The terminal's background (OSC 11), which the `auto` theme follows.
    public func useTerminalBackground(_ background: TerminalBackground?) {
        preferences.terminalBackground = background
        preferences.updateTheme()
    }

    /// The first problem of the config file, for the status bar.
    public var configNotice: String? { configProblems.first.map { Self.message($0, l10n: l10n) } }

    /// A config file's problem in the UI language (English says it as the file reader does).
    static func message(_ problem: ConfigFile.Problem, l10n: L10n) -> String {
        if l10n.language == .en { return problem.description }
        let text: String
        switch problem.reason {
        case .badValue(let key, let allowed):
            if allowed.isEmpty { text = l10n[.configHome] }
            else if key == UserSettings.Key.defaultTab.rawValue { text = l10n[.configTabRange] }
            else { text = l10n.format(.configMustBe, key, l10n.list(allowed)) }
        case .unknownCity(let id): text = l10n.format(.configHomeUnknown, String(id))
        case .notTOML: text = l10n[.configNotTOML]
        case .notAFile: return l10n[.configNotFile]
        case .tooLarge: return l10n.format(.configTooLarge, String(ConfigFile.maximumSize / 1024))
        case .unreadable: return l10n[.configUnreadable]
        case .notWritable(let why): return l10n.format(.configNotWritten, why)
        case .busy: return l10n[.configBusy]
        }
        guard let line = problem.line else { return "config.toml: " + text }
        return l10n.format(.configAtLine, String(line), text)
    }

    /// Why the last change was not saved (nil after a save).
    public private(set) var saveProblem: ConfigFile.Problem?

    /// Changes the saved settings, applies them at once and writes the keys that changed into the file,
    /// with those a failed save left unwritten (unless it could not be read cleanly at start-up, when it
    /// is left alone). Returns whether the file was written.
    @discardableResult
    public func changeSettings(_ change: (inout UserSettings) -> Void) -> Bool {
        let before = savedSettings
        change(&savedSettings)
        let changed = ConfigFile.keys(changedFrom: before, to: savedSettings)
        // The screen's choice wins over the command line and the environment from now on.
        var environment = configuration.environment
        for name in [ResolvedSettings.unitsVariable, ResolvedSettings.themeVariable, ResolvedSettings.mapStyleVariable] {
            environment[name] = nil
        }
        let resolved = ResolvedSettings.resolve(flags: UserSettings(), environment: environment, file: savedSettings)
        let units = resolved.units
        display.value = units
        preferences.themeSetting = resolved.theme
        preferences.mapStyle = resolved.mapStyle
        preferences.mouse = resolved.mouse
        preferences.defaultTab = resolved.defaultTab
        preferences.home = resolved.home
        preferences.updateTheme()
        guard configWritable else { return false }
        let keys = unsavedKeys + changed.filter { !unsavedKeys.contains($0) }
        switch configFile.save(savedSettings, keys: keys) {
        case .saved:
            unsavedKeys = []
            saveProblem = nil
            return true
        case .notSaved(let problem):
            unsavedKeys = keys
            saveProblem = problem
            return false
        }
    }

    /// Text on the right of the status bar: where the data comes from.
    var statusSource: String {
        switch userDatabase.status {
        case .saved: break
        case .recovered: return l10n[.statusDatabaseRecovered]
        case .notSaved: return l10n[.statusDatabaseNotSaved]
        }
        return citiesSource
    }

    /// "GeoNames · 34,006 cities", made once (the status bar shows it on every frame).
    private lazy var citiesSource = l10n.format(.statusSourceCities, l10n.number(cityRepository.cityCount))

    /// The Today tab opens cities, events and films with the screens of the tabs they belong to.
    @MainActor func makeTodaySceneDIContainer(quakes: QuakesSceneDIContainer,
                                              movies: MoviesSceneDIContainer) -> TodaySceneDIContainer {
        let catalog = self.catalog
        return TodaySceneDIContainer(
            sources: { [unowned self] in
                TodayViewModel.Sources(
                    locate: makeLocateCurrentCityUseCase(),
                    liked: GetLikedCitiesUseCase(likes: likesStore, lookup: { id in catalog.ref(forID: id).map { catalog.city($0) } }),
                    weather: GetPlacesTodayUseCase(repository: weatherRepository),
                    quakes: QuakesUseCase(repository: quakeRepository, locator: locator, cities: cityRepository),
                    wishlist: movieServices.wishlist.contents, viewed: movieServices.history.viewed)
            },
            format: QuakeFormatter(weather: WeatherFormatter(l10n: l10n, display: display)),
            scheduler: configuration.scheduler, work: configuration.workScheduler ?? configuration.scheduler,
            now: configuration.now, details: makeCityDetailFactory(), quakes: quakes, movies: movies)
    }

    @MainActor func makeQuakesSceneDIContainer() -> QuakesSceneDIContainer {
        let catalog = self.catalog
        return QuakesSceneDIContainer(
            quakes: QuakesUseCase(repository: quakeRepository, locator: locator, cities: cityRepository),
            likes: likesStore, lookup: { id in catalog.ref(forID: id).map { catalog.city($0) } },
            locate: makeLocateCurrentCityUseCase(),
            format: QuakeFormatter(weather: WeatherFormatter(l10n: l10n, display: display)),
            mapPanel: { [unowned self] city, places in self.map.makeCityMapPanel(city: city, places: places) },
            scheduler: configuration.scheduler, now: configuration.now)
    }

    /// The catalogue's city with GeoNames id `id`, if the loaded catalogue has it.
    public func city(id: Int) -> City? {
        catalog.ref(forID: id).map { catalog.city($0) }
    }

    @MainActor func makeLikedSceneDIContainer() -> LikedSceneDIContainer {
        let catalog = self.catalog
        let lookup: @Sendable (Int) -> City? = { id in catalog.ref(forID: id).map { catalog.city($0) } }
        return LikedSceneDIContainer(likes: likesStore, lookup: lookup,
                                     map: { [unowned self] in self.map.makeShowCityMapUseCase() }, notice: databaseNotice,
                                     format: WeatherFormatter(l10n: l10n, display: display), countries: countryNames,
                                     scheduler: configuration.scheduler, details: makeCityDetailFactory())
    }

    @MainActor func makeMoviesSceneDIContainer() -> MoviesSceneDIContainer {
        MoviesSceneDIContainer(services: { self.movieServices }, l10n: l10n, scheduler: configuration.scheduler,
                               searchScheduler: configuration.workScheduler)
    }

    @MainActor func makeCitiesSceneDIContainer() -> CitiesSceneDIContainer {
        CitiesSceneDIContainer(cities: cityRepository, countries: countryNames, l10n: l10n,
                               scheduler: configuration.scheduler, details: makeCityDetailFactory())
    }

    /// The city's map, drawn inside its detail; `e` shows the recent earthquakes around it.
    @MainActor func makeCityMapPanel(city: City) -> ScreenPanel? {
        map.makeCityMapPanel(city: city, nearbyQuakes: { [unowned self] in self.recentQuakeMarkers() })
    }

    /// The feed a city map shows earthquakes from: M2.5+ of the past 7 days, the kept copy first, then
    /// the server's answer (asked conditionally); a failure leaves what was shown.
    static let mapQuakeFeed = QuakeFeed(magnitude: .twoAndAHalf, period: .week)

    private func recentQuakeMarkers() -> AnyPublisher<[MapMarker], Never> {
        QuakesUseCase(repository: quakeRepository, locator: locator, cities: cityRepository).feed(Self.mapQuakeFeed)
            .map { update in update.snapshot.quakes.map(MapMarker.quake) }
            .catch { _ in Empty<[MapMarker], Never>() }
            .eraseToAnyPublisher()
    }

    @MainActor func makeCityDetailFactory() -> CityDetailFactory {
        CityDetailFactory(weather: weatherRepository, air: airQualityRepository, warnings: makeWarningsRepository(),
                          normals: makeClimateNormalsRepository(), likes: likesStore,
                          format: WeatherFormatter(l10n: l10n, display: display), countries: countryNames,
                          scheduler: configuration.scheduler, work: configuration.workScheduler, now: configuration.now,
                          makePanel: { [weak self] city in self?.makeCityMapPanel(city: city) })
    }
}
