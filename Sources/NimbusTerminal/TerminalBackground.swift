/// The terminal's background, as it answers OSC 11 (`ESC ] 11 ; ? BEL`): what the `auto` theme follows.
public enum TerminalBackground: Equatable, Sendable {
    case dark
    case light

    /// The query: OSC 11 with `?`, ended by BEL (xterm, VTE, kitty, iTerm2, tmux all answer it).
    public static let query: [UInt8] = Array("\u{1B}]11;?\u{07}".utf8)

    /// How long start-up waits for the answer, at most.
    public static let timeoutMilliseconds = 50

    /// The background an OSC 11 answer's body names (`11;rgb:RRRR/GGGG/BBBB`, each component 1 to 4
    /// hex digits, `rgba:` with a fourth ignored): light when its relative luminance is above one half.
    public static func parse(_ body: String) -> TerminalBackground? {
        guard body.hasPrefix("11;") else { return nil }
        var spec = Substring(body.dropFirst(3))
        if spec.hasPrefix("rgba:") { spec = spec.dropFirst(5) }
        else if spec.hasPrefix("rgb:") { spec = spec.dropFirst(4) }
        else { return nil }
        let parts = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        var channels: [Double] = []
        for part in parts.prefix(3) {
            guard (1...4).contains(part.count), let v = UInt32(part, radix: 16) else { return nil }
            let max = Double((1 << (4 * part.count)) - 1)
            channels.append(Double(v) / max)
        }
        return luminance(red: channels[0], green: channels[1], blue: channels[2]) > 0.5 ? .light : .dark
    }

    /// Rec. 709 relative luminance of an sRGB colour (components 0...1, gamma not undone: a rough,
    /// steady split between dark and light backgrounds).
    public static func luminance(red: Double, green: Double, blue: Double) -> Double {
        0.2126 * red + 0.7152 * green + 0.0722 * blue
    }
}
