import XCTest
import NimbusDomain
import NimbusPresentation
import CombineSchedulers
import Foundation
import NimbusTerminal
import NimbusUI
import TestSupport
@testable import NimbusApp

/// The mouse, `y` (OSC 52 on the fake terminal) and the help filter, through the app loop.
@MainActor
final class MouseCopyHelpTests: XCTestCase {
    private func makeLoop(_ environment: [String: String] = [:], mouse: Bool = true)
        throws -> (AppLoop, FakeTerminal, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        var configuration = AppDIContainer.Configuration(
            environment: isolated(environment), scheduler: scheduler.eraseToAnyScheduler())
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

    nonisolated func testYWritesTheOSC52BytesOfTheSelectedCityAndSaysSo() throws {
        try onMain(self) { try $0.mainActorTestY() }
    }

    private func mainActorTestY() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"])
        loop.handle([.char("y")])
        let expected = Array("\u{1B}]52;c;".utf8) + Array(Data("Shanghai 31.22°N 121.46°E".utf8).base64EncodedString().utf8) + [0x07]
        XCTAssertEqual(terminal.clipboardWrites, [expected])
        XCTAssertEqual(terminal.clipboard, "Shanghai 31.22°N 121.46°E")
        XCTAssertTrue(terminal.screenText().contains("Copied: Shanghai 31.22°N 121.46°E"), terminal.screenText())
        loop.handle([.down])
        XCTAssertFalse(terminal.screenText().contains("Copied:"), "the message goes with the next key")
        // In the search field y is text: nothing more is written.
        loop.handle([.char("/"), .char("y")])
        XCTAssertEqual(terminal.clipboardWrites.count, 1)
    }

    func testWhatIsCopiedHasNoControlCharacters() {
        XCTAssertEqual(OSC52.sanitize("Heat\u{1B}[31m (1995)\n\u{7}x\t"), "Heat (1995) x")
        XCTAssertEqual(OSC52.decode(OSC52.sequence(for: "a\u{0}b\u{7F}c")), "abc")
        let long = String(repeating: "서", count: OSC52.limit)
        XCTAssertLessThanOrEqual(OSC52.sanitize(long).utf8.count, OSC52.limit)
        XCTAssertTrue(OSC52.sanitize(long).allSatisfy { $0 == "서" }, "cut on a character boundary")
    }

    nonisolated func testClicksAndTheWheelGoThroughTheParserToTheListAndTheTabs() throws {
        try onMain(self) { try $0.mainActorTestClicks() }
    }

    private func mainActorTestClicks() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"])
        feed(loop, MouseEvent(.press, x: 5, y: 4).sgrBytes + MouseEvent(.release, x: 5, y: 4).sgrBytes)
        XCTAssertTrue(terminal.screenText().contains("› Beijing"), terminal.screenText())
        feed(loop, MouseEvent(.wheelDown, button: .none, x: 5, y: 10).sgrBytes)
        XCTAssertTrue(terminal.screenText().contains("› Kinshasa"), terminal.screenText())
        XCTAssertFalse(terminal.screenText().contains("[<"), "a report is never typed")
        feed(loop, MouseEvent(.press, x: 41, y: 0).sgrBytes)
        XCTAssertEqual(loop.coordinator.place.tab, 4, "a click on \"5 Movies\"")
    }

    nonisolated func testWithTheMouseOffReportsAreDropped() throws {
        try onMain(self) { try $0.mainActorTestMouseOff() }
    }

    private func mainActorTestMouseOff() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"], mouse: false)
        feed(loop, MouseEvent(.press, x: 41, y: 0).sgrBytes + MouseEvent(.press, x: 5, y: 4).sgrBytes)
        XCTAssertEqual(loop.coordinator.place.tab, 0)
        XCTAssertTrue(terminal.screenText().contains("› Shanghai"), terminal.screenText())
    }

    nonisolated func testMouseTurnedOnInTheSettingsOverNoMouseTakesClicks() throws {
        try onMain(self) { try $0.mainActorTestMouseOnOverNoMouse() }
    }

    /// Started with `--no-mouse`, Mouse turned on in the settings: the terminal was asked for mouse
    /// reports, and every click was then dropped (the flag was still believed where clicks were taken).
    private func mainActorTestMouseOnOverNoMouse() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"], mouse: false)
        XCTAssertFalse(loop.coordinator.mouseWanted)
        loop.handle([.char(",")] + Array(repeating: Key.down, count: 6) + [.right])
        XCTAssertTrue(terminal.screenText().contains("Mouse        ‹ on ›"), terminal.screenText())
        XCTAssertEqual(terminal.mouseReporting, [true], "the terminal is asked for reports at once")
        loop.handle([.escape])
        // The bytes a terminal sends for a click on the second row of the list (X;Y from 1).
        feed(loop, Array("\u{1B}[<0;6;5M\u{1B}[<0;6;5m".utf8))
        XCTAssertTrue(terminal.screenText().contains("› Beijing"), terminal.screenText())
        feed(loop, MouseEvent(.press, x: 41, y: 0).sgrBytes + MouseEvent(.release, x: 41, y: 0).sgrBytes)
        XCTAssertEqual(loop.coordinator.place.tab, 4, "a click on a tab's title switches to it")
    }

    func testNoMouseFlagAndEnvironment() throws {
        XCTAssertNil(UserSettings(environment: [:]).mouse)
        XCTAssertEqual(UserSettings(environment: ["NIMBUS_MOUSE": "0"]).mouse, false)
        XCTAssertEqual(UserSettings(environment: ["NIMBUS_MOUSE": "off"]).mouse, false)
        XCTAssertEqual(UserSettings(environment: ["NIMBUS_MOUSE": "1"]).mouse, true)
        XCTAssertEqual(UserSettings(environment: ["NIMBUS_MOUSE": "maybe"]).mouse, nil)
        XCTAssertEqual(try CLIOptions.parseCommandLine(["--no-mouse"]).noMouse, true)
        XCTAssertEqual(try CLIOptions.parseCommandLine(["--no-mouse"]).values.settings.mouse, false)
        XCTAssertNil(try CLIOptions.parseCommandLine([]).values.settings.mouse)
        // Flag over environment over file, and on when none says.
        XCTAssertEqual(SettingsLayers(flags: UserSettings(mouse: false), environment: UserSettings(mouse: true),
                                      file: UserSettings(mouse: true)).effective.mouse, false)
        XCTAssertEqual(SettingsLayers(environment: UserSettings(mouse: false), file: UserSettings(mouse: true)).effective.mouse, false)
        XCTAssertEqual(SettingsLayers(file: UserSettings(mouse: false)).effective.mouse, false)
        XCTAssertTrue(ResolvedSettings(SettingsLayers().effective, environment: [:]).mouse)
    }

    nonisolated func testTheHelpFiltersAsYouTypeAndEscClearsThenCloses() throws {
        try onMain(self) { try $0.mainActorTestHelpFilter() }
    }

    private func mainActorTestHelpFilter() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"])
        loop.handle([.char("?"), .char("/")] + "ctrl".map { Key.char($0) })
        var screen = terminal.screenText()
        XCTAssertTrue(screen.contains("Filter: ctrl"), screen)
        XCTAssertTrue(screen.contains("quit at once") && screen.contains("redraw the screen"), screen)
        XCTAssertFalse(screen.contains("focus the search field"), screen)
        loop.handle([.char("q")])
        XCTAssertTrue(terminal.screenText().contains("Filter: ctrlq"), "q is text while the filter is typed")
        loop.handle([.backspace, .escape])
        screen = terminal.screenText()
        XCTAssertTrue(screen.contains("focus the search field") && !screen.contains("Filter:"), screen)
        XCTAssertTrue(loop.coordinator.place.overlay)
        loop.handle([.escape])
        XCTAssertFalse(loop.coordinator.place.overlay)
        XCTAssertFalse(loop.coordinator.quitRequested)
    }

    /// One rule for typing in the help: letters type, `q` included, from the first key; `?` and Esc close.
    nonisolated func testTypingQuitIntoTheHelpFiltersAndNeverCloses() throws {
        try onMain(self) { try $0.mainActorTestTypingQuit() }
    }

    private func mainActorTestTypingQuit() throws {
        let (loop, terminal, _) = try makeLoop(["NIMBUS_LANG": "en"])
        loop.handle([.char("?")] + "quit".map { Key.char($0) })
        XCTAssertTrue(terminal.screenText().contains("Filter: quit"), terminal.screenText())
        XCTAssertTrue(loop.coordinator.place.overlay)
        XCTAssertFalse(loop.coordinator.quitRequested)
        loop.handle([.char("?")])
        XCTAssertFalse(loop.coordinator.place.overlay)
    }

    func testHelpMatchingIgnoresCaseAndAccentsAndNeedsEveryWord() {
        let hint = HelpEntry(key: "Ctrl-L", label: "redraw the Screen")
        XCTAssertTrue(HelpViewModel.matches(hint, ""))
        XCTAssertTrue(HelpViewModel.matches(hint, "SCREEN ctrl"))
        XCTAssertTrue(HelpViewModel.matches(HelpEntry(key: "f", label: "café"), "cafe"))
        XCTAssertFalse(HelpViewModel.matches(hint, "screen quit"))
    }
}
