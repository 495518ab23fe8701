import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusData

/// The settings store: one resolution order (this run's choices > flags > environment > file), the
/// file's problems, and changes written in place.
final class SettingsStoreTests: XCTestCase {
    private func folder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-settings-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func store(_ text: String?, flags: UserSettings = UserSettings(), environment: [String: String] = [:])
        -> (SettingsStore, URL) {
        let url = folder().appendingPathComponent("config.toml")
        if let text { try? Data(text.utf8).write(to: url) }
        let immediate = DispatchQueue.immediate.eraseToAnyScheduler()
        return (SettingsStore(file: ConfigFile(url: url), flags: flags, environment: environment, io: immediate, deliver: immediate), url)
    }

    func testTheMouseResolvesFlagOverEnvironmentOverFileAndTheSettingsOverAll() {
        XCTAssertEqual(store("mouse = true\n", flags: UserSettings(mouse: false)).0.current.effective.mouse, false)
        XCTAssertEqual(store("mouse = true\n", environment: ["NIMBUS_MOUSE": "off"]).0.current.effective.mouse, false)
        XCTAssertEqual(store("mouse = false\n", environment: ["NIMBUS_MOUSE": "1"]).0.current.effective.mouse, true)
        XCTAssertEqual(store("mouse = false\n").0.current.effective.mouse, false)
        XCTAssertNil(store(nil).0.current.effective.mouse, "none says: the default (on) is the presentation's")
        // --no-mouse, then Mouse turned on in the settings: on, at once, and saved.
        let (settings, url) = store(nil, flags: UserSettings(mouse: false))
        settings.change(save: true) { $0.mouse = true }
        XCTAssertEqual(settings.current.effective.mouse, true)
        XCTAssertEqual(settings.current.save, .saved)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "mouse = true\n")
    }

    func testEveryChangeIsPublishedAndAChoiceForThisRunIsNotWritten() {
        let (settings, url) = store("# mine\nunits = \"imperial\"\n", environment: ["NIMBUS_UNITS": "metric"])
        XCTAssertEqual(settings.current.effective.units, .metric, "the environment over the file")
        var seen: [UserSettings] = []
        let subscription = settings.contents.sink { seen.append($0.effective) }
        settings.change(save: false) { $0.mapStyle = .blocks }
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "# mine\nunits = \"imperial\"\n")
        settings.change(save: true) { $0.units = .imperial }
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "# mine\nunits = \"imperial\"\n", "no key changed in the file")
        settings.change(save: true) { $0.clock = .h12 }
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "# mine\nunits = \"imperial\"\nclock = 12\n")
        XCTAssertEqual(seen.last?.units, .imperial, "the settings' choice over the environment")
        XCTAssertEqual(seen.last?.mapStyle, .blocks)
        XCTAssertEqual(seen.first?.units, .metric)
        subscription.cancel()
    }

    func testAFileWithAProblemIsNeverWrittenAndSaysWhy() {
        let (settings, url) = store("theme = 'solarized'\n")
        XCTAssertEqual(settings.current.problems.map(\.description), ["config.toml line 1: theme must be dark, light or auto"])
        XCTAssertEqual(settings.current.problems.first?.key, "theme")
        settings.change(save: true) { $0.clock = .h12 }
        XCTAssertEqual(settings.current.effective.clock, .h12, "applied for this run")
        XCTAssertEqual(settings.current.save, .notSaved(settings.current.problems.first))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "theme = 'solarized'\n")
    }

    /// A missing closing quote: said in the app's words with its line and column, not the parser's.
    func testASyntaxErrorHasItsLineColumnAndKind() throws {
        let loaded = ConfigFile.parse("# settings\nclock = 12\ntheme = \"dark\nunits = \"metric\"\n")
        let problem = try XCTUnwrap(loaded.problems.first)
        XCTAssertEqual(problem.line, 3)
        XCTAssertNotNil(problem.column)
        XCTAssertEqual(problem.reason, .notTOML(.unclosedString))
        XCTAssertFalse(loaded.writable)
        XCTAssertTrue(problem.message.hasPrefix("is not TOML (column "), problem.message)
        XCTAssertTrue(problem.message.hasSuffix(": a quote is not closed)"), problem.message)
        XCTAssertEqual(ConfigFile.parse("units =\n").problems.first?.reason, .notTOML(.missingValue))
        XCTAssertEqual(ConfigFile.parse("units\n").problems.first?.reason, .notTOML(.notKeyValue))
        XCTAssertEqual(ConfigFile.parse("a = 1\nunits = 'x\n").problems.first?.reason, .notTOML(.unclosedString))
        XCTAssertEqual(ConfigFile.parse("a = 1\nb = \"x\u{0}\"\n").problems.first?.reason, .notTOML(.nulByte))
        // A file with Windows line endings: the line the parser stopped on is still read.
        XCTAssertEqual(ConfigFile.parse("a = 1\r\ntheme = \"dark\r\n").problems.first?.reason, .notTOML(.unclosedString))
    }

    func testTheLineClassifierReadsQuotesAndComments() {
        XCTAssertTrue(TOMLSyntax.unclosed("theme = \"dark"))
        XCTAssertTrue(TOMLSyntax.unclosed("theme = 'dark"))
        XCTAssertFalse(TOMLSyntax.unclosed("theme = \"dark\" # it's mine"))
        XCTAssertFalse(TOMLSyntax.unclosed("theme = \"say \\\"hi\\\"\""))
        XCTAssertFalse(TOMLSyntax.unclosed("text = \"\"\"starts a block"))
        XCTAssertEqual(TOMLSyntax.classify(line: "units = # nothing"), .missingValue)
        XCTAssertEqual(TOMLSyntax.classify(line: "\"quoted key\" = 1"), .other)
        XCTAssertEqual(TOMLSyntax.line(2, of: "a = 1\r\nb = 'x\r\n"), "b = 'x")
        XCTAssertEqual(TOMLSyntax.line(9, of: "a = 1\n"), "")
    }
}
