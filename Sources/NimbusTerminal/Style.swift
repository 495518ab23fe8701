/// A terminal colour; `.index` is a 256-colour palette entry.
public enum Color: Equatable, Hashable, Sendable {
    case `default`, black, red, green, yellow, blue, magenta, cyan, white
    case index(UInt8)
}

/// Colours and attributes of a cell.
public struct Style: Equatable, Hashable, Sendable {
    public var fg: Color
    public var bg: Color
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(fg: Color = .default, bg: Color = .default, bold: Bool = false, dim: Bool = false,
                reverse: Bool = false, underline: Bool = false) {
        self.fg = fg
        self.bg = bg
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()
}
