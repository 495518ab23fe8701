import Foundation
import XCTest
import TestSupport
@testable import NimbusApp

/// The completion scripts `nimbus --generate-completion-script` prints (the ones scripts/install.sh
/// installs), driven in the shells themselves: bash through its completion function with
/// `COMP_WORDS` set as readline sets them; zsh and fish typed into in tmux and Tab pressed, as a
/// user does (fish's `complete -C` cannot ask for the cursor outside an interactive shell, which
/// the custom completions need). Each checks values of options, city names from the catalogue and
/// tape files, and that a value is offered where one is due, not the commands.
final class ShellCompletionTests: XCTestCase {
    /// The `nimbus` that `swift build` put beside the test bundle.
    private var binaryFolder: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    private func script(_ shell: String) throws -> String {
        let process = Process()
        process.executableURL = binaryFolder.appendingPathComponent("nimbus")
        process.arguments = ["--generate-completion-script", shell]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self)
    }

    /// A folder removed after the test.
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Tapes to complete: `a.tape`, `b.tape`, a text file and a folder.
    private func tapeFolder(in root: URL) throws -> URL {
        let tapes = root.appendingPathComponent("tapes")
        try FileManager.default.createDirectory(at: tapes.appendingPathComponent("more"), withIntermediateDirectories: true)
        for name in ["a.tape", "b.tape", "notes.txt"] { try Data().write(to: tapes.appendingPathComponent(name)) }
        return tapes
    }

    private func environment(home: URL) -> [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
         "XDG_CACHE_HOME": home.appendingPathComponent("cache").path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
         "LANG": "C.UTF-8", "NIMBUS_LANG": "en", "TERM": "xterm-256color",
         "PATH": binaryFolder.path + ":/usr/bin:/bin"]
    }

    private func which(_ program: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + program) }
    }

    // MARK: bash

    func testBash() throws {
        let root = try folder()
        let file = root.appendingPathComponent("nimbus.bash")
        try script("bash").write(to: file, atomically: true, encoding: .utf8)
        let tapes = try tapeFolder(in: root)
        // One line per case: the candidates bash would offer, joined by "|".
        let cases: [(words: [String], expected: [String], exact: Bool)] = [
            (["nimbus", "--units", ""], ["metric", "imperial", "auto"], true),
            (["nimbus", "--tier", ""], ["standard", "large"], true),
            (["nimbus", "--theme", ""], ["dark", "light", "auto"], true),
            (["nimbus", "weather", "--units", ""], ["metric", "imperial", "auto"], true),
            (["nimbus", "map", "lisbon", "--style", ""], ["braille", "blocks"], true),
            (["nimbus", "map", "lisbon", "--zoom", ""], ["world", "country", "city"] + (0...12).map(String.init), true),
            (["nimbus", "wishlist", "export", "--format", ""], ["csv", "json"], true),
            (["nimbus", "--lang", ""], ["en", "ko", "ja"], true),
            (["nimbus", "weather", "--lang", ""], ["en", "ko", "ja"], true),
            (["nimbus", "search", "--tier", ""], ["standard", "large"], true),
            (["nimbus", "weather", "--lang", "ko", "seou"], ["seoul"], false),
            (["nimbus", "weather", "seou"], ["seoul"], false),
            (["nimbus", "weather", "sao"], ["sao paulo"], false),
            (["nimbus", "map", "Lisb"], ["Lisbon"], false),
            (["nimbus", "search", "서"], ["서울"], false),
            (["nimbus", "weather", "new", "yo"], ["york city"], false),
            (["nimbus", "tape", tapes.path + "/"], [tapes.path + "/a.tape", tapes.path + "/b.tape", tapes.path + "/more"], true),
            (["nimbus", ""], ["tape", "map", "weather", "search", "movies", "wishlist", "--units", "--no-mouse"], false),
        ]
        var lines = ["source '\(file.path)'", "complete -p nimbus",
                     """
                     comp() {
                       COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                       _nimbus nimbus "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                       local IFS='|'; echo "${COMPREPLY[*]}"
                     }
                     """]
        for c in cases { lines.append("comp " + c.words.map { "'\($0)'" }.joined(separator: " ")) }
        // Where a value is due, the commands are not offered.
        lines.append("comp nimbus --units ''")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", lines.joined(separator: "\n")]
        process.environment = environment(home: root)
        process.currentDirectoryURL = root
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let results = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(results.first, "complete -o filenames -F _nimbus nimbus", "complete -p nimbus")
        for (i, c) in cases.enumerated() {
            let got = results.count > i + 1 ? results[i + 1].split(separator: "|").map(String.init) : []
            if c.exact {
                XCTAssertEqual(Set(got), Set(c.expected), "bash: \(c.words.joined(separator: " "))<Tab>")
            } else {
                for want in c.expected { XCTAssertTrue(got.contains(want), "bash: \(c.words.joined(separator: " "))<Tab> lacks \(want): \(got)") }
            }
        }
        let units = results.count > cases.count + 1 ? results[cases.count + 1] : ""
        XCTAssertFalse(units.contains("weather"), "nimbus --units <Tab> offers commands: \(units)")
        // The hidden `run` and the app's options are not offered inside the commands that do not use them.
        XCTAssertFalse(results[cases.count].split(separator: "|").contains("run"))
    }

    // MARK: zsh and fish, in tmux

    /// A shell in tmux on a socket of its own, started in `folder`.
    private final class Terminal {
        let socket = "nimbus-completion-\(UUID().uuidString.prefix(8))"
        let name = "c"

        init(command: String, folder: URL, environment: [String: String]) throws {
            let env = environment.map { "\($0.key)=\($0.value)" }.sorted()
            try tmux(["new-session", "-d", "-x", "160", "-y", "40", "-c", folder.path, "-s", name, "env", "-i"] + env + [command])
        }

        deinit { _ = try? tmux(["kill-server"]) }

        /// Runs tmux; its output only for `capture-pane`. The server that `new-session` starts gets
        /// none of this process's descriptors (Foundation waits for the end of one it inherits).
        @discardableResult
        func tmux(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            let closing = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec tmux "$@""#
            process.arguments = ["-c", closing, "tmux", "-L", socket] + arguments
            process.standardInput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard arguments.first == "capture-pane" else {
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                return ""
            }
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }

        var screen: String { (try? tmux(["capture-pane", "-p", "-t", name])) ?? "" }

        /// Waits up to `seconds` for `holds` on the screen.
        func wait(seconds: Int = 10, _ holds: (String) -> Bool) -> Bool {
            poll(timeout: TimeInterval(seconds), every: 0.1) { holds(screen) }
        }

        /// Clears the line, types `text` and presses Tab.
        func complete(_ text: String) throws {
            try tmux(["send-keys", "-t", name, "C-u"])
            try tmux(["send-keys", "-t", name, "-l", text])
            try tmux(["send-keys", "-t", name, "Tab"])
        }
    }

    /// What is typed, and what the screen must show after Tab (a completed line, or candidates).
    private static let typed: [(text: String, shows: [String])] = [
        ("nimbus --units ", ["metric", "imperial", "auto"]),
        ("nimbus map lisbon --style ", ["braille", "blocks"]),
        ("nimbus map lisbon --zoom ", ["country", "world", "12"]),
        ("nimbus weather seou", ["nimbus weather seoul"]),
        ("nimbus search 서", ["서울"]),
        ("nimbus wishlist export --format ", ["csv", "json"]),
        ("nimbus weather --lang ", ["en", "ko", "ja"]),
    ]

    private func drive(_ terminal: Terminal, prompt: String, tapes: URL) throws {
        XCTAssertTrue(terminal.wait { $0.contains(prompt) }, "the shell started:\n\(terminal.screen)")
        for (text, shows) in Self.typed {
            // The first Tab may only insert what the candidates share (zsh's "b" of braille and
            // blocks); the second lists them.
            try terminal.complete(text)
            if !terminal.wait(seconds: 4, { screen in shows.allSatisfy(screen.contains) }) {
                try terminal.tmux(["send-keys", "-t", terminal.name, "Tab"])
            }
            XCTAssertTrue(terminal.wait { screen in shows.allSatisfy(screen.contains) },
                          "\(text)<Tab> should show \(shows):\n\(terminal.screen)")
            if text == "nimbus --units " {
                XCTAssertFalse(terminal.screen.contains("weather"), "no commands after --units:\n\(terminal.screen)")
            }
            try terminal.tmux(["send-keys", "-t", terminal.name, "C-c"])
            // The interrupt flushes what is typed after it: Ctrl-L goes once the fresh prompt is there.
            func fresh(_ screen: String) -> Bool {
                screen.split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }?.trimmingCharacters(in: .whitespaces) == prompt
            }
            // A second Tab sent while a slow completion (an instrumented build) was still running
            // may complete the line after the interrupt: one more Ctrl-C then.
            if !terminal.wait(seconds: 4, fresh) {
                try terminal.tmux(["send-keys", "-t", terminal.name, "C-c"])
            }
            XCTAssertTrue(terminal.wait(fresh), "Ctrl-C gave a fresh prompt:\n\(terminal.screen)")
            try terminal.tmux(["send-keys", "-t", terminal.name, "C-l"])
        }
        try terminal.complete("nimbus tape " + tapes.path + "/")
        if !terminal.wait(seconds: 4, { $0.contains("a.tape") && $0.contains("b.tape") }) {
            try terminal.tmux(["send-keys", "-t", terminal.name, "Tab"])
        }
        XCTAssertTrue(terminal.wait { $0.contains("a.tape") && $0.contains("b.tape") }, "tape files:\n\(terminal.screen)")
        XCTAssertFalse(terminal.screen.contains("notes.txt"), "only tapes:\n\(terminal.screen)")
    }

    func testZsh() throws {
        guard which("zsh"), which("tmux") else { throw XCTSkip("zsh and tmux are needed (scripts/setup.sh installs them)") }
        let root = try folder()
        let functions = root.appendingPathComponent("functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        try script("zsh").write(to: functions.appendingPathComponent("_nimbus"), atomically: true, encoding: .utf8)
        try """
        fpath=('\(functions.path)' $fpath)
        autoload -U compinit && compinit -u
        PS1='zsh> '
        """.write(to: root.appendingPathComponent(".zshrc"), atomically: true, encoding: .utf8)
        let tapes = try tapeFolder(in: root)
        var env = environment(home: root)
        env["ZDOTDIR"] = root.path
        let terminal = try Terminal(command: "zsh", folder: root, environment: env)
        try drive(terminal, prompt: "zsh>", tapes: tapes)
    }

    func testFish() throws {
        guard which("fish"), which("tmux") else { throw XCTSkip("fish and tmux are needed (scripts/setup.sh installs them)") }
        let root = try folder()
        let completions = root.appendingPathComponent("fish/completions")
        try FileManager.default.createDirectory(at: completions, withIntermediateDirectories: true)
        try script("fish").write(to: completions.appendingPathComponent("nimbus.fish"), atomically: true, encoding: .utf8)
        try """
        function fish_prompt; echo 'fish> '; end
        function fish_greeting; end
        """.write(to: root.appendingPathComponent("fish/config.fish"), atomically: true, encoding: .utf8)
        let tapes = try tapeFolder(in: root)
        var env = environment(home: root)
        env["XDG_CONFIG_HOME"] = root.path
        let terminal = try Terminal(command: "fish", folder: root, environment: env)
        try drive(terminal, prompt: "fish>", tapes: tapes)
    }
}
