import Foundation
@testable import NimbusTerminal
import NimbusText

/// Terminal input: the keys are the same however the bytes are split between reads; every key is
/// within its caps (a paste of at most `pasteLimit` bytes, mouse cells within `maxCoordinate`); and a
/// key re-encoded as the terminal would send it (`Key.bytes`) reads back as the same key, as does its
/// tape name (`Key.name`).
func fuzzKeys(_ data: Data) {
    var input = Input(data)
    let split = Int(input.byte())
    let bytes = input.bytes

    func parse(_ chunks: [[UInt8]]) -> [Key] {
        var parser = KeyParser()
        var keys: [Key] = []
        for chunk in chunks { keys += parser.feed(chunk) }
        keys += parser.flushPending()
        keys += parser.endUnterminatedPaste()
        return keys
    }
    // Typed text is compared as text: a combining mark read after its base character (a read
    // boundary between them) arrives as a character of its own, and a text field joins the two.
    func typed(_ keys: [Key]) -> [String] {
        var out: [String] = []
        var text = ""
        for key in keys {
            if case .char(let c) = key { text.append(c); continue }
            if !text.isEmpty { out.append("text:" + text); text = "" }
            out.append(key.name)
        }
        if !text.isEmpty { out.append("text:" + text) }
        return out
    }
    let whole = parse([bytes])
    let cut = bytes.isEmpty ? 0 : split % (bytes.count + 1)
    let pieces = parse([Array(bytes[..<cut]), Array(bytes[cut...])])
    require(typed(whole) == typed(pieces), "split at \(cut): \(whole.map(\.name)) vs \(pieces.map(\.name))")
    let byteAtATime = parse(bytes.map { [$0] })
    require(typed(whole) == typed(byteAtATime), "one byte a read: \(whole.map(\.name)) vs \(byteAtATime.map(\.name))")

    for key in whole {
        switch key {
        case .paste(let text):
            require(text.utf8.count <= KeyParser.pasteLimit, "a paste of \(text.utf8.count) bytes")
        case .mouse(let m):
            require((0..<MouseEvent.maxCoordinate).contains(m.x) && (0..<MouseEvent.maxCoordinate).contains(m.y),
                    "mouse at \(m.x),\(m.y)")
        case .char(let c):
            require(!c.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "a control as a character: \(key.name)")
        default:
            break
        }
        if key != .unknown {
            let again = parse([key.bytes])
            require(again == [key], "\(key.name) re-encoded reads as \(again.map(\.name))")
        }
        // A tape names a key for `Press`; a character that takes no column is typed (`Type`), not named.
        if case .char(let c) = key, DisplayWidth.of(c) == 0 { continue }
        if case .paste = key {} else if case .mouse = key {} else if key != .unknown {
            require(Key(name: key.name) == key, "the name \(key.name) reads as \(String(describing: Key(name: key.name)))")
        }
    }
}

/// Display width: a truncation fits its columns, a pad fills them exactly, sanitising is idempotent
/// and leaves nothing a terminal would act on, and the whole string's width is the sum of its graphemes'.
func fuzzWidth(_ data: Data) {
    var input = Input(data)
    let cols = Int(input.byte() % 90) + 1
    let s = input.text

    let width = DisplayWidth.of(s)
    require(width >= 0, "negative width")
    let sum = s.reduce(0) { $0 + DisplayWidth.of($1) }
    require(width == sum, "width \(width) but its graphemes sum to \(sum)")

    let cut = DisplayWidth.truncate(s, to: cols)
    require(DisplayWidth.of(cut) <= cols, "\(s.debugDescription) truncated to \(cols) is \(cut.debugDescription), \(DisplayWidth.of(cut)) wide")
    let bare = DisplayWidth.truncate(s, to: cols, ellipsis: false)
    require(DisplayWidth.of(bare) <= cols, "truncated without ellipsis to \(cols) is \(DisplayWidth.of(bare)) wide")
    let padded = DisplayWidth.pad(s, to: cols)
    require(DisplayWidth.of(padded) == cols, "\(s.debugDescription) (\(width) wide) padded to \(cols) is \(padded.debugDescription), \(DisplayWidth.of(padded)) wide")

    let clean = DisplayWidth.sanitize(s)
    require(DisplayWidth.sanitize(clean) == clean, "sanitize is not idempotent")
    for scalar in clean.unicodeScalars {
        let v = scalar.value
        require(!(v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)),
                "sanitized text keeps U+\(String(v, radix: 16))")
    }
}
