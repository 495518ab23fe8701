import ArgumentParser
import Foundation
import NimbusDomain

/// City names for the shells' completions of `weather`, `map` and `search`: the cities the Cities
/// tab would list first for what is typed, each written so that it begins with the word as typed
/// (the shells keep only candidates that do), from the catalogue the command line names.
///
/// ArgumentParser runs it in the `nimbus` the shell calls (`nimbus ---completion weather -- query …`),
/// which prints the candidates one a line and exits: no terminal, no network, no settings file.
enum CityCompletion {
    /// How many names are offered at most.
    static let limit = 20

    static let kind = CompletionKind.custom { words, index, prefix in
        MainActor.assumeIsolated { candidates(words: words, index: index, prefix: prefix) }
    }

    /// Options of the city commands that take a value (their values are not words of the query).
    static let optionsWithValues: Set<String> = ["--tier", "--catalog", "--units", "--lang", "--location", "--format", "--size",
                                                 "--zoom", "--style", "--limit"]

    /// The candidates for the word at `index` of `words` (the whole command line as the shell split
    /// it, quotes included), of which `prefix` is typed.
    @MainActor static func candidates(words: [String], index: Int, prefix: String,
                                      context: OneShot.Context = OneShot.Context()) -> [String] {
        let typed = unquoted(prefix)
        let parsed = parse(words: words, upTo: index)
        guard !typed.isEmpty || !parsed.query.isEmpty else { return [] }
        let options = CLIOptions.Values(tier: parsed.tier, catalog: parsed.catalog, location: nil, logFile: nil)
        guard let container = try? OneShot.container(options, network: false, context: context) else { return [] }
        let search = OneShot.citySearch(in: container)
        let earlier = parsed.query.joined(separator: " ")
        let query = earlier.isEmpty ? typed : earlier + " " + typed
        let matches = search.execute(query: query)
        var offered: [String] = []
        for i in 0..<min(matches.count, limit * 4) where offered.count < limit {
            let hit = search.hit(matches[i], query: matches.nameQuery)
            for name in [hit.matchedName, hit.city.name].compactMap({ $0 }) {
                // What the earlier words typed, then the name's rest from the current word on.
                guard let rest = remainder(of: name, after: earlier, typed: typed) else { continue }
                if !offered.contains(rest) { offered.append(rest) }
                break
            }
        }
        return offered
    }

    /// `name` from the current word on, beginning with `typed` as typed (its rest lower-cased when
    /// `typed` has no capitals), when `earlier + typed` begins it (case and accents aside).
    static func remainder(of name: String, after earlier: String, typed: String) -> String? {
        let lead = earlier.isEmpty ? "" : earlier + " "
        let whole = lead + typed
        guard fold(name).hasPrefix(fold(whole)), name.count >= whole.count else { return nil }
        let rest = String(name.dropFirst(whole.count))
        return typed + (typed == typed.lowercased() && !typed.isEmpty ? rest.lowercased() : rest)
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The query words before the one completed, and the catalogue named: the words after the
    /// command's name that are neither options nor their values.
    static func parse(words: [String], upTo index: Int) -> (query: [String], tier: CLIOptions.Tier, catalog: String?) {
        var query: [String] = []
        var tier = CLIOptions.Tier.standard
        var catalog: String?
        let commands: Set<String> = ["weather", "map", "search"]
        guard let start = words.firstIndex(where: commands.contains) else { return ([], tier, nil) }
        var i = start + 1
        var optionsEnded = false
        while i < min(index, words.count) {
            let word = unquoted(words[i])
            defer { i += 1 }
            if !optionsEnded, word == "--" { optionsEnded = true; continue }
            if !optionsEnded, word.hasPrefix("-") {
                let name = String(word.prefix { $0 != "=" })
                let joined = word.contains("=") ? String(word.drop { $0 != "=" }.dropFirst()) : nil
                guard optionsWithValues.contains(name) else { continue }
                var value = joined
                if value == nil, i + 1 < min(index, words.count) {
                    i += 1
                    value = unquoted(words[i])
                }
                if name == "--tier", let value, let chosen = CLIOptions.Tier(rawValue: value) { tier = chosen }
                if name == "--catalog" { catalog = value }
                continue
            }
            query.append(word)
        }
        return (query, tier, catalog)
    }

    /// A shell word as typed, without its quotes and backslashes.
    static func unquoted(_ word: String) -> String {
        var out = ""
        var quote: Character?
        var escaped = false
        for c in word {
            if escaped { out.append(c); escaped = false; continue }
            if c == "\\", quote != "'" { escaped = true; continue }
            if let q = quote {
                if c == q { quote = nil } else { out.append(c) }
                continue
            }
            if c == "'" || c == "\"" { quote = c; continue }
            out.append(c)
        }
        return out
    }
}
