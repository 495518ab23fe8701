/// Sends only the cells that changed between successive frames to a backend.
public final class Renderer {
    private let backend: TerminalBackend
    private var previous: ScreenBuffer?
    /// Number of cells sent by the last `render`.
    public private(set) var lastChangeCount: Int = 0

    public init(backend: TerminalBackend) {
        self.backend = backend
    }

    /// Draws `frame`: every cell on the first frame, after a size change or `invalidate()`, otherwise only changes.
    public func render(_ frame: ScreenBuffer) {
        var changes: [CellChange] = []
        let cols = frame.size.cols
        let cells = frame.allCells
        if let prev = previous, prev.size == frame.size {
            let old = prev.allCells
            cells.withUnsafeBufferPointer { new in
                old.withUnsafeBufferPointer { old in
                    for i in 0..<new.count where new[i] != old[i] && new[i].width > 0 {
                        changes.append(CellChange(x: i % cols, y: i / cols, cell: new[i]))
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
        if !changes.isEmpty { backend.draw(changes) }
        backend.setCursor(frame.cursor)
        backend.flush()
        lastChangeCount = changes.count
        previous = frame
    }

    /// Forces the next `render` to clear the screen and send every cell.
    public func invalidate() {
        previous = nil
    }
}
