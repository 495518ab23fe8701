import ArgumentParser
import Foundation
import NimbusCurses
import NimbusData
import NimbusDomain
import CombineSchedulers
import Logging
import OpenCombineShim

/// Options shared by the app and by tapes (`Args` lines).
public struct CLIOptions: ParsableArguments {
    public enum Tier: String, ExpressibleByArgument, CaseIterable, Sendable {
        case standard, large
    }

    @Option(help: ArgumentHelp(
        "City catalogue: 'standard' (bundled, ~34k cities with population ≥ 15,000) or 'large' (~170k, population ≥ 1,000; generate it first with scripts/build-resources.py --tier 1000).",
        valueName: "tier"))
    public var tier: Tier = .standard

    @Option(help: ArgumentHelp("Load the city catalogue from this file instead.", valueName: "path"))
    public var catalog: String?

    @Option(help: ArgumentHelp(
        "Your position for the Today tab, in decimal degrees (e.g. 37.57,126.98 or -33.86,151.21). Else NIMBUS_LOCATION, else the system time zone.",
        valueName: "lat,lon"))
    public var location: String?

    @Option(help: ArgumentHelp(
        "Log every network request to this file (one it makes is 0600; rotated at 1 MB, 3 files kept), at NIMBUS_LOG's level or info. Without it, NIMBUS_LOG=debug|info logs to $XDG_STATE_HOME/nimbus/nimbus.log (else ~/.local/state/nimbus/nimbus.log).",
        valueName: "path"))
    public var logFile: String?

    @Option(help: ArgumentHelp("metric, imperial or auto (the locale's). Over NIMBUS_UNITS and config.toml.", valueName: "units"))
    public var units: UserSettings.Units?

    @Option(help: ArgumentHelp("dark, light or auto (asks the terminal). Over NIMBUS_THEME and config.toml.", valueName: "theme"))
    public var theme: UserSettings.Theme?

    @Option(help: ArgumentHelp("braille, blocks or auto (blocks on the Linux console). Over NIMBUS_MAP_STYLE and config.toml.",
                               valueName: "style"))
    public var mapStyle: UserSettings.MapStyle?

    @Flag(name: .customLong("no-mouse"), help: ArgumentHelp(
        "Do not ask the terminal for mouse reports (clicks, the wheel, drags), so it selects text on a plain drag. Also NIMBUS_MOUSE=0. With the mouse on, Shift+drag still selects text in most terminals."))
    public var noMouse = false

    public init() {}

    /// Options whose value may begin with a minus sign (a southern latitude): `--location -33.86,151.21`
    /// is `--location=-33.86,151.21`, not an unknown option `-3`; a negative `--limit` or `--zoom` is
    /// then told its range rather than that its value is missing.
    static let signedOptions: Set<String> = ["--location", "--limit", "--zoom"]

    /// `arguments` with each value of a `signedOptions` option that begins with `-` joined to its
    /// option by `=`, so the parser takes it as the value it is.
    public static func joiningSignedValues(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var i = arguments.startIndex
        while i < arguments.endIndex {
            let argument = arguments[i]
            let next = arguments.index(after: i)
            if argument == "--" {
                out += arguments[i...]
                break
            }
            if signedOptions.contains(argument), next < arguments.endIndex, arguments[next].hasPrefix("-"),
               arguments[next].dropFirst().first.map({ $0.isNumber || $0 == "." }) == true {
                out.append(argument + "=" + arguments[next])
                i = arguments.index(after: next)
                continue
            }
            out.append(argument)
            i = next
        }
        return out
    }

    /// Parses options as the command line gives them (see `joiningSignedValues`).
    public static func parseCommandLine(_ arguments: [String]) throws -> CLIOptions {
        try parse(joiningSignedValues(arguments))
    }

    public func validate() throws {
        if let location {
            do {
                _ = try GeoPoint.parse(location)
            } catch {
                throw ValidationError(Self.message(for: error, option: "--location"))
            }
        }
    }

    /// The parsed options as plain values.
    struct Values: Sendable {
        var tier: Tier
        var catalog: String?
        /// The position given with `--location` (already checked by `validate`).
        var location: GeoPoint?
        /// `--log-file` (only the real app logs; tapes never do).
        var logFile: String?
        /// `--units`, `--theme`, `--map-style`, `--no-mouse`.
        var settings = UserSettings()

        /// What an empty command line means.
        static let defaults = Values(tier: .standard, catalog: nil, location: nil, logFile: nil)

        func configuration(environment: [String: String], scheduler: AnySchedulerOf<DispatchQueue>,
                           colors: Bool) -> AppDIContainer.Configuration {
            let choice: CatalogChoice
            if let catalog { choice = .file(URL(fileURLWithPath: catalog)) }
            else { choice = tier == .large ? .large : .bundled }
            var configuration = AppDIContainer.Configuration(
                environment: environment, catalog: choice, location: location, scheduler: scheduler, colors: colors)
            configuration.settingsFlags = settings
            return configuration
        }
    }

    var values: Values {
        Values(tier: tier, catalog: catalog, location: location.flatMap { try? GeoPoint.parse($0) }, logFile: logFile,
               settings: UserSettings(units: units, theme: theme, mapStyle: mapStyle, mouse: noMouse ? false : nil))
    }

    /// What is wrong with a position given on the command line or in the environment.
    static func message(for error: GeoPoint.ParseError, option: String) -> String {
        switch error {
        case .notTwoNumbers(let text):
            return "\(option) takes latitude,longitude in decimal degrees, like 37.57,126.98 or -33.86,151.21 (got '\(Self.shown(text))')"
        case .latitudeOutOfRange(let v):
            return "\(option): latitude \(v) is outside -90...90 (give latitude,longitude, like -33.86,151.21)"
        case .longitudeOutOfRange(let v):
            return "\(option): longitude \(v) is outside -180...180 (give latitude,longitude, like -33.86,151.21)"
        }
    }

    /// What the options mean for the app, in `environment`, with its scheduler.
    public func configuration(environment: [String: String], scheduler: AnySchedulerOf<DispatchQueue>,
                              colors: Bool) -> AppDIContainer.Configuration {
        values.configuration(environment: environment, scheduler: scheduler, colors: colors)
    }

    /// A value from the command line, printable on one line: control characters dropped, at most 40 characters.
    static func shown(_ text: String) -> String {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        return clean.count > 40 ? String(clean.prefix(39)) + "…" : clean
    }
}

extension UserSettings.Units: ExpressibleByArgument {}
extension UserSettings.Theme: ExpressibleByArgument {}
extension UserSettings.MapStyle: ExpressibleByArgument {}

/// An error of a command that was given correctly but could not do its work: exit status 1.
struct CommandFailure: Error {
    let message: String
}

/// `nimbus`: the command line.
public struct NimbusCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "nimbus",
        abstract: "Search 34,000 cities by any of their names and see their weather, and 17,000 films, in your terminal.",
        discussion: """
        Keys: / search, ↑↓ j k move, PgUp PgDn Home End, Enter open, f like a city, y copy, r refresh the weather, Esc back, \
        1-6 tabs (Cities, Today, Liked, Quakes, Movies, Wishlist), d remove, ? help, q quit, Ctrl-C quit at once.
        Environment: NIMBUS_LANG, LC_ALL, LC_MESSAGES, LANG choose the language (en, ko, ja); NO_COLOR turns colour off; \
        NIMBUS_UNITS=metric|imperial|auto, NIMBUS_THEME=dark|light|auto, \
        NIMBUS_MAP_STYLE=braille|blocks|auto; settings are saved in $XDG_CONFIG_HOME/nimbus/config.toml (press , or F2); NIMBUS_WEATHER_URL (default https://api.open-meteo.com); \
        NIMBUS_AIR_URL (default https://air-quality-api.open-meteo.com); NIMBUS_LOCATION=LAT,LON; \
        NIMBUS_MOUSE=0 (or --no-mouse) turns mouse reporting off (with it on, Shift+drag still selects text in most terminals); \
        NIMBUS_LOG=debug|info logs every request to $XDG_STATE_HOME/nimbus/nimbus.log (or --log-file PATH); \
        XDG_DATA_HOME (likes, wishlist) and XDG_CACHE_HOME (forecasts, air quality, TMDB responses);
        TMDB_API_KEY takes films from TMDB instead of the bundled catalogue (NIMBUS_TMDB_URL overrides its address).
        Data (cities, films, maps, strings) is read from beside the binary, else <prefix>/share/nimbus of the prefix it is \
        installed under, else NIMBUS_DATA_DIR, else nimbus/ in each XDG_DATA_DIRS folder; --version lists what was found where.
        """,
        version: nimbusVersion,
        subcommands: [Run.self, TapeCommand.self, MapCommand.self, WeatherCommand.self, SearchCommand.self, MoviesCommand.self,
                      WishlistCommand.self],
        defaultSubcommand: Run.self
    )

    public init() {}

    /// Parses the command line and runs it. Every error is one line on stderr: a command line that
    /// can't be used (an unknown option, a bad `--location` or `--zoom`) exits with status 2, as shell
    /// tools do; a command that could not do its work (a tape file that can't be read, no terminal)
    /// with status 1. `--help` and `--version` exit 0.
    @MainActor public static func runFromCommandLine() -> Never {
        let arguments = CLIOptions.joiningSignedValues(Array(CommandLine.arguments.dropFirst()))
        // Plain `nimbus` has nothing to parse: start the app with the default options without
        // building ArgumentParser's model of every command and option (a seventh of start-up).
        if arguments.isEmpty {
            do {
                try Run.start(options: .defaults)
                Foundation.exit(0)
            } catch {
                fail(error)
            }
        }
        if CommandLineHelp.asksForTheRootHelp(arguments) {
            print(CommandLineHelp.rootHelp())
            Foundation.exit(0)
        }
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if exitCode(for: error) == .success {
                // `--version`, wherever it is given: the version, the commit and the data found.
                if message(for: error) == configuration.version {
                    let report = VersionReport.text(folders: .live, environment: ProcessInfo.processInfo.environment)
                    print(report.text)
                    Foundation.exit(report.complete ? 0 : 1)
                }
                exit(withError: error)
            }
            fail(usage: CommandLineHelp.unknownCommand(arguments) ?? message(for: error))
        }
        do {
            if let command = command as? MainActorCommand { try command.runOnMainActor() } else { try command.run() }
            Foundation.exit(0)
        } catch {
            // `--help` parses as ArgumentParser's help command, whose `run` throws the request for help.
            if exitCode(for: error) == .success { exit(withError: error) }
            fail(error)
        }
    }

    /// The one line an error prints, and the status it exits with.
    static func outcome(of error: Error) -> (line: String, status: Int32) {
        switch error {
        case let error as ValidationError:
            return (usageLine(error.message), 2)
        case let error as CommandFailure:
            return ("nimbus: " + oneLine(error.message), 1)
        case let error as ExitCode:
            return ("", error.rawValue)
        default:
            return ("nimbus: " + oneLine(String(describing: error)), 1)
        }
    }

    private static func usageLine(_ message: String) -> String {
        "nimbus: " + oneLine(message) + " (nimbus --help shows the usage)"
    }

    private static func oneLine(_ text: String) -> String {
        var line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        return line
    }

    private static func fail(usage message: String) -> Never {
        FileHandle.standardError.write(Data((usageLine(message) + "\n").utf8))
        Foundation.exit(2)
    }

    private static func fail(_ error: Error) -> Never {
        let (line, status) = outcome(of: error)
        if !line.isEmpty { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        Foundation.exit(status)
    }
}

/// A command whose work runs on the main actor: `NimbusCommand.runFromCommandLine` parses the
/// command line on the main thread and calls `runOnMainActor` there (ArgumentParser's `run` is not
/// isolated, and is not called for these).
protocol MainActorCommand: ParsableCommand {
    @MainActor func runOnMainActor() throws
}

/// Runs the app in the terminal.
struct Run: MainActorCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run Nimbus (the default).")

    @OptionGroup var options: CLIOptions

    @MainActor func runOnMainActor() throws {
        try Self.start(options: options.values)
    }

    /// Starts the app; returns only by throwing (a catalogue that can't be opened, no terminal).
    @MainActor static func start(options: CLIOptions.Values) throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = options.configuration(
            environment: environment, scheduler: MainScheduler.live, colors: true)
        // The one HTTP client: libcurl is loaded on the first request (or the warm-up), not at start-up.
        let network = LiveHTTPClient()
        configuration.httpClient = network
        configuration.log = try Self.log(environment: environment, logFile: options.logFile)
        // Maps are drawn off the main queue so that keys never wait for them.
        configuration.renderScheduler = DispatchQueue(label: "nimbus.map", qos: .userInitiated).eraseToAnyScheduler()
        // Finding the nearest city (the k-d tree is built on first use) too, on a serial queue.
        configuration.workScheduler = DispatchQueue(label: "nimbus.work", qos: .userInitiated).eraseToAnyScheduler()
        // A settings key applies at once; the file is written on a queue of its own.
        configuration.settingsScheduler = DispatchQueue(label: "nimbus.settings", qos: .utility).eraseToAnyScheduler()
        // Load everything that can fail before the terminal switches to full screen.
        let container: AppDIContainer
        do {
            container = try AppDIContainer(configuration: configuration)
            try container.openMovieCatalogue()
        } catch let error as CityCatalogError {
            throw CommandFailure(message: error.message)
        } catch is MovieError {
            throw CommandFailure(message: "the bundled film catalogue (movies.sqlite) could not be opened; rebuild with scripts/build-resources.py --movies")
        }
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
            throw CommandFailure(message: "nimbus needs a terminal on stdin and stdout (to run tapes headless: nimbus tape FILE)")
        }
        // Flag > environment > config.toml's `mouse` > on, as the settings resolve it; the settings'
        // Mouse row changes it from there, at once.
        let preferences = container.preferences
        let backend = NCursesBackend(mouse: preferences.mouse)
        // The runner's signal sources and the coordinator's callbacks hold it weakly; it lives as
        // long as the process.
        let runner = LiveRunner(backend: backend, network: network)
        try withExtendedLifetime(runner) {
            // Only the auto theme, with colours, asks the terminal; the first frame is dark and does
            // not wait for the answer (an answer within 50 ms redraws it in the terminal's theme).
            let ask = preferences.themeSetting == .auto && !preferences.monochrome
            try runner.run(askBackground: ask, useBackground: { preferences.useTerminalBackground($0) }) {
                if !backend.supportsColor { preferences.useMonochrome() }
                return AppCoordinator(container: container)
            }
        }
    }
}

extension Run {
    /// The log the environment and `--log-file` ask for. Nothing of swift-log's ever writes to the
    /// terminal: the app's loggers are made with handlers of its own, and any other goes nowhere.
    static func log(environment: [String: String], logFile: String?) throws -> NimbusLog {
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        let secrets = [environment["TMDB_API_KEY"]?.trimmingCharacters(in: .whitespaces)].compactMap { $0 }
        do {
            let log = try NimbusLog.configured(environment: environment, logFile: logFile, secrets: secrets)
            log.logger(.http).info("nimbus \(nimbusVersion) started, logging at \(log.level?.rawValue ?? "")")
            return log
        } catch {
            throw CommandFailure(message: String(describing: error))
        }
    }
}
