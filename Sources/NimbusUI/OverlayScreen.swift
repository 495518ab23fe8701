import NimbusTerminal
import OpenCombineShim

/// A screen drawn over the tab's screen: the help, the settings, the map cache statistics, a
/// question. Overlays sit on a stack; the top one gets keys first.
@MainActor
public protocol OverlayScreen: KeyScope {
    /// Draws over the whole frame (the overlay chooses its box).
    func draw(_ painter: Painter, theme: Theme)
    /// Its key bindings in its current state (`KeyScope`).
    var bindings: [Binding] { get }
    /// True while it takes printable keys as text (a filter being typed).
    var capturesText: Bool { get }
    /// A key none of its bindings took: text for its field. Returns true when taken.
    func handle(_ key: Key) -> Bool
    /// The wheel and clicks; returns true when taken.
    func handle(_ pointer: Pointer) -> Bool
    /// True when it takes every key (keys it does not bind do nothing); false when keys it does not
    /// bind go on to the screen under it (the map cache statistics stay up while browsing).
    var isModal: Bool { get }
    /// Fires when what it draws changed.
    var changes: AnyPublisher<Void, Never> { get }
    /// Fires once when it asks to be closed.
    var closeRequests: AnyPublisher<Void, Never> { get }
}

public extension OverlayScreen {
    var capturesText: Bool { false }
    func handle(_ key: Key) -> Bool { false }
    func handle(_ pointer: Pointer) -> Bool { isModal }
    var isModal: Bool { true }
}
