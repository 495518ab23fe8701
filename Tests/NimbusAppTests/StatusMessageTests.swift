import Foundation
import Testing
import AppExploration
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// The status line's messages on the app's virtual clock: a change's goes after a few seconds, an
/// error stays until the next key; and a change's message made to fit a narrow bar keeps the key
/// that undoes it, losing the middle of its name first.
@Suite @MainActor struct StatusMessageTests {
    private let temporary = TemporaryDirectories()

    private func harness(_ language: Language, size: Size = Size(cols: 80, rows: 24)) throws -> AppHarness {
        let (environment, home) = AppHarness.sandbox(["NIMBUS_LANG": language.rawValue])
        temporary.remove(home)
        return try AppHarness(environment: environment, size: size)
    }

    /// An undo the disk refused and an import of a file that is not there are errors: they are on
    /// the screen a minute later (virtual time), and the next key takes them; a change's message
    /// is gone after `changeMessageDuration`.
    @Test(arguments: Language.allCases)
    func errorsStayPastTheMessagesTimeUntilTheNextKey(_ language: Language) throws {
        let app = try harness(language)
        app.press(.char("f"))
        let liked = try #require(app.app.statusMessage)
        #expect(app.screen.contains(liked))
        app.advance(by: AppCoordinator.changeMessageDuration)
        #expect(app.app.statusMessage == nil)
        #expect(!app.screen.contains(liked))

        #expect(try app.setDiskFull(true))
        app.press(.char("z"))
        let refused = try #require(app.app.statusMessage)
        #expect(refused.contains("database or disk is full"), "\(refused)")
        app.advance(by: .seconds(60))
        #expect(app.app.statusMessage == refused)
        #expect(app.screen.contains(String(refused.prefix(20))), "\(app.screen)")
        app.press(.down)
        #expect(app.app.statusMessage == nil, "the next key takes it")
        try app.setDiskFull(false)

        app.press(.char("6"), .char("i"))
        app.type("~/missing.csv")
        app.press(.enter)
        let unread = try #require(app.app.statusMessage)
        #expect(unread.contains("~/missing.csv"), "\(unread)")
        app.advance(by: .seconds(60))
        #expect(app.app.statusMessage == unread)
        #expect(app.screen.contains(String(unread.prefix(16))), "\(app.screen)")
        app.press(.char("j"))
        #expect(app.app.statusMessage == nil)
        #expect(try app.savedWishlist().isEmpty, "nothing was imported")
    }

    /// Every change's, undo's and redo's words in every language, at every width from 20 to 120
    /// columns: never wider than the bar; whole when they fit; else with the undo (or redo) key
    /// whole at the end, and, when cutting the names is enough, only the names cut.
    @Test(arguments: Language.allCases)
    func aChangeMessageKeepsItsKeyAtEveryWidth(_ language: Language) {
        let text = ChangeText(l10n: L10n.bundled(language)) { _ in "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch" }
        let titles = ["The Dark Knight Rises", "Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb",
                      "千と千尋の神隠し", "기생충", "Up"]
        var changes: [UserChange] = titles.flatMap { [UserChange.wishlistAdded(title: $0), .wishlistRemoved(title: $0)] }
        changes += [.liked(cityID: 1), .unliked(cityID: 1), .wishlistImported(count: 12_345), .wishlistCleared(count: 2),
                    .setting(key: .home, from: "1", to: nil), .setting(key: .units, from: "metric", to: "imperial")]
        let words: [(ChangeText) -> String] = changes.flatMap { change in
            [{ $0.saved(change) }, { $0.outcome(.undone(change)) }, { $0.outcome(.redone(change), redoing: true) }]
        }
        var checked = 0
        for say in words {
            let whole = DisplayWidth.sanitize(say(text))
            let key = String(whole[whole.range(of: " · ", options: .backwards)!.lowerBound...])
            let cutNames = (AppCoordinator.shortestName...80).map { n in
                DisplayWidth.sanitize(say(text.shorteningNames { DisplayWidth.truncate($0, to: n) }))
            }
            for columns in 20...120 {
                let shown = AppCoordinator.fitted(say, text: text, columns: columns)
                #expect(DisplayWidth.of(shown) <= columns, "\(columns): \(shown)")
                if DisplayWidth.of(whole) <= columns {
                    #expect(shown == whole)
                } else if columns >= DisplayWidth.of(key) + AppCoordinator.shortestName {
                    #expect(shown.hasSuffix(key), "\(columns): \(shown)")
                    if DisplayWidth.of(cutNames[0]) <= columns {
                        #expect(cutNames.contains(shown), "only the names are cut at \(columns): \(shown)")
                    }
                }
                checked += 1
            }
        }
        #expect(checked == words.count * 101)
    }
}
