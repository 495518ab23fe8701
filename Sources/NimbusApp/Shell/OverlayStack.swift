import NimbusPresentation
import NimbusTerminal
import NimbusUI
import OpenCombineShim

/// Where a tab's coordinator puts a question or panel over the screen.
@MainActor
protocol OverlayPresenting: AnyObject {
    func present(_ overlay: OverlayScreen)
}

/// The overlays over the tab's screen, top last: the top one gets keys and the mouse first, and each
/// closes itself by asking (its view model's route).
@MainActor
final class OverlayStack: OverlayPresenting {
    private var overlays: [OverlayScreen] = []
    private var subscriptions: [ObjectIdentifier: AnyCancellable] = [:]
    private let needsDisplay: NeedsDisplay

    init(needsDisplay: NeedsDisplay) {
        self.needsDisplay = needsDisplay
    }

    var top: OverlayScreen? { overlays.last }
    var isEmpty: Bool { overlays.isEmpty }

    /// True when an overlay of type `T` is open.
    func contains<T: OverlayScreen>(_ type: T.Type) -> Bool { overlays.contains { $0 is T } }

    func present(_ overlay: OverlayScreen) { push(overlay) }

    func push(_ overlay: OverlayScreen) {
        overlays.append(overlay)
        let id = ObjectIdentifier(overlay)
        subscriptions[id] = merge(overlay.changes.map { false }.eraseToAnyPublisher(),
                                  overlay.closeRequests.map { true }.eraseToAnyPublisher())
            .sink { [weak self, weak overlay] close in
                guard let self else { return }
                if close, let overlay { self.remove(overlay) }
                self.needsDisplay.set()
            }
        needsDisplay.set()
    }

    func remove(_ overlay: OverlayScreen) {
        overlays.removeAll { $0 === overlay }
        subscriptions[ObjectIdentifier(overlay)] = nil
        needsDisplay.set()
    }

    /// Removes every overlay of type `T`.
    func removeAll<T: OverlayScreen>(_ type: T.Type) {
        for overlay in overlays where overlay is T { remove(overlay) }
    }

    /// Offers `key` to the top overlay: its bindings, then its text field. Returns true when the
    /// overlay took it, or takes every key.
    func handle(_ key: Key) -> Bool {
        guard let top else { return false }
        if top.press(key) == .ran { return true }
        if top.capturesText, top.handle(key) { return true }
        return top.isModal
    }

    func handle(_ pointer: Pointer) -> Bool {
        guard let top else { return false }
        return top.handle(pointer)
    }

    func draw(_ p: Painter, theme: Theme) {
        for overlay in overlays { overlay.draw(p, theme: theme) }
    }
}
