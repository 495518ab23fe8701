import NimbusTerminal

/// A terminal backend whose frames go through `FrameEncoder` as bytes and are played on a
/// `TerminalEmulator`: what a real terminal would show of them, with line moves when its sequences
/// have them (`movesLines`) and the bytes each frame took.
public final class EmulatedTerminal: TerminalBackend {
    public let size: Size
    public let supportsColor = true
    public let emulator: TerminalEmulator
    public private(set) var encoder: FrameEncoder
    /// Bytes written by the last flush, and since the start.
    public private(set) var lastFrameBytes: [UInt8] = []
    public private(set) var bytesWritten = 0
    private let movesLines: Bool
    private let exactCosts: Bool
    private var cursor: Point?

    /// `exactCosts`: tells `Renderer` what a frame would take, so it never moves lines at a loss;
    /// false leaves it with `LineMoves`' estimate alone. `wideAmbiguous`: the emulator's (a terminal
    /// that draws East Asian ambiguous glyphs two columns wide).
    public init(size: Size, sequences: FrameEncoder.Sequences = .xterm256Color, movesLines: Bool = true, exactCosts: Bool = true,
                wideAmbiguous: [ClosedRange<UInt32>] = []) {
        self.size = size
        emulator = TerminalEmulator(size: size, wideAmbiguous: wideAmbiguous, backColorErase: sequences.backColorErase)
        encoder = FrameEncoder(sequences: sequences)
        self.movesLines = movesLines
        self.exactCosts = exactCosts
    }

    public var drawingCosts: (any DrawingCosts)? { movesLines ? encoder.costs : nil }
    public func moveLines(_ moves: [LineMove]) { encoder.moveLines(moves, size: size) }
    public func bytes(moving moves: [LineMove], thenDrawing changes: [CellChange], of frame: ScreenBuffer) -> Int? {
        exactCosts ? encoder.bytes(moving: moves, thenDrawing: changes, of: frame, size: size) : nil
    }
    public func draw(_ changes: [CellChange]) { encoder.draw(changes, size: size) }
    public func draw(_ changes: [CellChange], of frame: ScreenBuffer) { encoder.draw(changes, size: size, frame: frame) }
    public func setCursor(_ p: Point?) { cursor = p }
    public func clearAll() { encoder.clear() }

    public func flush() {
        lastFrameBytes = encoder.finish(cursor: cursor, size: size)
        bytesWritten += lastFrameBytes.count
        emulator.play(lastFrameBytes)
    }
}
