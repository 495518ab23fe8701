import NimbusTerminal

/// A part of a screen that draws itself and takes keys, embedded by a host screen
/// (the map inside a city's detail). The host offers it keys it does not use itself.
@MainActor
public protocol ScreenPanel: AnyObject {
    /// Draws the panel into the area the host gives it.
    func draw(_ painter: Painter, theme: Theme)
    /// Handles a key the host passed on; returns false when the panel has no use for it.
    func handle(_ key: Key) -> Bool
    /// The panel's key bindings, for the host to list with its own while the panel is on screen.
    var bindings: [Binding] { get }
    /// The panel's main keys, for the host's status bar while the panel is on screen.
    var hints: [KeyHint] { get }
    /// The panel's keys, for the host's help overlay.
    var help: [KeyHint] { get }
    /// Called by the panel whenever it needs to be drawn again.
    var onNeedsDisplay: (() -> Void)? { get set }
    /// The host is going away: cancel any work in flight.
    func cancel()
    /// A click, the wheel or a drag the host passed on; returns false when the panel has no use for it.
    func handle(_ pointer: Pointer) -> Bool
}

public extension ScreenPanel {
    var bindings: [Binding] { [] }
    func handle(_ pointer: Pointer) -> Bool { false }
}
