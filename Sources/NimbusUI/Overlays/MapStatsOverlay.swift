import Foundation
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The map cache's counters (F12). It stays up while browsing: keys it does not bind go on to the
/// screen under it; Esc (or F12 again) closes it.
@MainActor
public final class MapStatsOverlay: OverlayScreen {
    /// The one way in to the view model.
    private let events = PassthroughSubject<MapStatsViewModel.Event, Never>()
    /// The keys, as data.
    let keyMap: KeyMap<MapStatsViewModel.Event, MapStatsState>
    private var binding: StateBinding<MapStatsState>!
    private let closed: AnyPublisher<Void, Never>

    /// `tick` is the app's clock: the counters are read again on each.
    public init(viewModel: MapStatsViewModel, tick: AnyPublisher<Void, Never>) {
        keyMap = Self.keyMap()
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher(), tick: tick))
        closed = output.route.map { _ in () }.eraseToAnyPublisher()
        binding = StateBinding(output.state)
    }

    public var changes: AnyPublisher<Void, Never> { binding.changes }
    public var closeRequests: AnyPublisher<Void, Never> { closed }
    public var isModal: Bool { false }
    public func handle(_ pointer: Pointer) -> Bool { false }

    /// Esc closes it (F12, a key that works everywhere, too).
    nonisolated static func keyMap() -> KeyMap<MapStatsViewModel.Event, MapStatsState> {
        KeyMap([KeyBinding(.escape, help: .key(.helpKeyDebug), .send(.closeRequested))])
    }

    public var bindings: [Binding] { keyMap.bindings(in: binding.value) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard case .send(let event)? = KeyMap<MapStatsViewModel.Event, MapStatsState>.command(command, pressed: key) else { return false }
        events.send(event)
        return true
    }

    public func draw(_ p: Painter, theme: Theme) {
        guard let state = binding.value else { return }
        Overlay.draw(p, title: state.title, lines: state.lines, style: theme.overlay, borderStyle: theme.overlayBorder)
    }
}
