import ArgumentParser

/// What the command line says besides ArgumentParser's own words: the top-level help's
/// description, and the nearest command to a mistyped one.
enum CommandLineHelp {
    /// What `nimbus` is and does, for `nimbus --help` and the man page's DESCRIPTION.
    static let rootDescription = """
        Without a command, Nimbus opens in the terminal: tabs for Cities, Today, Liked, Quakes, Movies and \
        Wishlist. Press ? on any screen for its keys (man nimbus lists them all under KEYS); , or F2 opens \
        the settings, saved in $XDG_CONFIG_HOME/nimbus/config.toml. The commands print once, for scripts \
        and status bars.
        """

    /// `nimbus --help`'s description: what `nimbus` alone does, and the environment variables it
    /// reads (the man page says what each does).
    static var rootDiscussion: String {
        rootDescription + "\n\nEnvironment (see ENVIRONMENT in man nimbus): "
            + CommandLineDocs.environmentNames.joined(separator: ", ") + "."
    }

    /// The commands `nimbus` knows, as typed.
    static var commandNames: [String] {
        NimbusCommand.configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName } + ["help"]
    }

    /// For a first word that is no command (`nimbus wether seoul`): a usage line naming the nearest
    /// command, or listing them all when none is near. Nil when the first word is an option or a command.
    static func unknownCommand(_ arguments: [String]) -> String? {
        let every = NimbusCommand.configuration.subcommands.map { $0._commandName } + ["help"]
        guard let first = arguments.first, !first.hasPrefix("-"), !every.contains(first) else { return nil }
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
