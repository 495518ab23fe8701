/// An asciicast v2 recording (asciinema's format): a JSON header line, then one JSON array a line
/// per event: `[seconds, "o", "bytes written"]`, `[seconds, "r", "COLSxROWS"]` for a resize,
/// `[seconds, "m", "label"]` for a marker.
public struct Asciicast: Sendable {
    public enum Kind: String, Sendable {
        case output = "o", resize = "r", marker = "m"
    }

    public struct Event: Equatable, Sendable {
        public let seconds: Double
        public let kind: Kind
        public let data: String
    }

    public var size: Size
    public var title: String?
    public private(set) var events: [Event] = []
    /// Bytes of output held; past `maxOutputBytes` the recording stops and says so.
    public private(set) var outputBytes = 0
    public private(set) var truncated = false
    public static let maxOutputBytes = 64 << 20

    public init(size: Size, title: String? = nil) {
        self.size = size
        self.title = title
    }

    /// Bytes the program wrote at `seconds`. Each call is one write of whole frames, so never a
    /// character cut in two; a stray invalid byte would be written as U+FFFD.
    public mutating func output(_ bytes: [UInt8], at seconds: Double) {
        guard !bytes.isEmpty, !truncated else { return }
        if outputBytes + bytes.count > Self.maxOutputBytes {
            truncated = true
            events.append(Event(seconds: seconds, kind: .marker, data: "recording stopped at 64 MB of output"))
            return
        }
        outputBytes += bytes.count
        events.append(Event(seconds: seconds, kind: .output, data: String(decoding: bytes, as: UTF8.self)))
    }

    public mutating func resize(to size: Size, at seconds: Double) {
        guard !truncated else { return }
        events.append(Event(seconds: seconds, kind: .resize, data: "\(size.cols)x\(size.rows)"))
    }

    public mutating func marker(_ label: String, at seconds: Double) {
        guard !truncated else { return }
        events.append(Event(seconds: seconds, kind: .marker, data: label))
    }

    /// The file: the header (size, title, and the terminal the bytes are for), then the events.
    public var text: String {
        var header = "{\"version\": 2, \"width\": \(size.cols), \"height\": \(size.rows)"
        if let title { header += ", \"title\": \(Self.json(title))" }
        header += ", \"env\": {\"TERM\": \"xterm-256color\"}}"
        var out = header + "\n"
        for event in events {
            out += "[\(Self.seconds(event.seconds)), \"\(event.kind.rawValue)\", \(Self.json(event.data))]\n"
        }
        return out
    }

    /// Microseconds, as asciinema writes them: `1.250000`.
    static func seconds(_ value: Double) -> String {
        let micros = Int((max(0, value) * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// A JSON string: quote, backslash and every control character escaped; the rest as UTF-8.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// A terminal backend that passes everything to a `FakeTerminal` and also encodes each frame into
/// the bytes a real terminal would get (`FrameEncoder`, with `sequences`), handing them to `onWrite`
/// at every flush: what the tapes record as an asciicast.
///
/// The bytes are the frames only: switching mouse reports on and off and OSC 52 clipboard writes,
/// which would act on the terminal of whoever plays the recording, are not in them.
public final class EncodingTerminal: TerminalBackend {
    public let screen: FakeTerminal
    private var encoder: FrameEncoder
    private var cursor: Point?
    public var onWrite: ([UInt8]) -> Void

    public init(_ screen: FakeTerminal, sequences: FrameEncoder.Sequences = .xterm256Color,
                onWrite: @escaping ([UInt8]) -> Void) {
        self.screen = screen
        self.encoder = FrameEncoder(sequences: sequences)
        self.onWrite = onWrite
    }

    public var size: Size { screen.size }
    public var supportsColor: Bool { screen.supportsColor }

    public func draw(_ changes: [CellChange]) {
        screen.draw(changes)
        encoder.draw(changes, size: screen.size)
    }

    public func setCursor(_ p: Point?) {
        screen.setCursor(p)
        cursor = p
    }

    public func flush() {
        screen.flush()
        let bytes = encoder.finish(cursor: cursor, size: screen.size)
        if !bytes.isEmpty { onWrite(bytes) }
    }

    public func clearAll() {
        screen.clearAll()
        encoder.clear()
    }

    public func copyToClipboard(_ text: String) { screen.copyToClipboard(text) }
    public func setMouseReporting(_ on: Bool) { screen.setMouseReporting(on) }
}
