import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// A question in a box over the screen, where the eye is: `y` answers yes, `n` or Esc no; every
/// other key waits for the answer (Ctrl-C still quits).
@MainActor
public final class ConfirmOverlay: OverlayScreen {
    private let l10n: L10n
    private let answered = PassthroughSubject<Bool, Never>()
    private var binding: StateBinding<ConfirmState>!
    private let closed: AnyPublisher<Void, Never>

    /// `onAnswer` gets the answer once, as the overlay closes.
    public init(viewModel: ConfirmViewModel, l10n: L10n, onAnswer: @escaping (Bool) -> Void) {
        self.l10n = l10n
        let output = viewModel.transform(input: .init(answered: answered.eraseToAnyPublisher()))
        closed = output.route.map { route in
            if case .answered(let yes) = route { onAnswer(yes) }
        }.share().eraseToAnyPublisher()
        binding = StateBinding(output.state)
    }

    public var changes: AnyPublisher<Void, Never> { binding.changes }
    public var closeRequests: AnyPublisher<Void, Never> { closed }

    public var bindings: [Binding] {
        let state = binding.value
        return [Binding([.char("y"), .char("Y")], "y", help: state?.yes ?? "", hint: state?.yes) { [answered] in answered.send(true) },
                Binding([.char("n"), .char("N"), .escape], "n Esc", help: state?.no ?? "", hint: state?.no) { [answered] in
                    answered.send(false)
                }]
    }

    public func draw(_ p: Painter, theme: Theme) {
        guard let state = binding.value else { return }
        Overlay.draw(p, title: state.title, lines: [state.question, "", state.keys], style: theme.overlay,
                     borderStyle: theme.overlayBorder)
    }
}
