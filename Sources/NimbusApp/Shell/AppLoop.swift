import NimbusTerminal
import NimbusUI

/// The app's loop, one turn at a time: keys go to the coordinator, the frame is drawn and put on
/// the terminal, the screen hears that its frame is shown, and work that came due runs.
///
/// The live runner (`LiveRunner`: a real terminal, the main queue) and the tape runner (`TapeRunner`:
/// a `FakeTerminal`, a virtual clock) both drive the app through this type; they differ only in
/// their backend and their clock, so the tapes run the loop the user runs.
///
/// Redraws are asked for through one flag, the coordinator's `NeedsDisplay`: screens, tabs and
/// overlays set it, and the loop reads and clears it when it draws.
@MainActor
public final class AppLoop {
    public let coordinator: AppCoordinator
    private let renderer: Renderer
    private let size: () -> Size
    private let runDueWork: () -> Void
    /// Called with each frame drawn, after it is on the terminal (the tests' harness keeps them).
    public var onFrame: ((ScreenBuffer) -> Void)?
    /// Called with each key before it is handled (a tape being recorded keeps them).
    public var onKey: ((Key) -> Void)?
    private let backend: TerminalBackend
    /// Whether the terminal was last asked for mouse reports (the settings can change it).
    private var mouse: Bool

    /// - Parameters:
    ///   - backend: where frames go.
    ///   - size: the terminal's size when a frame is drawn.
    ///   - runDueWork: runs the work the clock has due between two keys of one read (the tapes'
    ///     virtual clock); the live clock is the main queue, which runs its work between turns.
    public init(coordinator: AppCoordinator, backend: TerminalBackend, size: @escaping () -> Size,
                runDueWork: @escaping () -> Void = {}) {
        self.coordinator = coordinator
        self.backend = backend
        mouse = coordinator.mouseWanted
        self.renderer = Renderer(backend: backend)
        self.size = size
        self.runDueWork = runDueWork
        coordinator.copyToClipboard = { [weak backend] text in backend?.copyToClipboard(text) }
    }

    public var needsDisplay: NeedsDisplay { coordinator.needsDisplay }

    /// Hands each key to the coordinator, running what is due after each, then draws the frame (at
    /// once, rather than on a later turn: a keystroke's frame waits for nothing). Returns true when
    /// a key asked to quit; the keys after it are not handled and nothing is drawn.
    @discardableResult
    public func handle(_ keys: [Key]) -> Bool {
        for key in keys {
            onKey?(key)
            coordinator.handle(key)
            if coordinator.quitRequested { return true }
            runDueWork()
        }
        draw()
        return false
    }

    /// Draws a frame if anything asked for one since the last.
    public func drawIfNeeded() {
        if needsDisplay.isSet { draw() }
    }

    /// Draws the frame, puts it on the terminal and tells the screen it is shown.
    public func draw() {
        // Cleared before drawing, so that a request made while drawing (or by `frameShown`) gets a frame of its own.
        if needsDisplay.take().fullRedraw { renderer.invalidate() }
        if coordinator.mouseWanted != mouse {
            mouse = coordinator.mouseWanted
            backend.setMouseReporting(mouse)
        }
        let buffer = coordinator.render(size: size())
        renderer.render(buffer)
        onFrame?(buffer)
        coordinator.frameShown()
    }

    /// The next frame clears the terminal and repaints every cell (after a resize, a resume, or when
    /// the terminal's contents are unknown).
    public func invalidate() {
        renderer.invalidate()
    }
}
