import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI
@preconcurrency import CombineSchedulers
@preconcurrency import OpenCombineShim

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
        /// How weather requests go out; nil means offline (every request fails as unreachable), so
        /// nothing but the real app (`Run`) and tapes with `Serve` ever makes a request.
        public var httpClient: HTTPClient?
        /// The wall clock (tapes pin it).
        public var now: @Sendable () -> Date
        /// Where maps are drawn; nil draws them on `scheduler` (tapes and tests: deterministic).
        public var renderScheduler: AnySchedulerOf<DispatchQueue>?

        public init(environment: [String: String], catalog: CatalogChoice = .bundled, location: GeoPoint? = nil,
                    scheduler: AnySchedulerOf<DispatchQueue>, colors: Bool = true, httpClient: HTTPClient? = nil,
                    now: @escaping @Sendable () -> Date = { Date() },
                    renderScheduler: AnySchedulerOf<DispatchQueue>? = nil) {
            self.environment = environment
            self.catalog = catalog
            self.location = location
            self.scheduler = scheduler
            self.colors = colors
            self.httpClient = httpClient
            self.now = now
            self.renderScheduler = renderScheduler
        }
    }

    public let configuration: Configuration
    public let l10n: L10n
    public private(set) var theme: Theme
    public let cityRepository: CityRepository
    private let catalog: CityCatalog
    /// Country names in the UI language, shared by every screen that shows them.
    public let countryNames: CountryNames
    /// Temperatures and speeds in the units of the user's region, or `NIMBUS_UNITS`.
    public let units: UnitSystem
    /// Open-Meteo (or `NIMBUS_WEATHER_URL`) with the forecast cache under `$XDG_CACHE_HOME/nimbus`.
    public private(set) lazy var weatherRepository: WeatherRepository = OpenMeteoWeatherRepository(
        // Without a configured client the weather stays offline: tests never reach the internet.
        client: configuration.httpClient.map { _ in httpClient } ?? OfflineHTTPClient(),
        baseURL: OpenMeteoWeatherRepository.baseURL(environment: configuration.environment),
        cache: WeatherCache(directory: WeatherCache.defaultDirectory(environment: configuration.environment)),
        now: configuration.now)
    /// The USGS feeds (or `NIMBUS_QUAKES_URL`), kept under `$XDG_CACHE_HOME/nimbus/quakes`.
    public private(set) lazy var quakeRepository: QuakeRepository = USGSQuakeRepository(
        client: configuration.httpClient.map { _ in httpClient } ?? OfflineHTTPClient(),
        baseURL: USGSQuakeRepository.baseURL(environment: configuration.environment),
        cache: QuakeFeedCache(directory: WeatherCache.defaultDirectory(environment: configuration.environment)),
        now: configuration.now)
    /// The bundled film catalogue.
    public let movieCatalogue: MovieCatalogue
    /// The user's own data; every store's migration is listed here, in a fixed order.
    public private(set) lazy var userDatabase: UserDatabase = Self.openUserDatabase(
        environment: configuration.environment,
        migrations: [WishlistStore.migration, MovieHistoryStore.migration, LikesStore.migration])
    private lazy var movieServices: MovieServices = makeMovieServices()

    /// Loads the catalogue and strings; throws a `CityCatalogError` when the catalogue can't be read.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        l10n = L10n.bundled(Language.resolve(environment: configuration.environment))
        let noColor = !(configuration.environment["NO_COLOR"] ?? "").isEmpty
        theme = configuration.colors && !noColor ? .color : .monochrome
        countryNames = CountryNames(locale: l10n.locale)
        units = UnitSystem.resolve(environment: configuration.environment, language: l10n.language)
        switch configuration.catalog {
        case .bundled: catalog = try CityCatalog.bundled()
        case .large: catalog = try CityCatalog(contentsOf: CityCatalog.largeTierURL(environment: configuration.environment))
        case .file(let url): catalog = try CityCatalog(contentsOf: url)
        }
        cityRepository = catalog
        locator = CatalogCityLocator(catalog: catalog)
        movieCatalogue = try MovieCatalogue.bundled()
    }

    /// The user database in `$XDG_DATA_HOME/nimbus`; when that can't be opened at all (an unwritable
    /// directory), an in-memory one so the app still runs.
    /// A short reason why `directory` can't hold the database, in the system's own words where it has
    /// them ("Not a directory", "Permission denied"); Foundation's errors on Linux carry no errno.
    static func reason(_ error: Error, directory: URL) -> String {
        let fm = FileManager.default
        var path = directory.path
        while !path.isEmpty, path != "/", !fm.fileExists(atPath: path) { path = (path as NSString).deletingLastPathComponent }
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { return String(cString: strerror(ENOTDIR)) }
            if !fm.isWritableFile(atPath: path) { return String(cString: strerror(EACCES)) }
        }
        return (error as NSError).localizedDescription
    }

    static func openUserDatabase(environment: [String: String], migrations: [UserDatabase.Migration]) -> UserDatabase {
        let directory = UserDatabase.defaultDirectory(environment: environment)
        do {
            return try UserDatabase(directory: directory, migrations: migrations)
        } catch {
            // Keep working, in memory, and say so: an in-memory SQLite database with a fixed schema cannot fail to open.
            return try! UserDatabase(inMemory: migrations,
                                     unavailable: (abbreviatingHome(directory.path, environment), Self.reason(error, directory: directory)))
        }
    }

    /// The shared HTTP client, made on first use: the configured one (the app's, or a tape's scripted
    /// network) when there is one.
    public private(set) lazy var httpClient: HTTPClient = configuration.httpClient ?? URLSessionHTTPClient.live()

    /// TMDB when `TMDB_API_KEY` is set, else the bundled catalogue.
    private func makeMovieServices() -> MovieServices {
        let history = MovieHistoryStore(database: userDatabase, now: configuration.now)
        let wishlist = WishlistStore(database: userDatabase, now: configuration.now)
        let language = Self.tmdbLanguage(l10n.language)
        if let tmdb = TMDBMovieRepository.Configuration.from(environment: configuration.environment, language: language) {
            return MovieServices(movies: TMDBMovieRepository(configuration: tmdb, client: httpClient),
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

    /// One-off work the first keystrokes would otherwise pay for: the HTTP client, on a queue of
    /// its own (libcurl is loaded there, not on the main queue when the list first asks for
    /// temperatures 300 ms after its rows settle), the folded names of the largest cities (their rows
    /// come first for short queries), the country names of the catalogue, the Current tab's k-d tree
    /// and the film ranking table. Safe to run on any queue.
    public func warmUp() {
        if let client = configuration.httpClient {
            DispatchQueue.global(qos: .utility).async { client.prepare() }
        }
        catalog.foldNamesOfLargestCities()
        rehearseTyping()
        let cities = cityRepository
        let sample = (0..<min(cities.cityCount, 3000)).map { CityRef(Int32($0)) }
        var seen = Set<String>()
        for ref in sample {
            let code = cities.summary(ref).countryCode
            if seen.insert(code).inserted { _ = countryNames.name(code) }
        }
        // The Current tab's k-d tree (18 ms at 34k cities, 100 ms at 170k), then the film ranking table.
        _ = locator.spatialIndex
        movieCatalogue.warmUp()
    }

    /// Types a few queries into a Cities screen of its own that is never shown, draws its frames
    /// and encodes them: the first real keystrokes then find the generic metadata, the lazily
    /// bound symbols and the caches of that path already made (they were half of a first
    /// keystroke's time). The screen has no likes and asks for no weather.
    private func rehearseTyping() {
        let viewModel = CityListViewModel(
            search: SearchCitiesUseCase(repository: cityRepository), totalCount: cityRepository.cityCount, l10n: l10n,
            countries: countryNames, scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
        let screen = CityListScreen(viewModel: viewModel, l10n: l10n, onRoute: { _ in })
        let backend = RehearsalBackend()
        let renderer = Renderer(backend: backend)
        _ = screen.handle(.char("/"))
        for key in [Key.char("m"), .char("a"), .char("r"), .backspace, .backspace, .char("ü"), .backspace,
                    .backspace, .char("東"), .backspace] {
            _ = screen.handle(key)
            let canvas = Canvas(size: backend.size)
            screen.draw(canvas.painter(), theme: theme)
            renderer.render(canvas.buffer)
        }
    }

    /// Offline reverse geocoding over the catalogue (its k-d tree is built on first use).
    public var cityLocator: CityLocating { locator }
    /// Thread-safe, and cheap until its k-d tree is first asked for (by the Current tab, or `warmUp`).
    private let locator: CatalogCityLocator

    /// Where the user is: `--location`, `NIMBUS_LOCATION`, then the system time zone.
    public var locationProvider: DeviceLocationProviding {
        SystemLocationProvider(argument: configuration.location, environment: configuration.environment)
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
            repository: .bundled(cache: cache, environment: configuration.environment),
            l10n: l10n, units: units,
            scheduler: configuration.scheduler,
            renderScheduler: configuration.renderScheduler ?? configuration.scheduler)
    }()

    /// Switches to the colourless theme (the terminal has no colours).
    public func useMonochrome() { theme = .monochrome }

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

    func makeCurrentSceneDIContainer() -> CurrentSceneDIContainer {
        CurrentSceneDIContainer(locate: makeLocateCurrentCityUseCase(), format: WeatherFormatter(l10n: l10n, units: units),
                                l10n: l10n, scheduler: configuration.scheduler, details: makeCityDetailFactory())
    }

    func makeQuakesSceneDIContainer() -> QuakesSceneDIContainer {
        let catalog = self.catalog
        return QuakesSceneDIContainer(
            quakes: QuakesUseCase(repository: quakeRepository, locator: locator, cities: cityRepository),
            likes: likesStore, lookup: { id in catalog.ref(forID: id).map { catalog.city($0) } },
            locate: makeLocateCurrentCityUseCase(),
            format: QuakeFormatter(weather: WeatherFormatter(l10n: l10n, units: units)),
            mapPanel: { [unowned self] city in self.map.makeCityMapPanel(city: city) },
            scheduler: configuration.scheduler, now: configuration.now)
    }

    /// The catalogue's city with GeoNames id `id`, if the loaded catalogue has it.
    public func city(id: Int) -> City? {
        catalog.ref(forID: id).map { catalog.city($0) }
    }

    func makeLikedSceneDIContainer() -> LikedSceneDIContainer {
        let catalog = self.catalog
        let lookup: @Sendable (Int) -> City? = { id in catalog.ref(forID: id).map { catalog.city($0) } }
        let thumbnail: (Int, MapSize) -> MapSnapshot? = { [weak self] id, size in
            guard let self, let city = lookup(id) else { return nil }
            return self.map.thumbnail(for: city, size: size)
        }
        return LikedSceneDIContainer(likes: likesStore, lookup: lookup, thumbnail: thumbnail, notice: databaseNotice,
                                     format: WeatherFormatter(l10n: l10n, units: units), countries: countryNames,
                                     scheduler: configuration.scheduler, details: makeCityDetailFactory())
    }

    func makeMoviesSceneDIContainer() -> MoviesSceneDIContainer {
        MoviesSceneDIContainer(services: { self.movieServices }, l10n: l10n, scheduler: configuration.scheduler)
    }

    func makeCitiesSceneDIContainer() -> CitiesSceneDIContainer {
        CitiesSceneDIContainer(cities: cityRepository, countries: countryNames, l10n: l10n,
                               scheduler: configuration.scheduler, details: makeCityDetailFactory())
    }

    /// The city's map, drawn inside its detail.
    func makeCityMapPanel(city: City) -> ScreenPanel? { map.makeCityMapPanel(city: city) }

    func makeCityDetailFactory() -> CityDetailFactory {
        CityDetailFactory(weather: weatherRepository, likes: likesStore,
                          format: WeatherFormatter(l10n: l10n, units: units), countries: countryNames,
                          scheduler: configuration.scheduler, now: configuration.now,
                          makePanel: { [weak self] city in self?.makeCityMapPanel(city: city) })
    }
}

/// Makes city detail screens; every tab that opens a city shares one.
final class CityDetailFactory {
    let weather: WeatherRepository
    let likes: LikesRepository?
    let format: WeatherFormatter
    private let countries: CountryNames
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date
    private let makePanel: (City) -> ScreenPanel?

    init(weather: WeatherRepository, likes: LikesRepository?, format: WeatherFormatter, countries: CountryNames,
         scheduler: AnySchedulerOf<DispatchQueue>, now: @escaping @Sendable () -> Date,
         makePanel: @escaping (City) -> ScreenPanel?) {
        self.weather = weather
        self.likes = likes
        self.format = format
        self.countries = countries
        self.scheduler = scheduler
        self.now = now
        self.makePanel = makePanel
    }

    func makeCityDetailViewModel(city: City) -> CityDetailViewModel {
        CityDetailViewModel(city: city, forecast: GetForecastUseCase(repository: weather),
                            likes: likes.map { LikeCityUseCase(repository: $0) }, format: format,
                            countries: countries, scheduler: scheduler, now: now)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        CityDetailScreen(viewModel: makeCityDetailViewModel(city: city), l10n: format.l10n, panel: makePanel(city),
                         onRoute: onRoute)
    }
}

/// Makes the Cities tab's use cases, view models and screens.
final class CitiesSceneDIContainer: CitiesCoordinatorDependencies {
    private let cities: CityRepository
    private let countries: CountryNames
    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let details: CityDetailFactory

    init(cities: CityRepository, countries: CountryNames, l10n: L10n, scheduler: AnySchedulerOf<DispatchQueue>,
         details: CityDetailFactory) {
        self.cities = cities
        self.countries = countries
        self.l10n = l10n
        self.scheduler = scheduler
        self.details = details
    }

    func makeSearchCitiesUseCase() -> SearchCitiesUseCase {
        SearchCitiesUseCase(repository: cities)
    }

    func makeCityListViewModel() -> CityListViewModel {
        CityListViewModel(search: makeSearchCitiesUseCase(), totalCount: cities.cityCount, l10n: l10n,
                          countries: countries, scheduler: scheduler,
                          temperatures: GetCurrentTemperaturesUseCase(repository: details.weather),
                          format: details.format, likes: details.likes.map { LikeCityUseCase(repository: $0) })
    }

    func makeCityListScreen(onRoute: @escaping (CityListRoute) -> Void) -> Screen {
        CityListScreen(viewModel: makeCityListViewModel(), l10n: l10n, onRoute: onRoute)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        details.makeCityDetailScreen(city: city, onRoute: onRoute)
    }
}

/// Makes the Current tab's view model and screens.
final class CurrentSceneDIContainer: CurrentCoordinatorDependencies {
    private let locate: LocateCurrentCityUseCase
    private let format: WeatherFormatter
    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let details: CityDetailFactory

    init(locate: LocateCurrentCityUseCase, format: WeatherFormatter, l10n: L10n,
         scheduler: AnySchedulerOf<DispatchQueue>, details: CityDetailFactory) {
        self.locate = locate
        self.format = format
        self.l10n = l10n
        self.scheduler = scheduler
        self.details = details
    }

    func makeCurrentLocationViewModel() -> CurrentLocationViewModel {
        CurrentLocationViewModel(locate: locate, format: format, scheduler: scheduler)
    }

    func makeCurrentCityScreen(makeDetail: @escaping (City) -> Screen) -> Screen {
        CurrentCityScreen(viewModel: makeCurrentLocationViewModel(), l10n: l10n, makeDetail: makeDetail)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        details.makeCityDetailScreen(city: city, onRoute: onRoute)
    }
}

/// Makes the Liked tab's use cases, view model and screens.
final class LikedSceneDIContainer: LikedCoordinatorDependencies {
    private let likes: LikesRepository
    private let lookup: @Sendable (Int) -> City?
    private let thumbnail: (Int, MapSize) -> MapSnapshot?
    private let notice: String?
    private let format: WeatherFormatter
    private let countries: CountryNames
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let details: CityDetailFactory

    init(likes: LikesRepository, lookup: @escaping @Sendable (Int) -> City?,
         thumbnail: @escaping (Int, MapSize) -> MapSnapshot?, notice: String?, format: WeatherFormatter,
         countries: CountryNames, scheduler: AnySchedulerOf<DispatchQueue>, details: CityDetailFactory) {
        self.likes = likes
        self.lookup = lookup
        self.thumbnail = thumbnail
        self.notice = notice
        self.format = format
        self.countries = countries
        self.scheduler = scheduler
        self.details = details
    }

    func makeLikedCitiesViewModel() -> LikedCitiesViewModel {
        LikedCitiesViewModel(liked: GetLikedCitiesUseCase(likes: likes, lookup: lookup),
                             like: LikeCityUseCase(repository: likes),
                             ranges: GetTodayRangesUseCase(repository: details.weather), format: format,
                             countries: countries, scheduler: scheduler, startupNotice: notice)
    }

    func makeLikedCitiesScreen(onRoute: @escaping (LikedCitiesRoute) -> Void) -> Screen {
        LikedCitiesScreen(viewModel: makeLikedCitiesViewModel(), l10n: format.l10n, thumbnail: thumbnail, onRoute: onRoute)
    }

    func makeCityDetailScreen(city: City, onRoute: @escaping (CityDetailRoute) -> Void) -> Screen {
        details.makeCityDetailScreen(city: city, onRoute: onRoute)
    }
}

/// `path` with the home directory written as `~`.
func abbreviatingHome(_ path: String, _ environment: [String: String]) -> String {
    guard let home = environment["HOME"], !home.isEmpty, home != "/", path.hasPrefix(home + "/") else { return path }
    return "~" + path.dropFirst(home.count)
}

/// A terminal that encodes frames and throws the bytes away (`AppDIContainer.rehearseTyping`).
private final class RehearsalBackend: TerminalBackend {
    let size = Size(cols: 80, rows: 24)
    let supportsColor = true
    private var encoder = FrameEncoder(sequences: .init(
        moveTo: { x, y in Array("\u{1B}[\(y + 1);\(x + 1)H".utf8) }, style: { _ in Array("\u{1B}[0m".utf8) },
        reset: [], clear: [], showCursor: [], hideCursor: [], lastCellScrolls: false))
    private var cursor: Point?

    func draw(_ changes: [CellChange]) { encoder.draw(changes, size: size) }
    func setCursor(_ p: Point?) { cursor = p }
    func flush() { _ = encoder.finish(cursor: cursor, size: size) }
    func clearAll() { encoder.clear() }
}
