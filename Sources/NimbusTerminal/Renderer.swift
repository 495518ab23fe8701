/// Sends only the cells that changed between successive frames to a backend, after moving the
/// lines the terminal already shows to where the new frame has them (`LineMoves`), where the
/// backend can and that costs fewer bytes.
public final class Renderer {
    private let backend: TerminalBackend
    private var previous: ScreenBuffer?
    /// `previous`'s row hashes, when the last frame was planned for (`LineMoves.Plan.frameRowHashes`).
    private var previousRowHashes: [UInt64]?
    /// Number of cells sent by the last `render`.
    public private(set) var lastChangeCount: Int = 0
    /// The line moves made by the last `render`.
    public private(set) var lastLineMoves: [LineMove] = []

    public init(backend: TerminalBackend) {
        self.backend = backend
    }

    /// Draws `frame`: every cell on the first frame, after a size change or `invalidate()`, otherwise only changes.
    public func render(_ frame: ScreenBuffer) {
        var changes: [CellChange] = []
        let cols = frame.size.cols
        let cells = frame.allCells
        lastLineMoves = []
        let shownRowHashes = previousRowHashes
        previousRowHashes = nil
        if let shown = previous, shown.size == frame.size {
            changes = Self.changes(from: shown, to: frame)
            if let costs = backend.drawingCosts {
                let plan = LineMoves.plan(from: shown, to: frame, costs: costs, shownRowHashes: shownRowHashes)
                previousRowHashes = plan.frameRowHashes
                let moves = plan.moves
                if !moves.isEmpty {
                    var moved = shown
                    for move in moves { moved.scroll(move) }
                    let movedChanges = Self.changes(from: moved, to: frame)
                    // The plan was chosen on an estimate: a small saving is checked against the
                    // exact price, where the backend knows it.
                    let cheaper = plan.estimatedSaving >= LineMoves.certainSaving
                        || backend.bytes(moving: moves, thenDrawing: movedChanges, of: frame).map { withMoves in
                            backend.bytes(moving: [], thenDrawing: changes, of: frame).map { withMoves < $0 } ?? true
                        } ?? true
                    if cheaper {
                        backend.moveLines(moves)
                        lastLineMoves = moves
                        changes = movedChanges
                    }
                }
            }
        } else {
            backend.clearAll()
            changes.reserveCapacity(cells.count)
            for i in cells.indices where cells[i].width > 0 {
                changes.append(CellChange(x: i % cols, y: i / cols, cell: cells[i]))
            }
        }
        if !changes.isEmpty { backend.draw(changes, of: frame) }
        backend.setCursor(frame.cursor)
        backend.flush()
        lastChangeCount = changes.count
        previous = frame
    }

    /// The cells of `frame` that differ from `shown` (the right halves of wide glyphs left out: the
    /// glyph covers them).
    private static func changes(from shown: ScreenBuffer, to frame: ScreenBuffer) -> [CellChange] {
        var changes: [CellChange] = []
        let cols = frame.size.cols
        let old = shown.allCells, cells = frame.allCells
        changes.reserveCapacity(cells.count) // one allocation, not a dozen as a keystroke's frame grows it
        cells.withUnsafeBufferPointer { new in
            old.withUnsafeBufferPointer { old in
                for i in 0..<new.count where new[i] != old[i] && new[i].width > 0 {
                    changes.append(CellChange(x: i % cols, y: i / cols, cell: new[i]))
                }
            }
        }
        return changes
    }

    /// Forces the next `render` to clear the screen and send every cell.
    public func invalidate() {
        previous = nil
        previousRowHashes = nil
    }
}
