import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// A question in a box over the screen, where the eye is: `y` answers yes, `n` or Esc no; every
/// other key waits for the answer (Ctrl-C still quits).
@MainActor
public final class ConfirmOverlay: OverlayScreen {
    /// The one way in to the view model.
    private let events = PassthroughSubject<ConfirmViewModel.Event, Never>()
    private var binding: StateBinding<ConfirmState>!
    private let closed: AnyPublisher<Void, Never>

    /// `onAnswer` gets the answer once, as the overlay closes.
    public init(viewModel: ConfirmViewModel, onAnswer: @escaping (Bool) -> Void) {
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        closed = output.route.map { route in
            if case .answered(let yes) = route { onAnswer(yes) }
        }.share().eraseToAnyPublisher()
        binding = StateBinding(output.state)
    }

    public var changes: AnyPublisher<Void, Never> { binding.changes }
    public var closeRequests: AnyPublisher<Void, Never> { closed }

    /// The question's keys, as data; their labels come with the question.
    nonisolated static func keyMap(_ state: ConfirmState?) -> KeyMap<ConfirmViewModel.Event, ConfirmState> {
        typealias B = KeyBinding<ConfirmViewModel.Event, ConfirmState>
        return KeyMap([
            B([.char("y"), .char("Y")], "y", help: .text(state?.yes ?? ""), hint: state?.yes, .send(.answered(true))),
            B([.char("n"), .char("N"), .escape], "n Esc", help: .text(state?.no ?? ""), hint: state?.no, .send(.answered(false))),
        ])
    }

    public var bindings: [Binding] { Self.keyMap(binding.value).bindings(in: binding.value) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard case .send(let event)? = KeyMap<ConfirmViewModel.Event, ConfirmState>.command(command, pressed: key) else { return false }
        events.send(event)
        return true
    }

    public func draw(_ p: Painter, theme: Theme) {
        guard let state = binding.value else { return }
        Overlay.draw(p, title: state.title, lines: [state.question, "", state.keys], style: theme.overlay,
                     borderStyle: theme.overlayBorder)
    }
}
