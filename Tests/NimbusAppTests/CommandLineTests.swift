import Foundation
import Testing
import NimbusDomain
import NimbusData
import TestSupport
@testable import NimbusApp

/// The `nimbus` binary's command line: every error one line, status 2 for usage and 1 for a failure.
@Suite @MainActor struct CommandLineTests {
    private let temporary = TemporaryDirectories()

    private struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `nimbus` that `swift build` put beside the test bundle.
    private var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nimbus")
    }

    private func run(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = temporary.isolated(["NIMBUS_LANG": "en", "PATH": "/usr/bin:/bin"])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                       stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `nimbus movies --help` names the catalogue's first and last year, as the catalogue holds them.
    @Test func testMoviesHelpNamesTheCataloguesYears() throws {
        let help = try run(["movies", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        let years = try #require(try MovieCatalogue.bundled().yearSpan)
        #expect(help.stdout.contains("films from \(years.lowerBound) to"), "\(help.stdout)")
        #expect(help.stdout.contains("\(years.upperBound), English titles"), "\(help.stdout)")
        #expect(help.stdout.contains("TMDB_API_KEY (titles in the UI's"), "\(help.stdout)")
    }

    private func assertOneLine(_ text: String, containing part: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1, "one line, got:\n\(text)", sourceLocation: sourceLocation)
        #expect(text.contains(part), "\"\(part)\" not in: \(text)", sourceLocation: sourceLocation)
    }

    @Test func testNegativeCoordinatesWorkAsWrittenAndWithAnEqualsSign() throws {
        #expect(CLIOptions.joiningSignedValues(["--location", "-33.86,151.21"]) == ["--location=-33.86,151.21"])
        #expect(CLIOptions.joiningSignedValues(["map", "x", "--location", "-.5,3", "--zoom", "3"]) == ["map", "x", "--location=-.5,3", "--zoom", "3"])
        #expect(CLIOptions.joiningSignedValues(["--location", "--tier", "large"]) == ["--location", "--tier", "large"], "an option after it is left to the parser")
        #expect(CLIOptions.joiningSignedValues(["--", "--location", "-1,2"]) == ["--", "--location", "-1,2"])
        #expect(try CLIOptions.parseCommandLine(["--location", "-33.86,151.21"]).values.location == GeoPoint(latitude: -33.86, longitude: 151.21))
        #expect(try CLIOptions.parseCommandLine(["--location=-33.86,-70.5"]).values.location == GeoPoint(latitude: -33.86, longitude: -70.5))
        let sydney = try run(["map", "sydney", "--location", "-33.86,151.21", "--size", "30x8"])
        #expect(sydney.status == 0, "\(sydney.stderr)")
        #expect(sydney.stdout.contains("Sydney"), "\(sydney.stdout)")
    }

    @Test func testSettingsFlagsReachTheConfiguration() throws {
        let values = try CLIOptions.parseCommandLine(["--units", "imperial", "--theme", "light", "--map-style", "blocks"]).values
        #expect(values.settings == UserSettings(units: .imperial, theme: .light, mapStyle: .blocks))
        #expect(try CLIOptions.parseCommandLine([]).values.settings == UserSettings())
        #expect(throws: (any Error).self) { try CLIOptions.parseCommandLine(["--units", "kelvin"]) }
        #expect(throws: (any Error).self) { try CLIOptions.parseCommandLine(["--theme", "pink"]) }
    }

    @Test func testUsageErrorsAreOneLineWithStatusTwo() throws {
        for (arguments, part) in [(["map", "seoul", "--zoom", "13"], "--zoom must be world, country, city or 0-12 (got '13')"),
                                  (["--location", "95,0"], "latitude 95.0 is outside -90...90"),
                                  (["--location", "north"], "like 37.57,126.98 or -33.86,151.21"),
                                  (["--bogus"], "--bogus"),
                                  (["map", "seoul", "--size", "9x\u{1B}[2J"], "--size must look like")] {
            let outcome = try run(arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            assertOneLine(outcome.stderr, containing: part)
            #expect(!outcome.stderr.contains("\u{1B}"), "no escape sequence is echoed")
        }
    }

    @Test func testTheNearestCommandToAMistypedOne() {
        let names = CommandLineHelp.commandNames
        for (typed, meant) in [("wether", "weather"), ("waether", "weather"), ("weathr", "weather"), ("seach", "search"),
                               ("mvoies", "movies"), ("mpa", "map"), ("tpae", "tape"), ("wish", "wishlist"), ("hlep", "help")] {
            #expect(CommandLineHelp.nearest(to: typed, among: names) == meant, "\(typed)")
        }
        for typed in ["seoul", "x", "zzzzzz", "paris"] {
            #expect(CommandLineHelp.nearest(to: typed, among: names) == nil, "\(typed)")
        }
        #expect(CommandLineHelp.unknownCommand(["--units", "metric"]) == nil, "an option is the parser's to judge")
        #expect(CommandLineHelp.unknownCommand(["weather", "seoul"]) == nil)
        #expect(CommandLineHelp.distance(Array("ab"), Array("ba")) == 1, "a swapped pair counts once")
    }

    /// A mistyped command is answered with the nearest one; a value out of range names the range;
    /// --format goes only with the one line; the top-level help lists the app's own options.
    @Test func testCommandsSpeakLikeCommands() throws {
        for (arguments, part) in [(["wether", "seoul"], "unknown command 'wether'; did you mean 'weather'?"),
                                  (["serch", "seoul"], "did you mean 'search'?"),
                                  (["mvoies", "heat"], "did you mean 'movies'?"),
                                  (["zzzzzz"], "unknown command 'zzzzzz' (the commands are tape, map, weather"),
                                  (["search", "seoul", "--limit", "-1"], "--limit must be 1-10000 (got -1)"),
                                  (["search", "seoul", "--limit", "0"], "--limit must be 1-10000 (got 0)"),
                                  (["weather", "seoul", "--format", "%t", "--json"], "--format is the line --oneline prints")] {
            let outcome = try run(arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            assertOneLine(outcome.stderr, containing: part)
        }
        let help = try run(["--help"])
        #expect(help.status == 0, "\(help.stderr)")
        for option in ["--location", "--units", "--no-mouse", "--theme", "--map-style", "--tier"] {
            #expect(help.stdout.contains(option), "nimbus --help lacks \(option):\n\(help.stdout)")
        }
        #expect(help.stdout.contains("SUBCOMMANDS"), "\(help.stdout)")
        // --format alone is the one line; --oneline alone has the default format, which marks a kept copy.
        #expect(try WeatherCommand.parse(["seoul", "--format", "%t"]).mode == .oneline("%t"))
        #expect(try WeatherCommand.parse(["seoul", "--oneline", "--format", "%t"]).mode == .oneline("%t"))
        #expect(try WeatherCommand.parse(["seoul", "--oneline"]).mode == .oneline("%l: %c %t %w%k"))
        #expect(try WeatherCommand.parse(["seoul", "--json"]).mode == .json)
        #expect(try WeatherCommand.parse(["seoul"]).mode == .print(nil))
    }

    @Test func testFailuresAreOneLineWithStatusOne() throws {
        let tape = try run(["tape", "/missing.tape"])
        #expect(tape.status == 1)
        #expect(tape.stdout == "FAIL  /missing.tape: no such file or directory\n0 passed, 1 failed\n")
        #expect(!tape.stdout.contains("NSCocoaErrorDomain"))
        let directory = try run(["tape", "/tmp"])
        #expect(directory.stdout.contains("FAIL  /tmp: not a regular file"), "\(directory.stdout)")
        let noCity = try run(["map", "qqqqxzzz"])
        #expect(noCity.status == 1)
        assertOneLine(noCity.stderr, containing: "no city matches \"qqqqxzzz\"")
        let noTerminal = try run([])
        #expect(noTerminal.status == 1)
        assertOneLine(noTerminal.stderr, containing: "needs a terminal")
    }

    @Test func testHelpAndTheLogFileOption() throws {
        for (arguments, part) in [(["--help"], "NIMBUS_LOG=debug|info"), (["run", "--help"], "--log-file <path>"),
                                  (["tape", "--help"], "Tape files.")] {
            let help = try run(arguments)
            #expect(help.status == 0, "\(arguments): \(help.stderr)")
            #expect(help.stdout.contains(part), "\(help.stdout)")
            #expect(help.stderr == "")
        }
        let unwritable = try run(["--log-file", "/proc/nimbus/x.log"])
        #expect(unwritable.status == 1)
        assertOneLine(unwritable.stderr, containing: "can't write the log file /proc/nimbus/x.log")
        // The log is opened before the terminal is asked for: here there is none, and the file says it started.
        let folder = temporary.name("nimbus-cli-log")
        let file = folder.appendingPathComponent("deep/n.log")
        let noTerminal = try run(["--log-file", file.path])
        #expect(noTerminal.status == 1)
        assertOneLine(noTerminal.stderr, containing: "needs a terminal")
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(text.contains(" info http: nimbus \(nimbusVersion) started, logging at info"), "\(text)")
        let mode = (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
    }

    @Test func testCompletionsAndTheManPageFollowTheCommands() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try run(["--generate-completion-script", shell])
            #expect(script.status == 0, "\(script.stderr)")
            for command in ["weather", "search", "movies", "tape", "map"] {
                #expect(script.stdout.contains(command), "\(shell) completions lack \(command)")
            }
        }
        // docs/nimbus.1 is checked against the commands by ManualPageTests.
    }
}
