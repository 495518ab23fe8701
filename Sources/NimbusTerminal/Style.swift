/// A terminal colour; `.index` is a 256-colour palette entry.
public enum Color: Equatable, Hashable, Sendable {
    case `default`, black, red, green, yellow, blue, magenta, cyan, white
    case index(UInt8)

    /// 0 for the default, 1–8 for the named colours, 256 + n for palette entry n (9 bits).
    fileprivate var code: UInt32 {
        switch self {
        case .default: return 0
        case .black: return 1
        case .red: return 2
        case .green: return 3
        case .yellow: return 4
        case .blue: return 5
        case .magenta: return 6
        case .cyan: return 7
        case .white: return 8
        case .index(let n): return 256 + UInt32(n)
        }
    }

    fileprivate init(code: UInt32) {
        switch code {
        case 0: self = .default
        case 1: self = .black
        case 2: self = .red
        case 3: self = .green
        case 4: self = .yellow
        case 5: self = .blue
        case 6: self = .magenta
        case 7: self = .cyan
        case 8: self = .white
        default: self = .index(UInt8(truncatingIfNeeded: code - 256))
        }
    }
}

/// Colours and attributes of a cell.
///
/// Packed in 32 bits (two 9-bit colours, four flags): every cell of every frame is compared with
/// the last frame's, and that is then one integer comparison.
public struct Style: Equatable, Hashable, Sendable {
    /// Equal styles have equal bits (`LineMoves` hashes rows by them); 22 bits are used.
    private(set) var bits: UInt32

    private static let bgShift: UInt32 = 9
    private static let colorMask: UInt32 = 0x1FF
    private static let boldBit: UInt32 = 1 << 18
    private static let dimBit: UInt32 = 1 << 19
    private static let reverseBit: UInt32 = 1 << 20
    private static let underlineBit: UInt32 = 1 << 21

    public init(fg: Color = .default, bg: Color = .default, bold: Bool = false, dim: Bool = false,
                reverse: Bool = false, underline: Bool = false) {
        bits = fg.code | bg.code << Self.bgShift
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public var fg: Color {
        get { Color(code: bits & Self.colorMask) }
        set { bits = bits & ~Self.colorMask | newValue.code }
    }

    public var bg: Color {
        get { Color(code: bits >> Self.bgShift & Self.colorMask) }
        set { bits = bits & ~(Self.colorMask << Self.bgShift) | newValue.code << Self.bgShift }
    }

    public var bold: Bool {
        get { bits & Self.boldBit != 0 }
        set { set(Self.boldBit, newValue) }
    }

    public var dim: Bool {
        get { bits & Self.dimBit != 0 }
        set { set(Self.dimBit, newValue) }
    }

    public var reverse: Bool {
        get { bits & Self.reverseBit != 0 }
        set { set(Self.reverseBit, newValue) }
    }

    public var underline: Bool {
        get { bits & Self.underlineBit != 0 }
        set { set(Self.underlineBit, newValue) }
    }

    private mutating func set(_ bit: UInt32, _ on: Bool) {
        bits = on ? bits | bit : bits & ~bit
    }

    public static let plain = Style()
}

extension Style: CustomStringConvertible {
    public var description: String {
        "Style(fg: \(fg), bg: \(bg), bold: \(bold), dim: \(dim), reverse: \(reverse), underline: \(underline))"
    }
}
