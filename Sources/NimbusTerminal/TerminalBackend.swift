/// One cell to write at (x, y).
public struct CellChange: Equatable, Sendable {
    public let x: Int
    public let y: Int
    public let cell: Cell

    public init(x: Int, y: Int, cell: Cell) {
        self.x = x
        self.y = y
        self.cell = cell
    }
}

/// Where frames end up: a real terminal (`NCursesBackend`) or memory (`FakeTerminal`).
public protocol TerminalBackend: AnyObject {
    var size: Size { get }
    var supportsColor: Bool { get }
    /// Writes cells; a wide cell also covers the next column.
    func draw(_ changes: [CellChange])
    /// Moves the hardware cursor, or hides it when nil.
    func setCursor(_ p: Point?)
    func flush()
    /// Clears the screen so the next frame repaints everything (Ctrl-L).
    func clearAll()
    /// Puts `text` on the system clipboard through the terminal (OSC 52; see `OSC52`).
    func copyToClipboard(_ text: String)
    /// Asks the terminal for mouse reports, or stops asking (the settings' Mouse row).
    func setMouseReporting(_ on: Bool)
}

public extension TerminalBackend {
    /// Backends with no clipboard (the warm-up's rehearsal) drop what is copied.
    func copyToClipboard(_ text: String) {}
    /// Backends with no mouse have nothing to turn on or off.
    func setMouseReporting(_ on: Bool) {}
}
