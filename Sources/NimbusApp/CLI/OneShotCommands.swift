import ArgumentParser
import Foundation
import Glibc
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI
import CombineSchedulers
import OpenCombineShim

// One-shot output (wttr.in, linecast): the same view models, formatters and caches as the screens,
// printed once instead of drawn full screen.

/// `nimbus weather CITY`: one city's weather without the full-screen UI.
struct WeatherCommand: MainActorCommand {
    static let configuration = CommandConfiguration(
        commandName: "weather",
        abstract: "Print one city's weather: the detail screen once, one line, or JSON.",
        discussion: OneLineFormat.help)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var units: UnitsOption
    @OptionGroup var language: LanguageOption

    @Option(help: ArgumentHelp(
        "The position whose nearest city is shown when none is named, in decimal degrees (e.g. 37.57,126.98 or -33.86,151.21). Else NIMBUS_LOCATION, else the home setting, else the largest city of the system time zone.",
        valueName: "lat,lon"))
    var location: String?

    @Argument(help: "City to look up, in any script (\"seoul\", \"서울\", \"são paulo\", \"springfield, il\"); without one, the city nearest to --location, NIMBUS_LOCATION or the home setting (else the largest in the system time zone), named on standard error.",
              completion: CityCompletion.kind)
    var query: [String] = []

    @Flag(help: "One line, for tmux and status bars.") var oneline = false
    @Flag(help: "The forecast as JSON (metric units, ISO 8601 times).") var json = false
    @Flag(name: .customLong("print"), help: "The detail screen drawn once (the default).") var printScreen = false

    @Option(help: ArgumentHelp("The line --oneline prints (given alone, it means --oneline).", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp("Size of --print (default: the terminal's, else 80x24).", valueName: "COLSxROWS"))
    var size: String?

    func validate() throws {
        _ = try CLIOptions.point(location, option: "--location")
        if [oneline, json, printScreen].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --oneline, --json and --print")
        }
        if format != nil, json || printScreen {
            throw ValidationError("--format is the line --oneline prints; it does not go with --json or --print")
        }
        if let size, MapText.size(size) == nil {
            throw ValidationError("--size must look like 100x30 (1-500 × 1-200; got '\(CLIOptions.shown(size))')")
        }
    }

    /// What is printed: a `--format` given alone means `--oneline`.
    var mode: OneShot.Mode {
        oneline || format != nil ? .oneline(format ?? OneShot.defaultFormat)
            : json ? .json : .print(size.flatMap(MapText.size).map { Size(cols: $0.cols, rows: $0.rows) })
    }

    @MainActor func runOnMainActor() throws {
        let options = CLIOptions.Values.command(catalogue: catalogue, units: units, language: language,
                                                location: try CLIOptions.point(location, option: "--location"))
        print(try OneShot.weather(query: query.joined(separator: " "), mode: mode, options: options))
    }
}

/// `nimbus search CITY`: the matching cities, one per line.
struct SearchCommand: MainActorCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Print the cities matching a query, one per line (name, region, country, population, coordinates, name typed).",
        discussion: """
            Ranked as the Cities tab lists them. The region is the state, province or prefecture (empty where \
            the catalogue has none). The last column is the name the query matched when the city \
            matched by another name than the one shown (empty otherwise). Exit status 1 when nothing matched.
            """)

    static let limits = 1...10_000

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var language: LanguageOption
    @Argument(help: "Any of a city's names, in any script; a region or country after a comma narrows it (\"paris, france\").",
              completion: CityCompletion.kind)
    var query: [String]
    @Option(help: "At most this many lines (1-10000).") var limit: Int = 20

    func validate() throws {
        guard Self.limits.contains(limit) else {
            throw ValidationError("--limit must be \(Self.limits.lowerBound)-\(Self.limits.upperBound) (got \(limit))")
        }
    }

    @MainActor func runOnMainActor() throws {
        print(try OneShot.cities(query: query.joined(separator: " "), limit: limit, options: .command(catalogue: catalogue, language: language)))
    }
}

/// `nimbus movies QUERY`: the matching films, one per line or as JSON.
struct MoviesCommand: MainActorCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "movies",
            abstract: "Print the films matching a query (title, year, directors), one per line or as JSON.",
            discussion: discussion(catalogueYears: helpShown ? (try? MovieCatalogue.bundled())?.yearSpan : nil))
    }

    /// The help names the catalogue's years, read from it: only when help is asked for, so a search
    /// (whose parsing reads this configuration too) does not open the catalogue for it.
    private static var helpShown: Bool {
        CommandLine.arguments.dropFirst().contains { ["-h", "--help", "help", "--experimental-dump-help"].contains($0) }
    }

    /// What the help says of the sources: the catalogue's first and last year when known.
    static func discussion(catalogueYears years: ClosedRange<Int>?) -> String {
        let span = years.map { "films from \($0.lowerBound) to \($0.upperBound), " } ?? ""
        return "From the bundled catalogue (\(span)English titles), or TMDB with TMDB_API_KEY (titles in the UI's "
            + "language: --lang, NIMBUS_LANG or the locale). Exit status 1 when nothing matched."
    }

    @OptionGroup var language: LanguageOption
    @Argument(help: "Title, cast or director.") var query: [String]
    @Flag(help: "JSON instead of lines.") var json = false

    @MainActor func runOnMainActor() throws {
        print(try OneShot.movies(query: query.joined(separator: " "), json: json, options: .command(language: language)))
    }
}

/// The work behind the one-shot commands. Each builds only the services it uses: a city search
/// never opens the film catalogue, nor reads the settings.
@MainActor
enum OneShot {
    enum Mode: Equatable {
        case oneline(String)
        case json
        case print(Size?)
    }

    /// What `--oneline` prints without a `--format`: the kept copy says so at its end.
    nonisolated static let defaultFormat = "%l: %c %t %w%k"

    /// How long a one-shot command waits for the server.
    static let patience: TimeInterval = 20

    /// What the commands run in: the process's environment and clock (tests pin both).
    struct Context {
        var environment = ProcessInfo.processInfo.environment
        var now: @Sendable () -> Date = { Date() }
        /// Where a command says what it did beside its output (standard error; tests keep the lines).
        var note: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data(("nimbus: " + line + "\n").utf8)) }
    }

    static func container(_ options: CLIOptions.Values, network: Bool, context: Context) throws -> AppDIContainer {
        var configuration = options.configuration(environment: context.environment,
                                                  scheduler: DispatchQueue.main.eraseToAnyScheduler(), colors: false)
        configuration.now = context.now
        if network { configuration.httpClient = LiveHTTPClient() }
        do {
            return try AppDIContainer(configuration: configuration)
        } catch let error as CityCatalogError {
            throw CommandFailure(message: error.message)
        }
    }

    /// The film catalogue, or why it can't be opened.
    static func movies(in container: AppDIContainer) throws -> MovieCatalogue {
        do {
            return try container.openMovieCatalogue()
        } catch {
            throw CommandFailure(message: "the bundled film catalogue (movies.sqlite) could not be opened")
        }
    }

    /// The search the Cities tab makes: ranked for the names shown in the UI language.
    static func citySearch(in container: AppDIContainer) -> SearchCitiesUseCase {
        SearchCitiesUseCase(repository: container.cityRepository, language: container.l10n.language.cityNames)
    }

    /// The first city matching `query`, as the Cities tab would list it first.
    static func city(_ query: String, in container: AppDIContainer) throws -> City {
        let search = citySearch(in: container)
        let matches = search.execute(query: query)
        guard let first = matches.first else { throw noCity(matches, in: container) }
        return search.city(first)
    }

    /// The city `nimbus weather` shows when none is named: the one nearest to `--location`, then
    /// `NIMBUS_LOCATION`, then the home setting, else the largest in the system time zone (as
    /// Today finds it); which one and why is written to standard error, so that a status line reads
    /// only the weather.
    static func locatedCity(in container: AppDIContainer, context: Context) throws -> City {
        let found = LocationSummary(container.makeLocateCurrentCityUseCase().execute(), format: container.weatherFormatter)
        for warning in found.warnings { context.note(DisplayWidth.sanitize(warning)) }
        switch found.status {
        case .located(let city, let summary, _):
            context.note(DisplayWidth.sanitize(container.l10n.format(.cliWeatherLocated,
                CityPlace.qualifiedName(city, language: container.l10n.language), summary)))
            return city
        case .failed:
            throw CommandFailure(message: container.l10n[.cliWeatherNoLocation])
        }
    }

    /// Why nothing matched, on one line: the cities the query may have meant, else (for the bundled
    /// catalogue) what it holds and how to search a larger one.
    nonisolated static func noCity(_ matches: CityMatches, in container: AppDIContainer) -> CommandFailure {
        let text = CitySearchText(l10n: container.l10n)
        var message = text.commandLine(matches, suggested: matches.suggestions.map(container.cityRepository.summary))
        if matches.suggestions.isEmpty, matches.qualifier == nil,
           case .standard(let least, let large) = CitiesSceneDIContainer.tier(of: container.cityRepository) {
            message += ". " + container.l10n.format(.citiesEmptyStandardTier, container.l10n.number(least),
                                                     container.l10n.number(large), String(large))
        }
        return CommandFailure(message: DisplayWidth.sanitize(message))
    }

    /// Runs the main queue until `done` or `seconds` (the patience) run out.
    static func wait(_ seconds: TimeInterval = patience, until done: () -> Bool) {
        MainQueuePump.run(until: Date().addingTimeInterval(seconds), done: done)
    }

    /// What a request of a one-shot command came to: every value it gave, and how it ended.
    final class Answer<Output, Failure: Error> {
        private(set) var values: [Output] = []
        private(set) var failure: Failure?
        private(set) var finished = false
        private var subscription: AnyCancellable?

        /// Subscribes at once; the answers are read on the main queue, which `wait` runs.
        init(_ publisher: AnyPublisher<Output, Failure>) {
            subscription = publisher.receive(on: DispatchQueue.main.eraseToAnyScheduler())
                .sink(receiveCompletion: { [weak self] completion in
                    if case .failure(let error) = completion { self?.failure = error }
                    self?.finished = true
                }, receiveValue: { [weak self] in self?.values.append($0) })
        }

        func cancel() { subscription?.cancel() }
    }

    /// The one way a one-shot command waits for a request: until it ends, or `patience` runs out
    /// (then what came so far is the answer, and the request is cancelled).
    static func answer<Output, Failure: Error>(_ publisher: AnyPublisher<Output, Failure>,
                                               patience: TimeInterval = patience) -> Answer<Output, Failure> {
        let answer = Answer(publisher)
        wait(patience) { answer.finished }
        answer.cancel()
        return answer
    }

    // MARK: weather

    static func weather(query: String, mode: Mode, options: CLIOptions.Values, context: Context = Context()) throws -> String {
        let container = try container(options, network: true, context: context)
        let city = query.trimmingCharacters(in: .whitespaces).isEmpty
            ? try locatedCity(in: container, context: context) : try city(query, in: container)
        let format = container.weatherFormatter
        // The forecast is asked for once: the kept copy first, then the server's answer.
        let forecast = answer(GetForecastUseCase(repository: container.weatherRepository).execute(for: city))
        guard let fetched = forecast.values.last else {
            throw CommandFailure(message: format.message(forecast.failure ?? .timedOut))
        }
        let stale = fetched.isCached || forecast.failure != nil
        switch mode {
        case .json:
            return try forecastJSON(city: city, fetched: fetched, stale: stale, container: container, context: context)
        case .oneline(let text):
            let state = try detailState(city: city, answered: forecast, container: container)
            guard case .loaded(let panel) = state.weather else { throw CommandFailure(message: format.message(.badResponse)) }
            let name = state.header.localName ?? state.header.name
            let extras = OneShotExtras.fetch(for: city, forecast: fetched.value, container: container, context: context,
                                             warnings: OneLineFormat.uses(text, "a"), normals: OneLineFormat.uses(text, "n"),
                                             air: OneLineFormat.uses(text, "u") || OneLineFormat.uses(text, "q"))
            var line = extras.line(format, city: city, now: context.now())
            if stale { line.kept = " " + container.l10n.format(.onelineCached, format.age(context.now().timeIntervalSince(fetched.fetchedAt))) }
            let now = context.now()
            let weather = OneLineFormat.Weather(
                location: name, condition: panel.condition, current: fetched.value.current,
                chanceOfRain: fetched.value.hours(from: now, count: 1).first?.precipitationProbability,
                uvIndex: extras.air?.uvIndex, imperial: format.units == .imperial, coordinate: city.coordinate,
                zone: format.zone(for: city), zoneName: city.timeZone, now: now, extras: line)
            return OneLineFormat.render(text, weather)
        case .print(let size):
            return try printed(city: city, answered: forecast, container: container,
                               size: size ?? terminalSize() ?? Size(cols: 80, rows: 24))
        }
    }

    /// The detail's view model, given the forecast already had: the screens' own formatting of it.
    /// With `withExtras` (the printed screen), it asks for the air, the official warnings and the
    /// normal for the date, as the app's screen does, so the rows they take are the app's rows.
    private static func detailViewModel(city: City, answered: Answer<Fetched<Forecast>, WeatherError>,
                                        container: AppDIContainer, withExtras: Bool) -> CityDetailViewModel {
        // The last answer only: the state the view model first loads is then the one to show.
        let repository = AnsweredWeather(values: answered.values.suffix(1), failure: answered.failure)
        let now = container.configuration.now
        return CityDetailViewModel(city: city, forecast: GetForecastUseCase(repository: repository),
                                   air: withExtras ? GetAirQualityUseCase(repository: container.airQualityRepository) : nil,
                                   warnings: withExtras ? GetWarningsUseCase(repository: container.makeWarningsRepository(), now: now) : nil,
                                   normals: withExtras ? GetClimateNormalsUseCase(repository: container.makeClimateNormalsRepository()) : nil,
                                   likes: nil, format: container.weatherFormatter,
                                   scheduler: container.configuration.scheduler, now: now)
    }

    /// The detail's state for the forecast had (one line has no room for the air: it is not asked for).
    private static func detailState(city: City, answered: Answer<Fetched<Forecast>, WeatherError>,
                                    container: AppDIContainer) throws -> CityDetailState {
        let output = detailViewModel(city: city, answered: answered, container: container, withExtras: false)
            .transform(input: .init(events: Just(.appeared).eraseToAnyPublisher()))
        let state = answer(output.state.first(where: isSettled).eraseToAnyPublisher())
        guard let last = state.values.last else { throw CommandFailure(message: "no weather for \(city.name)") }
        return last
    }

    /// Loaded, or given up on: nothing more is coming for the weather.
    private static func isSettled(_ state: CityDetailState) -> Bool {
        switch state.weather {
        case .loading: return false
        case .unavailable, .loaded: return true
        }
    }

    /// The air section answered fresh, or gave up (the printed screen waits for it; one line does not).
    private static func airSettled(_ state: CityDetailState) -> Bool {
        switch state.air {
        case nil, .unavailable?: return true
        case .loading?: return false
        case .loaded(let panel)?: return panel.notice == nil
        }
    }

    /// The detail screen (weather, air, warnings and map) drawn once, as text, at `size`: when the
    /// air and the warnings (or their failures) are in and the frame has stopped changing (the map
    /// is drawn on the main queue here). It is the app's screen, so the row the app gives the
    /// warnings has them (or their note), never a hint about the terminal.
    private static func printed(city: City, answered: Answer<Fetched<Forecast>, WeatherError>, container: AppDIContainer,
                                size: Size) throws -> String {
        // The screen is the whole output: no tab bar or status bar around it.
        let screen = CityDetailScreen(viewModel: detailViewModel(city: city, answered: answered, container: container, withExtras: true),
                                      l10n: container.l10n, panel: container.makeCityMapPanel(city: city), rowsAround: 0,
                                      onRoute: { _ in })
        var last = ""
        var same = 0
        wait {
            let text = draw(screen, canvas: Canvas(size: size))
            same = text == last ? same + 1 : 0
            last = text
            return (screen.state.map { isSettled($0) && airSettled($0) && $0.warnings != nil } ?? false) && same >= 3
        }
        return last.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    private static func draw(_ screen: Screen, canvas: Canvas) -> String {
        screen.draw(canvas.painter(), theme: .monochrome)
        return canvas.buffer.text()
    }

    static func terminalSize() -> Size? {
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return Size(cols: Int(size.ws_col), rows: Int(size.ws_row))
    }

    // MARK: JSON

    /// The domain forecast as stable JSON: metric units, keys sorted, every instant in RFC 3339 with
    /// the city's offset at it and every date the city's calendar date.
    private static func forecastJSON(city: City, fetched: Fetched<Forecast>, stale: Bool, container: AppDIContainer,
                                     context: Context) throws -> String {
        let zone = container.weatherFormatter.zone(for: city)
        let encoder = ForecastJSON.encoder(in: zone)
        let extras = OneShotExtras.fetch(for: city, forecast: fetched.value, container: container, context: context)
        let data = try encoder.encode(ForecastJSON(city: city, fetched: fetched, stale: stale, extras: extras.json))
        return String(decoding: data, as: UTF8.self)
    }

    struct ForecastJSON: Encodable {
        struct Place: Encodable {
            let id: Int, name: String, country: String, latitude: Double, longitude: Double, timeZone: String
        }
        struct Current: Encodable {
            let time: Date, temperatureC: Double?, apparentTemperatureC: Double?, humidityPercent: Double?
            let pressureHPa: Double?, precipitationMM: Double?, windKmh: Double?, windFromDegrees: Double?
            let condition: String, isDay: Bool
        }
        struct Hour: Encodable { let time: Date, temperatureC: Double?, precipitationProbabilityPercent: Double? }
        struct Day: Encodable {
            /// The city's calendar date ("2026-11-26").
            let date: String
            let highC: Double?, lowC: Double?, condition: String, sunrise: Date?, sunset: Date?
        }
        let city: Place
        let fetchedAt: Date
        /// From the disk cache: the server could not be reached.
        let cached: Bool
        let utcOffsetSeconds: Int
        let current: Current
        let hourly: [Hour]
        let daily: [Day]
        /// Yesterday, the normal for the date and the official warnings (`OneShotExtras`).
        let yesterday: OneShotExtras.JSON.Yesterday?
        let todayAgainstYesterday: OneShotExtras.JSON.Comparison?
        let normal: OneShotExtras.JSON.Normal?
        let warnings: OneShotExtras.JSON.Warnings?

        init(city: City, fetched: Fetched<Forecast>, stale: Bool, extras: OneShotExtras.JSON = OneShotExtras.JSON()) {
            yesterday = extras.yesterday
            todayAgainstYesterday = extras.todayAgainstYesterday
            normal = extras.normal
            warnings = extras.warnings
            let f = fetched.value
            func finite(_ x: Double) -> Double? { x.isFinite ? x : nil }
            self.city = Place(id: city.id, name: city.name, country: city.countryCode, latitude: city.latitude,
                              longitude: city.longitude, timeZone: city.timeZone)
            fetchedAt = fetched.fetchedAt
            cached = fetched.isCached || stale
            utcOffsetSeconds = f.utcOffsetSeconds
            let c = f.current
            current = Current(time: c.time, temperatureC: finite(c.temperature), apparentTemperatureC: finite(c.apparentTemperature),
                              humidityPercent: finite(c.humidity), pressureHPa: finite(c.pressure),
                              precipitationMM: finite(c.precipitation), windKmh: finite(c.windSpeed),
                              windFromDegrees: finite(c.windDirection), condition: "\(c.condition)", isDay: c.isDay)
            hourly = f.hourly.map { Hour(time: $0.time, temperatureC: finite($0.temperature),
                                         precipitationProbabilityPercent: $0.precipitationProbability.flatMap(finite)) }
            daily = f.daily.map { Day(date: $0.day.description, highC: finite($0.high), lowC: finite($0.low),
                                      condition: "\($0.condition)", sunrise: $0.sunrise, sunset: $0.sunset) }
        }

        /// Sorted keys; every `Date` written as an instant with `zone`'s offset at it (the one way
        /// instants are written, whichever part of the answer they are in).
        static func encoder(in zone: Zone) -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(zone.rfc3339(date))
            }
            return encoder
        }
    }

    // MARK: search, movies

    /// One line a city, as the Cities tab lists them: name, country, population, coordinates, and
    /// the name typed when the city matched by another than the one shown (empty otherwise).
    static func cities(query: String, limit: Int, options: CLIOptions.Values, context: Context = Context()) throws -> String {
        let container = try container(options, network: false, context: context)
        let search = citySearch(in: container)
        let matches = search.execute(query: query)
        guard matches.count > 0 else { throw noCity(matches, in: container) }
        return (0..<min(limit, matches.count)).map { i in
            let hit = search.hit(matches[i], query: matches.nameQuery)
            let name = CityNameChoice.name(hit.city, language: container.l10n.language)
            let typed = hit.matchedName == name ? nil : hit.matchedName
            let region = hit.city.region?.name(in: container.l10n.language.cityNames) ?? ""
            return [name, region, container.l10n.countryNames.name(hit.city.countryCode), container.l10n.number(hit.city.population),
                    WeatherFormatter.coordinates(hit.city.coordinate), typed ?? ""]
                .map(DisplayWidth.sanitize).joined(separator: "\t")
        }.joined(separator: "\n")
    }

    static func movies(query: String, json: Bool, options: CLIOptions.Values, context: Context = Context()) throws -> String {
        let container = try container(options, network: true, context: context)
        _ = try movies(in: container)
        let found = answer(container.makeMoviesSceneDIContainer().makeSearchMoviesUseCase().execute(query: query, page: 1))
        if let failure = found.failure { throw CommandFailure(message: container.l10n.describe(failure)) }
        guard let movies = found.values.last?.movies, !movies.isEmpty else {
            throw CommandFailure(message: "no film matches \"\(CLIOptions.shown(query))\"")
        }
        if json {
            struct Film: Encodable { let title: String, year: Int?, directors: [String], genres: [String], id: String }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let films = movies.map { Film(title: $0.title, year: $0.year, directors: $0.directors, genres: $0.genres,
                                          id: $0.id.description) }
            return String(decoding: try encoder.encode(films), as: UTF8.self)
        }
        return movies.map { movie in
            [movie.title, movie.year.map(String.init) ?? "", movie.directors.joined(separator: ", ")]
                .map(DisplayWidth.sanitize).joined(separator: "\t")
        }.joined(separator: "\n")
    }
}

/// `nimbus wishlist export|import`: the wishlist as a CSV (Letterboxd's columns) or JSON file.
struct WishlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wishlist",
        abstract: "Export the wishlist to CSV or JSON, or import films from such a file.",
        subcommands: [WishlistExportCommand.self, WishlistImportCommand.self])
}

struct WishlistExportCommand: MainActorCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the wishlist as CSV (Title,Year,Directors,Genres,Added: Letterboxd's import columns) or JSON.",
        discussion: """
        To FILE (written atomically; a device or fifo in place), else, or with -, to standard output. \
        A folder or other special file is refused, and a write that fails says why (status 1).
        """)

    @Option(help: ArgumentHelp("csv or json (default: the file's extension, .csv or .json; else csv).", valueName: "format"),
            completion: .list(WishlistTransfer.Format.allCases.map(\.rawValue)))
    var format: String?
    @Argument(help: "The file to write (standard output when left out).", completion: .file(extensions: ["csv", "json"]))
    var file: String?

    func validate() throws {
        guard format.map({ WishlistTransfer.Format(rawValue: $0.lowercased()) != nil }) ?? true else {
            throw ValidationError("--format must be csv or json (got '\(CLIOptions.shown(format ?? ""))')")
        }
    }

    /// What is written: `--format`, else the file's extension (`.json`, `.csv`), else CSV.
    var chosenFormat: WishlistTransfer.Format {
        if let format, let chosen = WishlistTransfer.Format(rawValue: format.lowercased()) { return chosen }
        let ext = file.map { URL(fileURLWithPath: $0).pathExtension.lowercased() } ?? ""
        return WishlistTransfer.Format(rawValue: ext) ?? .csv
    }

    @MainActor func runOnMainActor() throws {
        // Where it goes is checked before the wishlist is read: a path that will be refused is refused first.
        let target: OutputFile.Target
        do {
            target = try OutputFile.target(file ?? "-")
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        let format = chosenFormat
        let text = try OneShot.exportWishlist(format: format, options: .defaults)
        do {
            try OutputFile.write(Data(text.utf8), to: target, named: file ?? "-")
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        if let file, file != "-" {
            OneShot.Context().note("wrote the wishlist as \(format.rawValue.uppercased()) to \(CLIOptions.shown(file))")
        }
    }
}

struct WishlistImportCommand: MainActorCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the films a CSV or JSON file names to the wishlist, matched by title and year in the catalogue.",
        discussion: """
        Prints one line per film that did not match, then a count. Exit status 0 when a film was added \
        (or was saved already), 1 when none was. Files over 5 MB or 20,000 rows are refused.
        """)

    @Argument(help: "A file written by `nimbus wishlist export` or Letterboxd (Title and Year columns).",
              completion: .file(extensions: ["csv", "json"]))
    var file: String

    @MainActor func runOnMainActor() throws {
        let report = try OneShot.importWishlist(file: file, options: .defaults)
        print(report.text)
        if report.added + report.already == 0 { throw ExitCode(1) }
    }
}

extension OneShot {
    static func exportWishlist(format: WishlistTransfer.Format, options: CLIOptions.Values,
                               context: Context = Context()) throws -> String {
        let container = try container(options, network: false, context: context)
        let store = WishlistStore(database: container.userDatabase)
        return try WishlistTransfer.export(store.entries(), as: format)
    }

    struct ImportReport: Equatable {
        var added = 0
        var already = 0
        var unmatched: [String] = []
        var text = ""
    }

    static func importWishlist(file: String, options: CLIOptions.Values, context: Context = Context()) throws -> ImportReport {
        let items: [WishlistTransfer.Item]
        do {
            items = try WishlistImporter.items(path: URL(fileURLWithPath: file).path)
        } catch let failure as WishlistTransfer.Failure {
            switch failure {
            case .tooLarge: throw CommandFailure(message: "\(CLIOptions.shown(file)) is larger than 5 MB")
            case .tooManyRows(let limit): throw CommandFailure(message: "\(CLIOptions.shown(file)) has more than \(limit) rows")
            case .notText: throw CommandFailure(message: "\(CLIOptions.shown(file)) is not UTF-8 text")
            case .badFormat(let why): throw CommandFailure(message: "\(CLIOptions.shown(file)): \(why.rawValue)")
            case .unreadable(let why): throw CommandFailure(message: "could not read \(CLIOptions.shown(file)): \(why)")
            }
        }
        let container = try container(options, network: false, context: context)
        // A database kept in memory (the data directory can't be used) would take the films and lose them.
        if case .notSaved(let directory, let reason) = container.userDatabase.status {
            throw CommandFailure(message: "cannot save to \(directory) (\(reason)): nothing was imported")
        }
        let store = WishlistStore(database: container.userDatabase, now: context.now)
        let importer = WishlistImporter(store: store, catalogue: try movies(in: container), home: nil)
        var report = ImportReport()
        do {
            let imported = try importer.add(items)
            (report.added, report.already, report.unmatched) = (imported.added, imported.already, imported.unmatched)
        } catch WishlistImportError.notSaved(let reason) {
            throw CommandFailure(message: "the wishlist could not be saved (\(reason)): nothing was imported")
        } catch {
            throw CommandFailure(message: "the film catalogue could not be read")
        }
        var lines = report.unmatched.map { "not found: \(DisplayWidth.sanitize($0))" }
        lines.append("added \(report.added) film\(report.added == 1 ? "" : "s")"
                     + (report.already > 0 ? ", \(report.already) already saved" : "")
                     + (report.unmatched.isEmpty ? "" : ", \(report.unmatched.count) not found"))
        report.text = lines.joined(separator: "\n")
        return report
    }
}
