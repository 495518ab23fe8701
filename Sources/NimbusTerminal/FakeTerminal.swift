/// An in-memory terminal: applies drawn cells to its own grid the way a real terminal would.
///
/// Used by tests and by the headless tape runner. Input is scripted with `type`/`send` and read with `takeInput`.
public final class FakeTerminal: TerminalBackend {
    /// Each time the app turned mouse reporting on (true) or off (false), in order.
    public private(set) var mouseReporting: [Bool] = []

    public func setMouseReporting(_ on: Bool) { mouseReporting.append(on) }

    /// Setting a new size blanks the grid, as a resized terminal's contents are undefined.
    public var size: Size {
        didSet {
            if size != oldValue { grid = ScreenBuffer(size: size) }
        }
    }
    public var supportsColor: Bool
    public private(set) var cursor: Point?
    /// What the terminal currently shows.
    public private(set) var grid: ScreenBuffer
    /// Cells received by the last `draw`.
    public private(set) var lastDrawCount = 0
    /// Cells received since creation.
    public private(set) var totalCellsDrawn = 0
    public private(set) var drawCalls = 0
    public private(set) var flushCount = 0
    public private(set) var clearCount = 0
    private var input: [UInt8] = []
    /// Every OSC 52 sequence written, as the bytes a terminal would receive.
    public private(set) var clipboardWrites: [[UInt8]] = []
    /// The text of the last OSC 52 write, decoded from its base64 as a terminal would.
    public var clipboard: String? { clipboardWrites.last.flatMap(OSC52.decode) }

    /// Every line move received, in order (only with `movesLines`).
    public private(set) var lineMoves: [LineMove] = []
    /// With `movesLines`: the bytes an xterm would get, counted and dropped, for what frames cost there.
    private var encoder: FrameEncoder?

    /// `movesLines`: scrolls regions as a terminal with xterm-256color's capabilities does, and says
    /// what that costs there, so that `Renderer` moves lines on it.
    public init(size: Size = Size(cols: 80, rows: 24), supportsColor: Bool = true, movesLines: Bool = false) {
        self.size = size
        self.supportsColor = supportsColor
        self.grid = ScreenBuffer(size: size)
        encoder = movesLines ? FrameEncoder(sequences: .xterm256Color) : nil
    }

    public var drawingCosts: (any DrawingCosts)? { encoder?.costs }

    public func moveLines(_ moves: [LineMove]) {
        for move in moves { grid.scroll(move) }
        lineMoves += moves
        encoder?.moveLines(moves, size: size)
    }

    public func bytes(moving moves: [LineMove], thenDrawing changes: [CellChange], of frame: ScreenBuffer) -> Int? {
        encoder?.bytes(moving: moves, thenDrawing: changes, of: frame, size: size)
    }

    public func draw(_ changes: [CellChange], of frame: ScreenBuffer) {
        draw(changes)
        encoder?.draw(changes, size: size, frame: frame)
    }

    public func draw(_ changes: [CellChange]) {
        drawCalls += 1
        lastDrawCount = changes.count
        totalCellsDrawn += changes.count
        for c in changes where c.cell.width > 0 {
            grid.setCell(c.x, c.y, c.cell)
        }
    }

    public func setCursor(_ p: Point?) {
        if let p, p.x >= 0, p.y >= 0, p.x < size.cols, p.y < size.rows { cursor = p } else { cursor = nil }
    }

    public func flush() {
        flushCount += 1
        _ = encoder?.finish(cursor: cursor, size: size)
    }

    public func clearAll() {
        clearCount += 1
        grid = ScreenBuffer(size: size)
        encoder?.clear()
    }

    public func copyToClipboard(_ text: String) {
        clipboardWrites.append(OSC52.sequence(for: text))
    }

    /// Screen contents, rows joined with "\n", trailing spaces trimmed (like `ScreenBuffer.text()`).
    public func screenText() -> String { grid.text() }

    /// Screen rows, each exactly `size.cols` columns.
    public func screenLines() -> [String] { grid.lines() }

    public subscript(x: Int, y: Int) -> Cell { grid[x, y] }

    // MARK: - Scripted input

    /// Queues raw input bytes.
    public func send(_ bytes: [UInt8]) { input += bytes }

    /// Queues the bytes a terminal would send for `keys`.
    public func send(_ keys: [Key]) { for k in keys { input += k.bytes } }

    /// Queues UTF-8 text as typed input.
    public func type(_ text: String) { input += Array(text.utf8) }

    /// Returns and clears the queued input.
    public func takeInput() -> [UInt8] {
        defer { input.removeAll() }
        return input
    }
}
