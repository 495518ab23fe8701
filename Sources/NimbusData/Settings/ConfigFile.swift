import Foundation
import NimbusDomain
import TOMLKit

/// `$XDG_CONFIG_HOME/nimbus/config.toml`: the saved settings. Read without following a link and
/// with a size cap; written atomically with mode 0600, keeping keys it does not know; never
/// written while what is there could not be read or has a bad value.
public struct ConfigFile: Sendable {
    /// A config file is a dozen lines: anything larger is not one.
    public static let maximumSize = 64 * 1024
    public static let fileName = "config.toml"

    /// One thing wrong with the file, for the status bar.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// What is wrong, for a message in the UI language.
        public enum Reason: Equatable, Sendable {
            /// `key` must be one of `allowed` (the home key: a city id or "lat,lon", with `allowed` empty).
            case badValue(key: String, allowed: [String])
            case notTOML
            /// A link, directory, fifo…: not read.
            case notAFile
            case tooLarge
            /// Unreadable, or not UTF-8.
            case unreadable
        }

        /// The line (from 1) it is on, when it is on one.
        public let line: Int?
        /// In English, as the log and the tests read it.
        public let message: String
        public let reason: Reason

        public init(line: Int?, message: String, reason: Reason) {
            self.line = line
            self.message = message
            self.reason = reason
        }

        /// "config.toml line 3: units must be metric, imperial or auto".
        public var description: String {
            if let line { return "\(ConfigFile.fileName) line \(line): \(message)" }
            return "\(ConfigFile.fileName) \(message)"
        }
    }

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

    public init(url: URL) { self.url = url }

    /// `config.toml` in the config directory `environment` names.
    public init(environment: [String: String]) {
        url = NimbusDirectories(environment: environment).config.appendingPathComponent(Self.fileName)
    }

    /// Reads the file: missing is no settings and no problem.
    public func load() -> Loaded {
        switch SafeFile.kind(atPath: url.path) {
        case .missing: return Loaded()
        case .regular: break
        case .directory: return Self.unreadable("is a directory, not a file; not read", .notAFile)
        case .other(let name): return Self.unreadable("is a \(name), not a file; not read", .notAFile)
        }
        guard let data = SafeFile.read(url, maxBytes: Self.maximumSize) else {
            var st = stat()
            if lstat(url.path, &st) == 0, Int(st.st_size) > Self.maximumSize {
                return Self.unreadable("is larger than \(Self.maximumSize / 1024) KB; not read", .tooLarge)
            }
            return Self.unreadable("cannot be read; not used", .unreadable)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return Self.unreadable("is not UTF-8 text; not read", .unreadable)
        }
        return Self.parse(text)
    }

    private static func unreadable(_ message: String, _ reason: Problem.Reason) -> Loaded {
        Loaded(problems: [Problem(line: nil, message: message, reason: reason)], writable: false)
    }

    /// The settings in `text`: each bad value is a problem (with its line) and left unset.
    public static func parse(_ text: String) -> Loaded {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            return Loaded(problems: [Problem(line: error.source.begin.line,
                                             message: "is not TOML (\(oneLine(error.description)))", reason: .notTOML)],
                          writable: false)
        } catch {
            return Loaded(problems: [Problem(line: nil, message: "is not TOML", reason: .notTOML)], writable: false)
        }
        var settings = UserSettings()
        var problems: [Problem] = []
        func bad(_ key: UserSettings.Key, _ allowed: [String]) {
            let message: String
            if allowed.isEmpty {
                message = "must be a GeoNames city id or \"lat,lon\""
            } else if allowed.count == 1 {
                message = "must be " + allowed[0]
            } else {
                message = "must be " + allowed.dropLast().joined(separator: ", ") + " or " + allowed.last!
            }
            problems.append(Problem(line: line(of: key.rawValue, in: text), message: "\(key.rawValue) \(message)",
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
                settings.home = home
            } else {
                bad(.home, [])
            }
        }
        return Loaded(settings: settings, problems: problems, writable: problems.isEmpty)
    }

    /// The line (from 1) where `key` is set, if a line begins with it.
    static func line(of key: String, in text: String) -> Int? {
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            for quote in ["\"", "'"] where rest.hasPrefix(quote + key + quote) {
                rest = rest.dropFirst(key.count + 2)
                return rest.drop { $0 == " " || $0 == "\t" }.hasPrefix("=") ? i + 1 : nil
            }
            guard rest.hasPrefix(key) else { continue }
            if rest.dropFirst(key.count).drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("=") { return i + 1 }
        }
        return nil
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The TOML text for `settings`, on top of `base` (keys the app does not know are kept).
    public static func render(_ settings: UserSettings, base: String? = nil) -> String {
        let table = (base.flatMap { try? TOMLTable(string: $0) }) ?? TOMLTable()
        func set(_ key: UserSettings.Key, _ value: TOMLValueConvertible?) {
            if let value { table[key.rawValue] = value } else { table.remove(at: key.rawValue) }
        }
        set(.units, settings.units?.rawValue)
        set(.temperatureUnit, settings.temperatureUnit?.rawValue)
        set(.windUnit, settings.windUnit?.rawValue)
        set(.clock, settings.clock.map { Int($0.rawValue)! })
        set(.theme, settings.theme?.rawValue)
        set(.mapStyle, settings.mapStyle?.rawValue)
        set(.mouse, settings.mouse)
        set(.defaultTab, settings.defaultTab)
        set(.home, settings.home?.text)
        let text = table.convert(to: .toml)
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// Writes `settings` when the file is missing or reads cleanly now; false (and nothing written)
    /// when it is a link, unreadable, not TOML, has a bad value, or the write failed.
    @discardableResult
    public func save(_ settings: UserSettings) -> Bool {
        var base: String?
        switch SafeFile.kind(atPath: url.path) {
        case .missing: break
        case .regular:
            guard let data = SafeFile.read(url, maxBytes: Self.maximumSize),
                  let text = String(data: data, encoding: .utf8), Self.parse(text).writable else { return false }
            base = text
        default: return false
        }
        return SafeFile.write(Data(Self.render(settings, base: base).utf8), to: url, mode: 0o600)
    }
}
