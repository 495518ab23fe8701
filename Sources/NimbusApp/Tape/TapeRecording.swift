import Foundation
import NimbusTerminal

/// What a person did in the app, written as a tape (`nimbus tape --record`): typed text as `Type`,
/// other keys as `Press` (repeats counted), pauses over 300 ms as `Wait`, resizes, clicks, wheel
/// notches and drags, and at the end a `Wait` that brings the tape's clock to the moment the
/// recording ended, then a `Snapshot`.
///
/// Only keys the app read are here: nothing typed into other programs of the terminal (the shell
/// while the app was suspended, another tmux pane) ever reaches it.
struct TapeRecording {
    /// Pauses longer than this become `Wait` lines.
    static let pauseMilliseconds = 300

    /// The lines before the first key: the header comment, `Size`, `Env`, `Now`, `Args`.
    var preamble: [String]
    private var lines: [String] = []
    /// Milliseconds since the recording began, of the last event written, and the sum of the `Wait`s.
    private var lastEvent = 0
    private var waited = 0
    /// Keys of a line still being gathered (typed text, or one key repeated).
    private var typed = ""
    private var repeated: (key: Key, count: Int)?
    /// A pressed mouse button not yet released: where, and where it has been dragged to.
    private var pressed: (at: Point, dragTo: Point?)?
    /// Lines written for keys, so the last one can be taken back (the key that quit).
    private(set) var keyCount = 0

    init(preamble: [String]) {
        self.preamble = preamble
    }

    /// The header and environment lines of a recording made at `start` on a `size` terminal.
    static func preamble(start: Date, size: Size, environment: [(String, String)], arguments: [String],
                         timeZone: TimeZone = .current) -> [String] {
        let stamp = ISO8601DateFormatter.string(from: start, timeZone: timeZone, formatOptions: [.withInternetDateTime])
        var lines = [
            "# A tape recorded by `nimbus tape --record` at \(stamp): the keys, pauses, resizes and mouse",
            "# the app read, run offline in an empty home, as tapes run. Play it: nimbus tape FILE",
            "Size \(size.cols)x\(size.rows)",
        ]
        for (name, value) in environment { lines.append("Env \(name)=\(value)") }
        lines.append("Now \(stamp)")
        if !arguments.isEmpty { lines.append("Args " + arguments.joined(separator: " ")) }
        return lines
    }

    /// A key the app read at `milliseconds` since the recording began.
    mutating func key(_ key: Key, at milliseconds: Int) {
        pause(until: milliseconds)
        keyCount += 1
        switch key {
        case .char(let c):
            endRepeat()
            typed.append(c)
        case .paste(let text):
            endRepeat()
            typed += "\u{1B}[200~" + text + "\u{1B}[201~"
        case .mouse(let event):
            endLine()
            mouse(event)
        case .unknown:
            keyCount -= 1
        default:
            endTyped()
            if let r = repeated, r.key == key {
                repeated = (key, r.count + 1)
            } else {
                endRepeat()
                repeated = (key, 1)
            }
        }
    }

    /// The terminal became `size` at `milliseconds`.
    mutating func resize(_ size: Size, at milliseconds: Int) {
        pause(until: milliseconds)
        endLine()
        lines.append("Resize \(size.cols)x\(size.rows)")
    }

    /// Takes back the last key (the one that quit the app: a tape that replays it has nothing to snapshot).
    mutating func dropLastKey() {
        guard keyCount > 0 else { return }
        keyCount -= 1
        if !typed.isEmpty {
            typed.removeLast()
        } else if let r = repeated {
            repeated = r.count > 1 ? (r.key, r.count - 1) : nil
        }
    }

    /// The tape, ended at `milliseconds` with a `Snapshot NAME`.
    func text(endingAt milliseconds: Int, snapshot name: String) -> String {
        var copy = self
        copy.endLine()
        let rest = milliseconds - copy.waited
        if rest > 0 {
            // Joined to a `Wait` just written (for the key that quit, which is not played).
            if let last = copy.lines.last, last.hasPrefix("Wait "), let ms = Int(last.dropFirst(5).dropLast(2)) {
                copy.lines[copy.lines.count - 1] = "Wait \(ms + rest)ms"
            } else {
                copy.lines.append("Wait \(rest)ms")
            }
        }
        copy.lines.append("Snapshot \(name)")
        return (preamble + copy.lines).joined(separator: "\n") + "\n"
    }

    private mutating func pause(until milliseconds: Int) {
        let gap = milliseconds - lastEvent
        lastEvent = max(lastEvent, milliseconds)
        guard gap > Self.pauseMilliseconds else { return }
        endLine()
        // The wait covers the time since the last `Wait`, short gaps included: the tape's clock
        // stays with the recording's (a clock on screen then shows the same minute).
        let wait = milliseconds - waited
        lines.append("Wait \(wait)ms")
        waited += wait
    }

    private mutating func mouse(_ event: MouseEvent) {
        switch event.action {
        case .press where event.button == .left:
            pressed = (Point(x: event.x, y: event.y), nil)
        case .drag where pressed != nil:
            pressed?.dragTo = Point(x: event.x, y: event.y)
        case .release where pressed != nil:
            let start = pressed!.at
            let end = Point(x: event.x, y: event.y)
            pressed = nil
            if start != end {
                lines.append("Drag \(start.x) \(start.y) \(end.x) \(end.y)")
            } else if lines.last == "Click \(end.x) \(end.y)" {
                lines[lines.count - 1] = "DoubleClick \(end.x) \(end.y)"
            } else {
                lines.append("Click \(end.x) \(end.y)")
            }
        case .wheelUp, .wheelDown:
            lines.append("Scroll \(event.action == .wheelUp ? "up" : "down") \(event.x) \(event.y)")
        default:
            keyCount -= 1 // tapes have no line for it (another button, a wheel tilt, motion)
        }
    }

    private mutating func endLine() {
        endTyped()
        endRepeat()
    }

    private mutating func endTyped() {
        guard !typed.isEmpty else { return }
        lines.append("Type " + Self.quoted(typed))
        typed = ""
    }

    private mutating func endRepeat() {
        guard let r = repeated else { return }
        lines.append("Press \(r.key.name)" + (r.count > 1 ? " \(r.count)" : ""))
        repeated = nil
    }

    /// A tape's quoted string: `"` and `\` escaped, control characters as `\e`, `\n`, `\t`, `\xNN`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\u{1B}": out += "\\e"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
