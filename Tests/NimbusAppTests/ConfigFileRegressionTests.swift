import Foundation
import Testing
import NimbusData
import NimbusDomain
import NimbusPresentation
import TestSupport
@testable import NimbusApp

/// What a settings change did to the user's `config.toml`, each kept from coming back: a change
/// rewrites only the line of the key it changed, two instances keep each other's changes, and a file
/// that is not TOML is never rewritten.
@Suite @MainActor final class ConfigFileRegressionTests {
    private let temporary = TemporaryDirectories()
    private var environment: [String: String]
    private var url: URL { ConfigFile(environment: environment).url }
    private var contents: String { (try? String(contentsOf: url, encoding: .utf8)) ?? "(none)" }

    init() {
        environment = temporary.isolated(["NIMBUS_LANG": "en"])
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

    /// A 423-byte file with one nested array became 160 KB after one change (TOMLKit indents each level
    /// again), then over the 64 KB limit: every setting was lost at the next start.
    @Test func testOneChangeRewritesOnlyItsLineNotANestedArray() throws {
        let text = "# my settings\nunits = \"imperial\"   # for the US office\n"
            + "matrix = " + String(repeating: "[", count: 180) + "1" + String(repeating: "]", count: 180) + "\n"
            + "[servers]\n  alpha = { ip = \"10.0.0.1\", dc = 'eqdc10' }   # hand-aligned\n"
        try write(text)
        #expect(try container().changeSettings { $0.units = .metric })
        #expect(contents == text.replacingOccurrences(of: "units = \"imperial\"", with: "units = \"metric\""))
        #expect(ConfigFile(environment: environment).load().settings == UserSettings(units: .metric))
    }

    /// 119 lines of deep arrays (60 KB) became 30 MB written and 190 MB of memory.
    @Test func testDeepArraysStayTheSizeTheyWere() throws {
        var text = "clock = 24\n"
        for i in 0..<119 { text += "k\(i) = " + String(repeating: "[", count: 250) + String(repeating: "]", count: 250) + "\n" }
        try write(text)
        #expect(try container().changeSettings { $0.clock = .h12 })
        #expect(contents == text.replacingOccurrences(of: "clock = 24", with: "clock = 12"))
    }

    @Test func testCommentsOrderAndUnknownKeysAreKept() throws {
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
        #expect(app.changeSettings { $0.theme = .light })
        #expect(changedLines(text, contents).removed == ["theme = 'dark'"])
        #expect(changedLines(text, contents).added == ["theme = 'light'"])
        #expect(app.changeSettings { $0.mouse = false })
        #expect(changedLines(text, contents).removed == ["theme = 'dark'"])
        #expect(changedLines(text, contents).added == ["theme = 'light'", "mouse = false"], "a new key goes after the last top-level key, before the tables")
        #expect(app.changeSettings { $0.home = nil })
        #expect(!contents.contains("1835848"), "\(contents)")
        #expect(contents.hasPrefix("# Nimbus, by hand\nfuture_key = 3\n"), "\(contents)")
    }

    /// Each save wrote that instance's whole view: A saved units, B the clock, and the file held only the clock.
    @Test func testTwoInstancesKeepEachOthersChanges() throws {
        try write("# shared\n")
        let a = try container(), b = try container()
        #expect(a.changeSettings { $0.units = .imperial })
        #expect(b.changeSettings { $0.clock = .h12 })
        #expect(ConfigFile(environment: environment).load().settings == UserSettings(units: .imperial, clock: .h12))
        #expect(contents.hasPrefix("# shared\n"), "\(contents)")
    }

    @Test func testAKeyAddedByHandWhileTheAppRunsIsKept() throws {
        try write("units = \"metric\"\n")
        let app = try container()
        try write("units = \"metric\"\n# added while it runs\nmap_style = \"blocks\"\n[extra]\nx = 1\n")
        #expect(app.changeSettings { $0.clock = .h12 })
        #expect(contents == "units = \"metric\"\n# added while it runs\nmap_style = \"blocks\"\nclock = 12\n[extra]\nx = 1\n")
    }

    @Test func testAFileThatWentBadWhileTheAppRunsIsLeftAloneAndTheSettingsSayWhy() throws {
        try write("units = \"metric\"\n")
        let app = try container()
        try write("units = \"metric\"\ntheme = \"purple\"\n")
        #expect(!(app.changeSettings { $0.clock = .h12 }))
        #expect(app.saveProblem?.description == "config.toml line 2: theme must be dark, light or auto")
        #expect(contents == "units = \"metric\"\ntheme = \"purple\"\n")
        try write("units = \"metric\"\ntheme = \"light\"\n")
        #expect(app.changeSettings { $0.clock = .h24 }, "once it is mended, the next change is saved")
        #expect(app.saveProblem == nil)
        #expect(contents == "units = \"metric\"\ntheme = \"light\"\nclock = 24\n")
    }

    /// The clock was set while an editor had the file half-written: not saved, as it said. The next
    /// change, once the file was whole again, wrote only its own key and said "Saved", and the clock
    /// the screen showed was gone at the next start.
    @Test func testAChangeThatCouldNotBeSavedIsSavedWithTheNext() throws {
        try write("units = \"metric\"\n")
        let app = try container()
        try write("units = \"metric\"\ntheme = \n")
        #expect(!(app.changeSettings { $0.clock = .h12 }))
        try write("units = \"metric\"\n")
        #expect(app.changeSettings { $0.theme = .light })
        #expect(contents == "units = \"metric\"\nclock = 12\ntheme = \"light\"\n")
        #expect(ConfigFile(environment: environment).load().settings == app.savedSettings)
        #expect(app.changeSettings { $0.mouse = false })
        #expect(contents == "units = \"metric\"\nclock = 12\ntheme = \"light\"\nmouse = false\n", "once saved, a key is not written again")
    }

    /// A folder the app may not write in (read-only, full, or something in the way of its lock file)
    /// left the settings saying only "Not saved: /home/…/config.toml", with no reason.
    @Test func testASaveThatCouldNotBeWrittenSaysWhy() throws {
        try write("units = \"metric\"\n")
        let lock = url.deletingLastPathComponent().appendingPathComponent(".config.toml.lock")
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
        let app = try container()
        #expect(!(app.changeSettings { $0.clock = .h12 }))
        #expect(app.saveProblem?.description == "config.toml cannot be written (\(lock.path): Is a directory)")
        #expect((app.saveProblem.map { SettingsProblemText.message($0, l10n: L10n.bundled(.ko)) }) == "config.toml에 쓸 수 없습니다 (\(lock.path): Is a directory)")
        #expect(contents == "units = \"metric\"\n")
        try FileManager.default.removeItem(at: lock)
        #expect(app.changeSettings { $0.theme = .dark })
        #expect(contents == "units = \"metric\"\nclock = 12\ntheme = \"dark\"\n")
    }

    /// TOMLKit reads a C string: a NUL ended the file there, `theme` was silently ignored, and the first
    /// save dropped everything after the NUL.
    @Test func testANulByteIsNotTOMLAndTheFileIsNeverRewritten() throws {
        let text = "units = \"metric\"\n# a comment with a \u{0} in it\ntheme = \"light\"\n"
        try write(text)
        let app = try container()
        #expect(app.configProblems.map(\.description) == ["config.toml line 2: is not TOML (a NUL byte)"])
        #expect(!(app.changeSettings { $0.clock = .h12 }))
        #expect(contents == text)
    }

    /// stow, chezmoi and home-manager make `config.toml` (or its folder) a link: every change said "Not saved".
    @Test func testALinkTheUserMadeIsReadAndSavedThrough() throws {
        let fm = FileManager.default
        let dotfiles = URL(fileURLWithPath: environment["HOME"]!).appendingPathComponent("dotfiles/nimbus")
        try fm.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        let target = dotfiles.appendingPathComponent("config.toml")
        try Data("# in git\nunits = \"imperial\"\n".utf8).write(to: target)
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: url.path, withDestinationPath: "../../dotfiles/nimbus/config.toml")
        let app = try container()
        #expect(app.configProblems == [])
        #expect(app.savedSettings == UserSettings(units: .imperial))
        #expect(app.changeSettings { $0.clock = .h12 })
        #expect(try String(contentsOf: target, encoding: .utf8) == "# in git\nunits = \"imperial\"\nclock = 12\n")
        #expect(try fm.destinationOfSymbolicLink(atPath: url.path) == "../../dotfiles/nimbus/config.toml", "the link is still a link")
        #expect(try fm.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["config.toml"], "nothing is left beside the link")

        // The whole folder a link.
        try fm.removeItem(at: url.deletingLastPathComponent())
        try fm.createSymbolicLink(at: url.deletingLastPathComponent(), withDestinationURL: dotfiles)
        #expect(try container().changeSettings { $0.theme = .light })
        #expect(try String(contentsOf: target, encoding: .utf8) == "# in git\nunits = \"imperial\"\nclock = 12\ntheme = \"light\"\n")
    }

    /// "config.toml is a unreadable, not a file".
    @Test func testAConfigHomeThatIsAFileIsSaidSo() throws {
        let file = URL(fileURLWithPath: environment["HOME"]!).appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        environment["XDG_CONFIG_HOME"] = file.path
        let app = try container()
        #expect(app.configProblems.map(\.description) == ["config.toml cannot be read: \(file.path) is a file, not a folder; not used"])
        #expect(!(app.changeSettings { $0.clock = .h12 }))
        #expect(try String(contentsOf: file, encoding: .utf8) == "x")
    }

    /// `home = "99999999999"` was taken silently, and Today then had no place at all.
    @Test func testAHomeCityTheCatalogueDoesNotHaveIsABadValue() throws {
        try write("clock = 12\nhome = \"99999999999\"\n")
        let app = try container()
        #expect(app.configProblems.map(\.description) == ["config.toml line 2: home 99999999999 is not a city of the catalogue"])
        #expect(app.preferences.home == nil, "it falls back to no home, as any bad value to its default")
        #expect(app.savedSettings == UserSettings(clock: .h12))
        #expect(!(app.changeSettings { $0.units = .metric }), "a file with a bad value is never rewritten")
        try write("home = \"1835848\"\n")
        #expect(try container().preferences.home == .city(1835848))
    }
}
