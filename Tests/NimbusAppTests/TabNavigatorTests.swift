import Foundation
import Testing
import NimbusTerminal
import NimbusUI
import NimbusPresentation
import TestSupport
@testable import NimbusApp

@Suite @MainActor struct TabNavigatorTests {
    private final class Blank: Screen {
        let name: String
        init(_ name: String) { self.name = name }
        func draw(_ painter: Painter, theme: Theme) {}
        func handle(_ key: Key) -> Bool { false }
        var capturesText: Bool { false }
    }

    @Test func testRootsAreMadeWhenATabIsFirstShownAndKeptAfter() {
        let navigator = TabNavigator()
        var made: [String] = []
        func tab(_ name: String) -> () -> Screen { { made.append(name); return Blank(name) } }
        #expect(navigator.addTab(title: .tabCities, root: tab("a")) == 0)
        #expect(navigator.addTab(title: .tabToday, root: tab("b")) == 1)
        #expect(navigator.addTab(title: .tabLiked, root: tab("c")) == 2)
        #expect(made == ["a"], "only the first tab is built at start")
        #expect((navigator.top as? Blank)?.name == "a")

        navigator.select(2)
        #expect(made == ["a", "c"])
        #expect((navigator.top as? Blank)?.name == "c")
        navigator.select(0)
        navigator.select(2)
        #expect(made == ["a", "c"], "a tab's root is made once")

        navigator.push(Blank("detail"), onTab: 1)
        #expect(made == ["a", "c", "b"], "pushing on a tab not yet shown puts its root under the pushed screen")
        navigator.select(1)
        #expect((navigator.top as? Blank)?.name == "detail")
        #expect(navigator.pop())
        #expect((navigator.top as? Blank)?.name == "b")
        #expect(!navigator.pop(), "the root stays")
    }

    @Test func testASourceIsAskedForOnlyWhileItsTabIsActive() {
        let navigator = TabNavigator()
        var asked = 0
        navigator.addTab(title: .tabCities, root: { Blank("a") })
        navigator.addTab(title: .tabToday, source: { asked += 1; return "B's source" }, root: { Blank("b") })
        #expect(navigator.activeSource == nil)
        #expect(asked == 0)
        navigator.select(1)
        #expect(navigator.activeSource == "B's source")
        #expect(asked == 1)
    }
}
