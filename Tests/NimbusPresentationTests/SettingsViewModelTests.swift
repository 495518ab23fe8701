import XCTest
import CombineSchedulers
@preconcurrency import OpenCombineShim
import NimbusDomain
import NimbusData
import TestSupport
@testable import NimbusPresentation

/// The settings box over a real settings store and file: each row shows the value in effect and says
/// when the command line or the environment sets it; such a row is not changed; opening and closing
/// the box writes nothing; a change writes only its own line, never a value of the environment.
final class SettingsViewModelTests: XCTestCase {
    private typealias VM = SettingsViewModel

    /// A config.toml holding `text` (none when nil) in a folder of its own.
    private func configFile(_ text: String?) -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-settings-vm-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("config.toml")
        if let text { try? Data(text.utf8).write(to: url) }
        return url
    }

    private func bytes(_ url: URL) -> Data? { try? Data(contentsOf: url) }

    /// The box open over `url`: its states as they come, and its events.
    private final class Box {
        let store: SettingsStore
        let events = PassthroughSubject<VM.Event, Never>()
        var states: [SettingsState] = []
        var closed = false
        var subscriptions: [AnyCancellable] = []
        var state: SettingsState { states.last! }
        func send(_ event: VM.Event) { events.send(event) }
        func value(_ row: VM.Row) -> String { state.rows[row.rawValue].value }
        init(store: SettingsStore) { self.store = store }
    }

    private func open(_ url: URL, environment: [String: String], flags: UserSettings = UserSettings(),
                      language: Language = .en) -> Box {
        let immediate = DispatchQueue.immediate.eraseToAnyScheduler()
        let store = SettingsStore(file: ConfigFile(url: url), flags: flags, environment: environment, io: immediate,
                                  deliver: immediate, changeLog: ChangeLog())
        let box = Box(store: store)
        let l10n = L10n.bundled(language)
        let viewModel = VM(settings: SettingsUseCase(repository: store),
                           cities: SearchCitiesUseCase(repository: InMemoryCityRepository([])), lookup: { _ in nil },
                           environment: environment, tabTitles: [.tabCities, .tabToday, .tabLiked, .tabQuakes, .tabMovies, .tabWishlist],
                           l10n: l10n)
        let output = viewModel.transform(input: .init(events: box.events.eraseToAnyPublisher()))
        box.subscriptions.append(output.state.sink { [unowned box] in box.states.append($0) })
        box.subscriptions.append(output.route.sink { [unowned box] _ in box.closed = true })
        XCTAssertFalse(box.states.isEmpty, "the box shows the settings as soon as it opens")
        return box
    }

    /// The case: `units = "imperial"` in the file under `NIMBUS_UNITS=metric`, with the screen in °C.
    func testTheUnitsInEffectAndWhereTheyComeFromAndAChangeOfThemIsRefused() {
        let text = "# mine\nunits = \"imperial\"   # yes\ntemperature_unit = \"f\"\n"
        let cases: [(Language, String, String, String)] = [
            (.en, "metric · from NIMBUS_UNITS", "°C · from NIMBUS_UNITS", "Not changed: this run follows NIMBUS_UNITS"),
            (.ko, "미터법 · NIMBUS_UNITS에서", "°C · NIMBUS_UNITS에서", "바꾸지 않음: 이번 실행에서는 NIMBUS_UNITS 값을 따릅니다"),
            (.ja, "メートル法 · NIMBUS_UNITS から", "°C · NIMBUS_UNITS から", "変更していません：この実行では NIMBUS_UNITS の値が優先されます"),
        ]
        for (language, units, temperature, refused) in cases {
            let url = configFile(text)
            let box = open(url, environment: ["NIMBUS_UNITS": "metric"], language: language)
            XCTAssertEqual(box.value(.units), units, "\(language)")
            XCTAssertEqual(box.value(.temperature), temperature)
            XCTAssertEqual(box.value(.wind), "km/h" + temperature.dropFirst(2))
            XCTAssertFalse(box.value(.clock).contains("NIMBUS"), "the clock is the file's (or the default)")
            XCTAssertEqual(box.store.current.effective.units, .metric, "what the screen uses")
            for step in [1, -1] {
                box.send(.valueStepped(step))
                XCTAssertEqual(box.state.footer, refused)
                XCTAssertEqual(box.value(.units), units, "not changed")
            }
            box.send(.rowSelected(1))
            XCTAssertNotEqual(box.state.footer, refused, "said until the next key")
            box.send(.valueStepped(1))
            XCTAssertEqual(box.state.footer, refused, "the temperature follows the variable's units too")
            XCTAssertTrue(box.state.footers.contains(refused), "the box is made wide enough for it")
            for row in box.state.rows { XCTAssertTrue(row.values.contains(row.value), "\(row.label) fits the box") }
            box.send(.closeRequested)
            XCTAssertTrue(box.closed)
            XCTAssertEqual(bytes(url), Data(text.utf8), "config.toml byte for byte")
            XCTAssertEqual(box.store.current.save, .unchanged)
        }
    }

    func testFlagsSayWhichFlag() {
        let url = configFile("mouse = true\n")
        let box = open(url, environment: ["NIMBUS_THEME": "light"], flags: UserSettings(units: .imperial, mapStyle: .blocks, mouse: false))
        XCTAssertEqual(box.value(.units), "imperial · from --units")
        XCTAssertEqual(box.value(.temperature), "°F · from --units")
        XCTAssertEqual(box.value(.mouse), "off · from --no-mouse")
        XCTAssertEqual(box.value(.mapStyle), "blocks · from --map-style")
        XCTAssertEqual(box.value(.theme), "light · from NIMBUS_THEME")
        box.send(.rowSelected(VM.Row.mouse.rawValue))
        box.send(.valueStepped(1))
        XCTAssertEqual(box.state.footer, "Not changed: this run follows --no-mouse")
        XCTAssertEqual(bytes(url), Data("mouse = true\n".utf8))
    }

    /// Moving through every row, opening and leaving the home search, and closing: the file is as it
    /// was, byte for byte, and a file that was not there is not made.
    func testOpeningAndClosingWithoutAChangeNeverWritesTheFile() {
        let texts: [String?] = [nil, "", "# only a comment", "units = 'auto'  # mine\nclock=24\n\n[other]\nx = 1\n",
                                "theme = \"dark\"\r\nmouse = false\r\n"]
        for text in texts {
            for environment in [[:], ["NIMBUS_UNITS": "imperial", "NIMBUS_THEME": "light", "NIMBUS_MOUSE": "0"]] {
                let url = configFile(text)
                let box = open(url, environment: environment)
                for row in VM.Row.allCases { box.send(.rowSelected(row.rawValue)) }
                box.send(.valueStepped(1))  // the home row: opens its search
                box.send(.searchChanged("seoul"))
                box.send(.searchCancelled)
                box.send(.closeRequested)
                XCTAssertEqual(bytes(url), text.map { Data($0.utf8) }, "\(String(describing: text)) under \(environment)")
                XCTAssertEqual(box.store.current.save, .unchanged)
            }
        }
    }

    /// A change under overriding variables writes its own line and nothing of the environment's.
    func testAChangeWritesOnlyItsOwnLine() {
        let text = "# mine\nunits = \"imperial\"   # yes\n\n[table]\nkey = 1\n"
        let url = configFile(text)
        let box = open(url, environment: ["NIMBUS_UNITS": "metric", "NIMBUS_THEME": "light", "NIMBUS_MAP_STYLE": "blocks"])
        box.send(.rowSelected(VM.Row.clock.rawValue))
        box.send(.valueStepped(1))
        XCTAssertEqual(box.value(.clock), "12-hour")
        XCTAssertEqual(String(decoding: bytes(url) ?? Data(), as: UTF8.self),
                       "# mine\nunits = \"imperial\"   # yes\nclock = 12\n\n[table]\nkey = 1\n")
        for row in [VM.Row.units, .temperature, .wind, .theme, .mapStyle] {
            box.send(.rowSelected(row.rawValue))
            box.send(.valueStepped(1))
        }
        box.send(.closeRequested)
        XCTAssertEqual(String(decoding: bytes(url) ?? Data(), as: UTF8.self),
                       "# mine\nunits = \"imperial\"   # yes\nclock = 12\n\n[table]\nkey = 1\n", "the overridden rows wrote nothing")
    }

    /// The settings are given the tabs' keys, not names made in some language: the default tab is
    /// named in the box's language (three languages, three names).
    func testTheDefaultTabIsNamedInTheBoxsLanguage() {
        var names: Set<String> = []
        for language in Language.allCases {
            let box = open(configFile("default_tab = 4\n"), environment: [:], language: language)
            XCTAssertEqual(box.value(.defaultTab), "4 " + L10n.bundled(language)[.tabQuakes], "\(language)")
            names.insert(box.value(.defaultTab))
        }
        XCTAssertEqual(names.count, Language.allCases.count, "\(names)")
    }
}
