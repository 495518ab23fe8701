import Foundation
import Testing
import CombineSchedulers
import NimbusPresentation
import NimbusTerminal
import NimbusUI
@testable import NimbusApp

/// A key listed in the help but not in force says why on the status line until the next key
/// (lazygit's disabled reason), and a key with no reason still passes on.
@Suite(.serialized)
@MainActor
struct DisabledKeyTests {

    /// The app over fresh, empty user data in `language`, with what it drew at 80×24.
    private func withApp(_ language: String, _ body: (AppCoordinator, () -> [String]) throws -> Void) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-disabled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let scheduler = DispatchQueue.test
        let environment = ["NIMBUS_LANG": language, "HOME": home.path,
                           "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                           "XDG_CACHE_HOME": home.appendingPathComponent("cache").path]
        let coordinator = AppCoordinator(container: try AppDIContainer(configuration: .init(
            environment: environment, scheduler: scheduler.eraseToAnyScheduler())))
        coordinator.start()
        scheduler.advance()
        try body(coordinator) { coordinator.render(size: Size(cols: 80, rows: 24)).text().components(separatedBy: "\n") }
    }

    @Test(arguments: Language.allCases.map(\.rawValue))
    func theEmptyWishlistsKeysSayThereIsNoRow(_ code: String) throws {
        let l10n = L10n.bundled(Language(rawValue: code)!)
        try withApp(code) { app, lines in
            app.handle(.char("6"))
            #expect(app.statusMessage == nil)
            for key in [Key.enter, .char("d"), .char("D")] {
                app.handle(key)
                #expect(app.statusMessage == l10n[.helpKeyDisabledNoRow], "\(key)")
                #expect(lines().last { !$0.isEmpty }?.hasSuffix(l10n[.helpKeyDisabledNoRow]) == true, "\(key)")
                app.handle(.char("j"))
                #expect(app.statusMessage == nil, "the next key clears it")
            }
        }
    }

    @Test(arguments: Language.allCases.map(\.rawValue))
    func theEmptyLikedTabsKeysSayNothingIsLiked(_ code: String) throws {
        let l10n = L10n.bundled(Language(rawValue: code)!)
        try withApp(code) { app, _ in
            app.handle(.char("3"))
            for key in [Key.enter, .char("d"), .delete] {
                app.handle(key)
                #expect(app.statusMessage == l10n[.likedEmpty], "\(key)")
                app.handle(.down)
                #expect(app.statusMessage == nil)
            }
        }
    }

    @Test func aCityFoundMakesEnterAndFWorkAgain() throws {
        let l10n = L10n.bundled(.en)
        try withApp("en") { app, lines in
            app.handle(.char("/"))
            for c in "qqqqqqqq" { app.handle(.char(c)) }
            app.handle(.enter)
            app.handle(.char("f"))
            #expect(app.statusMessage == l10n[.helpKeyDisabledNoRow])
            app.handle(.char("/"))
            for _ in 0..<8 { app.handle(.backspace) }
            app.handle(.enter)
            app.handle(.char("f"))
            #expect(app.statusMessage == "Shanghai liked · z undo", "f is no longer refused: the like is said")
            app.handle(.char("3"))
            #expect(!lines().joined().contains(l10n[.likedEmpty]), "f liked the first city")
        }
    }
}
