/// A decoded key press.
public enum Key: Equatable, Hashable, Sendable {
    /// Printable text, including space.
    case char(Character)
    /// Bracketed paste, already sanitised (controls stripped, newlines turned into spaces).
    case paste(String)
    case enter, tab, backTab, backspace, delete, escape
    case up, down, left, right, home, end, pageUp, pageDown, insert
    /// Ctrl plus a lowercase letter (or " ", "\\", "]", "^", "_"); Ctrl-I/M/J/H arrive as tab/enter/backspace.
    case ctrl(Character)
    /// F1–F12.
    case function(Int)
    /// A mouse report (SGR 1006); tapes script them with `Click`, `Scroll` and `Drag`, not `Press`.
    case mouse(MouseEvent)
    case unknown

    private static let named: [(String, Key)] = [
        ("Enter", .enter), ("Return", .enter), ("Tab", .tab), ("BackTab", .backTab), ("Shift-Tab", .backTab),
        ("Backspace", .backspace), ("Delete", .delete), ("Del", .delete), ("Escape", .escape), ("Esc", .escape),
        ("Up", .up), ("Down", .down), ("Left", .left), ("Right", .right), ("Home", .home), ("End", .end),
        ("PageUp", .pageUp), ("PgUp", .pageUp), ("PageDown", .pageDown), ("PgDn", .pageDown),
        ("Insert", .insert), ("Space", .char(" ")), ("Unknown", .unknown),
    ]

    /// Parses a tape name such as "Enter", "Ctrl-C", "F5", "PgDn", "q" or "서".
    public init?(name: String) {
        if name.count == 1, let c = name.first {
            guard DisplayWidth.of(c) > 0 else { return nil }
            self = .char(c)
            return
        }
        let lower = name.lowercased()
        if let hit = Key.named.first(where: { $0.0.lowercased() == lower }) {
            self = hit.1
            return
        }
        if lower.hasPrefix("paste:") {
            self = .paste(String(name.dropFirst(6)))
            return
        }
        for prefix in ["ctrl-", "ctrl+", "c-", "^"] where lower.hasPrefix(prefix) {
            let rest = String(lower.dropFirst(prefix.count))
            if rest == "space" || rest == "@" { self = .ctrl(" "); return }
            guard rest.count == 1, let c = rest.first else { return nil }
            switch c {
            case "i": self = .tab
            case "m", "j": self = .enter
            case "h": self = .backspace
            case "[": self = .escape
            case "a"..."z", "\\", "]", "^", "_": self = .ctrl(c)
            default: return nil
            }
            return
        }
        if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) {
            self = .function(n)
            return
        }
        return nil
    }

    /// The tape name; `Key(name: key.name) == key` for every key a terminal can produce.
    public var name: String {
        switch self {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .paste(let s): return "Paste:" + s
        case .enter: return "Enter"
        case .tab: return "Tab"
        case .backTab: return "BackTab"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .escape: return "Escape"
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PageUp"
        case .pageDown: return "PageDown"
        case .insert: return "Insert"
        case .ctrl(" "): return "Ctrl-Space"
        case .ctrl(let c): return "Ctrl-" + String(c).uppercased()
        case .function(let n): return "F\(n)"
        case .mouse(let m): return "Mouse(\(m.action) \(m.button) \(m.x),\(m.y))"
        case .unknown: return "Unknown"
        }
    }

    /// The bytes an xterm-compatible terminal sends for this key (used to script input through `KeyParser`).
    public var bytes: [UInt8] {
        func csi(_ s: String) -> [UInt8] { [0x1B, 0x5B] + Array(s.utf8) }
        switch self {
        case .char(let c): return Array(String(c).utf8)
        case .paste(let s): return csi("200~") + Array(s.utf8) + csi("201~")
        case .enter: return [0x0D]
        case .tab: return [0x09]
        case .backTab: return csi("Z")
        case .backspace: return [0x7F]
        case .delete: return csi("3~")
        case .escape: return [0x1B]
        case .up: return csi("A")
        case .down: return csi("B")
        case .right: return csi("C")
        case .left: return csi("D")
        case .home: return csi("H")
        case .end: return csi("F")
        case .pageUp: return csi("5~")
        case .pageDown: return csi("6~")
        case .insert: return csi("2~")
        case .ctrl(let c):
            switch c {
            case " ": return [0x00]
            case "\\": return [0x1C]
            case "]": return [0x1D]
            case "^": return [0x1E]
            case "_": return [0x1F]
            default:
                guard let a = c.asciiValue, a >= 0x61, a <= 0x7A else { return [] }
                return [a - 0x60]
            }
        case .function(let n):
            switch n {
            case 1: return [0x1B, 0x4F, 0x50]
            case 2: return [0x1B, 0x4F, 0x51]
            case 3: return [0x1B, 0x4F, 0x52]
            case 4: return [0x1B, 0x4F, 0x53]
            case 5...12:
                let codes = [15, 17, 18, 19, 20, 21, 23, 24] // F5...F12
                return csi("\(codes[n - 5])~")
            default: return []
            }
        case .mouse(let m): return m.sgrBytes
        case .unknown: return []
        }
    }
}
