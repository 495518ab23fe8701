import Foundation
import Testing
import PropertyBased
import TOMLKit
import NimbusDomain
import TestSupport
@testable import NimbusData

/// Random valid TOML documents — comments, unknown and dotted keys, tables (some with keys named like
/// the app's), arrays over several lines with comments, inline tables, odd but valid strings, CRLF, a
/// BOM, no final newline — and a random settings change: the saved file parses, holds the change,
/// and is byte for byte the document apart from the changed key's line(s), in the editor's answer
/// and in the file the app's save writes. Two instances saving
/// different keys at the same moment both keep theirs.
@Suite struct ConfigEditPropertyTests {
    /// Found by the test below (seed 996374367): a multi-line string ending in four or five quotes
    /// (`"""a""""` holds `a"`) was read as closed at its first three, so its last quote opened a
    /// string that ran on and a later `[` in an array looked like a table header with no name.
    @Test func aMultiLineStringEndsAtItsLastThreeQuotes() {
        var random = SplitMix(seed: 996374367)
        let document = GeneratedConfig(&random)
        #expect(ConfigFile.parse(document.text).settings == document.settings, "\(document.text)")
    }

    @Test func aSaveChangesOnlyTheLineOfTheKeyItChanges() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 300), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = SplitMix(seed: UInt64(seed))
            let document = GeneratedConfig(&random)
            let (key, value) = GeneratedConfig.change(&random)
            let context = "seed \(seed), \(key.rawValue) → \(value.map { "\($0)" } ?? "removed")\n\(document.text)"
            guard TOMLTable.isValid(document.text) else { Issue.record("the generator made a document TOML rejects: \(context)"); return }
            #expect(ConfigFile.parse(document.text).settings == document.settings, "\(context)")
            guard let editor = TOMLLineEditor(document.text) else { Issue.record("not followed: \(context)"); return }
            let saved = editor.setting([(key.rawValue, value)])

            var expected = document.settings
            GeneratedConfig.apply(key, value, to: &expected)
            let loaded = ConfigFile.parse(saved)
            #expect(loaded.problems == [], "\(context)\n→\n\(saved)")
            #expect(loaded.settings == expected, "\(context)\n→\n\(saved)")
            #expect(GeneratedConfig.others(saved) == GeneratedConfig.others(document.text), "everything else reads the same: \(context)")

            // The app's save (the file read, decoded, edited and written back) writes exactly the edit;
            // one document in four, as each save waits for the disk.
            guard random.chance(25) else { return }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-config-edit-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let url = directory.appendingPathComponent("config.toml")
            if SafeFile.write(Data(document.text.utf8), to: url) {
                #expect(ConfigFile(url: url).save(expected, keys: [key]) == .saved, "\(context)")
                #expect((try? Data(contentsOf: url)) == Data(saved.utf8), "the file holds the edit: \(context)")
            } else {
                Issue.record("could not write \(url.path)")
            }

            let before = Array(document.text.utf8)
            if let span = document.spans[key] {
                let after: [UInt8]
                if let value {
                    after = Array(before[..<span.valueStart]) + Array(GeneratedConfig.literal(value, old: span.valueText).utf8)
                        + Array(before[span.valueEnd...])
                } else {
                    after = Array(before[..<span.lineStart]) + Array(before[span.lineEnd...])
                }
                #expect(Array(saved.utf8) == after, "only the key's line changes: \(context)\n→\n\(saved)")
            } else if let value {
                // One line more, and that line is the key's.
                var lines = GeneratedConfig.lines(saved)
                let original = GeneratedConfig.lines(document.text)
                let at = zip(lines, original).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? original.count
                #expect(at < lines.count && lines[at] == "\(key.rawValue) = \(GeneratedConfig.literal(value, old: ""))",
                        "the new line: \(context)\n→\n\(saved)")
                if at < lines.count { lines.remove(at: at) }
                #expect(lines == original, "nothing else changes: \(context)\n→\n\(saved)")
            } else {
                #expect(saved == document.text, "removing a key that is not there changes nothing: \(context)")
            }
        }
    }

    /// Several keys in one call (a settings screen saving what changed): TOMLKit reads every app key
    /// of the saved file as set, removed or left, everything else as it was, and the file is the
    /// document with each changed key's line edited (the edits made from the end, so each lands
    /// where the document had it).
    @Test func severalKeysChangedInOneCallReadAsTOMLKitReadsThem() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 300), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = SplitMix(seed: UInt64(seed))
            let document = GeneratedConfig(&random)
            // Mostly keys the document has, so that several lines are edited at once.
            let present = UserSettings.Key.allCases.filter { document.spans[$0] != nil }.shuffled(using: &random)
            let absent = UserSettings.Key.allCases.filter { document.spans[$0] == nil }.shuffled(using: &random)
            let keys = Array((present.prefix(Int.random(in: 2...6, using: &random)) + absent.prefix(Int.random(in: 0...2, using: &random)))
                .shuffled(using: &random))
            let changes = keys.map { key in (key, GeneratedConfig.value(for: key, &random)) }
            let context = "seed \(seed), \(changes.map { "\($0.0.rawValue) → \($0.1.map { "\($0)" } ?? "removed")" })\n\(document.text)"
            guard TOMLTable.isValid(document.text), let editor = TOMLLineEditor(document.text) else {
                Issue.record("the generator made a document the editor or TOMLKit rejects: \(context)")
                return
            }
            let saved = editor.setting(changes.map { ($0.0.rawValue, $0.1) })
            guard let table = try? TOMLTable(string: saved), let before = try? TOMLTable(string: document.text) else {
                Issue.record("TOMLKit cannot read the saved file: \(context)\n→\n\(saved)")
                return
            }
            for key in UserSettings.Key.allCases {
                let read = table[key.rawValue]
                if let change = changes.first(where: { $0.0 == key }) {
                    switch change.1 {
                    case .string(let s)?: #expect(read?.string == s, "\(key.rawValue): \(context)\n→\n\(saved)")
                    case .integer(let n)?: #expect(read?.int == n, "\(key.rawValue): \(context)\n→\n\(saved)")
                    case .boolean(let b)?: #expect(read?.bool == b, "\(key.rawValue): \(context)\n→\n\(saved)")
                    case nil: #expect(read == nil, "\(key.rawValue) removed: \(context)\n→\n\(saved)")
                    }
                } else {
                    let old = before[key.rawValue]
                    #expect(read?.string == old?.string && read?.int == old?.int && read?.bool == old?.bool && (read == nil) == (old == nil),
                            "\(key.rawValue) untouched: \(context)\n→\n\(saved)")
                }
            }
            #expect(GeneratedConfig.others(saved) == GeneratedConfig.others(document.text), "everything else reads the same: \(context)")
            var expected = document.settings
            for (key, value) in changes { GeneratedConfig.apply(key, value, to: &expected) }
            #expect(ConfigFile.parse(saved).settings == expected, "\(context)\n→\n\(saved)")

            // Byte for byte, where every changed key had a line: each line edited in place.
            guard keys.allSatisfy({ document.spans[$0] != nil }) else { return }
            var after = Array(document.text.utf8)
            for (key, value) in changes.sorted(by: { document.spans[$0.0]!.lineStart > document.spans[$1.0]!.lineStart }) {
                let span = document.spans[key]!
                if let value {
                    after.replaceSubrange(span.valueStart..<span.valueEnd, with: Array(GeneratedConfig.literal(value, old: span.valueText).utf8))
                } else {
                    after.replaceSubrange(span.lineStart..<span.lineEnd, with: [])
                }
            }
            #expect(Array(saved.utf8) == after, "only the keys' lines change: \(context)\n→\n\(saved)")
        }
    }

    /// Three values that grow, one after the other: each written where its key was, whatever the
    /// order of the changes (an edit made before one further on would move it).
    @Test func threeKeysInOneCallEachLandOnTheirOwnLine() throws {
        let document = "units = 'auto'\nclock = 12\n# mine\ntheme = \"dark\"\nmouse = false\n"
        let editor = try #require(TOMLLineEditor(document))
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]] {
            let changes: [(key: String, value: TOMLLineEditor.Value?)] = [
                ("units", .string("imperial")), ("clock", .integer(24)), ("theme", .string("light")), ("mouse", nil),
            ]
            let saved = editor.setting(order.map { changes[$0] })
            #expect(saved == "units = 'imperial'\nclock = 24\n# mine\ntheme = \"light\"\n", "order \(order)")
            let table = try? TOMLTable(string: saved)
            #expect(table?["units"]?.string == "imperial" && table?["clock"]?.int == 24 && table?["theme"]?.string == "light"
                    && table?["mouse"] == nil, "order \(order): \(saved)")
        }
    }

    @Test func twoInstancesSavingDifferentKeysAtOnceKeepBoth() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 10), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = SplitMix(seed: UInt64(seed))
            let document = GeneratedConfig(&random)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-config-race-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let url = directory.appendingPathComponent("nimbus/config.toml")
            guard SafeFile.write(Data(document.text.utf8), to: url) else { Issue.record("could not write \(url.path)"); return }
            // Each instance read the file at start-up; each then changes one key of its own, many times.
            let keys = Array(UserSettings.Key.allCases.shuffled(using: &random).prefix(2))
            let values = keys.map { key in (0..<6).map { _ in GeneratedConfig.value(for: key, &random) } }
            let start = DispatchGroup(), done = DispatchGroup()
            start.enter()
            let failures = Failures()
            for (key, values) in zip(keys, values) {
                done.enter()
                DispatchQueue.global().async {
                    start.wait()
                    let file = ConfigFile(url: url)
                    for value in values {
                        var settings = document.settings
                        GeneratedConfig.apply(key, value, to: &settings)
                        if file.save(settings, keys: [key]) != .saved { failures.add("\(key.rawValue) not saved") }
                    }
                    done.leave()
                }
            }
            start.leave()
            done.wait()
            let context = "seed \(seed), \(keys.map(\.rawValue))\n\(document.text)"
            #expect(failures.all.isEmpty, "\(failures.all) \(context)")
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            var expected = document.settings
            for (key, values) in zip(keys, values) { GeneratedConfig.apply(key, values.last!, to: &expected) }
            #expect(ConfigFile.parse(text).settings == expected, "\(context)\n→\n\(text)")
            #expect(GeneratedConfig.others(text) == GeneratedConfig.others(document.text), "\(context)\n→\n\(text)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
            #expect(left.sorted() == [".config.toml.lock", "config.toml"], "no temporary file left: \(left)")
        }
    }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}

extension TOMLTable {
    static func isValid(_ text: String) -> Bool { (try? TOMLTable(string: text)) != nil }
}

/// A small, fast generator of numbers from a seed (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }
}

/// A random config file the app can read, and where each of its keys' values is, byte by byte.
struct GeneratedConfig: Sendable {
    struct Span: Sendable {
        var lineStart: Int, valueStart: Int, valueEnd: Int, lineEnd: Int
        var valueText: String
    }

    private(set) var text = ""
    private(set) var spans: [UserSettings.Key: Span] = [:]
    private(set) var settings = UserSettings()

    init(_ random: inout SplitMix) {
        let nl = random.chance(25) ? "\r\n" : "\n"
        if random.chance(10) { text = "\u{FEFF}" }
        var unknown = 0
        var owned = UserSettings.Key.allCases.shuffled(using: &random).prefix(Int.random(in: 0...6, using: &random))
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: text += random.pick(["", "   ", "\t"]) + nl
            case 1, 2: text += Self.comment(&random) + nl
            case 3, 4, 5:
                unknown += 1
                text += Self.indent(&random) + Self.spell("k\(unknown)", &random) + Self.equals(&random)
                    + Self.value(&random, nl: nl, depth: 0) + Self.trailing(&random) + nl
            case 6:
                unknown += 1
                text += "d\(unknown)." + random.pick(["x", "\"a.b\"", "'c d'"]) + " = " + Self.value(&random, nl: nl, depth: 1) + nl
            default:
                guard let key = owned.popFirst() else { continue }
                addOwned(key, &random, nl: nl)
            }
        }
        for key in owned where random.chance(50) { addOwned(key, &random, nl: nl) }
        for t in 0..<Int.random(in: 0...3, using: &random) {
            if random.chance(40) { text += Self.comment(&random) + nl }
            text += random.pick(["[t\(t)]", "[[t\(t)]]", "[ t\(t) . \"sub table\" ]", "['t\(t)']"]) + Self.trailing(&random) + nl
            // Keys named like the app's are not the app's inside a table.
            let names = UserSettings.Key.allCases.shuffled(using: &random)
            for i in 0..<Int.random(in: 0...4, using: &random) {
                if random.chance(25) { text += Self.comment(&random) + nl }
                text += Self.indent(&random) + (random.chance(50) ? names[i].rawValue : "x\(i)")
                    + Self.equals(&random) + Self.value(&random, nl: nl, depth: 0) + nl
            }
        }
        if random.chance(15) {
            let trimmed = text.hasSuffix("\r\n") ? String(text.dropLast()) : text.hasSuffix("\n") ? String(text.dropLast()) : text
            // Dropping the last newline must not leave a lone CR.
            text = trimmed.hasSuffix("\r") ? String(trimmed.dropLast()) : trimmed
            for (key, span) in spans where span.lineEnd > text.utf8.count { spans[key]!.lineEnd = text.utf8.count }
        }
    }

    private mutating func addOwned(_ key: UserSettings.Key, _ random: inout SplitMix, nl: String) {
        let (value, written) = Self.ownedValue(key, &random, nl: nl)
        let lineStart = text.utf8.count
        text += Self.indent(&random) + Self.spell(key.rawValue, &random) + Self.equals(&random)
        let valueStart = text.utf8.count
        text += written
        let valueEnd = text.utf8.count
        text += Self.trailing(&random) + nl
        spans[key] = Span(lineStart: lineStart, valueStart: valueStart, valueEnd: valueEnd, lineEnd: text.utf8.count,
                          valueText: written)
        Self.apply(key, value, to: &settings)
    }

    // MARK: Pieces

    static func indent(_ random: inout SplitMix) -> String { random.pick(["", "", "  ", "\t"]) }
    static func equals(_ random: inout SplitMix) -> String { random.pick([" = ", "=", " =\t", "\t= ", "  =  "]) }
    static func trailing(_ random: inout SplitMix) -> String {
        random.pick(["", "", "  ", " # why", "\t# units = \"kelvin\" [x]", " #\"'#"])
    }
    static func comment(_ random: inout SplitMix) -> String {
        random.pick(["#", "# Nimbus", "  # units = \"imperial\"", "#[table]", "# 서울 東京 ☂", "#\t\"\"\" '''", "# ]}{["])
    }

    /// A key as written: bare, quoted, single-quoted, or with an escape.
    static func spell(_ name: String, _ random: inout SplitMix) -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return "\"\(name)\""
        case 1: return "'\(name)'"
        case 2: return "\"\\u\(String(format: "%04X", name.unicodeScalars.first!.value))\(name.dropFirst())\""
        default: return name
        }
    }

    /// A value the app does not own, of any kind TOML has.
    static func value(_ random: inout SplitMix, nl: String, depth: Int) -> String {
        switch Int.random(in: 0..<(depth > 1 ? 6 : 9), using: &random) {
        case 0: return random.pick(["42", "+17", "-0", "1_000", "0xDEAD_beef", "0o755", "0b1101"])
        case 1: return random.pick(["3.14", "-0.01", "5e+22", "6.626e-34", "inf", "-inf", "nan", "1_000.5", "true", "false"])
        case 2: return random.pick(["1979-05-27T07:32:00Z", "1979-05-27 07:32:00.999-07:00", "1979-05-27", "07:32:00",
                                    "1979-05-27T00:32:00"])
        case 3: return random.pick(["\"a \\\"b\\\" # c\"", "\"[x] = y\"", "\"tab\\tand \\\\ backslash\"", "\"\\u00e9\\U0001F600\"",
                                    "\"서울 東京\"", "\"\"", "\"'\"", "\"}{][\"", "\"units = \\\"kelvin\\\"\""])
        case 4: return random.pick(["'C:\\Users\\x'", "'<\\i\\c*\\s*>'", "'\"quoted\" # no comment'", "''", "'[t]'"])
        case 5:
            return random.pick([
                "\"\"\"" + nl + "units = \"kelvin\"" + nl + "[not.a.table]" + nl + "# not a comment\"\"\"",
                "\"\"\"a\"\"\"\"", "\"\"\"line \\" + nl + "   continued\"\"\"", "\"\"\"\"\"x\"\"\"\"\"", "\"\"\"\\\"\"\"\"\"",
                "'''" + nl + "[t]" + nl + "x = 1" + nl + "'''", "'''a'b''c'''", "''''x'''''", "'''\\'''",
            ])
        case 6, 7:
            let count = Int.random(in: 0...3, using: &random)
            let items = (0..<count).map { _ in value(&random, nl: nl, depth: depth + 1) }
            if random.chance(50) {
                return "[" + items.joined(separator: random.pick([", ", ",", " ,  "])) + (count > 0 && random.chance(30) ? "," : "") + "]"
            }
            var out = "[" + random.pick(["", " # opens"]) + nl
            for item in items { out += "  " + item + "," + random.pick(["", " # an item ]"]) + nl }
            return out + random.pick(["", "  # closes", "#]"]) + nl + "]"
        default:
            let count = Int.random(in: 0...3, using: &random)
            let pairs = (0..<count).map { i in random.pick(["a\(i)", "\"b \(i)\"", "c\(i).d"]) + " = " + value(&random, nl: nl, depth: depth + 2) }
            // Inline tables stay on one line (TOML 1.0): no multi-line values in them.
            if pairs.contains(where: { $0.contains("\n") }) { return "{}" }
            return "{" + random.pick([" ", ""]) + pairs.joined(separator: ", ") + random.pick([" ", ""]) + "}"
        }
    }

    /// A good value for one of the app's keys, and how it is written.
    static func ownedValue(_ key: UserSettings.Key, _ random: inout SplitMix, nl: String) -> (TOMLLineEditor.Value, String) {
        func string(_ s: String) -> String {
            switch Int.random(in: 0..<7, using: &random) {
            case 0: return "'\(s)'"
            case 1: return "\"\"\"\(s)\"\"\""
            case 2: return "'''\(s)'''"
            case 3: return "\"\"\"" + nl + s + "\"\"\""
            case 4: return "\"\\u\(String(format: "%04x", s.unicodeScalars.first!.value))\(s.dropFirst())\""
            default: return "\"\(s)\""
            }
        }
        func integer(_ n: Int) -> String { random.pick([String(n), "+\(n)", "0x" + String(n, radix: 16), "0o" + String(n, radix: 8)]) }
        var chosen: TOMLLineEditor.Value?
        while chosen == nil { chosen = self.value(for: key, &random) }
        let value = chosen!
        switch (key, value) {
        case (.clock, .integer(let n)) where random.chance(20): return (value, string(String(n)))
        case (.home, .string(let s)) where Int(s) != nil && random.chance(30): return (value, s)
        case (_, .string(let s)): return (value, string(s))
        case (_, .integer(let n)): return (value, integer(n))
        case (_, .boolean(let b)): return (value, b ? "true" : "false")
        }
    }

    /// A random value for `key` (nil: unset, one time in five).
    static func value(for key: UserSettings.Key, _ random: inout SplitMix) -> TOMLLineEditor.Value? {
        if random.chance(20) { return nil }
        switch key {
        case .units: return .string(random.pick(UserSettings.Units.allCases).rawValue)
        case .temperatureUnit: return .string(random.pick(UserSettings.Temperature.allCases).rawValue)
        case .windUnit: return .string(random.pick(UserSettings.Wind.allCases).rawValue)
        case .clock: return .integer(random.pick([12, 24]))
        case .theme: return .string(random.pick(UserSettings.Theme.allCases).rawValue)
        case .mapStyle: return .string(random.pick(UserSettings.MapStyle.allCases).rawValue)
        case .mouse: return .boolean(random.chance(50))
        case .defaultTab: return .integer(Int.random(in: UserSettings.tabs, using: &random))
        case .home: return .string(random.pick(["1835848", "42", "37.57,126.98", "-33.86,151.21"]))
        }
    }

    /// A random settings change: a key, and its new value or nil to remove it.
    static func change(_ random: inout SplitMix) -> (UserSettings.Key, TOMLLineEditor.Value?) {
        let key = random.pick(UserSettings.Key.allCases)
        return (key, value(for: key, &random))
    }

    static func apply(_ key: UserSettings.Key, _ value: TOMLLineEditor.Value?, to settings: inout UserSettings) {
        var text: String?
        switch value {
        case .string(let s)?: text = s
        case .integer(let n)?: text = String(n)
        case .boolean(let b)?: text = String(b)
        case nil: text = nil
        }
        switch key {
        case .units: settings.units = text.flatMap(UserSettings.Units.init(rawValue:))
        case .temperatureUnit: settings.temperatureUnit = text.flatMap(UserSettings.Temperature.init(rawValue:))
        case .windUnit: settings.windUnit = text.flatMap(UserSettings.Wind.init(rawValue:))
        case .clock: settings.clock = text.flatMap(UserSettings.Clock.init(rawValue:))
        case .theme: settings.theme = text.flatMap(UserSettings.Theme.init(rawValue:))
        case .mapStyle: settings.mapStyle = text.flatMap(UserSettings.MapStyle.init(rawValue:))
        case .mouse: settings.mouse = text.flatMap(Bool.init)
        case .defaultTab: settings.defaultTab = text.flatMap { Int($0) }
        case .home: settings.home = text.flatMap(UserSettings.Home.init(text:))
        }
    }

    /// The value as the saved line should write it: single quotes where the old value had them.
    static func literal(_ value: TOMLLineEditor.Value, old: String) -> String {
        switch value {
        case .string(let s): return old.hasPrefix("'") && !old.hasPrefix("'''") ? "'\(s)'" : "\"\(s)\""
        case .integer(let n): return String(n)
        case .boolean(let b): return String(b)
        }
    }

    /// The document's lines, without their endings (a last empty one dropped).
    static func lines(_ text: String) -> [String] {
        // By bytes: "\r\n" is one Character, which a split on "\n" would not cut.
        // A BOM belongs to the document, not to its first line.
        let bytes = text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? text.utf8.dropFirst(3) : text.utf8.dropFirst(0)
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Everything TOMLKit reads from `text` apart from the app's top-level keys, as JSON.
    static func others(_ text: String) -> String? {
        guard let table = try? TOMLTable(string: text) else { return nil }
        for key in UserSettings.Key.allCases { table.remove(at: key.rawValue) }
        return table.convert(to: .json)
    }
}
