import NimbusTerminal
import OpenCombineShim

/// A part of a screen that draws itself and takes keys, embedded by a host screen
/// (the map inside a city's detail). The host lists the panel's bindings with its own while the
/// panel is on screen, and redraws when the panel's state changes.
@MainActor
public protocol ScreenPanel: KeyScope {
    /// Draws the panel into the area the host gives it.
    func draw(_ painter: Painter, theme: Theme)
    /// The panel's key bindings (`KeyScope`), for the host to list with its own while the panel is
    /// on screen; the host passes their commands to the panel's `perform`.
    var bindings: [Binding] { get }
    /// Fires whenever what the panel draws has changed: the host merges it into its own `changes`.
    var changes: AnyPublisher<Void, Never> { get }
    /// The host is going away: cancel any work in flight.
    func cancel()
    /// A click, the wheel or a drag the host passed on; returns false when the panel has no use for it.
    func handle(_ pointer: Pointer) -> Bool
}

public extension ScreenPanel {
    var bindings: [Binding] { [] }
    func perform(_ command: BoundCommand, key: Key) -> Bool { false }
    func handle(_ pointer: Pointer) -> Bool { false }
}
