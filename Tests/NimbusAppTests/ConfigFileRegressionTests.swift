import XCTest
import NimbusData
import NimbusDomain
import NimbusPresentation
import TestSupport
@testable import NimbusApp

/// What a settings change did to the user's `config.toml`, each kept from coming back: a change
/// rewrites only the line of the key it changed, two instances keep each other's changes, and a file
/// that is not TOML is never rewritten.
@MainActor
final class ConfigFileRegressionTests: XCTestCase {
    nonisolated(unsafe) private var environment: [String: String] = [:]
    private var url: URL { ConfigFile(environment: environment).url }
    private var contents: String { (try? String(contentsOf: url, encoding: .utf8)) ?? "(none)" }

    override func setUp() {
        super.setUp()
        environment = isolated(["NIMBUS_LANG": "en"])
        try? FileManager.default.createDirectory(atPath: environment["HOME"]!, withIntermediateDirectories: true)
    }

    private func write(_ text: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func container() throws -> AppDIContainer {
        let app = try AppDIContainer(configuration: .init(environment: environment, scheduler: DispatchQueue.immediate.eraseToAnyScheduler()))
        _ = app.settings  // read as the app starts, before the file changes under it
        return app
    }

    /// The lines of `after` that are not in `before` and the other way round, from the first line that
    /// differs to the last.
    private func changedLines(_ before: String, _ after: String) -> (removed: [Substring], added: [Substring]) {
        let a = before.split(separator: "\n", omittingEmptySubsequences: false)
        let b = after.split(separator: "\n", omittingEmptySubsequences: false)
        var head = 0
        while head < min(a.count, b.count), a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < min(a.count, b.count) - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        return (a[head..<(a.count - tail)].map { $0 }, b[head..<(b.count - tail)].map { $0 })
    }

    nonisolated func testOneChangeRewritesOnlyItsLineNotANestedArray() throws {
        try onMain(self) { try $0.mainActorTestOneChangeRewritesOnlyItsLineNotANestedArray() }
    }

    /// A 423-byte file with one nested array became 160 KB after one change (TOMLKit indents each level
    /// again), then over the 64 KB limit: every setting was lost at the next start.
    private func mainActorTestOneChangeRewritesOnlyItsLineNotANestedArray() throws {
        let text = "# my settings\nunits = \"imperial\"   # for the US office\n"
            + "matrix = " + String(repeating: "[", count: 180) + "1" + String(repeating: "]", count: 180) + "\n"
            + "[servers]\n  alpha = { ip = \"10.0.0.1\", dc = 'eqdc10' }   # hand-aligned\n"
        try write(text)
        XCTAssertTrue(try container().changeSettings { $0.units = .metric })
        XCTAssertEqual(contents, text.replacingOccurrences(of: "units = \"imperial\"", with: "units = \"metric\""))
        XCTAssertEqual(ConfigFile(environment: environment).load().settings, UserSettings(units: .metric))
    }

    nonisolated func testDeepArraysStayTheSizeTheyWere() throws {
        try onMain(self) { try $0.mainActorTestDeepArraysStayTheSizeTheyWere() }
    }

    /// 119 lines of deep arrays (60 KB) became 30 MB written and 190 MB of memory.
    private func mainActorTestDeepArraysStayTheSizeTheyWere() throws {
        var text = "clock = 24\n"
        for i in 0..<119 { text += "k\(i) = " + String(repeating: "[", count: 250) + String(repeating: "]", count: 250) + "\n" }
        try write(text)
        XCTAssertTrue(try container().changeSettings { $0.clock = .h12 })
        XCTAssertEqual(contents, text.replacingOccurrences(of: "clock = 24", with: "clock = 12"))
    }

    nonisolated func testCommentsOrderAndUnknownKeysAreKept() throws {
        try onMain(self) { try $0.mainActorTestCommentsOrderAndUnknownKeysAreKept() }
    }

    private func mainActorTestCommentsOrderAndUnknownKeysAreKept() throws {
        let text = """
        # Nimbus, by hand
        home = "1835848"   # Seoul
        future_key = 3

        # the theme follows the terminal
        theme = 'dark'
        [plugins.radar]
        theme = "red"

        """
        try write(text)
        let app = try container()
        XCTAssertTrue(app.changeSettings { $0.theme = .light })
        XCTAssertEqual(changedLines(text, contents).removed, ["theme = 'dark'"])
        XCTAssertEqual(changedLines(text, contents).added, ["theme = 'light'"])
        XCTAssertTrue(app.changeSettings { $0.mouse = false })
        XCTAssertEqual(changedLines(text, contents).removed, ["theme = 'dark'"])
        XCTAssertEqual(changedLines(text, contents).added, ["theme = 'light'", "mouse = false"],
                       "a new key goes after the last top-level key, before the tables")
        XCTAssertTrue(app.changeSettings { $0.home = nil })
        XCTAssertFalse(contents.contains("1835848"), contents)
        XCTAssertTrue(contents.hasPrefix("# Nimbus, by hand\nfuture_key = 3\n"), contents)
    }

    nonisolated func testTwoInstancesKeepEachOthersChanges() throws {
        try onMain(self) { try $0.mainActorTestTwoInstancesKeepEachOthersChanges() }
    }

    /// Each save wrote that instance's whole view: A saved units, B the clock, and the file held only the clock.
    private func mainActorTestTwoInstancesKeepEachOthersChanges() throws {
        try write("# shared\n")
        let a = try container(), b = try container()
        XCTAssertTrue(a.changeSettings { $0.units = .imperial })
        XCTAssertTrue(b.changeSettings { $0.clock = .h12 })
        XCTAssertEqual(ConfigFile(environment: environment).load().settings, UserSettings(units: .imperial, clock: .h12))
        XCTAssertTrue(contents.hasPrefix("# shared\n"), contents)
    }

    nonisolated func testAKeyAddedByHandWhileTheAppRunsIsKept() throws {
        try onMain(self) { try $0.mainActorTestAKeyAddedByHandWhileTheAppRunsIsKept() }
    }

    private func mainActorTestAKeyAddedByHandWhileTheAppRunsIsKept() throws {
        try write("units = \"metric\"\n")
        let app = try container()
        try write("units = \"metric\"\n# added while it runs\nmap_style = \"blocks\"\n[extra]\nx = 1\n")
        XCTAssertTrue(app.changeSettings { $0.clock = .h12 })
        XCTAssertEqual(contents, "units = \"metric\"\n# added while it runs\nmap_style = \"blocks\"\nclock = 12\n[extra]\nx = 1\n")
    }

    nonisolated func testAFileThatWentBadWhileTheAppRunsIsLeftAloneAndTheSettingsSayWhy() throws {
        try onMain(self) { try $0.mainActorTestAFileThatWentBadWhileTheAppRunsIsLeftAloneAndTheSettingsSayWhy() }
    }

    private func mainActorTestAFileThatWentBadWhileTheAppRunsIsLeftAloneAndTheSettingsSayWhy() throws {
        try write("units = \"metric\"\n")
        let app = try container()
        try write("units = \"metric\"\ntheme = \"purple\"\n")
        XCTAssertFalse(app.changeSettings { $0.clock = .h12 })
        XCTAssertEqual(app.saveProblem?.description, "config.toml line 2: theme must be dark, light or auto")
        XCTAssertEqual(contents, "units = \"metric\"\ntheme = \"purple\"\n")
        try write("units = \"metric\"\ntheme = \"light\"\n")
        XCTAssertTrue(app.changeSettings { $0.clock = .h24 }, "once it is mended, the next change is saved")
        XCTAssertNil(app.saveProblem)
        XCTAssertEqual(contents, "units = \"metric\"\ntheme = \"light\"\nclock = 24\n")
    }

    nonisolated func testAChangeThatCouldNotBeSavedIsSavedWithTheNext() throws {
        try onMain(self) { try $0.mainActorTestAChangeThatCouldNotBeSavedIsSavedWithTheNext() }
    }

    /// The clock was set while an editor had the file half-written: not saved, as it said. The next
    /// change, once the file was whole again, wrote only its own key and said "Saved", and the clock
    /// the screen showed was gone at the next start.
    private func mainActorTestAChangeThatCouldNotBeSavedIsSavedWithTheNext() throws {
        try write("units = \"metric\"\n")
        let app = try container()
        try write("units = \"metric\"\ntheme = \n")
        XCTAssertFalse(app.changeSettings { $0.clock = .h12 })
        try write("units = \"metric\"\n")
        XCTAssertTrue(app.changeSettings { $0.theme = .light })
        XCTAssertEqual(contents, "units = \"metric\"\nclock = 12\ntheme = \"light\"\n")
        XCTAssertEqual(ConfigFile(environment: environment).load().settings, app.savedSettings)
        XCTAssertTrue(app.changeSettings { $0.mouse = false })
        XCTAssertEqual(contents, "units = \"metric\"\nclock = 12\ntheme = \"light\"\nmouse = false\n",
                       "once saved, a key is not written again")
    }

    nonisolated func testASaveThatCouldNotBeWrittenSaysWhy() throws {
        try onMain(self) { try $0.mainActorTestASaveThatCouldNotBeWrittenSaysWhy() }
    }

    /// A folder the app may not write in (read-only, full, or something in the way of its lock file)
    /// left the settings saying only "Not saved: /home/…/config.toml", with no reason.
    private func mainActorTestASaveThatCouldNotBeWrittenSaysWhy() throws {
        try write("units = \"metric\"\n")
        let lock = url.deletingLastPathComponent().appendingPathComponent(".config.toml.lock")
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
        let app = try container()
        XCTAssertFalse(app.changeSettings { $0.clock = .h12 })
        XCTAssertEqual(app.saveProblem?.description, "config.toml cannot be written (\(lock.path): Is a directory)")
        XCTAssertEqual(app.saveProblem.map { SettingsProblemText.message($0, l10n: L10n.bundled(.ko)) },
                       "config.toml에 쓸 수 없습니다 (\(lock.path): Is a directory)")
        XCTAssertEqual(contents, "units = \"metric\"\n")
        try FileManager.default.removeItem(at: lock)
        XCTAssertTrue(app.changeSettings { $0.theme = .dark })
        XCTAssertEqual(contents, "units = \"metric\"\nclock = 12\ntheme = \"dark\"\n")
    }

    nonisolated func testANulByteIsNotTOMLAndTheFileIsNeverRewritten() throws {
        try onMain(self) { try $0.mainActorTestANulByteIsNotTOMLAndTheFileIsNeverRewritten() }
    }

    /// TOMLKit reads a C string: a NUL ended the file there, `theme` was silently ignored, and the first
    /// save dropped everything after the NUL.
    private func mainActorTestANulByteIsNotTOMLAndTheFileIsNeverRewritten() throws {
        let text = "units = \"metric\"\n# a comment with a \u{0} in it\ntheme = \"light\"\n"
        try write(text)
        let app = try container()
        XCTAssertEqual(app.configProblems.map(\.description), ["config.toml line 2: is not TOML (a NUL byte)"])
        XCTAssertFalse(app.changeSettings { $0.clock = .h12 })
        XCTAssertEqual(contents, text)
    }

    nonisolated func testALinkTheUserMadeIsReadAndSavedThrough() throws {
        try onMain(self) { try $0.mainActorTestALinkTheUserMadeIsReadAndSavedThrough() }
    }

    /// stow, chezmoi and home-manager make `config.toml` (or its folder) a link: every change said "Not saved".
    private func mainActorTestALinkTheUserMadeIsReadAndSavedThrough() throws {
        let fm = FileManager.default
        let dotfiles = URL(fileURLWithPath: environment["HOME"]!).appendingPathComponent("dotfiles/nimbus")
        try fm.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        let target = dotfiles.appendingPathComponent("config.toml")
        try Data("# in git\nunits = \"imperial\"\n".utf8).write(to: target)
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: url.path, withDestinationPath: "../../dotfiles/nimbus/config.toml")
        let app = try container()
        XCTAssertEqual(app.configProblems, [])
        XCTAssertEqual(app.savedSettings, UserSettings(units: .imperial))
        XCTAssertTrue(app.changeSettings { $0.clock = .h12 })
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "# in git\nunits = \"imperial\"\nclock = 12\n")
        XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: url.path), "../../dotfiles/nimbus/config.toml",
                       "the link is still a link")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: url.deletingLastPathComponent().path), ["config.toml"],
                       "nothing is left beside the link")

        // The whole folder a link.
        try fm.removeItem(at: url.deletingLastPathComponent())
        try fm.createSymbolicLink(at: url.deletingLastPathComponent(), withDestinationURL: dotfiles)
        XCTAssertTrue(try container().changeSettings { $0.theme = .light })
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "# in git\nunits = \"imperial\"\nclock = 12\ntheme = \"light\"\n")
    }

    nonisolated func testAConfigHomeThatIsAFileIsSaidSo() throws {
        try onMain(self) { try $0.mainActorTestAConfigHomeThatIsAFileIsSaidSo() }
    }

    /// "config.toml is a unreadable, not a file".
    private func mainActorTestAConfigHomeThatIsAFileIsSaidSo() throws {
        let file = URL(fileURLWithPath: environment["HOME"]!).appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        environment["XDG_CONFIG_HOME"] = file.path
        let app = try container()
        XCTAssertEqual(app.configProblems.map(\.description),
                       ["config.toml cannot be read: \(file.path) is a file, not a folder; not used"])
        XCTAssertFalse(app.changeSettings { $0.clock = .h12 })
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "x")
    }

    nonisolated func testAHomeCityTheCatalogueDoesNotHaveIsABadValue() throws {
        try onMain(self) { try $0.mainActorTestAHomeCityTheCatalogueDoesNotHaveIsABadValue() }
    }

    /// `home = "99999999999"` was taken silently, and Today then had no place at all.
    private func mainActorTestAHomeCityTheCatalogueDoesNotHaveIsABadValue() throws {
        try write("clock = 12\nhome = \"99999999999\"\n")
        let app = try container()
        XCTAssertEqual(app.configProblems.map(\.description),
                       ["config.toml line 2: home 99999999999 is not a city of the catalogue"])
        XCTAssertNil(app.preferences.home, "it falls back to no home, as any bad value to its default")
        XCTAssertEqual(app.savedSettings, UserSettings(clock: .h12))
        XCTAssertFalse(app.changeSettings { $0.units = .metric }, "a file with a bad value is never rewritten")
        try write("home = \"1835848\"\n")
        XCTAssertEqual(try container().preferences.home, .city(1835848))
    }
}
