import ArgumentParser
import Foundation

/// docs/nimbus.1, the man page, made from what `--help` is made from: the commands' own
/// definitions (ArgumentParser's description of them), `CommandLineDocs` (environment, files, exit
/// status, examples) and the app's key bindings. Each option is described once: those several
/// commands share under OPTIONS, with the commands they apply to; the rest under their command.
///
/// The page is plain ASCII mdoc: every other character is written as `\[uXXXX]`, which groff and
/// mandoc both draw as the character in a UTF-8 locale, so no man program loses Hangul or accents.
enum ManualPage {
    /// One section of keys: where they work, and each key with what it does.
    struct Keys: Equatable {
        let title: String
        let entries: [(key: String, does: String)]

        static func == (a: Keys, b: Keys) -> Bool {
            a.title == b.title && a.entries.map(\.key) == b.entries.map(\.key) && a.entries.map(\.does) == b.entries.map(\.does)
        }
    }

    // MARK: ArgumentParser's description of the commands (`--experimental-dump-help`)

    struct Tool: Decodable { let command: Command }

    struct Command: Decodable {
        let commandName: String
        let abstract: String?
        let discussion: String?
        let shouldDisplay: Bool?
        let subcommands: [Command]?
        let arguments: [Argument]?
    }

    struct Argument: Decodable {
        struct Name: Decodable, Hashable { let kind: String; let name: String }
        let kind: String
        let shouldDisplay: Bool
        let names: [Name]?
        let valueName: String?
        let defaultValue: String?
        let allValues: [String]?
        let abstract: String?
        let discussion: String?
        let isOptional: Bool
        let isRepeating: Bool

        /// What makes two commands' options the same option: its names and what it says.
        var identity: String { (names ?? []).map { $0.kind + $0.name }.joined(separator: ",") + "|" + (abstract ?? "") }
    }

    /// The commands as ArgumentParser describes them.
    static func tool() throws -> Command {
        try JSONDecoder().decode(Tool.self, from: Data(NimbusCommand._dumpHelp().utf8)).command
    }

    // MARK: The page

    /// The whole page, dated `date` ("December 2, 2026"), with `keys` for its KEYS section.
    static func render(date: String, keys: [Keys]) throws -> String {
        let root = try tool()
        // Every command with its path ("wishlist export"), the root first.
        var commands: [(path: [String], command: Command)] = []
        func walk(_ command: Command, _ path: [String]) {
            guard command.shouldDisplay ?? true, command.commandName != "help" else { return }
            commands.append((path, command))
            for sub in command.subcommands ?? [] { walk(sub, path + [sub.commandName]) }
        }
        walk(root, [])
        // Options shown by more than one command are shared: described once, under OPTIONS.
        var users: [String: [String]] = [:]
        var firstSeen: [(String, Argument)] = []
        for (path, command) in commands {
            for argument in command.arguments ?? [] where argument.kind != "positional" && argument.shouldDisplay {
                if users[argument.identity] == nil { firstSeen.append((argument.identity, argument)) }
                users[argument.identity, default: []].append(path.isEmpty ? "nimbus" : path.joined(separator: " "))
            }
        }
        let shared = Set(users.filter { $0.value.count > 1 || $0.value == ["nimbus"] }.keys)

        var out: [String] = [
            ".\\\" docs/nimbus.1: made by scripts/generate-manual.sh from the commands' definitions; edit those, not this.",
            ".Dd \(date)", ".Dt NIMBUS 1", ".Os",
            ".Sh NAME", ".Nm nimbus", ".Nd " + escape(root.abstract ?? "").trimmingCharacters(in: CharacterSet(charactersIn: ".")),
            ".Sh SYNOPSIS", ".Nm", ".Op Ar options",
            ".Nm", ".Ar command", ".Op Ar options", ".Op Ar arguments",
            ".Sh DESCRIPTION",
        ]
        out += paragraphs(CommandLineHelp.rootDescription)

        out += [".Sh COMMANDS", ".Bl -tag -width Ds"]
        for (path, command) in commands where !path.isEmpty && !(command.subcommands ?? []).contains(where: { $0.shouldDisplay ?? true }) {
            let arguments = command.arguments ?? []
            let positionals = arguments.filter { $0.kind == "positional" && $0.shouldDisplay }
            var head = ".It Nm " + path.map { "Cm " + $0 }.joined(separator: " ")
            let helpOrVersion = { (a: Argument) in a.names?.contains { ["help", "version"].contains($0.name) } == true }
            if arguments.contains(where: { $0.kind != "positional" && $0.shouldDisplay && !helpOrVersion($0) }) {
                head += " Oo Ar options Oc"
            }
            for p in positionals {
                let name = "Ar " + (p.valueName ?? "arg") + (p.isRepeating ? " No ..." : "")
                head += p.isOptional ? " Op " + name : " " + name
            }
            out.append(head)
            out += paragraphs(command.abstract ?? "")
            if let discussion = command.discussion, !discussion.isEmpty { out.append(".Pp"); out += paragraphs(discussion) }
            let own = arguments.filter { $0.shouldDisplay && ($0.kind == "positional" || !shared.contains($0.identity)) }
            if !own.isEmpty {
                out += [".Bl -tag -width Ds"]
                for argument in own { out += item(argument) }
                out.append(".El")
            }
            let common = arguments.filter { $0.kind != "positional" && $0.shouldDisplay && shared.contains($0.identity) }
                .compactMap { $0.names?.first { $0.kind == "long" }.map { "--" + $0.name } }
                .filter { $0 != "--help" && $0 != "--version" }
            if !common.isEmpty {
                out += [".Pp", "Also " + common.map { "\\fB" + $0 + "\\fR" }.joined(separator: ", ") + ": see", ".Sx OPTIONS ."]
            }
        }
        out.append(".El")

        out += [".Sh OPTIONS", "Without a command,", ".Nm", "opens the app and takes every option below;",
                "each command takes those that name it."]
        out.append(".Bl -tag -width Ds")
        for (identity, argument) in firstSeen where shared.contains(identity) {
            out += item(argument)
            let who = users[identity] ?? []
            if argument.names?.contains(where: { ["help", "version"].contains($0.name) }) == true {
                continue
            }
            out += [".Pp", "For: " + escape(who.joined(separator: ", ")) + "."]
        }
        out.append(".El")

        out += [".Sh KEYS", "In the app; press", ".Sy \\&?", "on any screen for the keys it takes there", "(the help is made from the same lists)."]
        for section in keys {
            out += [".Ss " + escape(section.title), ".Bl -tag -width Ds -compact"]
            for entry in section.entries { out += [".It Sy " + macroArgument(entry.key), escape(entry.does)] }
            out.append(".El")
        }

        out += [".Sh ENVIRONMENT", ".Bl -tag -width Ds"]
        for entry in CommandLineDocs.environment {
            out.append(".It " + entry.names.map { "Ev " + $0 }.joined(separator: " , "))
            out += paragraphs(entry.text)
        }
        out.append(".El")
        out += [".Sh FILES", ".Bl -tag -width Ds"]
        for entry in CommandLineDocs.files { out += [".It Pa " + macroArgument(entry.names[0])] + paragraphs(entry.text) }
        out.append(".El")
        out += [".Sh EXIT STATUS", ".Bl -tag -width Ds"]
        for entry in CommandLineDocs.exitStatus { out += [".It " + entry.names[0]] + paragraphs(entry.text) }
        out.append(".El")
        out += [".Sh EXAMPLES"]
        for (i, entry) in CommandLineDocs.examples.enumerated() {
            if i > 0 { out.append(".Pp") }
            out += paragraphs(entry.text)
            out += [".Bd -literal -offset indent", escapeLine(entry.names[0]), ".Ed"]
        }
        out += [".Sh SEE ALSO", ".Xr tmux 1", ".Pp", "wttr.in's one-line format: https://github.com/chubin/wttr.in#one-line-output"]
        return out.joined(separator: "\n") + "\n"
    }

    /// One option or argument as a list item: its names and value, then what it does, its values and default.
    static func item(_ argument: Argument) -> [String] {
        var head: String
        if argument.kind == "positional" {
            head = ".It Ar " + macroArgument(argument.valueName ?? "arg") + (argument.isRepeating ? " No ..." : "")
        } else {
            let names = (argument.names ?? []).sorted { $0.kind == "short" && $1.kind != "short" }
            head = ".It " + names.map { "Fl " + ($0.kind == "short" ? $0.name : "-" + $0.name) }.joined(separator: " , ")
            if argument.kind == "option" { head += " Ar " + macroArgument(argument.valueName ?? "value") }
        }
        var text = argument.abstract ?? ""
        if let values = argument.allValues, !values.isEmpty, !text.contains(values.joined(separator: ", ")) {
            text += " Values: " + values.joined(separator: ", ") + "."
        }
        if let value = argument.defaultValue, !value.isEmpty { text += " Default: " + value + "." }
        var lines = [head] + paragraphs(text)
        if let discussion = argument.discussion, !discussion.isEmpty { lines += [".Pp"] + paragraphs(discussion) }
        return lines
    }

    // MARK: Text

    /// Text as mdoc: paragraphs split at blank lines; lines indented by two spaces (tables) kept as
    /// they are, in a literal display.
    static func paragraphs(_ text: String) -> [String] {
        var out: [String] = []
        var literal: [String] = []
        func flushLiteral() {
            guard !literal.isEmpty else { return }
            out += [".Bd -literal -offset indent"] + literal.map { escapeLine(String($0.dropFirst(2))) } + [".Ed"]
            literal = []
        }
        var blank = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("  ") {
                literal.append(line)
                continue
            }
            flushLiteral()
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                blank = true
                continue
            }
            if blank, !out.isEmpty { out.append(".Pp") }
            blank = false
            // One sentence a line, as mdoc wants (a full stop then a space ends one).
            out += line.replacingOccurrences(of: #"(?<!e\.g)\. "#, with: ".\n", options: .regularExpression)
                .components(separatedBy: "\n").flatMap(wrapped)
        }
        flushLiteral()
        return out
    }

    /// A text line escaped and cut at spaces into lines of at most 80 bytes.
    static func wrapped(_ line: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: true) {
            let piece = escape(String(word))
            if !current.isEmpty, current.utf8.count + 1 + piece.utf8.count > 78 {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + piece
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }
    }

    /// A text line: escaped, and kept from reading as a request when it begins with `.` or `'`.
    static func escapeLine(_ line: String) -> String {
        let text = escape(line)
        return text.hasPrefix(".") || text.hasPrefix("'") || text.isEmpty ? "\\&" + text : text
    }

    /// A macro's argument: escaped, quoted when it has spaces, and never read as punctuation (`?`, `,`).
    static func macroArgument(_ text: String) -> String {
        let escaped = "\\&" + escape(text).replacingOccurrences(of: "\"", with: "\\(dq")
        return escaped.contains(" ") ? "\"" + escaped + "\"" : escaped
    }

    /// Backslashes as `\e`, and every character outside ASCII as `\[uXXXX]`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-" where out.hasSuffix(" -") || out == "-": out.removeLast(); out += "\\-\\-"
            case _ where scalar.value < 0x20: out += " "
            case _ where scalar.value < 0x7F: out.unicodeScalars.append(scalar)
            default: out += String(format: "\\[u%04X]", scalar.value)
            }
        }
        return out
    }
}
