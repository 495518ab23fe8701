import XCTest
import NimbusDomain
@testable import NimbusPresentation

/// The settings overlay's `reduce`: state and action in, state and effects out, no scheduler.
final class SettingsReduceTests: XCTestCase {
    private typealias VM = SettingsViewModel

    private func loaded(_ layers: SettingsLayers = SettingsLayers(), environment: [String: String] = [:],
                        selected: VM.Row = .units) -> VM.State {
        var state = VM.State()
        let contents = SettingsContents(layers: layers)
        _ = VM.reduce(&state, .contents(contents, ResolvedSettings(contents.effective, environment: environment)))
        _ = VM.reduce(&state, .selected(selected.rawValue))
        return state
    }

    private func reduce(_ state: VM.State, _ action: VM.Action) -> (VM.State, [VM.Effect]) {
        var state = state
        let effects = VM.reduce(&state, action)
        return (state, effects)
    }

    func testOpeningFollowsTheStoreAndNothingIsSavedBeforeItAnswers() {
        XCTAssertEqual(reduce(VM.State(), .opened).1, [.observe])
        XCTAssertEqual(reduce(VM.State(), .stepped(1)).1, [], "no step before the settings are in")
        let (state, effects) = reduce(VM.State(), .contents(SettingsContents(), ResolvedSettings(UserSettings(), environment: [:])))
        XCTAssertTrue(state.loaded)
        XCTAssertEqual(effects, [])
    }

    func testEachRowStepsFromTheValueInForce() {
        let table: [(VM.State, Int, VM.Effect)] = [
            (loaded(), 1, .save(.units(.metric))),
            (loaded(), -1, .save(.units(.imperial))),
            (loaded(SettingsLayers(file: UserSettings(units: .imperial))), 1, .save(.units(.auto))),
            // NIMBUS_UNITS=auto is no choice: the file's imperial is in force, and the row steps on from it.
            (loaded(SettingsLayers(environment: UserSettings(units: .auto), file: UserSettings(units: .imperial))), -1,
             .save(.units(.metric))),
            // This run's choice is over the variable: the row is the session's, and changes.
            (loaded(SettingsLayers(session: UserSettings(mapStyle: .blocks), environment: UserSettings(mapStyle: .braille)),
                    selected: .mapStyle), 1, .save(.mapStyle(.auto))),
            (loaded(SettingsLayers(file: UserSettings(mouse: false)), selected: .mouse), 1, .save(.mouse(true))),
            (loaded(selected: .mouse), 1, .save(.mouse(false))),
            (loaded(selected: .clock), 1, .save(.clock(.h12))),
            (loaded(selected: .theme), 1, .save(.theme(.dark))),
            (loaded(selected: .defaultTab), -1, .save(.defaultTab(6))),
            (loaded(selected: .mapStyle), 1, .save(.mapStyle(.braille))),
        ]
        for (i, (state, delta, effect)) in table.enumerated() {
            XCTAssertEqual(reduce(state, .stepped(delta)).1, [effect], "row \(i)")
        }
    }

    /// A row the command line or the environment decides is not changed, and says which (until the next key).
    func testARowTheCommandLineOrTheEnvironmentDecidesIsRefusedAndSaysWhich() {
        let imperialUnderMetric = SettingsLayers(environment: UserSettings(units: .metric),
                                                 file: UserSettings(units: .imperial, temperatureUnit: .f))
        let table: [(SettingsLayers, VM.Row, String)] = [
            (imperialUnderMetric, .units, "NIMBUS_UNITS"),
            (imperialUnderMetric, .temperature, "NIMBUS_UNITS"),
            (imperialUnderMetric, .wind, "NIMBUS_UNITS"),
            (SettingsLayers(flags: UserSettings(units: .imperial), environment: UserSettings(units: .metric)), .wind, "--units"),
            (SettingsLayers(flags: UserSettings(mouse: false), file: UserSettings(mouse: true)), .mouse, "--no-mouse"),
            (SettingsLayers(environment: UserSettings(mouse: true)), .mouse, "NIMBUS_MOUSE"),
            (SettingsLayers(environment: UserSettings(theme: .light)), .theme, "NIMBUS_THEME"),
            (SettingsLayers(flags: UserSettings(theme: .dark)), .theme, "--theme"),
            (SettingsLayers(environment: UserSettings(mapStyle: .auto), file: UserSettings(mapStyle: .blocks)), .mapStyle,
             "NIMBUS_MAP_STYLE"),
            (SettingsLayers(flags: UserSettings(mapStyle: .braille)), .mapStyle, "--map-style"),
        ]
        for (layers, row, name) in table {
            for delta in [1, -1] {
                let (state, effects) = reduce(loaded(layers, selected: row), .stepped(delta))
                XCTAssertEqual(effects, [], "\(row) under \(name): nothing saved")
                XCTAssertEqual(state.refused, name, "\(row)")
                XCTAssertNil(reduce(state, .selected(row.rawValue)).0.refused, "the next key clears it")
            }
        }
        // Rows the overriding layer does not decide still change.
        XCTAssertEqual(reduce(loaded(imperialUnderMetric, selected: .clock), .stepped(1)).1, [.save(.clock(.h12))])
        XCTAssertNil(reduce(loaded(imperialUnderMetric, selected: .clock), .stepped(1)).0.refused)
        // A temperature unit of the session's own is over the variable's units: changed.
        let own = SettingsLayers(session: UserSettings(temperatureUnit: .f), environment: UserSettings(units: .metric))
        XCTAssertEqual(reduce(loaded(own, selected: .temperature), .stepped(1)).1, [.save(.temperature(.c))])
    }

    func testTheHomeRowSearchesPicksAndClears() {
        let home = loaded(SettingsLayers(file: UserSettings(home: .city(1835848))), selected: .home)
        var (state, effects) = reduce(home, .stepped(1))
        XCTAssertEqual(state.search, VM.Search())
        XCTAssertEqual(effects, [])
        (state, effects) = reduce(state, .searchChanged("bus"))
        XCTAssertEqual(effects, [.search("bus")])
        XCTAssertEqual(state.search?.text, "bus")
        let busan = City(id: 1838524, name: "Busan", countryCode: "KR", latitude: 35.1, longitude: 129.04, population: 3_678_555,
                         timeZone: "Asia/Seoul", alternateNames: [])
        let seoul = City(id: 1835848, name: "Seoul", countryCode: "KR", latitude: 37.57, longitude: 126.98, population: 10_349_312,
                         timeZone: "Asia/Seoul", alternateNames: [])
        (state, _) = reduce(state, .found([seoul, busan]))
        (state, _) = reduce(state, .resultSelected(9))
        XCTAssertEqual(state.search?.pick, 1, "the pick stays on the list")
        (state, effects) = reduce(state, .picked)
        XCTAssertNil(state.search)
        XCTAssertEqual(effects, [.save(.home(.city(1838524)))])
        XCTAssertEqual(reduce(home, .cleared).1, [.save(.home(nil))])
        XCTAssertEqual(reduce(loaded(selected: .home), .cleared).1, [], "nothing to clear")
        XCTAssertEqual(reduce(loaded(selected: .units), .cleared).1, [], "only the home is cleared")
        XCTAssertEqual(reduce(home, .found([seoul])).0.search, nil, "answers after the search closed are dropped")
    }

    func testSelectionStaysOnTheRowsAndCloseRoutes() {
        XCTAssertEqual(reduce(loaded(), .selected(99)).0.selected, VM.Row.allCases.count - 1)
        XCTAssertEqual(reduce(loaded(), .selected(-3)).0.selected, 0)
        XCTAssertEqual(reduce(loaded(), .close).1, [.close])
    }

    func testAnEditOfTheUnitsLetsTemperatureAndWindFollowThemAgain() {
        var settings = UserSettings(units: .imperial, temperatureUnit: .c, windUnit: .ms)
        VM.Edit.units(.metric).apply(to: &settings)
        XCTAssertEqual(settings, UserSettings(units: .metric))
    }
}

/// A settings file's problems in the UI's words: a syntax error with its line and column in every
/// language, never the parser's English.
final class SettingsProblemTextTests: XCTestCase {
    func testASyntaxErrorIsSaidInEachLanguageWithLineAndColumn() {
        let problem = SettingsProblem(line: 3, column: 9, message: "is not TOML (column 9: a quote is not closed)",
                                      reason: .notTOML(.unclosedString))
        XCTAssertEqual(SettingsProblemText.message(problem, l10n: L10n.bundled(.en)),
                       "config.toml line 3, column 9: not TOML: a quote is not closed")
        XCTAssertEqual(SettingsProblemText.message(problem, l10n: L10n.bundled(.ko)),
                       "config.toml 3행 9열: TOML 형식이 아닙니다: 따옴표가 닫히지 않았습니다")
        XCTAssertEqual(SettingsProblemText.message(problem, l10n: L10n.bundled(.ja)),
                       "config.toml 3行目 9列: TOML の形式ではありません: 引用符が閉じていません")
    }

    func testABadValueAndAFailedWriteKeepTheirWords() {
        let bad = SettingsProblem(line: 4, message: "theme must be dark, light or auto",
                                  reason: .badValue(key: "theme", allowed: ["dark", "light", "auto"]))
        XCTAssertEqual(SettingsProblemText.message(bad, l10n: L10n.bundled(.en)), "config.toml line 4: theme must be dark, light or auto")
        XCTAssertTrue(SettingsProblemText.message(bad, l10n: L10n.bundled(.ko)).hasPrefix("config.toml 4행: "))
        let busy = SettingsProblem(line: nil, message: "is being saved by another program", reason: .busy)
        XCTAssertEqual(SettingsProblemText.message(busy, l10n: L10n.bundled(.ja)), L10n.bundled(.ja)[.configBusy])
    }
}
