/// Turns raw terminal input bytes into keys; a pure state machine that tests feed directly.
public struct KeyParser {
    /// Bracketed paste keeps at most this many bytes; the rest is dropped.
    public static let pasteLimit = 64 * 1024
    private static let csiLimit = 32
    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E] // ESC [ 2 0 1 ~

    private enum State: Equatable {
        case ground
        case escape          // got ESC
        case csi             // ESC [ ... collecting parameters
        case csiIgnore       // overlong CSI: swallow until the final byte
        case linuxFunction   // ESC [ [ (Linux console F1–F5)
        case ss3             // ESC O
        case paste           // inside ESC[200~ ... ESC[201~
        case osc             // ESC ] ... (a terminal's answer, such as OSC 11's colour), until BEL or ST
        case oscEscape       // ESC inside an OSC: the start of ST (ESC \)
        case x10Mouse        // ESC [ M: a legacy mouse report's three raw bytes follow
    }

    private var state = State.ground
    private var params: [UInt8] = []
    private var utf8: [UInt8] = []
    private var utf8Needed = 0
    private var text = String.UnicodeScalarView()
    private var pasteBytes: [UInt8] = []
    private var pasteOverflow = false
    private var pasteMatch = 0
    private var x10Bytes: [UInt8] = []

    public init() {}

    /// Longest OSC answer kept (a colour answer is ~24 bytes); the rest is dropped.
    static let oscLimit = 256
    private var oscBytes: [UInt8] = []
    /// The bodies of the OSC answers the terminal sent ("11;rgb:ffff/ffff/ffff"), oldest first, at most 8:
    /// swallowed here so they never reach a screen as keys.
    public private(set) var terminalAnswers: [String] = []

    private mutating func finishOSC() {
        state = .ground
        if terminalAnswers.count >= 8 { terminalAnswers.removeFirst() }
        terminalAnswers.append(String(decoding: oscBytes, as: UTF8.self))
        oscBytes.removeAll()
    }

    /// True while an escape sequence (or a lone ESC) awaits more bytes; call `flushPending` after ~25 ms of silence.
    public var hasPendingEscape: Bool {
        switch state {
        case .escape, .csi, .csiIgnore, .linuxFunction, .ss3, .osc, .oscEscape, .x10Mouse: return true
        case .ground, .paste: return false
        }
    }

    /// True while inside a bracketed paste.
    public var isInPaste: Bool { state == .paste }

    /// Decodes `bytes`, keeping incomplete UTF-8 and escape sequences for the next call.
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        for b in bytes { step(b, &keys) }
        flushText(&keys)
        return keys
    }

    /// Resolves a pending lone ESC to `.escape`; an unfinished escape sequence is dropped.
    public mutating func flushPending() -> [Key] {
        var keys: [Key] = []
        flushText(&keys)
        switch state {
        case .escape:
            keys.append(.escape)
            state = .ground
        case .osc, .oscEscape:
            state = .ground; oscBytes.removeAll()
        case .csi, .csiIgnore, .linuxFunction, .ss3, .x10Mouse:
            state = .ground
            params.removeAll()
            x10Bytes.removeAll()
        case .ground, .paste:
            break
        }
        return keys
    }

    // MARK: - State machine

    private mutating func step(_ b: UInt8, _ keys: inout [Key]) {
        switch state {
        case .ground:
            ground(b, &keys)
        case .escape:
            switch b {
            case 0x5B: state = .csi; params.removeAll()
            case 0x4F: state = .ss3
            case 0x5D: state = .osc; oscBytes.removeAll()        // an answer from the terminal, never typed text
            case 0x1B: keys.append(.escape)                      // ESC ESC: first one was a real Escape
            case 0x20...0x7E: keys.append(.escape); state = .ground // Alt-x: report Escape, drop x
            default:
                keys.append(.escape)
                state = .ground
                ground(b, &keys)
            }
        case .csi:
            switch b {
            case 0x40...0x7E:
                state = .ground
                if b == 0x5B && params.isEmpty { state = .linuxFunction; return }
                // A legacy (X10) mouse report: three raw bytes follow, which must not become text.
                if b == 0x4D && params.isEmpty { state = .x10Mouse; x10Bytes.removeAll(); return }
                if params.first == 0x3C, b == 0x4D || b == 0x6D {
                    if let event = MouseEvent(sgrParameters: params.dropFirst(), final: b) { keys.append(.mouse(event)) }
                    params.removeAll()
                    return
                }
                if csiStartsPaste(final: b) {
                    state = .paste
                    params.removeAll()
                    pasteBytes.removeAll(); pasteOverflow = false; pasteMatch = 0
                    return
                }
                if let key = csiKey(final: b) { keys.append(key) }
                params.removeAll()
            case 0x20...0x3F:
                params.append(b)
                if params.count > KeyParser.csiLimit { state = .csiIgnore; params.removeAll() }
            case 0x1B:
                state = .escape; params.removeAll()
            default:
                state = .ground; params.removeAll()
                ground(b, &keys)
            }
        case .osc:
            switch b {
            case 0x07: finishOSC()
            case 0x1B: state = .oscEscape
            default: if oscBytes.count < KeyParser.oscLimit { oscBytes.append(b) }
            }
        case .oscEscape:
            finishOSC()
            if b != 0x5C { step(b, &keys) } // ESC \ ends it; any other byte begins something new
        case .csiIgnore:
            switch b {
            case 0x40...0x7E: state = .ground
            case 0x20...0x3F: break
            case 0x1B: state = .escape
            default: state = .ground; ground(b, &keys)
            }
        case .linuxFunction:
            state = .ground
            if (0x41...0x45).contains(b) { keys.append(.function(Int(b) - 0x40)) }
        case .ss3:
            state = .ground
            switch b {
            case 0x41: keys.append(.up)
            case 0x42: keys.append(.down)
            case 0x43: keys.append(.right)
            case 0x44: keys.append(.left)
            case 0x48: keys.append(.home)
            case 0x46: keys.append(.end)
            case 0x50...0x53: keys.append(.function(Int(b) - 0x4F))
            case 0x4D: keys.append(.enter)                         // keypad Enter
            case 0x6A: keys.append(.char("*"))
            case 0x6B: keys.append(.char("+"))
            case 0x6D: keys.append(.char("-"))
            case 0x6E: keys.append(.char("."))
            case 0x6F: keys.append(.char("/"))
            case 0x70...0x79: keys.append(.char(Character(Unicode.Scalar(b - 0x70 + 0x30))))
            case 0x1B: state = .escape
            default: break
            }
        case .paste:
            pasteStep(b, &keys)
        case .x10Mouse:
            x10Bytes.append(b)
            guard x10Bytes.count == 3 else { return }
            state = .ground
            let (code, col, row) = (Int(x10Bytes[0]) - 32, Int(x10Bytes[1]) - 32, Int(x10Bytes[2]) - 32)
            x10Bytes.removeAll()
            if code >= 0, col >= 1, row >= 1, let event = MouseEvent(code: code, x: col - 1, y: row - 1, released: false) {
                keys.append(.mouse(event))
            }
        }
    }

    private mutating func ground(_ b: UInt8, _ keys: inout [Key]) {
        if utf8Needed > 0 {
            if b & 0xC0 == 0x80 {
                utf8.append(b)
                if utf8.count == utf8Needed { finishUTF8() }
                return
            }
            utf8.removeAll(); utf8Needed = 0 // broken sequence: drop it, handle b normally
        }
        switch b {
        case 0x20...0x7E:
            text.append(Unicode.Scalar(b))
            return
        case 0xC2...0xDF: utf8 = [b]; utf8Needed = 2; return
        case 0xE0...0xEF: utf8 = [b]; utf8Needed = 3; return
        case 0xF0...0xF4: utf8 = [b]; utf8Needed = 4; return
        case 0x80...0xFF: return // stray continuation or invalid lead byte
        default: break
        }
        flushText(&keys)
        switch b {
        case 0x1B: state = .escape
        case 0x0D, 0x0A: keys.append(.enter)
        case 0x09: keys.append(.tab)
        case 0x08, 0x7F: keys.append(.backspace)
        case 0x00: keys.append(.ctrl(" "))
        case 0x01...0x1A: keys.append(.ctrl(Character(Unicode.Scalar(b + 0x60))))
        case 0x1C: keys.append(.ctrl("\\"))
        case 0x1D: keys.append(.ctrl("]"))
        case 0x1E: keys.append(.ctrl("^"))
        case 0x1F: keys.append(.ctrl("_"))
        default: break
        }
    }

    private mutating func finishUTF8() {
        let decoded = String(decoding: utf8, as: UTF8.self)
        utf8.removeAll(); utf8Needed = 0
        for s in decoded.unicodeScalars where s != "\u{FFFD}" && !DisplayWidth.isControl(s.value) {
            text.append(s)
        }
    }

    /// Emits collected printable text as one `.char` per grapheme.
    private mutating func flushText(_ keys: inout [Key]) {
        guard !text.isEmpty else { return }
        for ch in String(text) { keys.append(.char(ch)) }
        text.removeAll()
    }

    private func csiKey(final: UInt8) -> Key? {
        let fields = params.split(separator: 0x3B, omittingEmptySubsequences: false)
        let first = fields.first.flatMap { Int(String(decoding: $0, as: UTF8.self)) }
        let isPrivate = params.first.map { $0 >= 0x3C } ?? false
        if isPrivate { return nil } // mouse reports, focus events, etc.
        switch final {
        case 0x41: return .up
        case 0x42: return .down
        case 0x43: return .right
        case 0x44: return .left
        case 0x48: return .home
        case 0x46: return .end
        case 0x5A: return .backTab
        case 0x50...0x53: return .function(Int(final) - 0x4F)
        case 0x7E:
            switch first ?? 0 {
            case 1, 7: return .home
            case 4, 8: return .end
            case 2: return .insert
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            case 11...15: return .function(first! - 10)
            case 17...21: return .function(first! - 11)
            case 23, 24: return .function(first! - 12)
            default: return nil
            }
        default:
            return nil
        }
    }

    private func csiStartsPaste(final: UInt8) -> Bool {
        final == 0x7E && params == [0x32, 0x30, 0x30]
    }

    // MARK: - Bracketed paste

    /// Ends a paste whose end marker never came (the app calls this after a pause in input), so
    /// keys such as Ctrl-C work again; what arrived so far is delivered as the paste.
    public mutating func endUnterminatedPaste() -> [Key] {
        guard state == .paste else { return [] }
        for p in KeyParser.pasteEnd[0..<pasteMatch] { appendPaste(p) }
        pasteMatch = 0
        var keys: [Key] = []
        finishPaste(&keys)
        return keys
    }

    private mutating func pasteStep(_ b: UInt8, _ keys: inout [Key]) {
        let end = KeyParser.pasteEnd
        if b == end[pasteMatch] {
            pasteMatch += 1
            if pasteMatch == end.count {
                pasteMatch = 0
                finishPaste(&keys)
            }
            return
        }
        if pasteMatch > 0 {
            for p in end[0..<pasteMatch] { appendPaste(p) }
            pasteMatch = 0
            if b == end[0] { pasteMatch = 1; return }
        }
        appendPaste(b)
    }

    private mutating func appendPaste(_ b: UInt8) {
        if pasteBytes.count < KeyParser.pasteLimit { pasteBytes.append(b) } else { pasteOverflow = true }
    }

    private mutating func finishPaste(_ keys: inout [Key]) {
        state = .ground
        var bytes = pasteBytes
        if pasteOverflow { trimIncompleteUTF8(&bytes) }
        pasteBytes.removeAll(keepingCapacity: false)
        pasteOverflow = false
        // Line breaks and tabs become spaces; everything else is left to sanitize().
        for i in bytes.indices where bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { bytes[i] = 0x20 }
        let raw = String(decoding: bytes, as: UTF8.self)
        // Sanitised again once the replacements are gone: two runs of combining marks they parted
        // become one, which the cap cuts (so the paste, sent again, reads the same).
        let clean = DisplayWidth.sanitize(DisplayWidth.sanitize(raw).replacingFFFD())
        if !clean.isEmpty { keys.append(.paste(clean)) }
    }

    private func trimIncompleteUTF8(_ bytes: inout [UInt8]) {
        var i = bytes.count - 1
        var continuation = 0
        while i >= 0 && bytes[i] & 0xC0 == 0x80 && continuation < 3 { i -= 1; continuation += 1 }
        guard i >= 0 else { return }
        let lead = bytes[i]
        let need: Int
        switch lead {
        case 0xC0...0xDF: need = 2
        case 0xE0...0xEF: need = 3
        case 0xF0...0xF7: need = 4
        default: need = 1
        }
        if continuation + 1 < need { bytes.removeSubrange(i...) }
    }
}

private extension String {
    /// Removes U+FFFD produced by invalid UTF-8.
    func replacingFFFD() -> String {
        guard unicodeScalars.contains("\u{FFFD}") else { return self }
        var v = String.UnicodeScalarView()
        v.append(contentsOf: unicodeScalars.lazy.filter { $0 != "\u{FFFD}" })
        return String(v)
    }
}
