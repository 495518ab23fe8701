import ArgumentParser
import Foundation
import NimbusCurses
import NimbusData
import NimbusDomain
import CombineSchedulers
import Logging
import OpenCombineShim

/// An error of a command that was given correctly but could not do its work: exit status 1.
struct CommandFailure: Error {
    let message: String
}

/// `nimbus`: the app, with its options; the one-shot commands beside it.
public struct NimbusCommand: MainActorCommand {
    public static let configuration = CommandConfiguration(
        commandName: "nimbus",
        abstract: "Search 34,000 cities by any of their names and see their weather, and 17,000 films, in your terminal.",
        usage: """
        nimbus [<options>]
          nimbus <command> [<options>] [<arguments>]
        """,
        discussion: CommandLineHelp.rootDiscussion,
        version: nimbusVersion,
        subcommands: [Run.self, TapeCommand.self, MapCommand.self, WeatherCommand.self, SearchCommand.self, MoviesCommand.self,
                      WishlistCommand.self]
    )

    @OptionGroup var options: CLIOptions

    public init() {}

    @MainActor func runOnMainActor() throws {
        try Run.start(options: options.values)
    }

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

/// `nimbus run`: what `nimbus` alone does (kept for the scripts that say it; not listed).
struct Run: MainActorCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run Nimbus (as nimbus alone does).",
                                                    shouldDisplay: false)

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
