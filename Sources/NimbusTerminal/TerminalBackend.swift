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
    /// `draw`, with the whole frame the cells come from (an encoder may write unchanged cells of
    /// it again where that is cheaper than moving the cursor over them).
    func draw(_ changes: [CellChange], of frame: ScreenBuffer)
    /// What drawing costs on this terminal, for moving the lines it already shows instead of
    /// drawing them again (`LineMoves`); nil when it cannot move lines.
    var drawingCosts: (any DrawingCosts)? { get }
    /// Scrolls regions of the screen, in order, before the frame's cells are drawn.
    func moveLines(_ moves: [LineMove])
    /// The bytes the terminal would be sent for `moves`, then `changes` of `frame`, from its state
    /// now; nil when the backend does not know (then `Renderer` trusts `LineMoves`' estimate).
    func bytes(moving moves: [LineMove], thenDrawing changes: [CellChange], of frame: ScreenBuffer) -> Int?
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
    /// Backends that only draw cells (the warm-up's rehearsal, the tapes' recording) move no lines.
    var drawingCosts: (any DrawingCosts)? { nil }
    func moveLines(_ moves: [LineMove]) {}
    func bytes(moving moves: [LineMove], thenDrawing changes: [CellChange], of frame: ScreenBuffer) -> Int? { nil }
    func draw(_ changes: [CellChange], of frame: ScreenBuffer) { draw(changes) }
    /// Backends with no clipboard (the warm-up's rehearsal) drop what is copied.
    func copyToClipboard(_ text: String) {}
    /// Backends with no mouse have nothing to turn on or off.
    func setMouseReporting(_ on: Bool) {}
}
