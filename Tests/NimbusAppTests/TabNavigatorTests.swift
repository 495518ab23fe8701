import XCTest
import NimbusTerminal
import NimbusUI
import TestSupport
@testable import NimbusApp

@MainActor
final class TabNavigatorTests: XCTestCase {
    private final class Blank: Screen {
        let name: String
        init(_ name: String) { self.name = name }
        func draw(_ painter: Painter, theme: Theme) {}
        func handle(_ key: Key) -> Bool { false }
        var capturesText: Bool { false }
    }

    nonisolated func testRootsAreMadeWhenATabIsFirstShownAndKeptAfter() {
        onMain(self) { $0.mainActorTestRootsAreMadeWhenATabIsFirstShownAndKeptAfter() }
    }

    private func mainActorTestRootsAreMadeWhenATabIsFirstShownAndKeptAfter() {
        let navigator = TabNavigator()
        var made: [String] = []
        func tab(_ name: String) -> () -> Screen { { made.append(name); return Blank(name) } }
        XCTAssertEqual(navigator.addTab(title: "A", root: tab("a")), 0)
        XCTAssertEqual(navigator.addTab(title: "B", root: tab("b")), 1)
        XCTAssertEqual(navigator.addTab(title: "C", root: tab("c")), 2)
        XCTAssertEqual(made, ["a"], "only the first tab is built at start")
        XCTAssertEqual((navigator.top as? Blank)?.name, "a")

        navigator.select(2)
        XCTAssertEqual(made, ["a", "c"])
        XCTAssertEqual((navigator.top as? Blank)?.name, "c")
        navigator.select(0)
        navigator.select(2)
        XCTAssertEqual(made, ["a", "c"], "a tab's root is made once")

        navigator.push(Blank("detail"), onTab: 1)
        XCTAssertEqual(made, ["a", "c", "b"], "pushing on a tab not yet shown puts its root under the pushed screen")
        navigator.select(1)
        XCTAssertEqual((navigator.top as? Blank)?.name, "detail")
        XCTAssertTrue(navigator.pop())
        XCTAssertEqual((navigator.top as? Blank)?.name, "b")
        XCTAssertFalse(navigator.pop(), "the root stays")
    }

    nonisolated func testASourceIsAskedForOnlyWhileItsTabIsActive() {
        onMain(self) { $0.mainActorTestASourceIsAskedForOnlyWhileItsTabIsActive() }
    }

    private func mainActorTestASourceIsAskedForOnlyWhileItsTabIsActive() {
        let navigator = TabNavigator()
        var asked = 0
        navigator.addTab(title: "A", root: { Blank("a") })
        navigator.addTab(title: "B", source: { asked += 1; return "B's source" }, root: { Blank("b") })
        XCTAssertNil(navigator.activeSource)
        XCTAssertEqual(asked, 0)
        navigator.select(1)
        XCTAssertEqual(navigator.activeSource, "B's source")
        XCTAssertEqual(asked, 1)
    }
}
