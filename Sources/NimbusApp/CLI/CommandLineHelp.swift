import ArgumentParser

/// What the command line says besides ArgumentParser's own words: the top-level help with the
/// options of the default command (`nimbus` alone runs the app), and the nearest command to a
/// mistyped one.
enum CommandLineHelp {
    /// `nimbus --help`, `nimbus -h` or `nimbus help`, with nothing after it.
    static func asksForTheRootHelp(_ arguments: [String]) -> Bool {
        arguments.count == 1 && ["--help", "-h", "help"].contains(arguments[0])
    }

    /// The root's help, with the app's own options (`run`'s: `--location`, `--units`, `--no-mouse`…)
    /// listed before the root's, since `nimbus` alone is `nimbus run`.
    static func rootHelp(columns: Int? = nil) -> String {
        let root = NimbusCommand.helpMessage(columns: columns)
        let runOptions = options(of: Run.helpMessage(columns: columns))
        guard !runOptions.isEmpty else { return root }
        var lines = root.components(separatedBy: "\n")
        let section = ["OPTIONS OF THE APP (nimbus run, the default command):"] + runOptions + [""]
        if let at = lines.firstIndex(of: "OPTIONS:") { lines.insert(contentsOf: section, at: at) } else { lines += [""] + section }
        return lines.joined(separator: "\n")
    }

    /// The entries of a help's OPTIONS section, without `--help` and `--version` (the root lists them).
    static func options(of help: String) -> [String] {
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "OPTIONS:") else { return [] }
        var entries: [[String]] = []
        for line in lines[(start + 1)...] {
            if line.isEmpty || !line.hasPrefix(" ") { break }
            // An entry starts with its flags ("  --units <units>"); the lines under it are indented further.
            if line.hasPrefix("  -") { entries.append([line]) } else if !entries.isEmpty { entries[entries.count - 1].append(line) }
        }
        return entries.filter { entry in
            let flags = entry[0].trimmingCharacters(in: .whitespaces)
            return !flags.hasPrefix("-h, --help") && !flags.hasPrefix("--version")
        }.flatMap { $0 }
    }

    /// The commands `nimbus` knows, as typed.
    static var commandNames: [String] {
        NimbusCommand.configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// For a first word that is no command (`nimbus wether seoul`): a usage line naming the nearest
    /// command, or listing them all when none is near. Nil when the first word is an option or a command.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !commandNames.contains(first) else { return nil }
        let shown = CLIOptions.shown(first)
        if let near = nearest(to: first.lowercased(), among: commandNames) {
            return "unknown command '\(shown)'; did you mean '\(near)'?"
        }
        return "unknown command '\(shown)' (the commands are \(commandNames.joined(separator: ", ")))"
    }

    /// The name closest to `word` by edit distance (a swapped pair of letters counts once), if it is
    /// within a third of the name's length (at least 1, at most 3) or `word` begins it.
    static func nearest(to word: String, among names: [String]) -> String? {
        let scored = names.map { name -> (name: String, distance: Int) in
            (name, name.hasPrefix(word) && word.count >= 2 ? 0 : distance(Array(word), Array(name)))
        }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        return best.distance <= min(3, max(1, best.name.count / 3)) ? best.name : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
