import XCTest
import NimbusDomain
@testable import NimbusData

/// `config.toml`: read with TOMLKit, each bad value named with its line, written atomically (a new
/// file 0600), and never rewritten while it could not be read cleanly.
final class ConfigFileTests: XCTestCase {
    private var directory: URL!
    private let fm = FileManager.default
    private var url: URL { directory.appendingPathComponent("nimbus/config.toml") }

    override func setUpWithError() throws {
        directory = fm.temporaryDirectory.appendingPathComponent("nimbus-config-\(UUID().uuidString)")
        try fm.createDirectory(at: directory.appendingPathComponent("nimbus"), withIntermediateDirectories: true)
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    private func write(_ text: String) throws { try text.write(to: url, atomically: false, encoding: .utf8) }
    private var contents: String { (try? String(contentsOf: url, encoding: .utf8)) ?? "(none)" }

    static let example = """
    # Nimbus settings
    units = "imperial"
    temperature_unit = "c"
    wind_unit = "ms"
    clock = 12
    theme = "light"
    map_style = "blocks"
    mouse = false
    default_tab = 2
    home = "1835848"

    """

    func testTheExampleFileReadsWhole() {
        let loaded = ConfigFile.parse(Self.example)
        XCTAssertEqual(loaded.problems, [])
        XCTAssertTrue(loaded.writable)
        XCTAssertEqual(loaded.settings, UserSettings(units: .imperial, temperatureUnit: .c, windUnit: .ms, clock: .h12,
                                                     theme: .light, mapStyle: .blocks, mouse: false, defaultTab: 2,
                                                     home: .city(1835848)))
        XCTAssertEqual(ConfigFile.parse("home = \"37.57,126.98\"\nclock = \"24\"").settings,
                       UserSettings(clock: .h24, home: .point(GeoPoint(latitude: 37.57, longitude: 126.98)!)))
    }

    func testEachBadValueIsNamedWithItsLineAndLeftToItsDefault() {
        let text = "# mine\ntheme = \"dark\"\nunits = \"kelvin\"\nmouse = \"yes\"\ndefault_tab = 9\nhome = \"nowhere\"\nclock = 13\n"
        let loaded = ConfigFile.parse(text)
        XCTAssertEqual(loaded.problems.map(\.description), [
            "config.toml line 3: units must be metric, imperial or auto",
            "config.toml line 7: clock must be 12 or 24",
            "config.toml line 4: mouse must be true or false",
            "config.toml line 5: default_tab must be a number from 1 to 6",
            "config.toml line 6: home must be a GeoNames city id or \"lat,lon\"",
        ])
        XCTAssertEqual(loaded.settings, UserSettings(theme: .dark), "the good value is kept, the bad ones are unset")
        XCTAssertFalse(loaded.writable)
    }

    func testABadValueInAFileWithCRLFLineEndingsIsNamedWithItsLine() {
        XCTAssertEqual(ConfigFile.parse("# Windows\r\ntheme = \"dark\"\r\nunits = \"kelvin\"\r\n").problems.map(\.description),
                       ["config.toml line 3: units must be metric, imperial or auto"])
    }

    /// The line was that of the first line starting `theme =`, here one inside a multi-line string, and
    /// none for a key written with a dot or in a table.
    func testABadValueIsNamedWithTheLineOfItsKeyNotOfTextLookingLikeIt() {
        let text = "notes = \"\"\"\ntheme = \"in a note\"\n\"\"\"\n\n  theme = \"purple\"  # mine\nunits.x = 1\n"
        XCTAssertEqual(ConfigFile.parse(text).problems.map(\.description), [
            "config.toml line 6: units must be metric, imperial or auto",
            "config.toml line 5: theme must be dark, light or auto",
        ])
        XCTAssertEqual(ConfigFile.parse("\u{FEFF}# a\r\n[t]\r\nclock = 1\r\n").problems, [], "a key in a table is not the app's")
    }

    func testTextThatIsNotTOMLIsAProblemWithItsLine() {
        let loaded = ConfigFile.parse("units = \"metric\"\nthis is not toml\n")
        XCTAssertEqual(loaded.problems.count, 1)
        XCTAssertEqual(loaded.problems.first?.line, 2)
        XCTAssertTrue(loaded.problems.first?.description.hasPrefix("config.toml line 2: is not TOML") == true,
                      loaded.problems.first?.description ?? "")
        XCTAssertEqual(loaded.settings, UserSettings())
        XCTAssertFalse(loaded.writable)
    }

    func testAMissingFileIsNoSettingsAndIsWrittenAt0600() throws {
        try fm.removeItem(at: directory.appendingPathComponent("nimbus"))
        let file = ConfigFile(url: url)
        XCTAssertEqual(file.load(), ConfigFile.Loaded())
        XCTAssertEqual(file.save(UserSettings(units: .metric, clock: .h12, mouse: true, home: .city(1835848)),
                                 keys: UserSettings.Key.allCases), .saved)
        XCTAssertEqual(contents, "units = \"metric\"\nclock = 12\nmouse = true\nhome = \"1835848\"\n")
        let mode = try fm.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
        XCTAssertEqual(file.load().settings, UserSettings(units: .metric, clock: .h12, mouse: true, home: .city(1835848)))
    }

    func testSavingKeepsKeysTheAppDoesNotKnowAndRemovesUnsetOnes() throws {
        try write("future_key = 3\nunits = \"imperial\"\ntheme = \"light\"\n")
        let file = ConfigFile(url: url)
        XCTAssertEqual(file.save(UserSettings(units: .metric), keys: [.units, .theme]), .saved)
        XCTAssertEqual(contents, "future_key = 3\nunits = \"metric\"\n")
    }

    /// Foundation's UTF-8 decoding drops a byte order mark: the first save of a file a Windows editor
    /// had written took it away.
    func testASaveKeepsAByteOrderMark() throws {
        let bom = Data([0xEF, 0xBB, 0xBF])
        try (bom + Data("# mine\nunits = \"imperial\"\n".utf8)).write(to: url)
        let file = ConfigFile(url: url)
        XCTAssertEqual(file.load().settings, UserSettings(units: .imperial))
        XCTAssertEqual(file.save(UserSettings(units: .metric, clock: .h12), keys: [.units, .clock]), .saved)
        XCTAssertEqual(try Data(contentsOf: url), bom + Data("# mine\nunits = \"metric\"\nclock = 12\n".utf8))
        XCTAssertEqual(file.load().settings, UserSettings(units: .metric, clock: .h12))
    }

    func testAnExistingFileKeepsItsMode() throws {
        try write("units = \"imperial\"\n")
        try fm.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        XCTAssertEqual(ConfigFile(url: url).save(UserSettings(units: .metric), keys: [.units]), .saved)
        XCTAssertEqual((try fm.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue, 0o644)
    }

    func testAFileWithABadValueIsNeverRewritten() throws {
        let bad = "units = \"kelvin\"\n"
        try write(bad)
        let file = ConfigFile(url: url)
        XCTAssertFalse(file.load().writable)
        guard case .notSaved(let problem?) = file.save(UserSettings(units: .metric), keys: [.units]) else {
            return XCTFail("saved over a bad value")
        }
        XCTAssertEqual(problem.description, "config.toml line 1: units must be metric, imperial or auto")
        XCTAssertEqual(contents, bad)
        try write("not toml at all [[[\n")
        XCTAssertNotEqual(file.save(UserSettings(units: .metric), keys: [.units]), .saved)
        XCTAssertEqual(contents, "not toml at all [[[\n")
        let notUTF8 = Data("units = \"metric\"\n# caf".utf8) + Data([0xE9]) + Data("\n".utf8)
        try notUTF8.write(to: url)
        XCTAssertEqual(file.load().problems.map(\.description), ["config.toml line 2: is not UTF-8 text; not read"])
        XCTAssertNotEqual(file.save(UserSettings(units: .imperial), keys: [.units]), .saved)
        XCTAssertEqual(try Data(contentsOf: url), notUTF8)
    }

    func testALinkToAFileIsFollowedButNotOneToAFifoADeviceOrAFolder() throws {
        let victim = directory.appendingPathComponent("victim.toml")
        try "units = \"metric\"\n".write(to: victim, atomically: false, encoding: .utf8)
        try fm.createSymbolicLink(atPath: url.path, withDestinationPath: victim.path)
        let file = ConfigFile(url: url)
        XCTAssertEqual(file.load(), ConfigFile.Loaded(settings: UserSettings(units: .metric)))
        XCTAssertEqual(file.save(UserSettings(units: .imperial), keys: [.units]), .saved)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "units = \"imperial\"\n")
        XCTAssertEqual(SafeFile.kind(atPath: url.path), .other("symbolic link"))

        let fifo = directory.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        for (target, kind) in [(fifo.path, "fifo"), ("/dev/null", "device"), (directory.path, "directory")] {
            try fm.removeItem(at: url)
            try fm.createSymbolicLink(atPath: url.path, withDestinationPath: target)
            XCTAssertEqual(file.load().problems.map(\.description), ["config.toml is a \(kind), not a file; not read"])
            XCTAssertEqual(file.load().settings, UserSettings())
            XCTAssertNotEqual(file.save(UserSettings(units: .imperial), keys: [.units]), .saved)
            XCTAssertEqual(SafeFile.kind(atPath: url.path), .other("symbolic link"), "the link is left alone")
        }
        XCTAssertEqual(SafeFile.kind(atPath: fifo.path), .other("fifo"))
    }

    func testATooLargeFileAndADirectoryAreNotReadNorWritten() throws {
        let file = ConfigFile(url: url)
        try write(String(repeating: "# padding\n", count: ConfigFile.maximumSize / 10 + 1))
        XCTAssertEqual(file.load().problems.map(\.description), ["config.toml is larger than 64 KB; not read"])
        XCTAssertNotEqual(file.save(UserSettings(units: .imperial), keys: [.units]), .saved)

        try fm.removeItem(at: url)
        try fm.createDirectory(at: url, withIntermediateDirectories: false)
        XCTAssertEqual(file.load().problems.map(\.description), ["config.toml is a directory, not a file; not read"])
        XCTAssertNotEqual(file.save(UserSettings(units: .imperial), keys: [.units]), .saved)
    }

    /// A file just under the limit is not pushed over it by a save (the next start would refuse it).
    func testASaveNeverMakesTheFileTooLargeToRead() throws {
        let padding = String(repeating: "# padding\n", count: ConfigFile.maximumSize / 10 - 1)
        try write(padding + String(repeating: "#", count: ConfigFile.maximumSize - padding.utf8.count - 1) + "\n")
        guard case .notSaved(let problem?) = ConfigFile(url: url).save(UserSettings(home: .city(1835848)), keys: [.home]) else {
            return XCTFail("saved past the limit")
        }
        XCTAssertEqual(problem.reason, .tooLarge)
        XCTAssertEqual(try Data(contentsOf: url).count, ConfigFile.maximumSize)
    }

    func testTheFileIsUnderXDGConfigHome() {
        XCTAssertEqual(ConfigFile(environment: ["XDG_CONFIG_HOME": "/tmp/x", "HOME": "/home/a"]).url.path,
                       "/tmp/x/nimbus/config.toml")
        XCTAssertEqual(ConfigFile(environment: ["HOME": "/home/a"]).url.path, "/home/a/.config/nimbus/config.toml")
    }
}

/// The home setting comes after `--location` and `NIMBUS_LOCATION`, before the time zone.
final class HomeLocationTests: XCTestCase {
    func testHomeIsAfterTheFlagAndTheVariable() {
        let home = GeoPoint(latitude: 35.18, longitude: 129.07)!
        let flag = GeoPoint(latitude: 1, longitude: 2)!
        func where_(_ argument: GeoPoint?, _ environment: [String: String]) -> DeviceLocation {
            SystemLocationProvider(argument: argument, environment: environment, home: home,
                                   localtimeLink: { "/usr/share/zoneinfo/Asia/Seoul" }, timezoneFile: { nil }).currentLocation().location
        }
        XCTAssertEqual(where_(flag, ["NIMBUS_LOCATION": "3,4"]), .argument(flag))
        XCTAssertEqual(where_(nil, ["NIMBUS_LOCATION": "3,4"]), .environment(GeoPoint(latitude: 3, longitude: 4)!))
        XCTAssertEqual(where_(nil, [:]), .home(home))
        XCTAssertEqual(SystemLocationProvider(argument: nil, environment: [:], localtimeLink: { "/usr/share/zoneinfo/Asia/Seoul" },
                                              timezoneFile: { nil }).currentLocation().location, .timeZone("Asia/Seoul"))
    }
}
