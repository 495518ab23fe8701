import Foundation
import Testing
@testable import AppExploration
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// The search fields of the Cities and Movies tabs behave like fzf's, through the real app: Esc
/// clears the query and leaves the field in one key, Enter on a query with one result opens it.
@Suite @MainActor struct SearchFieldTests {
    private let temporary = TemporaryDirectories()

    @Test func escClearsTheQueryAndLeavesTheFieldOnCitiesAndMovies() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        harness.press(.char("/"))
        harness.type("busan")
        #expect(harness.frame.lines()[1].hasPrefix("Search: busan"), "\(harness.screen)")
        harness.press(.escape)
        #expect(harness.frame.lines()[1].contains("press / to search"), "the query is cleared:\n\(harness.screen)")
        harness.press(.char("j"))
        #expect(harness.frame.lines()[1].contains("press / to search"), "j moves in the list, it is not text:\n\(harness.screen)")
        #expect(harness.frame.lines()[4].hasPrefix("›"), "the selection moved down a row:\n\(harness.screen)")

        harness.press(.char("5"), .char("/"))
        harness.type("heat")
        harness.press(.escape)
        #expect(harness.frame.lines()[1].contains("press / to search"), "\(harness.screen)")
        harness.press(.char("w"))
        #expect(harness.screen.contains("to the wishlist · z undo"), "w is a command again:\n\(harness.screen)")
    }

    @Test func enterOnASingleResultOpensIt() throws {
        let harness = try AppHarness(environment: temporary.isolated([:]))
        harness.press(.char("/"))
        harness.type("s")
        harness.press(.enter)
        #expect(harness.frame.lines()[1].hasPrefix("Search: s"), "many cities: Enter goes to them:\n\(harness.screen)")
        harness.press(.char("/"), .backspace)
        harness.type("busan")
        harness.press(.enter)
        #expect(harness.frame.lines()[1].contains("Busan · South Korea"), "the city's detail:\n\(harness.screen)")

        harness.press(.char("5"), .char("/"))
        harness.type("skyfall")
        harness.press(.enter)
        #expect(harness.frame.lines()[1].hasPrefix("Skyfall"), "the film's detail:\n\(harness.screen)")
    }
}
