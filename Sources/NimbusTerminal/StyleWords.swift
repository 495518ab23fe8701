/// Styles written as words, the way snapshot legends and the tapes' `ExpectStyle` write them:
/// `bold dim reverse underline fg=N bg=N`, where N is a palette number (0–255), one of the eight
/// colour names (`black` … `white`) or `default`; `plain` is no attribute and both colours default.
public enum StyleWords {
    /// Every word of `style`, attributes first: `bold fg=white bg=24`; `plain` for the plain style.
    public static func describe(_ style: Style) -> String {
        var words: [String] = []
        if style.bold { words.append("bold") }
        if style.dim { words.append("dim") }
        if style.reverse { words.append("reverse") }
        if style.underline { words.append("underline") }
        if style.fg != .default { words.append("fg=" + name(of: style.fg)) }
        if style.bg != .default { words.append("bg=" + name(of: style.bg)) }
        return words.isEmpty ? "plain" : words.joined(separator: " ")
    }

    /// The style `describe` wrote; nil when a word is not one of its words.
    public static func style(_ text: String) -> Style? {
        guard let spec = try? StyleSpec(words: text.split(separator: " ").map(String.init)) else { return nil }
        return spec.fullStyle
    }

    static let colorNames: [(String, Color)] = [
        ("black", .black), ("red", .red), ("green", .green), ("yellow", .yellow), ("blue", .blue),
        ("magenta", .magenta), ("cyan", .cyan), ("white", .white), ("default", .default),
    ]

    static func name(of color: Color) -> String {
        if case .index(let n) = color { return String(n) }
        return colorNames.first { $0.1 == color }?.0 ?? "default"
    }

    static func color(named text: String) -> Color? {
        if let n = Int(text), (0...255).contains(n), text.allSatisfy(\.isASCII) { return .index(UInt8(n)) }
        return colorNames.first { $0.0 == text.lowercased() }?.1
    }
}

/// What a style must be, word by word: each attribute on, off (`!bold`) or left open, each colour
/// given or left open. `ExpectStyle "Seoul" reverse` asks only for reverse video.
public struct StyleSpec: Equatable, Sendable, CustomStringConvertible {
    public var bold: Bool?
    public var dim: Bool?
    public var reverse: Bool?
    public var underline: Bool?
    public var fg: Color?
    public var bg: Color?

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public init(bold: Bool? = nil, dim: Bool? = nil, reverse: Bool? = nil, underline: Bool? = nil,
                fg: Color? = nil, bg: Color? = nil) {
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
        self.fg = fg
        self.bg = bg
    }

    /// Parses `bold`, `!bold`, `fg=75`, `bg=default`, `plain`… (each word at most once).
    public init(words: [String]) throws {
        guard !words.isEmpty else { throw Problem(description: "expected a style: bold, dim, reverse, underline, fg=N, bg=N or plain") }
        var seen: Set<String> = []
        for word in words {
            let lower = word.lowercased()
            let key = lower.hasPrefix("!") ? String(lower.dropFirst()) : lower.split(separator: "=").first.map(String.init) ?? lower
            guard seen.insert(key).inserted else { throw Problem(description: "\(word): \(key) is given twice") }
            switch lower {
            case "bold", "!bold": bold = !lower.hasPrefix("!")
            case "dim", "!dim": dim = !lower.hasPrefix("!")
            case "reverse", "!reverse": reverse = !lower.hasPrefix("!")
            case "underline", "!underline": underline = !lower.hasPrefix("!")
            case "plain":
                (bold, dim, reverse, underline, fg, bg) = (false, false, false, false, .default, .default)
            default:
                guard lower.hasPrefix("fg=") || lower.hasPrefix("bg="), let color = StyleWords.color(named: String(lower.dropFirst(3))) else {
                    throw Problem(description: "\(word) is not a style word (bold, dim, reverse, underline, !bold…, fg=N, bg=N with N 0-255, a colour name or default, plain)")
                }
                if lower.hasPrefix("fg=") { fg = color } else { bg = color }
            }
        }
        if seen.contains("plain"), seen.count > 1 { throw Problem(description: "plain says every attribute; give it alone") }
    }

    /// True when `style` is what every given word says.
    public func matches(_ style: Style) -> Bool {
        (bold.map { $0 == style.bold } ?? true) && (dim.map { $0 == style.dim } ?? true)
            && (reverse.map { $0 == style.reverse } ?? true) && (underline.map { $0 == style.underline } ?? true)
            && (fg.map { Self.same($0, style.fg) } ?? true) && (bg.map { Self.same($0, style.bg) } ?? true)
    }

    /// Colours the terminal shows alike: a named colour is palette entry 0–7.
    static func same(_ a: Color, _ b: Color) -> Bool {
        number(a) == number(b)
    }

    private static func number(_ c: Color) -> Int {
        switch c {
        case .default: return -1
        case .black: return 0
        case .red: return 1
        case .green: return 2
        case .yellow: return 3
        case .blue: return 4
        case .magenta: return 5
        case .cyan: return 6
        case .white: return 7
        case .index(let n): return Int(n)
        }
    }

    /// The style itself, when every word was given as a legend gives it (attributes not named are off).
    var fullStyle: Style {
        Style(fg: fg ?? .default, bg: bg ?? .default, bold: bold ?? false, dim: dim ?? false,
              reverse: reverse ?? false, underline: underline ?? false)
    }

    public var description: String {
        var words: [String] = []
        for (name, value) in [("bold", bold), ("dim", dim), ("reverse", reverse), ("underline", underline)] {
            if let value { words.append(value ? name : "!" + name) }
        }
        if let fg { words.append("fg=" + StyleWords.name(of: fg)) }
        if let bg { words.append("bg=" + StyleWords.name(of: bg)) }
        return words.joined(separator: " ")
    }
}
