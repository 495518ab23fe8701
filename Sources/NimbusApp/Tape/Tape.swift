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
        /// `Expect "text"` or `Expect /regex/`: waits (on the virtual clock, up to 5 s) until the screen shows it.
        case expect(Matcher)
        /// `ExpectNot "text"` or `ExpectNot /regex/`: once the app is idle, the screen does not show it.
        case expectNot(Matcher)
        /// `ExpectGone "text"` or `ExpectGone /regex/`: waits (as `Expect` does) until the screen no longer shows it.
        case expectGone(Matcher)
        /// `ExpectStyle "text" reverse|bold|dim|underline|!bold|fg=N|bg=N|plain...`: waits until the text
        /// is on screen with every cell of it in that style (somewhere, if it shows in several places).
        case expectStyle(Matcher, StyleSpec)
        /// `ExpectCell X Y "c" [style words]`: waits until the cell (0-based column and row) holds the grapheme.
        case expectCell(x: Int, y: Int, text: String, style: StyleSpec?)
        /// `ExpectCursor X Y` or `ExpectCursor hidden`: waits until the hardware cursor is there
        /// (where Korean and Japanese input methods show the text being composed).
        case expectCursor(Point?)
        /// `Type@80ms "seoul"`, `Press@200ms Down 3`: the keys one at a time, this much virtual time
        /// apart (a recording then shows the typing; debounces see each key).
        indirect case paced(milliseconds: Int, Command)
        /// `Source FILE`: plays another tape's lines here (FILE inside the tape's folder, as `Serve` files are).
        case source(String)
        case resize(Size)
        case snapshot(String)
        case restart
        case expectExit
        /// `Serve /v1/forecast FILE [status=N] [header="Name: value"]... [delay=200ms]`: answers requests
        /// for the path (a later `Serve` of the same path replaces the answer).
        case serve(path: String, answer: Answer)
        /// `ExpectRequest /path Header ["value"]`: the last request for the path carried the header (with that value).
        case expectRequest(path: String, header: String, value: String?)
        /// `Offline`: every request fails as unreachable (the default until a `Serve`).
        case offline
        /// `Now 2026-06-21T09:00:00+09:00`: the wall clock at start; it moves with virtual time.
        case now(Date)
        /// `Config FILE`: the tape's `config.toml` is a copy of FILE (relative to the tape's folder),
        /// before the app starts.
        case config(String)
        /// `ExpectConfig "text"`: the tape's `config.toml` contains the text.
        case expectConfig(String)
        /// `File NAME FIXTURE`: the tape's home folder holds a copy of FIXTURE (relative to the tape's
        /// folder) named NAME, a plain file name (what the app may be asked to open as `~/NAME`).
        case file(name: String, fixture: String)
        /// `Click X Y`, `DoubleClick X Y`, `Scroll up|down X Y`, `Drag X1 Y1 X2 Y2`: mouse reports
        /// (0-based column and row) sent as the SGR 1006 bytes a terminal writes, through the key parser.
        case mouse([MouseEvent])
        /// `ExpectClipboard "text"`: the last OSC 52 write put exactly this text on the clipboard.
        case expectClipboard(String)
    }

    /// What a `Serve` line answers with.
    public struct Answer: Equatable, Sendable {
        /// The body, relative to the tape's folder; nil for `-` (no body, as a 304 has).
        public var file: String?
        public var status: Int
        /// In the order written; names as written (the client sees them lower-cased, as a server's).
        public var headers: [Header]
        /// Virtual time before the answer comes; a request whose timeout is shorter times out first.
        public var delayMilliseconds: Int

        public init(file: String?, status: Int = 200, headers: [Header] = [], delayMilliseconds: Int = 0) {
            self.file = file
            self.status = status
            self.headers = headers
            self.delayMilliseconds = delayMilliseconds
        }
    }

    public struct Header: Equatable, Sendable {
        public let name: String
        public let value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
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
        // Lines, quotes, escapes and comments are found among scalars, not Characters: a combining
        // mark joins the quote before it into one Character, U+0600 the quote after it, and "\r\n" is
        // one Character that is not "\n".
        for (i, scalars) in source.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let raw = String(scalars.last == "\r" ? scalars.dropLast() : scalars)
            let text = Self.stripComment(raw).trimmingCharacters(in: .whitespaces)
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
        let scalars = line.unicodeScalars
        var inQuotes = false
        var escaped = false
        for i in scalars.indices {
            let c = scalars[i]
            if escaped { escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "\"" { inQuotes.toggle() }
            if c == "#", !inQuotes { return String(scalars[..<i]) }
        }
        return line
    }

    static func parse(_ text: String) throws -> Command {
        let wordScalars = text.unicodeScalars.prefix { !$0.properties.isWhitespace }
        let word = String(wordScalars)
        let rest = String(text.unicodeScalars[wordScalars.endIndex...]).trimmingCharacters(in: .whitespaces)
        if let at = word.firstIndex(of: "@") {
            let command = word[..<at].lowercased()
            guard command == "type" || command == "press" else { throw Reason("only Type and Press take @TIME") }
            guard let ms = milliseconds(String(word[word.index(after: at)...])), ms > 0, ms <= 10_000 else {
                throw Reason("expected \(word[..<at])@80ms (a pace from 1 ms to 10 s)")
            }
            return .paced(milliseconds: ms, try parse(word[..<at] + " " + rest))
        }
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
            guard let ms = milliseconds(rest) else { throw Reason("expected Wait 300ms or Wait 2s (at most an hour)") }
            return .wait(milliseconds: ms)
        case "expect": return .expect(try matcher(rest))
        case "expectnot": return .expectNot(try matcher(rest))
        case "expectgone":
            let what = try matcher(rest)
            guard what != .text("") else { throw Reason("ExpectGone: expected a text that is not empty") }
            return .expectGone(what)
        case "expectstyle":
            let (what, words) = try matcherPrefix(rest)
            guard what != .text("") else { throw Reason("ExpectStyle: expected a text that is not empty") }
            do {
                return .expectStyle(what, try StyleSpec(words: words.split(separator: " ").map(String.init)))
            } catch let problem as StyleSpec.Problem {
                throw Reason("ExpectStyle: \(problem)")
            }
        case "expectcell":
            let parts = try arguments(rest)
            let usage = "expected ExpectCell X Y \"c\" [style words] (0-based column and row, one character)"
            guard parts.count >= 3, !parts[0].quoted, !parts[1].quoted, parts[2].quoted,
                  let x = Int(parts[0].text), let y = Int(parts[1].text), (0...999).contains(x), (0...999).contains(y),
                  parts[2].text.count == 1 else { throw Reason(usage) }
            var style: StyleSpec?
            if parts.count > 3 {
                guard parts[3...].allSatisfy({ !$0.quoted }) else { throw Reason(usage) }
                do { style = try StyleSpec(words: parts[3...].map(\.text)) } catch let problem as StyleSpec.Problem {
                    throw Reason("ExpectCell: \(problem)")
                }
            }
            return .expectCell(x: x, y: y, text: parts[2].text.precomposedStringWithCanonicalMapping, style: style)
        case "expectcursor":
            if rest.lowercased() == "hidden" { return .expectCursor(nil) }
            let n = try cells(rest, count: 2, usage: "expected ExpectCursor X Y (0-based column and row) or ExpectCursor hidden")
            return .expectCursor(Point(x: n[0], y: n[1]))
        case "source":
            guard !rest.isEmpty, !rest.contains(" ") else { throw Reason("expected Source FILE") }
            return .source(rest)
        case "snapshot":
            guard !rest.isEmpty, rest.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw Reason("expected Snapshot NAME (letters, digits, - and _)")
            }
            return .snapshot(rest)
        case "restart": return .restart
        case "serve": return try serve(rest)
        case "expectrequest":
            let parts = try arguments(rest)
            guard (2...3).contains(parts.count), parts[0].text.hasPrefix("/"), !parts[0].quoted,
                  !parts[1].quoted, isHeaderName(parts[1].text), parts.count == 2 || parts[2].quoted else {
                throw Reason("expected ExpectRequest /PATH Header-Name [\"value\"]")
            }
            return .expectRequest(path: parts[0].text, header: parts[1].text, value: parts.count == 3 ? parts[2].text : nil)
        case "offline":
            guard rest.isEmpty else { throw Reason("Offline takes nothing") }
            return .offline
        case "now":
            guard let date = ISO8601DateFormatter().date(from: rest) else {
                throw Reason("expected Now 2026-06-21T09:00:00+09:00")
            }
            return .now(date)
        case "expectexit": return .expectExit
        case "config":
            guard !rest.isEmpty, !rest.contains(" ") else { throw Reason("expected Config FILE") }
            return .config(rest)
        case "expectconfig": return .expectConfig(try quoted(rest))
        case "file":
            let parts = rest.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard parts.count == 2, !parts[0].contains("/"), parts[0] != ".", parts[0] != ".." else {
                throw Reason("expected File NAME FIXTURE (NAME a plain file name, made in the tape's home folder)")
            }
            return .file(name: parts[0], fixture: parts[1])
        case "click", "doubleclick":
            let n = try cells(rest, count: 2, usage: "expected \(word) X Y (0-based column and row)")
            let click = [MouseEvent(.press, x: n[0], y: n[1]), MouseEvent(.release, x: n[0], y: n[1])]
            return .mouse(word.lowercased() == "click" ? click : click + click)
        case "scroll":
            let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
            let usage = "expected Scroll up|down X Y"
            guard parts.count == 2, ["up", "down"].contains(parts[0].lowercased()) else { throw Reason(usage) }
            let n = try cells(parts[1], count: 2, usage: usage)
            return .mouse([MouseEvent(parts[0].lowercased() == "up" ? .wheelUp : .wheelDown, button: .none, x: n[0], y: n[1])])
        case "drag":
            let n = try cells(rest, count: 4, usage: "expected Drag X1 Y1 X2 Y2")
            // The pointer goes one cell at a time, as a hand-held mouse reports it.
            let steps = max(abs(n[2] - n[0]), abs(n[3] - n[1]))
            var events = [MouseEvent(.press, x: n[0], y: n[1])]
            for i in stride(from: 1, through: steps, by: 1) {
                events.append(MouseEvent(.drag, x: n[0] + (n[2] - n[0]) * i / steps, y: n[1] + (n[3] - n[1]) * i / steps))
            }
            events.append(MouseEvent(.release, x: n[2], y: n[3]))
            return .mouse(events)
        case "expectclipboard": return .expectClipboard(try quoted(rest))
        default: throw Reason("unknown command \"\(word)\"")
        }
    }

    /// `"text"` or `/regex/` (`/regex/i` ignores case), and nothing after it.
    static func matcher(_ rest: String) throws -> Matcher {
        let (what, after) = try matcherPrefix(rest)
        guard after.isEmpty else { throw Reason("unexpected \(after) after \(what)") }
        return what
    }

    /// A `"text"` or `/regex/[i]` at the start of `rest`, and what follows it.
    static func matcherPrefix(_ rest: String) throws -> (Matcher, String) {
        let usage = "expected a \"quoted text\" or a /regular expression/"
        let scalars = rest.unicodeScalars
        if scalars.first == "/" {
            var escaped = false
            var end: String.Index?
            for i in scalars.indices.dropFirst() {
                if escaped { escaped = false; continue }
                if scalars[i] == "\\" { escaped = true; continue }
                if scalars[i] == "/" { end = i; break }
            }
            guard let end else { throw Reason("a /regular expression/ has no closing /") }
            let pattern = String(scalars[scalars.index(after: scalars.startIndex)..<end])
            var after = String(scalars[scalars.index(after: end)...])[...]
            let ignoringCase = after.first == "i"
            if ignoringCase { after = after.dropFirst() }
            guard after.isEmpty || after.first == " " || after.first == "\t" else { throw Reason(usage) }
            let matcher = Matcher.pattern(pattern, ignoringCase: ignoringCase)
            if let problem = matcher.problem { throw Reason(problem) }
            return (matcher, after.trimmingCharacters(in: .whitespaces))
        }
        guard scalars.first == "\"" else { throw Reason(usage) }
        // The first argument, quoted; the rest is left as written.
        var escaped = false
        for i in scalars.indices.dropFirst() {
            if escaped { escaped = false; continue }
            if scalars[i] == "\\" { escaped = true; continue }
            if scalars[i] == "\"" {
                let text = try quoted(String(scalars[...i]))
                return (.text(text), String(scalars[scalars.index(after: i)...]).trimmingCharacters(in: .whitespaces))
            }
        }
        throw Reason("a quoted string has no closing quote")
    }

    /// `/PATH FILE [status=N] [header="Name: value"]... [delay=200ms|2s]`; FILE `-` is no body.
    static func serve(_ rest: String) throws -> Command {
        let usage = "expected Serve /PATH FILE|- [status=200] [header=\"Name: value\"]... [delay=200ms]"
        let parts = try arguments(rest)
        guard parts.count >= 2, parts[0].text.hasPrefix("/"), !parts[0].quoted, !parts[1].quoted else { throw Reason(usage) }
        var answer = Answer(file: parts[1].text == "-" ? nil : parts[1].text)
        var seen: Set<String> = []
        for option in parts.dropFirst(2) {
            guard let eq = option.text.firstIndex(of: "="), !option.quoted else { throw Reason(usage) }
            let name = String(option.text[..<eq])
            let value = String(option.text[option.text.index(after: eq)...])
            if name != "header" {
                guard seen.insert(name).inserted else { throw Reason("Serve: \(name)= given twice") }
            }
            switch name {
            case "status":
                guard let status = Int(value), (100...599).contains(status) else {
                    throw Reason("Serve: expected status=N with N from 100 to 599")
                }
                answer.status = status
            case "header":
                guard option.valueQuoted, let colon = value.firstIndex(of: ":") else {
                    throw Reason("Serve: expected header=\"Name: value\"")
                }
                let headerName = String(value[..<colon])
                let headerValue = value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                guard isHeaderName(headerName), !headerValue.contains(where: { $0.isNewline || $0 == "\r" }) else {
                    throw Reason("Serve: expected header=\"Name: value\" with a name of letters, digits and -")
                }
                answer.headers.append(Header(headerName, headerValue))
            case "delay":
                guard let ms = milliseconds(value) else { throw Reason("Serve: expected delay=300ms or delay=2s (at most an hour)") }
                answer.delayMilliseconds = ms
            default:
                throw Reason("Serve: unknown option \(name)= (status=, header=, delay=)")
            }
        }
        return .serve(path: parts[0].text, answer: answer)
    }

    /// A header name as HTTP allows it (letters, digits and `-`, the common subset of tokens).
    static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// `count` cell coordinates (0-based, at most 999).
    static func cells(_ text: String, count: Int, usage: String) throws -> [Int] {
        let numbers = text.split(separator: " ").map { Int($0) }
        guard numbers.count == count, numbers.allSatisfy({ $0 != nil && (0...999).contains($0!) }) else { throw Reason(usage) }
        return numbers.map { $0! }
    }

    /// `300ms` or `2s`, at most an hour.
    static func milliseconds(_ text: String) -> Int? {
        if text.hasSuffix("ms"), let ms = Int(text.dropLast(2)), (0...3_600_000).contains(ms) { return ms }
        if text.hasSuffix("s"), !text.hasSuffix("ms"), let s = Int(text.dropLast()), (0...3600).contains(s) { return s * 1000 }
        return nil
    }

    /// One argument of a line: a bare word, a `"quoted string"`, or `name="quoted value"`.
    struct Argument: Equatable {
        /// For `name="value"`, `name=value` unescaped.
        let text: String
        /// The whole argument was a quoted string.
        let quoted: Bool
        /// The part after `=` was a quoted string.
        let valueQuoted: Bool
    }

    /// Splits on spaces outside quotes; quoted parts are unescaped as `quoted` does.
    static func arguments(_ s: String) throws -> [Argument] {
        var out: [Argument] = []
        var chars = Substring(s).unicodeScalars
        while true {
            chars = chars.drop { $0 == " " || $0 == "\t" }
            guard !chars.isEmpty else { return out }
            var raw = ""
            var inQuotes = false
            var escaped = false
            while let c = chars.first, inQuotes || (c != " " && c != "\t") {
                chars = chars.dropFirst()
                raw.unicodeScalars.append(c)
                if escaped { escaped = false; continue }
                if c == "\\" && inQuotes { escaped = true; continue }
                if c == "\"" { inQuotes.toggle() }
            }
            guard !inQuotes else { throw Reason("a quoted string has no closing quote") }
            let rawScalars = raw.unicodeScalars
            if rawScalars.first == "\"" {
                out.append(Argument(text: try quoted(raw), quoted: true, valueQuoted: false))
            } else if let eq = rawScalars.firstIndex(of: "="), rawScalars[rawScalars.index(after: eq)...].first == "\"" {
                let value = try quoted(String(rawScalars[rawScalars.index(after: eq)...]))
                out.append(Argument(text: String(rawScalars[...eq]) + value, quoted: false, valueQuoted: true))
            } else {
                guard !raw.contains("\"") else { throw Reason("unexpected quote in \(raw)") }
                out.append(Argument(text: raw, quoted: false, valueQuoted: false))
            }
        }
    }

    static func size(_ s: String) throws -> Size {
        let parts = s.lowercased().split(separator: "x")
        guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), c >= 1, r >= 1, c <= 1000, r <= 1000 else {
            throw Reason("expected a size like 80x24")
        }
        return Size(cols: c, rows: r)
    }

    /// A `"quoted"` string unescaped, scalar by scalar (see `init`).
    static func quoted(_ s: String) throws -> String {
        let all = s.unicodeScalars
        guard all.count >= 2, all.first == "\"", all.last == "\"" else { throw Reason("expected a \"quoted\" string") }
        var out = String.UnicodeScalarView()
        var chars = all.dropFirst().dropLast()
        while let c = chars.popFirst() {
            guard c == "\\", let e = chars.popFirst() else { out.append(c); continue }
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "e": out.append("\u{1B}")
            case "x":
                let hex = chars.prefix(2)
                guard hex.count == 2, hex.allSatisfy(\.properties.isASCIIHexDigit), let v = UInt8(String(hex), radix: 16) else {
                    throw Reason("expected two hex digits after \\x")
                }
                chars = chars.dropFirst(2)
                out.append(Unicode.Scalar(v))
            default: out.append(e)
            }
        }
        return String(out)
    }

    static func words(_ s: String) throws -> [String] {
        s.split(separator: " ").map(String.init)
    }
}

struct Reason: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
