import Foundation
import Logging
import Synchronization

/// The parts of the app that log, each with its own logger (label `nimbus.<subsystem>`).
public enum LogSubsystem: String, CaseIterable, Sendable {
    case http, weather, tmdb, quakes, db
}

/// The app's log: off unless `NIMBUS_LOG` names a level (`debug`, `info`, …) or `--log-file` is
/// given; then every line goes to one file (`$XDG_STATE_HOME/nimbus/nimbus.log` by default), never
/// to the terminal, which the UI owns.
///
/// Off, each logger's level is `critical` with a handler that drops everything: swift-log checks the
/// level before it makes a message (the message is an autoclosure), so a log call formats nothing.
public struct NimbusLog: Sendable {
    /// The level lines are kept from; nil when logging is off.
    public let level: Logger.Level?
    /// Where lines go when logging is on.
    public let file: LogFile?

    /// No log.
    public static let off = NimbusLog(level: nil, file: nil)

    public init(level: Logger.Level?, file: LogFile?) {
        self.level = file == nil ? nil : level
        self.file = level == nil ? nil : file
    }

    public var isOn: Bool { level != nil }

    /// The logger of `subsystem`.
    public func logger(_ subsystem: LogSubsystem) -> Logger {
        let label = "nimbus." + subsystem.rawValue
        guard let level, let file else {
            var logger = Logger(label: label, factory: { _ in SwiftLogNoOpLogHandler() })
            logger.logLevel = .critical
            return logger
        }
        var logger = Logger(label: label, factory: { _ in FileLogHandler(subsystem: subsystem.rawValue, file: file) })
        logger.logLevel = level
        return logger
    }

    /// The level `NIMBUS_LOG` names (any of swift-log's: trace, debug, info, notice, warning, error,
    /// critical); nil for unset, empty, `off` or a word it doesn't know.
    public static func level(environment: [String: String]) -> Logger.Level? {
        guard let text = environment["NIMBUS_LOG"]?.trimmingCharacters(in: .whitespaces).lowercased(),
              !text.isEmpty, text != "off" else { return nil }
        return Logger.Level(rawValue: text)
    }

    /// `$XDG_STATE_HOME/nimbus/nimbus.log`, else `~/.local/state/nimbus/nimbus.log`.
    public static func defaultFile(environment: [String: String]) -> URL {
        NimbusDirectories(environment: environment).state.appendingPathComponent("nimbus.log")
    }

    /// The log `NIMBUS_LOG` and `--log-file` ask for: a file alone logs at `info`; a level alone
    /// writes to the default file. Throws when the file can't be opened.
    public static func configured(environment: [String: String], logFile: String?,
                                  secrets: [String] = []) throws -> NimbusLog {
        let level = level(environment: environment) ?? (logFile == nil ? nil : .info)
        guard let level else { return .off }
        let url = logFile.map { URL(fileURLWithPath: $0) } ?? defaultFile(environment: environment)
        return NimbusLog(level: level, file: try LogFile(url: url, secrets: secrets))
    }
}

/// Writes a logger's lines to a `LogFile`: `2026-11-24T01:02:03.456Z info http: message key=value`.
public struct FileLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let subsystem: String
    private let file: LogFile

    public init(subsystem: String, file: LogFile) {
        self.subsystem = subsystem
        self.file = file
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = Self.timestamp(Date()) + " " + event.level.rawValue + " " + subsystem + ": " + event.message.description
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for key in all.keys.sorted() { line += " \(key)=\(all[key]!)" }
        file.write(line)
    }

    static func timestamp(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        let millis = Int((date.timeIntervalSince1970 - Double(time)) * 1000)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }
}

/// A log file readable by its owner only when the log makes it (0600, in a 0700 folder it makes; a
/// file or folder that was there keeps its mode), rotated when it would
/// pass `maxBytes`: `nimbus.log` becomes `nimbus.log.1`, that one `nimbus.log.2`, and the oldest is
/// dropped, so `keep` files at most. Each line has the secrets it was given replaced by `REDACTED`
/// (a last guard: requests are redacted before they are formatted).
public final class LogFile: Sendable {
    public let url: URL
    public let maxBytes: Int
    public let keep: Int
    private let secrets: [String]
    private struct State {
        var fd: Int32
        var size: Int
    }
    private let state: Mutex<State>

    public struct OpenError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "can't write the log file \(path): \(reason)" }
    }

    public init(url: URL, maxBytes: Int = 1 << 20, keep: Int = 3, secrets: [String] = []) throws {
        self.url = url
        self.maxBytes = maxBytes
        self.keep = max(1, keep)
        // Short values would redact ordinary words; TMDB keys are 32 characters or more.
        self.secrets = secrets.filter { $0.count >= 8 }
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw OpenError(path: url.path, reason: "its folder can't be made")
        }
        let fd = try Self.open(url)
        var info = stat()
        fstat(fd, &info)
        state = Mutex(State(fd: fd, size: Int(info.st_size)))
    }

    deinit {
        _ = state.withLock { close($0.fd) }
    }

    private static func open(_ url: URL) throws -> Int32 {
        // A file the log makes is 0600; one that was there (`--log-file` naming the user's own) keeps its mode.
        let fd = Glibc.open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw OpenError(path: url.path, reason: String(cString: strerror(errno))) }
        return fd
    }

    /// The file's rotated copies, newest first: `nimbus.log.1`, `nimbus.log.2`, …
    public func rotated(_ n: Int) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".\(n)")
    }

    /// Appends `line` and a newline, rotating first when the file would pass `maxBytes`.
    public func write(_ line: String) {
        var text = line
        for secret in secrets where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: "REDACTED")
        }
        let bytes = Array((text + "\n").utf8)
        state.withLock { state in
            if state.size > 0, state.size + bytes.count > maxBytes { rotate(&state) }
            let written = bytes.withUnsafeBytes { Glibc.write(state.fd, $0.baseAddress, $0.count) }
            if written > 0 { state.size += written }
        }
    }

    private func rotate(_ state: inout State) {
        close(state.fd)
        if keep > 1 {
            for n in stride(from: keep - 1, to: 1, by: -1) { rename(rotated(n - 1).path, rotated(n).path) }
            rename(url.path, rotated(1).path)
        } else {
            unlink(url.path)
        }
        state.fd = (try? Self.open(url)) ?? -1
        state.size = 0
    }
}
