import Foundation
import Testing
import AppExploration
import NimbusPresentation
import NimbusTerminal
import NimbusUI
import TestSupport
@testable import NimbusApp

/// Walks every tab, a screen pushed on each, the help over each and the questions a screen asks, and
/// fails where one key is bound twice in one scope or a hint in the bar has no key.
@Suite @MainActor struct BindingWalkTests {
    private let temporary = TemporaryDirectories()

    @Test func testEveryScreenInEveryStateBindsEachKeyOnce() throws {
        let harness = try AppHarness(environment: temporary.isolated(["NIMBUS_LANG": "en"]), size: Size(cols: 120, rows: 40))
        var seen: [String] = []
        func check(_ where_: String) {
            harness.settle()
            let problems = harness.app.bindingProblems
            #expect(problems == [], "\(where_):\n\(harness.screen)")
            seen.append(where_)
        }
        for tab in 1...6 {
            harness.press(.char(Character(String(tab))))
            check("tab \(tab)")
            harness.press(.char("?"))
            check("tab \(tab), help")
            harness.press(.escape)
            harness.press(.char("/"))
            check("tab \(tab), search field")
            harness.press(.escape, .escape)
            harness.press(.enter)
            check("tab \(tab), opened")
            harness.press(.char("?"))
            check("tab \(tab), opened, help")
            harness.press(.escape, .escape)
        }
        harness.press(.function(12))
        check("map statistics")
        harness.press(.escape)
        #expect(seen.count == 31)
    }

    /// The kind of clash the walk finds: a screen binding `y` beside the app's `y` (copy).
    @Test func testAKeyClaimedByTheScreenAndTheAppIsReported() {
        let app = [Binding(.char("y"), help: .text("copy"), command: BoundCommand("copy"))]
        let screen = [Binding(.char("y"), help: .text("years filter"), command: BoundCommand("years")),
                      Binding(.char("g"), help: .text("genre"), command: BoundCommand("genre"))]
        let clashes = BindingConflicts.duplicates([app, screen])
        #expect(clashes.map(\.key) == [.char("y")])
        #expect(clashes.first?.claims == ["copy", "years filter"])
    }

    /// The app's own keys are dispatched as values: each binding carries the command it sends.
    @Test func testTheAppsKeysCarryTheirCommands() throws {
        let l10n = L10n.bundled(.en)
        let bindings = AppCoordinator.commandKeys(l10n, tabs: 6).bindings(in: ())
        typealias Command = KeyCommand<AppCoordinator.AppCommand>
        #expect(Binding.find(.char("q"), in: bindings)?.command == BoundCommand(Command.send(.quit)))
        #expect(Binding.find(.char("?"), in: bindings)?.command == BoundCommand(Command.send(.help)))
        let digits = try #require(Binding.find(.char("3"), in: bindings))
        #expect(AppCoordinator.AppKeys.command(digits.command, pressed: .char("3")) == .send(.selectTab(2)))
        #expect(AppCoordinator.AppKeys.command(digits.command, pressed: .char("6")) == .send(.selectTab(5)))
        #expect(AppCoordinator.backKeys(l10n).bindings(in: ()).map(\.command) == [BoundCommand(Command.send(.back))])
    }

    /// The keys that work everywhere are one list of values, which dispatch and the help read.
    @Test func testTheKeysThatWorkEverywhereAreAListOfValues() {
        #expect(AppCoordinator.alwaysGlobal.map(\.key) == [.ctrl("c"), .ctrl("l"), .ctrl("z"), .function(12)])
        #expect(AppCoordinator.alwaysGlobal.map(\.command) == [.quit, .redraw, .suspend, .mapStatistics])
        #expect(AppCoordinator.alwaysGlobal.map(\.help) == [.helpKeyCtrlc, .helpKeyRedraw, .helpKeySuspend, .helpKeyDebug])
    }
}
