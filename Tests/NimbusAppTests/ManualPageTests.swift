import Foundation
import Testing
import AppExploration
import NimbusTerminal
import NimbusUI
import TestSupport
@testable import NimbusApp

/// docs/nimbus.1 is what `ManualPage` makes now from the commands, `CommandLineDocs` and the key
/// bindings (NIMBUS_RECORD=1 or scripts/generate-manual.sh writes it); read by `man -l` in a UTF-8
/// locale it keeps every character, and it has the sections a man page is expected to have.
@Suite @MainActor struct ManualPageTests {
    private let temporary = TemporaryDirectories()

    private nonisolated static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/nimbus.1")

    /// The keys of every tab (its list, and the screen Enter opens) and the app's, from the same
    /// bindings the help and the status bar are made from, in English.
    private func keys() throws -> [ManualPage.Keys] {
        let harness = try AppHarness(environment: temporary.isolated(["NIMBUS_LANG": "en"]), size: Size(cols: 120, rows: 40))
        harness.settle()
        let app = harness.app
        var sections: [ManualPage.Keys] = []
        let everywhere = app.commands.map { $0.keyHint(in: app.l10n) }
            + [KeyHint("Ctrl-C", app.l10n[.helpKeyCtrlc]), KeyHint("Ctrl-L", app.l10n[.helpKeyRedraw]),
               KeyHint("F12", app.l10n[.helpKeyDebug])]
        sections.append(.init(title: "Everywhere", entries: everywhere.map { ($0.key, $0.label) }))
        var seen: [String] = []
        for tab in 1...6 {
            harness.press(.char(Character(String(tab))))
            harness.settle()
            let title = app.l10n[app.navigator.tabs[tab - 1].title]
            let own = app.navigator.top?.bindings ?? []
            sections.append(.init(title: title, entries: own.map { $0.keyHint(in: app.l10n) }.map { ($0.key, $0.label) }))
            harness.press(.enter)
            harness.settle()
            if (app.navigator.tabs[tab - 1].stack.count) > 1 {
                let opened = app.navigator.top?.bindings ?? []
                let hints = (app.fallbacks(for: opened) + opened).map { $0.keyHint(in: app.l10n) }
                sections.append(.init(title: title + ", opened", entries: hints.map { ($0.key, $0.label) }))
                harness.press(.escape)
                harness.settle()
            }
            seen.append(title)
        }
        #expect(seen.count == 6)
        return sections
    }

    @Test func testTheCommittedPageIsTheOneTheCommandsMake() throws {
        let committed = try String(contentsOf: Self.page, encoding: .utf8)
        // The date is kept from the committed page: the page changes when what it says does.
        let date = committed.split(separator: "\n").first { $0.hasPrefix(".Dd ") }.map { String($0.dropFirst(4)) }
        let made = try ManualPage.render(date: date ?? "January 1, 2026", keys: keys())
        if ProcessInfo.processInfo.environment["NIMBUS_RECORD"] == "1" {
            let today = DateFormatter()
            today.locale = Locale(identifier: "en_US_POSIX")
            today.dateFormat = "MMMM d, yyyy"
            let fresh = made == committed ? made : try ManualPage.render(date: today.string(from: Date()), keys: keys())
            try Data(fresh.utf8).write(to: Self.page)
            return
        }
        #expect(made == committed, "docs/nimbus.1 is out of date: run scripts/generate-manual.sh")
        #expect(made.allSatisfy { $0.isASCII }, "every other character is an escape")
    }

    /// The page as a reader sees it: `man -l` in C.UTF-8 keeps the Hangul, the accents and ≥; every
    /// section is there; each shared option is described once; mandoc's lint finds nothing.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "man is not installed"))
    func testManReadsItWithEveryCharacterAndSection() throws {
        let text = try run("/usr/bin/man", ["-l", Self.page.path], environment: ["LANG": "C.UTF-8", "MANWIDTH": "100", "MAN_KEEP_FORMATTING": ""])
        for part in ["서울", "são paulo", "≥ 15,000", "→10km/h", "°C", "⛅"] {
            #expect(text.contains(part), "man -l lost \(part)")
        }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "KEYS", "ENVIRONMENT", "FILES",
                        "EXIT STATUS", "EXAMPLES"] {
            #expect(text.contains("\n" + section + "\n"), "no \(section) section")
        }
        for variable in CommandLineDocs.environmentNames {
            #expect(text.contains(variable), "ENVIRONMENT lacks \(variable)")
        }
        // Each option the commands share is described once (its first words appear once).
        for option in ["--tier tier", "--units units", "--lang lang", "--catalog path", "--no-mouse", "-h, --help", "--version"] {
            let count = text.components(separatedBy: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix(option) }.count
            #expect(count == 1, "\(option) is described \(count) times")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc") {
            let lint = try run("/usr/bin/mandoc", ["-T", "lint", "-W", "style", Self.page.path], environment: [:], status: nil)
            // mandoc's note about the machine's own database of pages (SEE ALSO's tmux(1)) is not about this page.
            let problems = lint.split(separator: "\n").filter { !$0.contains("mandoc.db") }
            #expect(problems == [], "mandoc -T lint -W style")
        }
    }

    /// Every environment variable the program's sources read is in the man page's ENVIRONMENT
    /// (`CommandLineDocs.environment`): names read as `environment["X"]`, `getenv("X")` or written
    /// as a `"NIMBUS_…"`, `"XDG_…"` or `"LC_…"` literal, in every target the `nimbus` binary links.
    @Test func testEveryVariableTheSourcesReadIsDocumented() throws {
        let sources = Self.page.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let shipped = ["NimbusApp", "NimbusData", "NimbusDomain", "NimbusPresentation", "NimbusTerminal", "NimbusUI",
                       "NimbusCurses", "NimbusLoop", "NimbusText", "NimbusBuildInfo", "nimbus"]
        let pattern = try NSRegularExpression(pattern: #"(?:environment|env)\["([A-Z_]+)"\]|getenv\("([A-Z_]+)"\)|"((?:NIMBUS|XDG|LC)_[A-Z_]+)""#)
        var read = Set<String>()
        for target in shipped {
            let folder = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    for group in 1...3 {
                        if let range = Range(match.range(at: group), in: text) { read.insert(String(text[range])) }
                    }
                }
            }
        }
        #expect(read.count > 20, "the scan found the variables")
        let documented = Set(CommandLineDocs.environmentNames)
        #expect(read.subtracting(documented).sorted() == [], "read but not in the man page's ENVIRONMENT")
    }

    private nonisolated func run(_ program: String, _ arguments: [String], environment: [String: String],
                                 status: Int32? = 0) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { _, b in b }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if let status { #expect(process.terminationStatus == status, "\(program) \(arguments)") }
        return String(decoding: data, as: UTF8.self)
    }
}
