import Foundation
import Synchronization
import Testing
import AppExploration
import NimbusTerminal
import NimbusUI
import TestSupport
@testable import NimbusApp

/// The README's key tables against the bindings: walks every tab in the states a user reaches (the
/// list, its search field, a screen opened from it, the question or picker a key opens) and fails
/// where a key works but the README's tables for that tab do not name it, or the tables name a key
/// that nothing binds there. The README is read as a user reads it: the first column of each table.
@Suite @MainActor struct ReadmeKeysTests {
    @Test func testTheKeyTablesNameEveryBoundKeyAndNoOther() throws {
        try compare()
    }

    /// The README's sections of key tables, and the tabs (1-based) whose keys each one describes.
    private static let sections: [(heading: String, tabs: [Int])] = [
        ("## Keys", [1, 2, 3, 4, 5, 6]),
        ("### Today tab", [2]),
        ("### Quakes tab", [4]),
        ("### Movies and Wishlist tabs", [5, 6]),
    ]

    /// Keys the app handles before any binding, in every scope (the help lists them apart).
    private static let beforeBindings: Set<String> = ["Ctrl-C", "Ctrl-L", "F12"]

    private func compare() throws {
        let readme = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let documented = Self.keyTables(readme)
        #expect(Set(documented.keys) == Set(Self.sections.map(\.heading)), "the README's key sections")

        let bound = try boundKeys()
        for (tab, keys) in bound.sorted(by: { $0.key < $1.key }) {
            let sections = Self.sections.filter { $0.tabs.contains(tab) }.map(\.heading)
            let named = sections.reduce(into: Set<String>()) { $0.formUnion(documented[$1] ?? []) }
            for key in keys.sorted() where !named.contains(key) {
                Issue.record("tab \(tab): \(key) is bound but the README's tables (\(sections.joined(separator: ", "))) do not name it")
            }
        }
        for (heading, tabs) in Self.sections {
            let works = tabs.reduce(into: Self.beforeBindings) { $0.formUnion(bound[$1] ?? []) }
            for key in (documented[heading] ?? []).sorted() where !works.contains(key) {
                Issue.record("\(heading): the README names \(key), which nothing binds on tab \(tabs.map(String.init).joined(separator: ", "))")
            }
        }
    }

    /// The keys bound on each tab, in every state the walk reaches, written as the README writes them.
    /// The network serves the tapes' fixtures: Seattle's two NWS warnings (so its screen binds `a`;
    /// the clock is then the warnings' day) and the earthquake feed (so the Quakes list has events to
    /// open; the clock is then the feed's day). A film is opened first, so the Movies list and Today
    /// have a recently viewed strip.
    private func boundKeys() throws -> [Int: Set<String>] {
        let (environment, home) = AppHarness.sandbox(["NIMBUS_LANG": "en", "TERM": "xterm-256color"])
        defer { try? FileManager.default.removeItem(at: home) }
        let fixtures = Self.repositoryRoot.appendingPathComponent("Tests/Tapes/fixtures")
        let scheduler = DispatchQueue.test
        let network = TapeHTTPClient(clock: scheduler)
        for (path, file) in [("/v1/forecast", "open-meteo-seoul.json"), ("/v1/air-quality", "open-meteo-air-seoul.json"),
                             ("/alerts/active", "warnings/nws-active.json")] {
            network.serve(path, body: try Data(contentsOf: fixtures.appendingPathComponent(file)))
        }
        // The feed takes a second, so the walk sees the list while it loads (`Esc` stops it).
        network.serve("/earthquakes/feed/v1.0/summary/2.5_day.geojson", answer: .init(
            headers: ["content-type": "application/json"],
            body: try Data(contentsOf: fixtures.appendingPathComponent("usgs-2.5_day.geojson")), delay: 1))
        let clock = WallClock(ISO8601DateFormatter().date(from: "2026-01-16T03:30:00Z")!)
        let harness = try AppHarness(environment: environment, size: Size(cols: 120, rows: 40), scheduler: scheduler,
                                     httpClient: network, now: { clock.now })
        var bound: [Int: Set<String>] = [:]
        func collect(_ tab: Int) {
            harness.settle()
            let app = harness.app
            guard app.overlays.isEmpty, let screen = app.navigator.top, !screen.capturesText else { return }
            let bindings = app.fallbacks(for: screen.bindings) + screen.bindings + app.commands
            bound[tab, default: []].formUnion(bindings.flatMap(\.keys).map(Self.readmeName))
        }
        harness.press(.char("1"), .char("/"))
        harness.type("seattle")
        harness.press(.enter, .enter)
        #expect(harness.wait(for: "Winter Storm Warning"), "Seattle's warning:\n\(harness.screen)")
        collect(1)
        harness.press(.escape, .escape)
        harness.press(.char("5"))
        #expect(harness.wait(for: "Most popular"), "the Movies list:\n\(harness.screen)")
        harness.press(.enter, .escape)
        clock.now = ISO8601DateFormatter().date(from: "2026-06-20T23:30:00Z")!
        harness.press(.char("4"))
        collect(4)
        #expect(harness.wait(for: "Gyeongju"), "the Quakes list shows the served feed:\n\(harness.screen)")
        // From each tab's first screen: the keys that open a picker or a question, move between
        // sections or into a strip, or open the selected row.
        let paths: [[Key]] = [[], [.char("g")], [.char("p")], [.char("D")], [.char("]")], [.char("]"), .char("]")],
                              [.char("]"), .char("]"), .char("]")], [.up], [.enter]]
        for tab in 1...6 {
            for path in paths {
                harness.press(.char(Character(String(tab))))
                for key in path { harness.press(key) }
                collect(tab)
                harness.press(.escape, .escape)
            }
        }
        return bound
    }

    /// A bound key as the README's tables write it: tab digits as themselves, Shift-Tab spelt out.
    static func readmeName(_ key: Key) -> String {
        key == .backTab ? "Shift-Tab" : Binding.name(key)
    }

    /// The keys named in the first column of every table of each key section, by the section's
    /// heading: each backquoted text split at spaces, and a range `1`–`6` as its six digits. The
    /// mouse's table (headed "mouse") names no keys.
    static func keyTables(_ readme: String) -> [String: Set<String>] {
        var tables: [String: Set<String>] = [:]
        var section: String?
        var mouseTable = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("#") {
                section = sections.map(\.heading).first { line == $0 }
                mouseTable = false
                continue
            }
            guard let heading = section, line.hasPrefix("|") else {
                mouseTable = false // a table ends at its first line that is not a row
                continue
            }
            let first = line.dropFirst().split(separator: "|", maxSplits: 1).first.map(String.init) ?? ""
            if first.trimmingCharacters(in: .whitespaces).lowercased() == "mouse" { mouseTable = true }
            if mouseTable || first.allSatisfy({ "-: ".contains($0) }) { continue }
            tables[heading, default: []].formUnion(keys(inFirstColumn: first))
        }
        return tables
    }

    static func keys(inFirstColumn column: String) -> Set<String> {
        let spans = column.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        var keys = Set(spans.flatMap { $0.split(separator: " ").map(String.init) })
        if let range = column.range(of: #"`(\d)`–`(\d)`"#, options: .regularExpression) {
            let digits = column[range].compactMap(\.wholeNumberValue)
            if digits.count == 2, digits[0] <= digits[1] { keys.formUnion((digits[0]...digits[1]).map(String.init)) }
        }
        return keys
    }

    /// The wall clock the app reads, set by the walk.
    private final class WallClock: Sendable {
        private let date: Mutex<Date>
        init(_ date: Date) { self.date = Mutex(date) }
        var now: Date {
            get { date.withLock { $0 } }
            set { date.withLock { $0 = newValue } }
        }
    }

    private static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The parsing, on a table of its own.
    @Test func testTheFirstColumnsKeysAreRead() {
        let readme = """
        ## Keys

        | key | does |
        |---|---|
        | `1`–`3`, `Tab`, `Shift-Tab` | tabs |
        | `PgUp PgDn`, `g G` | page |
        | `Esc` (in the field) | clear, `q` here is text |

        | mouse | does |
        |---|---|
        | `click` | select |

        ### Today tab

        | Key | Action |
        |---|---|
        | `[` `]` | sections |

        ## Environment

        | `NIMBUS_LANG` | language |
        """
        #expect(Self.keyTables(readme) == [
            "## Keys": ["1", "2", "3", "Tab", "Shift-Tab", "PgUp", "PgDn", "g", "G", "Esc"],
            "### Today tab": ["[", "]"],
        ])
    }
}
