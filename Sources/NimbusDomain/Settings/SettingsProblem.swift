import Foundation

/// One thing wrong with the settings file: what, and where. The app says it in the UI language
/// from `reason`; `message` is the English the log and the tests read.
public struct SettingsProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public static let fileName = "config.toml"
    /// A settings file is a dozen lines: anything larger is not one, and is not read.
    public static let maximumFileSize = 64 * 1024

    /// What is wrong, for a message in the UI language.
    public enum Reason: Equatable, Sendable {
        /// `key` must be one of `allowed` (the home key: a city id or "lat,lon", with `allowed` empty).
        case badValue(key: String, allowed: [String])
        /// The home key names a city id the catalogue does not have.
        case unknownCity(Int)
        /// Not TOML: the text cannot be read as settings at all.
        case notTOML(Syntax)
        /// A directory, fifo, socket, device, or another user's link: not read.
        case notAFile
        case tooLarge
        /// Unreadable, not UTF-8, or not in a folder.
        case unreadable
        /// A save could not be written there (its folder read-only or full, its lock file in the
        /// way): the system's words.
        case notWritable(String)
        /// Another program held it, or kept changing it, while a save waited.
        case busy
    }

    /// What kind of text stopped the reading, found by the app itself (the parser's own words are
    /// for the log only).
    public enum Syntax: Equatable, Sendable {
        /// A quote that is not closed on its line.
        case unclosedString
        /// A line that is neither `key = value`, a `[table]` nor a comment.
        case notKeyValue
        /// A key with nothing after its `=`.
        case missingValue
        /// A NUL byte, which TOML never allows.
        case nulByte
        /// Anything else.
        case other
    }

    /// The line (from 1) it is on, when it is on one.
    public let line: Int?
    /// The column (from 1, in characters) on that line, when known.
    public let column: Int?
    /// In English, as the log and the tests read it.
    public let message: String
    public let reason: Reason

    public init(line: Int?, column: Int? = nil, message: String, reason: Reason) {
        self.line = line
        self.column = column
        self.message = message
        self.reason = reason
    }

    /// The setting the problem is about, when it is about one (`units`, `home`).
    public var key: String? {
        switch reason {
        case .badValue(let key, _): return key
        case .unknownCity: return UserSettings.Key.home.rawValue
        case .notTOML, .notAFile, .tooLarge, .unreadable, .notWritable, .busy: return nil
        }
    }

    /// "config.toml line 3: units must be metric, imperial or auto".
    public var description: String {
        if let line { return "\(Self.fileName) line \(line): \(message)" }
        return "\(Self.fileName) \(message)"
    }
}
