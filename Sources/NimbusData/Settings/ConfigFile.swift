import Foundation
import NimbusDomain
import TOMLKit

/// `$XDG_CONFIG_HOME/nimbus/config.toml`: the saved settings. Read with a size cap, through a link
/// the user made (to the file or its folder) but never from a directory, fifo, socket or device.
/// A save changes only the lines of the keys it was given, in place (`TOMLLineEditor`), on the file
/// as it is at that moment, under a lock and atomically (`LockedFileUpdate`): comments, order, unknown
/// keys and what another instance saved meanwhile are kept. A file that is not TOML, or has a bad
/// value, is never written.
public struct ConfigFile: Sendable {
    /// A config file is a dozen lines: anything larger is not one.
    public static let maximumSize = SettingsProblem.maximumFileSize
    public static let fileName = SettingsProblem.fileName

    /// One thing wrong with the file, for the status bar.
    public typealias Problem = SettingsProblem

    /// What reading the file gave.
    public struct Loaded: Equatable, Sendable {
        /// The good values (a bad one is left nil: its default is used).
        public var settings: UserSettings
        public var problems: [Problem]
        /// Whether the app may write the file: it is missing, or it was read whole with no problem.
        public var writable: Bool

        public init(settings: UserSettings = UserSettings(), problems: [Problem] = [], writable: Bool = true) {
            self.settings = settings
            self.problems = problems
            self.writable = writable
        }
    }

    public let url: URL
    /// Whether the catalogue has a city with this GeoNames id (a home that names one it lacks is a bad value).
    public let isCity: @Sendable (Int) -> Bool

    public init(url: URL, isCity: @escaping @Sendable (Int) -> Bool = { _ in true }) {
        self.url = url
        self.isCity = isCity
    }

    /// `config.toml` in the config directory `environment` names.
    public init(environment: [String: String], isCity: @escaping @Sendable (Int) -> Bool = { _ in true }) {
        self.init(url: NimbusDirectories(environment: environment).config.appendingPathComponent(Self.fileName), isCity: isCity)
    }

    /// Reads the file: missing is no settings and no problem.
    public func load() -> Loaded {
        let target: URL
        switch locate() {
        case .success(let found) where found.exists: target = found.url
        case .success: return Loaded()
        case .failure(let problem): return Loaded(problems: [problem], writable: false)
        }
        guard let data = SafeFile.read(target, maxBytes: Self.maximumSize) else {
            var st = stat()
            if lstat(target.path, &st) == 0, Int(st.st_size) > Self.maximumSize {
                return Self.unreadable("is larger than \(Self.maximumSize / 1024) KB; not read", .tooLarge)
            }
            return Self.unreadable("cannot be read; not used", .unreadable)
        }
        return Self.parse(data, isCity: isCity)
    }

    /// The plain file the settings are in, or where it goes when there is none yet, through the
    /// user's links; or why there can be none.
    private func locate() -> Result<(url: URL, exists: Bool), Problem> {
        func problem(_ message: String, _ reason: Problem.Reason) -> Result<(url: URL, exists: Bool), Problem> {
            .failure(Problem(line: nil, message: message, reason: reason))
        }
        switch UserFileLocation.resolve(url) {
        case .file(let file): return .success((file, true))
        case .missing(let file): return .success((file, false))
        case .notAFile(_, let kind): return problem("is a \(kind), not a file; not read", .notAFile)
        case .notAFolder(let path, let kind):
            return problem("cannot be read: \(path) is a \(kind), not a folder; not used", .unreadable)
        case .foreignLink(let path): return problem("is a link another user made (\(path)); not read", .notAFile)
        case .unresolvable(let why): return problem("cannot be read (\(why)); not used", .unreadable)
        }
    }

    private static func unreadable(_ message: String, _ reason: Problem.Reason) -> Loaded {
        Loaded(problems: [Problem(line: nil, message: message, reason: reason)], writable: false)
    }

    /// The settings in the file's bytes: text that is not UTF-8 is a problem with its line.
    public static func parse(_ data: Data, isCity: (Int) -> Bool = { _ in true }) -> Loaded {
        // Not `String(data:encoding:)`, which drops a byte order mark: a save writes this text back.
        guard let text = String(validating: data, as: UTF8.self) else {
            let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
            let line = lines.firstIndex { String(data: Data($0), encoding: .utf8) == nil }.map { $0 + 1 }
            return Loaded(problems: [Problem(line: line, message: "is not UTF-8 text; not read", reason: .unreadable)],
                          writable: false)
        }
        return parse(text, isCity: isCity)
    }

    /// Where the first control character TOML never allows is (C0 but tab, line feed and carriage
    /// return, and DEL), if there is one.
    static func firstControl(in text: String) -> String.UTF8View.Index? {
        text.utf8.firstIndex { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }
    }

    /// Where toml++ (TOMLKit's parser) would stop the program on an assertion rather than report an
    /// error: a table header whose name does not start where it should (`[` alone, `[ é]`), or, in an
    /// array, a "}" or a line separator (U+0085, U+2028, U+2029) where a value should start, after the
    /// spaces, line breaks and comments TOML allows there (`arr = [1,` then `}`). Strings and comments
    /// are skipped and headers are told from arrays by where they stand (an array only after "=" or
    /// in an array), so a multi-line array's `[` is not a header. Anything else that is not TOML is
    /// left to the parser, which reports it.
    enum ParserTrap: Equatable { case headerWithoutName, arrayWithoutValue }

    static func firstParserTrap(in text: String) -> (line: Int, trap: ParserTrap)? {
        enum Context { case array(expectingValue: Bool), inlineTable }
        let scalars = Array(text.unicodeScalars)
        var stack: [Context] = []
        var line = 1, i = 0
        /// Whether the next thing is a value: after "=" (top level or in an inline table).
        var afterEquals = false
        func skipString(_ quote: Unicode.Scalar) {
            let triple = i + 2 < scalars.count && scalars[i + 1] == quote && scalars[i + 2] == quote
            i += triple ? 3 : 1
            while i < scalars.count {
                let c = scalars[i]
                if c == "\n" { line += 1; if !triple { return } }
                if quote == "\"", c == "\\" { i += 2; continue }
                if c == quote {
                    if !triple { i += 1; return }
                    // A run of three to five quotes ends the string: its last three close it, the one or
                    // two before are content (`"""a""""` holds `a"`). Fewer than three are content.
                    var run = 0
                    while i + run < scalars.count, scalars[i + run] == quote { run += 1 }
                    if run >= 3 { i += min(run, 5); return }
                    i += run
                    continue
                }
                i += 1
            }
        }
        while i < scalars.count {
            let c = scalars[i]
            let inArray: Bool = { if case .array? = stack.last { return true }; return false }()
            let expecting: Bool = { if case .array(let e)? = stack.last { return e }; return false }()
            switch c {
            case "\n":
                line += 1; i += 1
                if stack.isEmpty { afterEquals = false }
                continue
            case " ", "\t", "\r":
                i += 1; continue
            case "#":
                while i < scalars.count, scalars[i] != "\n" { i += 1 }
                continue
            case "\u{85}", "\u{2028}", "\u{2029}":
                if expecting { return (line, .arrayWithoutValue) }
                i += 1; continue
            default: break
            }
            if inArray, expecting, c == "}" { return (line, .arrayWithoutValue) }
            switch c {
            case "\"", "'":
                skipString(c)
                if inArray { stack[stack.count - 1] = .array(expectingValue: false) }
                afterEquals = false
                continue
            case "[" where afterEquals || inArray:
                if inArray { stack[stack.count - 1] = .array(expectingValue: false) }
                stack.append(.array(expectingValue: true))
                afterEquals = false
            case "[" where stack.isEmpty:
                // A table header ("[" or "[["): its name starts with a bare key's character or a quote.
                var k = i + 1
                if k < scalars.count, scalars[k] == "[" { k += 1 }
                while k < scalars.count, scalars[k] == " " || scalars[k] == "\t" { k += 1 }
                guard k < scalars.count, scalars[k].isASCII,
                      scalars[k].properties.isAlphabetic || ("0"..."9").contains(scalars[k])
                        || "_-\"'".unicodeScalars.contains(scalars[k]) else { return (line, .headerWithoutName) }
                i = k
                continue
            case "]" where inArray:
                stack.removeLast()
            case "," where inArray:
                stack[stack.count - 1] = .array(expectingValue: true)
            case "{" where afterEquals || inArray:
                if inArray { stack[stack.count - 1] = .array(expectingValue: false) }
                stack.append(.inlineTable)
                afterEquals = false
            case "}":
                if case .inlineTable? = stack.last { stack.removeLast() }
            case "=":
                afterEquals = true
            default:
                if inArray { stack[stack.count - 1] = .array(expectingValue: false) }
                afterEquals = false
            }
            i += 1
        }
        return nil
    }

    /// The settings in `text`: each bad value is a problem (with its line) and left unset.
    public static func parse(_ text: String, isCity: (Int) -> Bool = { _ in true }) -> Loaded {
        // TOMLKit reads a C string: the text would end at a NUL, which TOML never allows.
        if let nul = text.utf8.firstIndex(of: 0) {
            let line = text.utf8[..<nul].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            return Loaded(problems: [Problem(line: line, message: "is not TOML (a NUL byte)", reason: .notTOML(.nulByte))],
                          writable: false)
        }
        // Nor a control character other than a tab or a line break, and TOMLKit's parser stops the
        // program (an assertion) on one where a key starts (`[\u{5}x]`).
        if let control = firstControl(in: text) {
            let line = text.utf8[..<control].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            return Loaded(problems: [Problem(line: line, message: "is not TOML (a control character)", reason: .notTOML(.other))],
                          writable: false)
        }
        // Nor a table header with no name (`[` alone), nor an array whose next value starts with a
        // "}" or a line separator (`[1, }`), on which it asserts the same way.
        if let (line, trap) = firstParserTrap(in: text) {
            let what = trap == .headerWithoutName ? "a table with no name" : "an array with no value after “[” or “,”"
            return Loaded(problems: [Problem(line: line, message: "is not TOML (\(what))", reason: .notTOML(.other))],
                          writable: false)
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            // Where the parser stopped, and what is wrong there in the app's own words (the parser's
            // text is cut to the status bar mid-word and is in English only).
            let line = error.source.begin.line, column = error.source.begin.column
            let syntax = TOMLSyntax.classify(line: TOMLSyntax.line(line, of: text))
            return Loaded(problems: [Problem(line: line, column: column,
                                             message: "is not TOML (column \(column): \(TOMLSyntax.english(syntax)))",
                                             reason: .notTOML(syntax))],
                          writable: false)
        } catch {
            return Loaded(problems: [Problem(line: nil, message: "is not TOML", reason: .notTOML(.other))], writable: false)
        }
        var settings = UserSettings()
        var problems: [Problem] = []
        // Only for a problem's line: where each top-level key is written.
        lazy var keys = TOMLLineEditor(text)
        func line(of key: String) -> Int? { keys?.line(of: key) }
        func bad(_ key: UserSettings.Key, _ allowed: [String]) {
            let message: String
            if allowed.isEmpty {
                message = "must be a GeoNames city id or \"lat,lon\""
            } else if allowed.count == 1 {
                message = "must be " + allowed[0]
            } else {
                message = "must be " + allowed.dropLast().joined(separator: ", ") + " or " + allowed.last!
            }
            problems.append(Problem(line: line(of: key.rawValue), message: "\(key.rawValue) \(message)",
                                    reason: .badValue(key: key.rawValue, allowed: allowed)))
        }
        func word<E: RawRepresentable & CaseIterable>(_ key: UserSettings.Key, _ type: E.Type) -> E?
        where E.RawValue == String {
            guard let value = table[key.rawValue] else { return nil }
            let text = value.string ?? value.int.map(String.init)
            if let text, let e = E(rawValue: text.lowercased()) { return e }
            bad(key, E.allCases.map(\.rawValue))
            return nil
        }
        settings.units = word(.units, UserSettings.Units.self)
        settings.temperatureUnit = word(.temperatureUnit, UserSettings.Temperature.self)
        settings.windUnit = word(.windUnit, UserSettings.Wind.self)
        settings.clock = word(.clock, UserSettings.Clock.self)
        settings.theme = word(.theme, UserSettings.Theme.self)
        settings.mapStyle = word(.mapStyle, UserSettings.MapStyle.self)
        if let value = table[UserSettings.Key.mouse.rawValue] {
            if let b = value.bool { settings.mouse = b } else { bad(.mouse, ["true", "false"]) }
        }
        if let value = table[UserSettings.Key.defaultTab.rawValue] {
            if let n = value.int, UserSettings.tabs.contains(n) { settings.defaultTab = n }
            else { bad(.defaultTab, ["a number from 1 to 6"]) }
        }
        if let value = table[UserSettings.Key.home.rawValue] {
            if let home = (value.string ?? value.int.map(String.init)).flatMap(UserSettings.Home.init(text:)) {
                if case .city(let id) = home, !isCity(id) {
                    problems.append(Problem(line: line(of: UserSettings.Key.home.rawValue),
                                            message: "home \(id) is not a city of the catalogue", reason: .unknownCity(id)))
                } else {
                    settings.home = home
                }
            } else {
                bad(.home, [])
            }
        }
        return Loaded(settings: settings, problems: problems, writable: problems.isEmpty)
    }

    /// The value the file holds for `key` in `settings`.
    static func value(_ key: UserSettings.Key, in settings: UserSettings) -> TOMLLineEditor.Value? {
        switch key {
        case .units: return settings.units.map { .string($0.rawValue) }
        case .temperatureUnit: return settings.temperatureUnit.map { .string($0.rawValue) }
        case .windUnit: return settings.windUnit.map { .string($0.rawValue) }
        case .clock: return settings.clock.map { .integer(Int($0.rawValue)!) }
        case .theme: return settings.theme.map { .string($0.rawValue) }
        case .mapStyle: return settings.mapStyle.map { .string($0.rawValue) }
        case .mouse: return settings.mouse.map { .boolean($0) }
        case .defaultTab: return settings.defaultTab.map { .integer($0) }
        case .home: return settings.home.map { .string($0.text) }
        }
    }

    /// The keys whose saved values differ between `old` and `new`: what a save of `new` has to write.
    public static func keys(changedFrom old: UserSettings, to new: UserSettings) -> [UserSettings.Key] {
        UserSettings.Key.allCases.filter { value($0, in: old) != value($0, in: new) }
    }

    /// What a save did.
    public enum Saved: Equatable, Sendable {
        case saved
        /// Nothing was written: what is wrong with the file, or why it could not be written there (nil
        /// only for an error nothing here throws).
        case notSaved(Problem?)
    }

    /// Writes the values `settings` has for `keys` (a key `settings` leaves unset is removed) into the
    /// file as it is now, changing only those keys' lines; every other line, what another instance
    /// saved and keys added by hand since the file was read included, stays as it is. Nothing is
    /// written when the file now is not TOML, has a bad value, or the edit would not read back as
    /// `settings` says.
    @discardableResult
    public func save(_ settings: UserSettings, keys: [UserSettings.Key]) -> Saved {
        write(settings, keys: keys).saved
    }

    /// What a save found in the file and left there: the bytes an undo puts back.
    public struct Written: Equatable, Sendable {
        /// nil: there was no file.
        public let before: Data?
        public let after: Data
    }

    /// `save`, and the file's bytes before and after (nil when nothing was written).
    func write(_ settings: UserSettings, keys: [UserSettings.Key]) -> (saved: Saved, written: Written?) {
        let changes = UserSettings.Key.allCases.filter(keys.contains).map { (key: $0.rawValue, value: Self.value($0, in: settings)) }
        let target: URL
        switch locate() {
        case .success(let found): target = found.url
        case .failure(let problem): return (.notSaved(problem), nil)
        }
        let isCity = self.isCity
        var written: Written?
        do {
            try LockedFileUpdate(url: target, maxBytes: Self.maximumSize).update { data in
                let loaded = data.map { Self.parse($0, isCity: isCity) } ?? Loaded()
                if let problem = loaded.problems.first { throw problem }
                let text = String(decoding: data ?? Data(), as: UTF8.self)  // valid UTF-8: `parse` said so
                guard let editor = TOMLLineEditor(text) else {
                    throw Problem(line: nil, message: "is not TOML the app can edit; not saved", reason: .notTOML(.other))
                }
                let edited = editor.setting(changes)
                guard edited.utf8.count <= Self.maximumSize else {
                    throw Problem(line: nil, message: "would be larger than \(Self.maximumSize / 1024) KB; not saved",
                                  reason: .tooLarge)
                }
                // The edit must read back as meant, and leave the file as good as it was.
                let check = Self.parse(edited, isCity: isCity)
                guard check.writable, keys.allSatisfy({ Self.value($0, in: check.settings) == Self.value($0, in: settings) }) else {
                    throw Problem(line: nil, message: "could not be changed in place; not saved", reason: .notTOML(.other))
                }
                written = Written(before: data, after: Data(edited.utf8))
                return Data(edited.utf8)
            }
            return (.saved, written)
        } catch {
            return (.notSaved(Self.problem(error)), nil)
        }
    }

    /// What putting bytes back did.
    public enum Replaced: Equatable, Sendable {
        case replaced
        /// The file is not `expected`: nothing was written.
        case differs
        case notSaved(Problem?)
    }

    /// Writes `bytes` over the file if it holds `expected` now (under the lock, as a save does); nil
    /// `expected`: only if there is no file; nil `bytes`: the file is removed.
    public func replace(_ expected: Data?, with bytes: Data?) -> Replaced {
        struct Differs: Error {}
        let target: URL
        switch locate() {
        case .success(let found): target = found.url
        case .failure(let problem): return .notSaved(problem)
        }
        do {
            try LockedFileUpdate(url: target, maxBytes: Self.maximumSize).update { data in
                guard data == expected else { throw Differs() }
                return bytes
            }
            return .replaced
        } catch is Differs {
            return .differs
        } catch {
            return .notSaved(Self.problem(error))
        }
    }

    /// A save's error as the problem it names (nil only for an error nothing here throws).
    private static func problem(_ error: Error) -> Problem? {
        switch error {
        case let problem as Problem: return problem
        case LockedFileUpdate.Failure.tooLarge:
            return Problem(line: nil, message: "is larger than \(Self.maximumSize / 1024) KB; not read", reason: .tooLarge)
        case LockedFileUpdate.Failure.notAFile: return Problem(line: nil, message: "is not a file; not read", reason: .notAFile)
        case LockedFileUpdate.Failure.io(let why):
            return Problem(line: nil, message: "cannot be written (\(why))", reason: .notWritable(why))
        case LockedFileUpdate.Failure.locked, LockedFileUpdate.Failure.keptChanging:
            return Problem(line: nil, message: "is being saved by another program", reason: .busy)
        default: return nil
        }
    }
}

