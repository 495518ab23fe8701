import XCTest
import Testing
import PropertyBased
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
import TestSupport
@testable import NimbusData

/// Settings changes on the change log: undo puts the file back byte for byte, redo makes it again,
/// through the store (so its followers see it), and only where the file still holds what this
/// process wrote (another process's or an editor's change since is left alone).
final class SettingsUndoTests: XCTestCase {
    private func configFile(_ text: String?) -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-settings-undo-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("config.toml")
        if let text { try? Data(text.utf8).write(to: url) }
        return url
    }

    private func text(_ url: URL) -> String? { try? String(contentsOf: url, encoding: .utf8) }

    private func store(_ url: URL, _ log: ChangeLog, io: AnySchedulerOf<DispatchQueue> = DispatchQueue.immediate.eraseToAnyScheduler(),
                       environment: [String: String] = [:]) -> SettingsStore {
        SettingsStore(file: ConfigFile(url: url), environment: environment, io: io,
                      deliver: DispatchQueue.immediate.eraseToAnyScheduler(), changeLog: log)
    }

    func testUndoAndRedoPutTheFileBackByteForByteAndTheStorePublishesIt() {
        let original = "# mine\nunits = \"imperial\"   # yes\ntemperature_unit = \"f\"\n\n[x]\ny = 1\n"
        let url = configFile(original)
        let log = ChangeLog()
        let settings = store(url, log)
        var seen: [UserSettings.Units?] = []
        let subscription = settings.contents.sink { seen.append($0.layers.file.units) }
        var said: [UserChange] = []
        let records = log.recorded.sink { said.append($0) }
        settings.change(save: true) { $0.units = .metric; $0.temperatureUnit = nil; $0.windUnit = nil }
        let after = text(url)
        XCTAssertEqual(after, "# mine\nunits = \"metric\"   # yes\n\n[x]\ny = 1\n")
        XCTAssertEqual(said, [.setting(key: .units, from: "imperial", to: "metric")], "named by its first key")
        XCTAssertEqual(log.undo(), .undone(.setting(key: .units, from: "imperial", to: "metric")))
        XCTAssertEqual(text(url), original)
        XCTAssertEqual(settings.current.layers.file.units, .imperial)
        XCTAssertEqual(settings.current.layers.file.temperatureUnit, .f)
        XCTAssertNil(settings.current.layers.session.units, "this run's layer is put back as it was too")
        XCTAssertEqual(seen.last, .imperial, "published")
        XCTAssertEqual(log.redo(), .redone(.setting(key: .units, from: "imperial", to: "metric")))
        XCTAssertEqual(text(url), after)
        XCTAssertEqual(seen.last, .metric)
        XCTAssertEqual(log.undo(), .undone(.setting(key: .units, from: "imperial", to: "metric")))
        XCTAssertEqual(log.undo(), .nothingToUndo)
        XCTAssertEqual(text(url), original)
        subscription.cancel()
        records.cancel()
    }

    /// A change that made the file (there was none) is undone by removing it, while it holds exactly
    /// what the change wrote, and redone by making it again; a file edited since is left, with its
    /// other lines, and only the change's key is taken out of it.
    func testAFileTheChangeMadeIsRemovedByItsUndoAndMadeAgainByItsRedo() {
        let url = configFile(nil)
        let log = ChangeLog()
        let settings = store(url, log)
        settings.change(save: true) { $0.clock = .h12 }
        let made = text(url)
        XCTAssertEqual(made, "clock = 12\n")
        XCTAssertEqual(log.undo(), .undone(.setting(key: .clock, from: nil, to: "12")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "the file the change made is gone")
        XCTAssertNil(settings.current.layers.file.clock)
        XCTAssertEqual(log.redo(), .redone(.setting(key: .clock, from: nil, to: "12")))
        XCTAssertEqual(text(url), made, "made again, byte for byte")
        XCTAssertEqual(settings.current.layers.file.clock, .h12)
        // Edited since: not removed; the user's line stays.
        try? Data("clock = 12\n# mine\n".utf8).write(to: url)
        XCTAssertEqual(log.undo(), .undone(.setting(key: .clock, from: nil, to: "12")))
        XCTAssertEqual(text(url), "# mine\n")
        // A file that appeared meanwhile is not overwritten by the redo: only its key is set.
        try? Data("theme = \"dark\"\n".utf8).write(to: url)
        XCTAssertEqual(log.redo(), .redone(.setting(key: .clock, from: nil, to: "12")))
        XCTAssertEqual(text(url), "theme = \"dark\"\nclock = 12\n")
    }

    func testAChangeThatChangesNothingAndAChoiceForThisRunAreNotRecorded() {
        let url = configFile("clock = 12\n")
        let log = ChangeLog()
        let settings = store(url, log)
        settings.change(save: true) { $0.clock = .h12 }
        settings.change(save: false) { $0.mapStyle = .blocks }
        XCTAssertEqual(log.undo(), .nothingToUndo)
        XCTAssertEqual(text(url), "clock = 12\n")
    }

    /// Undone before its write ran: the file is never touched, and the write that follows writes nothing new.
    func testAnUndoBeforeTheWriteLeavesTheFileAsItWas() {
        let url = configFile("# mine\n")
        let log = ChangeLog()
        let io = DispatchQueue.test
        let settings = store(url, log, io: io.eraseToAnyScheduler())
        settings.change(save: true) { $0.clock = .h12 }
        settings.change(save: true) { $0.theme = .dark }
        XCTAssertEqual(text(url), "# mine\n", "not written yet")
        XCTAssertEqual(log.undo(), .undone(.setting(key: .theme, from: nil, to: "dark")))
        XCTAssertEqual(text(url), "# mine\n")
        io.advance()
        XCTAssertEqual(text(url), "# mine\nclock = 12\n", "the change not undone is written")
        XCTAssertEqual(settings.current.save, .saved)
        XCTAssertEqual(log.undo(), .undone(.setting(key: .clock, from: nil, to: "12")))
        XCTAssertEqual(text(url), "# mine\n")
        XCTAssertEqual(log.redo(), .redone(.setting(key: .clock, from: nil, to: "12")))
        XCTAssertEqual(log.redo(), .redone(.setting(key: .theme, from: nil, to: "dark")))
        io.advance()
        XCTAssertEqual(text(url), "# mine\nclock = 12\ntheme = \"dark\"\n")
    }

    /// Another process (or an editor) changed the key since: undo does nothing and says so; a change of
    /// another key since does not stand in the way, and is kept.
    func testAnUndoOfAKeyChangedElsewhereDoesNothing() {
        let url = configFile("# mine\n")
        let log = ChangeLog()
        let settings = store(url, log)
        settings.change(save: true) { $0.clock = .h12 }
        settings.change(save: true) { $0.theme = .dark }
        try? Data("# mine\nclock = 12\ntheme = \"light\"   # edited\n".utf8).write(to: url)
        XCTAssertEqual(log.undo(), .changedElsewhere(.setting(key: .theme, from: nil, to: "dark")))
        XCTAssertEqual(text(url), "# mine\nclock = 12\ntheme = \"light\"   # edited\n", "nothing done")
        XCTAssertEqual(log.undo(), .undone(.setting(key: .clock, from: nil, to: "12")), "the clock is still as left")
        XCTAssertEqual(text(url), "# mine\ntheme = \"light\"   # edited\n", "the other line kept")
        // A file made bad meanwhile is not written either.
        settings.change(save: true) { $0.mouse = false }
        try? Data("# mine\nmouse = false\ntheme = 'solarized'\n".utf8).write(to: url)
        XCTAssertEqual(log.undo(), .changedElsewhere(.setting(key: .mouse, from: nil, to: "false")))
        XCTAssertEqual(text(url), "# mine\nmouse = false\ntheme = 'solarized'\n")
    }
}

/// Random sequences of settings changes, undos and redos, on files with comments, spacing, tables
/// and no final newline: each change written as the app writes it (its write runs before the next
/// key), the file is byte for byte what it was the last time the history was at the same place
/// (undoing everything, the file as it was), its settings are the store's, and it never holds the
/// environment's value. With the writes run at random points instead (several changes in one write,
/// undos before a write), the file's settings are still the store's and undoing everything gives the
/// file's settings back.
struct SettingsUndoPropertyTests {
    @Test func undoAndRedoReturnTheFileToItsBytes() async throws {
        await check(writesAtRandom: false)
    }

    @Test func undoAndRedoWithWritesAtRandomKeepTheFileAsTheStore() async throws {
        await check(writesAtRandom: true)
    }

    private func check(writesAtRandom: Bool) async {
        await propertyCheck(count: PropertyCount.scaled(default: 40), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = SplitMix(seed: UInt64(seed))
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-settings-undo-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("config.toml")
            // nil: no file, which the first change makes and its undo removes.
            let starts: [String?] = ["# mine\nunits = \"imperial\"   # yes\n\n[table]\nkey = 1\n", "", "clock=24\r\nmouse = true # m\r\n",
                                     "theme = 'dark'\nhome = \"1835848\"\n# end", nil]
            let start = starts[Int.random(in: 0..<starts.count, using: &random)]
            if let start { try? Data(start.utf8).write(to: url) }
            let io = DispatchQueue.test
            let log = ChangeLog()
            // The environment's theme is one no change below makes.
            let settings = SettingsStore(file: ConfigFile(url: url), environment: ["NIMBUS_THEME": "light"],
                                         io: io.eraseToAnyScheduler(), deliver: DispatchQueue.immediate.eraseToAnyScheduler(),
                                         changeLog: log)
            var position = 0, newest = 0
            var bytes: [Int: Data?] = [0: start.map { Data($0.utf8) }]
            var steps: [String] = []
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0...3:
                    let (name, edit) = Self.change(&random)
                    let before = settings.current.layers.file
                    settings.change(save: true, edit)
                    steps.append(name)
                    if !writesAtRandom { io.advance() }
                    if !ConfigFile.keys(changedFrom: before, to: settings.current.layers.file).isEmpty {
                        position += 1
                        newest = position
                        bytes = bytes.filter { $0.key < position }
                    }
                case 4, 5:
                    let outcome = log.undo()
                    steps.append("z")
                    switch outcome {
                    case .undone: position -= 1
                    case .nothingToUndo: #expect(position == 0, "seed \(seed): \(steps)")
                    default: Issue.record("seed \(seed): \(steps): \(outcome)")
                    }
                case 6, 7:
                    let outcome = log.redo()
                    steps.append("Z")
                    switch outcome {
                    case .redone: position += 1
                    case .nothingToRedo: #expect(position == newest, "seed \(seed): \(steps)")
                    default: Issue.record("seed \(seed): \(steps): \(outcome)")
                    }
                default:
                    io.advance()
                    steps.append("write")
                    let now = try? Data(contentsOf: url)
                    if writesAtRandom {
                        // Bytes depend on which changes shared a write: only the settings are compared.
                    } else if let known = bytes[position] {
                        #expect(now == known, "seed \(seed): \(steps)\n\(known.map { String(decoding: $0, as: UTF8.self) } ?? "(no file)")\n---\n\(now.map { String(decoding: $0, as: UTF8.self) } ?? "(no file)")")
                    } else {
                        bytes[position] = now
                    }
                    #expect(ConfigFile(url: url).load().settings == settings.current.layers.file, "seed \(seed): \(steps)")
                    #expect(!String(decoding: now ?? Data(), as: UTF8.self).contains("light"), "seed \(seed): \(steps)")
                }
            }
            // Everything undone: the file as it was.
            while case .undone = log.undo() {}
            io.advance()
            if writesAtRandom {
                #expect(ConfigFile(url: url).load().settings == ConfigFile.parse(start ?? "").settings, "seed \(seed): \(steps)")
            } else {
                #expect((try? Data(contentsOf: url)) == start.map { Data($0.utf8) }, "seed \(seed): \(steps)")
            }
        }
    }

    /// A change the settings screen can make: one key to one of its values, or unset (never the light theme).
    private static func change(_ random: inout SplitMix) -> (String, @Sendable (inout UserSettings) -> Void) {
        func pick<T>(_ values: [T]) -> T? {
            let i = Int.random(in: 0...values.count, using: &random)
            return i < values.count ? values[i] : nil
        }
        switch Int.random(in: 0..<9, using: &random) {
        case 0:
            let v = pick(UserSettings.Units.allCases)
            return ("units \(v as Any)", { $0.units = v; $0.temperatureUnit = nil; $0.windUnit = nil })
        case 1: let v = pick(UserSettings.Temperature.allCases); return ("temperature \(v as Any)", { $0.temperatureUnit = v })
        case 2: let v = pick(UserSettings.Wind.allCases); return ("wind \(v as Any)", { $0.windUnit = v })
        case 3: let v = pick(UserSettings.Clock.allCases); return ("clock \(v as Any)", { $0.clock = v })
        case 4: let v = pick([UserSettings.Theme.dark, .auto]); return ("theme \(v as Any)", { $0.theme = v })
        case 5: let v = pick(UserSettings.MapStyle.allCases); return ("map style \(v as Any)", { $0.mapStyle = v })
        case 6: let v = pick([true, false]); return ("mouse \(v as Any)", { $0.mouse = v })
        case 7: let v = pick(Array(UserSettings.tabs)); return ("tab \(v as Any)", { $0.defaultTab = v })
        default:
            let v = pick([UserSettings.Home.city(1835848), .point(GeoPoint(latitude: 37.5, longitude: 127)!)])
            return ("home \(v as Any)", { $0.home = v })
        }
    }
}
