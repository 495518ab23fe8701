import Foundation
import NimbusTerminal

/// A scripted UI test: one command a line (see DESIGN §7).
public struct Tape: Equatable {
    public enum Command: Equatable {
        case size(Size)
        case env(String, String)
        case args([String])
        case type(String)
        case press(Key, count: Int)
        case wait(milliseconds: Int)
        case expect(String)
        case expectNot(String)
        case resize(Size)
        case snapshot(String)
        case restart
        case expectExit
        /// `Serve /v1/forecast FILE`: answers requests for the path with the file (relative to the tape's folder).
        case serve(path: String, file: String)
        /// `Offline`: every request fails as unreachable (the default until a `Serve`).
        case offline
        /// `Now 2026-06-21T09:00:00+09:00`: the wall clock at start; it moves with virtual time.
        case now(Date)
    }

    public struct Line: Equatable {
        public let number: Int
        public let text: String
        public let command: Command
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The tape's name (its file name).
        public let tape: String
        public let line: Int
        public let text: String
        public let reason: String
        /// One line: `tape FILE:LINE: reason`, with control characters from the tape escaped.
        public var description: String { Tape.oneLine(tape: tape, line: line, reason) }
    }

    /// Environment variables a tape may not set: the per-tape data, cache, config and state
    /// directories (and what they default from), so a tape never reads or writes the user's files.
    public static let protectedEnvironment: Set<String> = [
        "HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "TMPDIR",
    ]

    /// `tape NAME:LINE: reason` on one line: newlines and other control characters (a tape is
    /// untrusted text) are written as escapes so they can neither split the line nor drive the terminal.
    static func oneLine(tape: String, line: Int, _ reason: String) -> String {
        var out = ""
        for scalar in "tape \(tape):\(line): \(reason)".unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x00..<0x20, 0x7F..<0xA0: out += "\\x" + String(scalar.value, radix: 16, uppercase: false)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    public let name: String
    public let lines: [Line]

    public init(name: String, source: String) throws {
        self.name = name
        var lines: [Line] = []
        for (i, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = Self.stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            do {
                lines.append(Line(number: i + 1, text: String(raw), command: try Self.parse(text)))
            } catch let reason as Reason {
                throw ParseError(tape: name, line: i + 1, text: String(raw), reason: reason.text)
            }
        }
        self.lines = lines
    }

    /// Removes a `# comment` that is not inside quotes.
    static func stripComment(_ line: String) -> String {
        var inQuotes = false
        var escaped = false
        for (i, c) in zip(line.indices, line) {
            if escaped { escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "\"" { inQuotes.toggle() }
            if c == "#", !inQuotes { return String(line[..<i]) }
        }
        return line
    }

    static func parse(_ text: String) throws -> Command {
        let word = text.prefix { !$0.isWhitespace }
        let rest = text.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
        switch word.lowercased() {
        case "size": return .size(try size(rest))
        case "resize": return .resize(try size(rest))
        case "env":
            guard let eq = rest.firstIndex(of: "="), eq != rest.startIndex else { throw Reason("expected Env NAME=value") }
            let name = String(rest[..<eq])
            guard name.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }) else {
                throw Reason("expected Env NAME=value with a NAME of letters, digits and _")
            }
            guard !protectedEnvironment.contains(name) else {
                throw Reason("Env \(name) is not allowed: each tape has its own data, cache and config directories")
            }
            return .env(name, String(rest[rest.index(after: eq)...]))
        case "args":
            let args = try words(rest)
            do {
                _ = try CLIOptions.parseCommandLine(args)
            } catch {
                throw Reason("Args: " + CLIOptions.message(for: error))
            }
            return .args(args)
        case "type": return .type(try quoted(rest))
        case "press":
            let parts = rest.split(separator: " ").map(String.init)
            guard let name = parts.first, let key = Key(name: name) else { throw Reason("unknown key \"\(rest)\"") }
            let count = parts.count > 1 ? Int(parts[1]) : 1
            guard let count, (1...10_000).contains(count), parts.count <= 2 else {
                throw Reason("expected Press KEY [COUNT] with a count from 1 to 10000")
            }
            return .press(key, count: count)
        case "wait":
            // At most an hour of virtual time.
            guard rest.hasSuffix("ms"), let ms = Int(rest.dropLast(2)), (0...3_600_000).contains(ms) else {
                if rest.hasSuffix("s"), !rest.hasSuffix("ms"), let s = Int(rest.dropLast()), (0...3600).contains(s) {
                    return .wait(milliseconds: s * 1000)
                }
                throw Reason("expected Wait 300ms or Wait 2s (at most an hour)")
            }
            return .wait(milliseconds: ms)
        case "expect": return .expect(try quoted(rest))
        case "expectnot": return .expectNot(try quoted(rest))
        case "snapshot":
            guard !rest.isEmpty, rest.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw Reason("expected Snapshot NAME (letters, digits, - and _)")
            }
            return .snapshot(rest)
        case "restart": return .restart
        case "serve":
            let parts = rest.split(separator: " ").map(String.init)
            guard parts.count == 2, parts[0].hasPrefix("/") else { throw Reason("expected Serve /PATH FILE") }
            return .serve(path: parts[0], file: parts[1])
        case "offline":
            guard rest.isEmpty else { throw Reason("Offline takes nothing") }
            return .offline
        case "now":
            guard let date = ISO8601DateFormatter().date(from: rest) else {
                throw Reason("expected Now 2026-06-21T09:00:00+09:00")
            }
            return .now(date)
        case "expectexit": return .expectExit
        default: throw Reason("unknown command \"\(word)\"")
        }
    }

    static func size(_ s: String) throws -> Size {
        let parts = s.lowercased().split(separator: "x")
        guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), c >= 1, r >= 1, c <= 1000, r <= 1000 else {
            throw Reason("expected a size like 80x24")
        }
        return Size(cols: c, rows: r)
    }

    static func quoted(_ s: String) throws -> String {
        guard s.count >= 2, s.first == "\"", s.last == "\"" else { throw Reason("expected a \"quoted\" string") }
        var out = ""
        var chars = Array(s.dropFirst().dropLast())[...]
        while let c = chars.popFirst() {
            guard c == "\\", let e = chars.popFirst() else { out.append(c); continue }
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "e": out.append("\u{1B}")
            case "x":
                let hex = String(chars.prefix(2))
                guard hex.count == 2, let v = UInt8(hex, radix: 16) else { throw Reason("expected two hex digits after \\x") }
                chars = chars.dropFirst(2)
                out.unicodeScalars.append(Unicode.Scalar(v))
            default: out.append(e)
            }
        }
        return out
    }

    static func words(_ s: String) throws -> [String] {
        s.split(separator: " ").map(String.init)
    }
}

struct Reason: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
