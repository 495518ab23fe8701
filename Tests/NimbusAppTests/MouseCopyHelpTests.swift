import Foundation
import NimbusData
import Testing
import NimbusDomain
import NimbusPresentation
import CombineSchedulers
import Foundation
import NimbusTerminal
import NimbusUI
import TestSupport
@testable import NimbusApp

/// The mouse, `y` (OSC 52 on the fake terminal) and the help filter, through the app loop.
@Suite @MainActor struct MouseCopyHelpTests {
    private let temporary = TemporaryDirectories()

    private func makeLoop(_ environment: [String: String] = [:], mouse: Bool = true, config: String? = nil)
        throws -> (AppLoop, FakeTerminal, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        let environment = temporary.isolated(environment)
        if let config {
            let url = ConfigFile(environment: environment).url
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(config.utf8).write(to: url)
        }
        var configuration = AppDIContainer.Configuration(environment: environment, scheduler: scheduler.eraseToAnyScheduler())
        // `--no-mouse` when the mouse is not wanted.
        if !mouse { configuration.settingsFlags.mouse = false }
        let container = try AppDIContainer(configuration: configuration)
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        let terminal = FakeTerminal(size: Size(cols: 80, rows: 24))
        let loop = AppLoop(coordinator: coordinator, backend: terminal, size: { terminal.size },
                           runDueWork: { scheduler.advance() })
        scheduler.advance()
        loop.draw()
        return (loop, terminal, scheduler)
    }

    /// Feeds raw bytes through a key parser, as the runners do.
    private func feed(_ loop: AppLoop, _ bytes: [UInt8]) {
        var parser = KeyParser()
        loop.handle(parser.feed(bytes) + parser.flushPending())
    }

    @Test func testYWritesTheOSC52BytesOfTheSelectedCityAndSaysSo() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"])
        loop.handle([.char("y")])
        let expected = Array("\u{1B}]52;c;".utf8) + Array(Data("Shanghai 31.22°N 121.46°E".utf8).base64EncodedString().utf8) + [0x07]
        #expect(terminal.clipboardWrites == [expected])
        #expect(terminal.clipboard == "Shanghai 31.22°N 121.46°E")
        #expect(terminal.screenText().contains("Copied: Shanghai 31.22°N 121.46°E"), "\(terminal.screenText())")
        loop.handle([.down])
        #expect(!terminal.screenText().contains("Copied:"), "the message goes with the next key")
        // In the search field y is text: nothing more is written.
        loop.handle([.char("/"), .char("y")])
        #expect(terminal.clipboardWrites.count == 1)
    }

    @Test func testWhatIsCopiedHasNoControlCharacters() {
        #expect(OSC52.sanitize("Heat\u{1B}[31m (1995)\n\u{7}x\t") == "Heat (1995) x")
        #expect(OSC52.decode(OSC52.sequence(for: "a\u{0}b\u{7F}c")) == "abc")
        let long = String(repeating: "서", count: OSC52.limit)
        #expect(OSC52.sanitize(long).utf8.count <= OSC52.limit)
        #expect(OSC52.sanitize(long).allSatisfy { $0 == "서" }, "cut on a character boundary")
    }

    @Test func testClicksAndTheWheelGoThroughTheParserToTheListAndTheTabs() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"])
        feed(loop, MouseEvent(.press, x: 5, y: 4).sgrBytes + MouseEvent(.release, x: 5, y: 4).sgrBytes)
        #expect(terminal.screenText().contains("› Beijing"), "\(terminal.screenText())")
        feed(loop, MouseEvent(.wheelDown, button: .none, x: 5, y: 10).sgrBytes)
        #expect(terminal.screenText().contains("› Kinshasa"), "\(terminal.screenText())")
        #expect(!terminal.screenText().contains("[<"), "a report is never typed")
        feed(loop, MouseEvent(.press, x: 41, y: 0).sgrBytes)
        #expect(loop.coordinator.place.tab == 4, "a click on \"5 Movies\"")
    }

    @Test func testWithTheMouseOffReportsAreDropped() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"], mouse: false)
        feed(loop, MouseEvent(.press, x: 41, y: 0).sgrBytes + MouseEvent(.press, x: 5, y: 4).sgrBytes)
        #expect(loop.coordinator.place.tab == 0)
        #expect(terminal.screenText().contains("› Shanghai"), "\(terminal.screenText())")
    }

    /// Started with `mouse = false`, Mouse turned on in the settings: the terminal was asked for mouse
    /// reports, and every click was then dropped (the start-up setting was still believed where clicks
    /// were taken).
    @Test func testMouseTurnedOnInTheSettingsTakesClicks() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"], config: "mouse = false\n")
        #expect(!loop.coordinator.mouseWanted)
        loop.handle([.char(",")] + Array(repeating: Key.down, count: 6) + [.right])
        #expect(terminal.screenText().contains("Mouse        ‹ on ›"), "\(terminal.screenText())")
        #expect(terminal.mouseReporting == [true], "the terminal is asked for reports at once")
        loop.handle([.escape])
        // The bytes a terminal sends for a click on the second row of the list (X;Y from 1).
        feed(loop, Array("\u{1B}[<0;6;5M\u{1B}[<0;6;5m".utf8))
        #expect(terminal.screenText().contains("› Beijing"), "\(terminal.screenText())")
        feed(loop, MouseEvent(.press, x: 41, y: 0).sgrBytes + MouseEvent(.release, x: 41, y: 0).sgrBytes)
        #expect(loop.coordinator.place.tab == 4, "a click on a tab's title switches to it")
    }

    /// Under `--no-mouse` the Mouse row says so and is not changed: no reports are asked for, clicks are dropped.
    @Test func testUnderNoMouseTheMouseRowIsNotChanged() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"], mouse: false)
        loop.handle([.char(",")] + Array(repeating: Key.down, count: 6))
        #expect(terminal.screenText().contains("Mouse        ‹ off · from --no-mouse ›"), "\(terminal.screenText())")
        loop.handle([.right])
        #expect(terminal.screenText().contains("Not changed: this run follows --no-mouse"), "\(terminal.screenText())")
        #expect(terminal.mouseReporting.isEmpty)
        loop.handle([.escape])
        feed(loop, MouseEvent(.press, x: 41, y: 0).sgrBytes + MouseEvent(.release, x: 41, y: 0).sgrBytes)
        #expect(loop.coordinator.place.tab == 0)
    }

    @Test func testNoMouseFlagAndEnvironment() throws {
        #expect(UserSettings(environment: [:]).mouse == nil)
        #expect(UserSettings(environment: ["NIMBUS_MOUSE": "0"]).mouse == false)
        #expect(UserSettings(environment: ["NIMBUS_MOUSE": "off"]).mouse == false)
        #expect(UserSettings(environment: ["NIMBUS_MOUSE": "1"]).mouse == true)
        #expect(UserSettings(environment: ["NIMBUS_MOUSE": "maybe"]).mouse == nil)
        #expect(try CLIOptions.parseCommandLine(["--no-mouse"]).noMouse == true)
        #expect(try CLIOptions.parseCommandLine(["--no-mouse"]).values.settings.mouse == false)
        #expect(try CLIOptions.parseCommandLine([]).values.settings.mouse == nil)
        // Flag over environment over file, and on when none says.
        #expect(SettingsLayers(flags: UserSettings(mouse: false), environment: UserSettings(mouse: true),
                                      file: UserSettings(mouse: true)).effective.mouse == false)
        #expect(SettingsLayers(environment: UserSettings(mouse: false), file: UserSettings(mouse: true)).effective.mouse == false)
        #expect(SettingsLayers(file: UserSettings(mouse: false)).effective.mouse == false)
        #expect(ResolvedSettings(SettingsLayers().effective, environment: [:]).mouse)
    }

    @Test func testTheHelpFiltersAsYouTypeAndEscClearsThenCloses() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"])
        loop.handle([.char("?"), .char("/")] + "ctrl".map { Key.char($0) })
        var screen = terminal.screenText()
        #expect(screen.contains("Filter: ctrl"), "\(screen)")
        #expect(screen.contains("quit at once") && screen.contains("redraw the screen"), "\(screen)")
        #expect(!screen.contains("focus the search field"), "\(screen)")
        loop.handle([.char("q")])
        #expect(terminal.screenText().contains("Filter: ctrlq"), "q is text while the filter is typed")
        loop.handle([.backspace, .escape])
        screen = terminal.screenText()
        #expect(screen.contains("focus the search field") && !screen.contains("Filter:"), "\(screen)")
        #expect(loop.coordinator.place.overlay)
        loop.handle([.escape])
        #expect(!loop.coordinator.place.overlay)
        #expect(!loop.coordinator.quitRequested)
    }

    /// One rule for typing in the help: letters type, `q` included, from the first key; `?` and Esc close.
    @Test func testTypingQuitIntoTheHelpFiltersAndNeverCloses() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"])
        loop.handle([.char("?")] + "quit".map { Key.char($0) })
        #expect(terminal.screenText().contains("Filter: quit"), "\(terminal.screenText())")
        #expect(loop.coordinator.place.overlay)
        #expect(!loop.coordinator.quitRequested)
        loop.handle([.char("?")])
        #expect(!loop.coordinator.place.overlay)
    }

    @Test func testHelpMatchingIgnoresCaseAndAccentsAndNeedsEveryWord() {
        let hint = HelpLine(key: "Ctrl-L", label: "redraw the Screen")
        #expect(HelpViewModel.matches(hint, ""))
        #expect(HelpViewModel.matches(hint, "SCREEN ctrl"))
        #expect(HelpViewModel.matches(HelpLine(key: "f", label: "café"), "cafe"))
        #expect(!HelpViewModel.matches(hint, "screen quit"))
    }
}
