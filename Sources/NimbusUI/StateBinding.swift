import OpenCombineShim

/// A screen's hold on its view model's state: the latest value, for drawing, and a signal each time
/// it changes, which the navigator turns into a frame while the screen is shown.
///
/// Screens never ask for a redraw themselves: what they draw is this value, and it changing is what
/// the app redraws on.
@MainActor
public final class StateBinding<State> {
    /// The state the next frame draws; nil until the view model's first state.
    public private(set) var value: State?
    private let changed = PassthroughSubject<Void, Never>()
    private var subscription: AnyCancellable?

    /// Subscribes at once: a view model's state arrives before the screen's first frame.
    /// `willChange` sees each new state beside the one it replaces, before it is kept (for what the
    /// screen measured from the last frame, such as a list's scroll position).
    public init(_ states: AnyPublisher<State, Never>, willChange: ((State?, State) -> Void)? = nil) {
        subscription = states.sink { [weak self] new in
            MainActor.assumeIsolated {
                guard let self else { return }
                willChange?(self.value, new)
                self.value = new
                self.changed.send()
            }
        }
    }

    /// Fires after every new state.
    public var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }
}
