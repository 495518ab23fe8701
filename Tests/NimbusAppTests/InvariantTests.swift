import Foundation
import Testing
@testable import AppExploration
import GRDB
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// The checks the property tests make, and the seed's bug: a toggle must touch only its own row.
@Suite @MainActor struct InvariantTests {
    private let temporary = TemporaryDirectories()

    /// The checker itself: a film saved behind the app's back (so no screen was told) is a screen that
    /// disagrees with the database, and the invariants say so.
    @Test func testTheInvariantsNoticeAScreenThatDisagreesWithTheDatabase() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        harness.press(.char("6"))
        #expect(Invariants.check(harness, english: true) == [])
        let path = URL(fileURLWithPath: harness.environment["XDG_DATA_HOME"]!).appendingPathComponent("nimbus/nimbus.sqlite")
        let queue = try DatabaseQueue(path: path.path)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO wishlist (source, movie_id, title, year, genres, directors, added_at)
                VALUES ('catalogue', 1, 'Behind Your Back', 2001, '', '', 1)
                """)
        }
        harness.settle()
        let problems = Invariants.check(harness, english: true)
        #expect(problems.contains("the Wishlist says 0 films; 1 are saved"), "\(problems)")
        #expect(problems.contains("no films are saved, and the Wishlist does not say so") == false)
    }

    /// The model half: screens and database agreeing is not enough when `d` deleted another film
    /// than the one it was pressed on.
    @Test func testTheEffectCheckNoticesADeleteOfTheWrongRow() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        harness.press(.char("5"), .char("/"))
        harness.type("nolan")
        harness.press(.enter, .char("w"), .down, .char("w"), .down, .char("w"), .char("6"), .down)
        let effect = try #require(Exploration.Effect(before: harness, action: .key(.char("d"))))
        // Delete the first film behind the app's back instead of the selected (second) one.
        let path = URL(fileURLWithPath: harness.environment["XDG_DATA_HOME"]!).appendingPathComponent("nimbus/nimbus.sqlite")
        let first = try harness.savedWishlist()[0]
        try DatabaseQueue(path: path.path).write { db in
            try db.execute(sql: "DELETE FROM wishlist WHERE title = ?", arguments: [first])
        }
        let problems = try effect.check(after: harness)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.contains("deleted \(first) instead") == true, "\(problems)")
        // The right one, as the app does it.
        let right = try AppHarness(environment: temporary.isolated([:]))
        right.press(.char("5"), .char("/"))
        right.type("nolan")
        right.press(.enter, .char("w"), .down, .char("w"), .char("6"), .down)
        let rightEffect = try #require(Exploration.Effect(before: right, action: .key(.char("d"))))
        right.press(.char("d"))
        #expect(try rightEffect.check(after: right) == [])
    }

    /// Found by the property tests (shrunk to `/`, `f`): in the search field `f` is text, not a like,
    /// so the explorer must not expect a like from it.
    @Test func testAKeyTypedIntoTheSearchFieldIsNotTakenForItsCommand() throws {
        var counts = Exploration.Counts()
        let failure = try Exploration.run(Exploration.Setup(code: 0), actions: [.key(.char("/")), .key(.char("f"))],
                                          counts: &counts)
        #expect(failure.map(String.init(describing:)) == nil)
        #expect(counts.actions == 2)
    }

    /// Found by the full-disk property test (shrunk to: disk full, resize to 59x43, `f`): at 59
    /// columns the refused like's message had no room beside the search field and was not drawn.
    @Test func testARefusedLikeIsSaidEvenWhenItsMessageHasNoRoomBesideTheField() throws {
        for cols in [59, 40, 30] {
            var counts = Exploration.Counts()
            let failure = try Exploration.run(Exploration.Setup(code: 6),
                                              actions: [.disk(full: true), .resize(Size(cols: cols, rows: 43)), .key(.char("f"))],
                                              counts: &counts)
            #expect(failure.map(String.init(describing:)) == nil, "\(cols) columns")
        }
    }

    @Test func testTheInvariantsNoticeAFrameLargerThanTheTerminal() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]), size: Size(cols: 50, rows: 12))
        #expect(Invariants.check(harness, english: true) == [])
        harness.terminal.size = Size(cols: 30, rows: 5) // the terminal shrank and nobody told the app
        #expect(!Invariants.check(harness, english: true).isEmpty)
    }

    /// ChildOfWeather's bug: toggling one row redrew others, and a full redraw lost the toggle's
    /// feedback. A like and a wishlist mark each change their own row and the status bar, which says
    /// what was done, nothing else.
    @Test func testTogglingALikeOrAWishlistMarkChangesOnlyThatRow() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        let statusBar = harness.size.rows - 1
        harness.press(.char("/"))
        harness.type("seoul")
        harness.press(.down, .down, .down)
        let before = harness.frame.lines()
        harness.press(.char("f"))
        let row = try #require(before.firstIndex { $0.hasPrefix("›") })
        #expect(harness.frame.lines()[row].hasPrefix("›*"), "\(harness.screen)")
        #expect(harness.changedRows == [row, statusBar], "only the liked row and the status bar were redrawn:\n\(harness.screen)")
        #expect(harness.frame.lines()[statusBar].contains("Seoul liked · z undo"), "\(harness.screen)")
        harness.press(.char("f"))
        #expect(harness.changedRows == [row, statusBar])
        #expect(Array(harness.frame.lines().prefix(statusBar)) == Array(before.prefix(statusBar)), "unliked, the screen is as it was")

        harness.press(.char("5"), .char("/"))
        harness.type("heat")
        harness.press(.enter, .down)
        let list = harness.frame.lines()
        let film = try #require(list.firstIndex { $0.hasPrefix("›") })
        harness.press(.char("w"))
        let changed = harness.changedRows
        #expect(harness.frame.lines()[film].contains("♥"), "\(harness.screen)")
        #expect(changed == [film, statusBar], "the film's row and the status bar, nothing else:\n\(harness.screen)")
        let added = harness.screen.components(separatedBy: "Added").count - 1
        #expect(added == 1, "the toggle's feedback is on screen once, on the status bar:\n\(harness.screen)")
    }
}
