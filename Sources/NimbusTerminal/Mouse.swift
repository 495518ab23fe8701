/// A mouse report from the terminal (SGR 1006: `ESC [ < b ; x ; y M` for a press, `m` for a release).
///
/// Columns and rows are 0-based screen cells (the terminal reports them from 1).
public struct MouseEvent: Equatable, Hashable, Sendable {
    public enum Button: Equatable, Hashable, Sendable {
        case left, middle, right
        /// Motion with no button held (any-event tracking), or a release in the legacy encoding.
        case none
    }

    public enum Action: Equatable, Hashable, Sendable {
        case press, release, drag
        case wheelUp, wheelDown, wheelLeft, wheelRight
    }

    public var action: Action
    public var button: Button
    public var x: Int
    public var y: Int
    public var shift: Bool
    public var alt: Bool
    public var ctrl: Bool

    public init(_ action: Action, button: Button = .left, x: Int, y: Int,
                shift: Bool = false, alt: Bool = false, ctrl: Bool = false) {
        self.action = action
        self.button = button
        self.x = x
        self.y = y
        self.shift = shift
        self.alt = alt
        self.ctrl = ctrl
    }

    /// The largest column or row a report may name; anything larger is dropped as malformed.
    public static let maxCoordinate = 10_000

    /// Decodes the parameters of an SGR report (`b;x;y`, without the `<`) and its final byte.
    public init?(sgrParameters: ArraySlice<UInt8>, final: UInt8) {
        guard final == 0x4D || final == 0x6D else { return nil } // M, m
        let fields = sgrParameters.split(separator: 0x3B, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        var numbers: [Int] = []
        for field in fields {
            // At most 5 digits: no overflow, and nothing but digits.
            guard !field.isEmpty, field.count <= 5, field.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            numbers.append(field.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
        let (b, col, row) = (numbers[0], numbers[1], numbers[2])
        guard (1...Self.maxCoordinate).contains(col), (1...Self.maxCoordinate).contains(row), b < 256 else { return nil }
        self.init(code: b, x: col - 1, y: row - 1, released: final == 0x6D)
    }

    /// Decodes the button code `b` shared by the SGR and legacy encodings.
    init?(code b: Int, x: Int, y: Int, released: Bool) {
        let shift = b & 4 != 0, alt = b & 8 != 0, ctrl = b & 16 != 0
        let low = b & 3
        let action: Action
        let button: Button
        if b & 64 != 0 {
            guard b & 128 == 0 else { return nil } // buttons 8–11: not used
            switch low {
            case 0: action = .wheelUp
            case 1: action = .wheelDown
            case 2: action = .wheelLeft
            default: action = .wheelRight
            }
            button = .none
            if released { return nil } // wheels have no release; drop the odd terminal's
        } else {
            guard b & 128 == 0 else { return nil }
            button = [Button.left, .middle, .right, .none][low]
            if b & 32 != 0 {
                action = .drag
            } else {
                action = released || button == .none ? .release : .press
            }
        }
        self.init(action, button: button, x: x, y: y, shift: shift, alt: alt, ctrl: ctrl)
    }

    /// The button code of the SGR encoding.
    var code: Int {
        var b: Int
        switch action {
        case .wheelUp: b = 64
        case .wheelDown: b = 65
        case .wheelLeft: b = 66
        case .wheelRight: b = 67
        case .press, .release, .drag:
            switch button {
            case .left: b = 0
            case .middle: b = 1
            case .right: b = 2
            case .none: b = 3
            }
            if action == .drag { b |= 32 }
        }
        if shift { b |= 4 }
        if alt { b |= 8 }
        if ctrl { b |= 16 }
        return b
    }

    /// The SGR 1006 bytes a terminal sends for this event.
    public var sgrBytes: [UInt8] {
        let final = action == .release ? "m" : "M"
        return Array("\u{1B}[<\(code);\(x + 1);\(y + 1)\(final)".utf8)
    }
}

/// A mouse event as a screen sees it: coordinates relative to the screen's body (the area between
/// the tab bar and the status bar), with clicks counted and drags given as a step.
public struct Pointer: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// A left-button press; `count` is 2 for a double click.
        case click(count: Int)
        /// The wheel: negative is up (towards the top), positive down; one unit per notch.
        case wheel(Int)
        /// The left button moved while held, by (dx, dy) cells since the last report.
        case drag(dx: Int, dy: Int)
    }

    public var action: Action
    /// Relative to the screen's body.
    public var x: Int
    public var y: Int
    /// Absolute screen cell (for widgets that remember where they were drawn, like `ListState`).
    public var screen: Point

    public init(_ action: Action, x: Int, y: Int, screen: Point) {
        self.action = action
        self.x = x
        self.y = y
        self.screen = screen
    }
}
