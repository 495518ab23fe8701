import XCTest
import NimbusDomain
import NimbusData
import TestSupport
@testable import NimbusApp

/// The `nimbus` binary's command line: every error one line, status 2 for usage and 1 for a failure.
@MainActor
final class CommandLineTests: XCTestCase {
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
        process.environment = isolated(["NIMBUS_LANG": "en", "PATH": "/usr/bin:/bin"])
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
    func testMoviesHelpNamesTheCataloguesYears() throws {
        let help = try run(["movies", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        let years = try XCTUnwrap(try MovieCatalogue.bundled().yearSpan)
        XCTAssertTrue(help.stdout.contains("films from \(years.lowerBound) to"), help.stdout)
        XCTAssertTrue(help.stdout.contains("\(years.upperBound), English titles"), help.stdout)
        XCTAssertTrue(help.stdout.contains("TMDB_API_KEY (titles in the UI's"), help.stdout)
    }

    private func assertOneLine(_ text: String, containing part: String, file: StaticString = #filePath, line: UInt = #line) {
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line, got:\n\(text)", file: file, line: line)
        XCTAssertTrue(text.contains(part), "\"\(part)\" not in: \(text)", file: file, line: line)
    }

    nonisolated func testNegativeCoordinatesWorkAsWrittenAndWithAnEqualsSign() throws {
        try onMain(self) { try $0.mainActorTestNegativeCoordinatesWorkAsWrittenAndWithAnEqualsSign() }
    }

    private func mainActorTestNegativeCoordinatesWorkAsWrittenAndWithAnEqualsSign() throws {
        XCTAssertEqual(CLIOptions.joiningSignedValues(["--location", "-33.86,151.21"]), ["--location=-33.86,151.21"])
        XCTAssertEqual(CLIOptions.joiningSignedValues(["map", "x", "--location", "-.5,3", "--zoom", "3"]),
                       ["map", "x", "--location=-.5,3", "--zoom", "3"])
        XCTAssertEqual(CLIOptions.joiningSignedValues(["--location", "--tier", "large"]), ["--location", "--tier", "large"],
                       "an option after it is left to the parser")
        XCTAssertEqual(CLIOptions.joiningSignedValues(["--", "--location", "-1,2"]), ["--", "--location", "-1,2"])
        XCTAssertEqual(try CLIOptions.parseCommandLine(["--location", "-33.86,151.21"]).values.location,
                       GeoPoint(latitude: -33.86, longitude: 151.21))
        XCTAssertEqual(try CLIOptions.parseCommandLine(["--location=-33.86,-70.5"]).values.location,
                       GeoPoint(latitude: -33.86, longitude: -70.5))
        let sydney = try run(["map", "sydney", "--location", "-33.86,151.21", "--size", "30x8"])
        XCTAssertEqual(sydney.status, 0, sydney.stderr)
        XCTAssertTrue(sydney.stdout.contains("Sydney"), sydney.stdout)
    }

    nonisolated func testSettingsFlagsReachTheConfiguration() throws {
        let values = try CLIOptions.parseCommandLine(["--units", "imperial", "--theme", "light", "--map-style", "blocks"]).values
        XCTAssertEqual(values.settings, UserSettings(units: .imperial, theme: .light, mapStyle: .blocks))
        XCTAssertEqual(try CLIOptions.parseCommandLine([]).values.settings, UserSettings())
        XCTAssertThrowsError(try CLIOptions.parseCommandLine(["--units", "kelvin"]))
        XCTAssertThrowsError(try CLIOptions.parseCommandLine(["--theme", "pink"]))
    }

    nonisolated func testUsageErrorsAreOneLineWithStatusTwo() throws {
        try onMain(self) { try $0.mainActorTestUsageErrorsAreOneLineWithStatusTwo() }
    }

    private func mainActorTestUsageErrorsAreOneLineWithStatusTwo() throws {
        for (arguments, part) in [(["map", "seoul", "--zoom", "13"], "--zoom must be world, country, city or 0-12 (got '13')"),
                                  (["--location", "95,0"], "latitude 95.0 is outside -90...90"),
                                  (["--location", "north"], "like 37.57,126.98 or -33.86,151.21"),
                                  (["--bogus"], "--bogus"),
                                  (["map", "seoul", "--size", "9x\u{1B}[2J"], "--size must look like")] {
            let outcome = try run(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments): \(outcome.stderr)")
            assertOneLine(outcome.stderr, containing: part)
            XCTAssertFalse(outcome.stderr.contains("\u{1B}"), "no escape sequence is echoed")
        }
    }

    nonisolated func testTheNearestCommandToAMistypedOne() {
        let names = CommandLineHelp.commandNames
        for (typed, meant) in [("wether", "weather"), ("waether", "weather"), ("weathr", "weather"), ("seach", "search"),
                               ("mvoies", "movies"), ("mpa", "map"), ("tpae", "tape"), ("wish", "wishlist"), ("hlep", "help")] {
            XCTAssertEqual(CommandLineHelp.nearest(to: typed, among: names), meant, typed)
        }
        for typed in ["seoul", "x", "zzzzzz", "paris"] {
            XCTAssertNil(CommandLineHelp.nearest(to: typed, among: names), typed)
        }
        XCTAssertNil(CommandLineHelp.unknownCommand(["--units", "metric"]), "an option is the parser's to judge")
        XCTAssertNil(CommandLineHelp.unknownCommand(["weather", "seoul"]))
        XCTAssertEqual(CommandLineHelp.distance(Array("ab"), Array("ba")), 1, "a swapped pair counts once")
    }

    nonisolated func testCommandsSpeakLikeCommands() throws {
        try onMain(self) { try $0.mainActorTestCommandsSpeakLikeCommands() }
    }

    /// A mistyped command is answered with the nearest one; a value out of range names the range;
    /// --format goes only with the one line; the top-level help lists the app's own options.
    private func mainActorTestCommandsSpeakLikeCommands() throws {
        for (arguments, part) in [(["wether", "seoul"], "unknown command 'wether'; did you mean 'weather'?"),
                                  (["serch", "seoul"], "did you mean 'search'?"),
                                  (["mvoies", "heat"], "did you mean 'movies'?"),
                                  (["zzzzzz"], "unknown command 'zzzzzz' (the commands are tape, map, weather"),
                                  (["search", "seoul", "--limit", "-1"], "--limit must be 1-10000 (got -1)"),
                                  (["search", "seoul", "--limit", "0"], "--limit must be 1-10000 (got 0)"),
                                  (["weather", "seoul", "--format", "%t", "--json"], "--format is the line --oneline prints")] {
            let outcome = try run(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments): \(outcome.stderr)")
            assertOneLine(outcome.stderr, containing: part)
        }
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        for option in ["--location", "--units", "--no-mouse", "--theme", "--map-style", "--tier"] {
            XCTAssertTrue(help.stdout.contains(option), "nimbus --help lacks \(option):\n\(help.stdout)")
        }
        XCTAssertTrue(help.stdout.contains("SUBCOMMANDS"), help.stdout)
        // --format alone is the one line; --oneline alone has the default format, which marks a kept copy.
        XCTAssertEqual(try WeatherCommand.parse(["seoul", "--format", "%t"]).mode, .oneline("%t"))
        XCTAssertEqual(try WeatherCommand.parse(["seoul", "--oneline", "--format", "%t"]).mode, .oneline("%t"))
        XCTAssertEqual(try WeatherCommand.parse(["seoul", "--oneline"]).mode, .oneline("%l: %c %t %w%k"))
        XCTAssertEqual(try WeatherCommand.parse(["seoul", "--json"]).mode, .json)
        XCTAssertEqual(try WeatherCommand.parse(["seoul"]).mode, .print(nil))
    }

    nonisolated func testFailuresAreOneLineWithStatusOne() throws {
        try onMain(self) { try $0.mainActorTestFailuresAreOneLineWithStatusOne() }
    }

    private func mainActorTestFailuresAreOneLineWithStatusOne() throws {
        let tape = try run(["tape", "/missing.tape"])
        XCTAssertEqual(tape.status, 1)
        XCTAssertEqual(tape.stdout, "FAIL  /missing.tape: no such file or directory\n0 passed, 1 failed\n")
        XCTAssertFalse(tape.stdout.contains("NSCocoaErrorDomain"))
        let directory = try run(["tape", "/tmp"])
        XCTAssertTrue(directory.stdout.contains("FAIL  /tmp: not a regular file"), directory.stdout)
        let noCity = try run(["map", "qqqqxzzz"])
        XCTAssertEqual(noCity.status, 1)
        assertOneLine(noCity.stderr, containing: "no city matches \"qqqqxzzz\"")
        let noTerminal = try run([])
        XCTAssertEqual(noTerminal.status, 1)
        assertOneLine(noTerminal.stderr, containing: "needs a terminal")
    }

    nonisolated func testHelpAndTheLogFileOption() throws {
        try onMain(self) { try $0.mainActorTestHelpAndTheLogFileOption() }
    }

    private func mainActorTestHelpAndTheLogFileOption() throws {
        for (arguments, part) in [(["--help"], "NIMBUS_LOG=debug|info"), (["run", "--help"], "--log-file <path>"),
                                  (["tape", "--help"], "Tape files.")] {
            let help = try run(arguments)
            XCTAssertEqual(help.status, 0, "\(arguments): \(help.stderr)")
            XCTAssertTrue(help.stdout.contains(part), help.stdout)
            XCTAssertEqual(help.stderr, "")
        }
        let unwritable = try run(["--log-file", "/proc/nimbus/x.log"])
        XCTAssertEqual(unwritable.status, 1)
        assertOneLine(unwritable.stderr, containing: "can't write the log file /proc/nimbus/x.log")
        // The log is opened before the terminal is asked for: here there is none, and the file says it started.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-cli-log-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("deep/n.log")
        let noTerminal = try run(["--log-file", file.path])
        XCTAssertEqual(noTerminal.status, 1)
        assertOneLine(noTerminal.stderr, containing: "needs a terminal")
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        XCTAssertTrue(text.contains(" info http: nimbus \(nimbusVersion) started, logging at info"), text)
        let mode = (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600)
    }

    nonisolated func testCompletionsAndTheManPageFollowTheCommands() throws {
        try onMain(self) { try $0.mainActorTestCompletionsFollowTheCommands() }
    }

    private func mainActorTestCompletionsFollowTheCommands() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try run(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            for command in ["weather", "search", "movies", "tape", "map"] {
                XCTAssertTrue(script.stdout.contains(command), "\(shell) completions lack \(command)")
            }
        }
        // docs/nimbus.1 is checked against the commands by ManualPageTests.
    }
}
