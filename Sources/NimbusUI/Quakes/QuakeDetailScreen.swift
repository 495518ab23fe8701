import Foundation
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// One event: its facts, and the map centred on the epicentre beside them (or below) when there is room.
@MainActor
public final class QuakeDetailScreen: Screen {
    private let l10n: L10n
    private let viewModel: QuakeDetailViewModel
    private let panel: ScreenPanel?
    /// The one way in to the view model.
    private let events = PassthroughSubject<QuakeDetailViewModel.Event, Never>()
    /// The screen's own keys, as data (the map panel's come before them while it shows).
    let keyMap: KeyMap<QuakeDetailViewModel.Event, QuakeDetailState>
    private var binding: StateBinding<QuakeDetailState>!
    private var state: QuakeDetailState? { binding.value }
    private var panelShown = false

    public init(viewModel: QuakeDetailViewModel, l10n: L10n, panel: ScreenPanel?) {
        self.l10n = l10n
        self.viewModel = viewModel
        self.panel = panel
        keyMap = Self.keyMap(l10n)
        binding = StateBinding(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state)
    }

    /// `f` likes the nearest city, where there is one.
    nonisolated static func keyMap(_ l10n: L10n) -> KeyMap<QuakeDetailViewModel.Event, QuakeDetailState> {
        KeyMap([KeyBinding(.char("f"), help: .key(.helpKeyLikeNearest), hint: l10n[.hintLike], .send(.likeToggled),
                           when: .when(\.hasNearestCity))])
    }

    /// The event's state, or the map panel's.
    public var changes: AnyPublisher<Void, Never> {
        merge(binding.changes, panel?.changes ?? Empty().eraseToAnyPublisher())
    }

    /// Popped: the map stops what it was fetching.
    isolated deinit { panel?.cancel() }

    public var capturesText: Bool { false }

    /// Going back is the app's (Esc, Backspace); `f` likes the nearest city; the map's keys while it shows.
    public var bindings: [Binding] {
        (panelShown ? panel?.bindings ?? [] : []) + keyMap.bindings(in: state)
    }

    /// The screen's own commands; the map's go to the map while it shows.
    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard let own = KeyMap<QuakeDetailViewModel.Event, QuakeDetailState>.command(command, pressed: key) else {
            return panelShown && panel?.perform(command, key: key) == true
        }
        guard case .send(let event) = own else { return false }
        events.send(event)
        return true
    }

    /// The wheel and drags over the map go to it.
    public func handle(_ pointer: Pointer) -> Bool {
        panelShown ? panel?.handle(pointer) ?? false : false
    }

    /// The event's summary: its title and its first facts (time, depth).
    public var copyText: String? {
        guard let state else { return nil }
        return ([state.title] + state.facts.prefix(2)).joined(separator: " · ")
    }

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.width > 0, p.height > 0 else { return }
        let layout = CityDetailScreen.layout(width: p.width, height: p.height, hasPanel: panel != nil)
        panelShown = layout.panel != nil
        if let rect = layout.panel, let panel { panel.draw(p.sub(rect), theme: theme) }
        guard let state else { return }
        let c = p.sub(layout.content)
        let w = max(1, c.width - 2)
        var y = 0
        func line(_ text: String, _ style: Style) {
            guard y < c.height else { return }
            c.text(DisplayWidth.truncate(DisplayWidth.sanitize(text), to: w), x: 1, y: y, style: style)
            y += 1
        }
        // The event is not what is liked: the nearest city's fact says it is.
        line(state.title, theme.accent)
        if let town = state.nearestTown { line(town, theme.text) }
        if !state.region.isEmpty {
            for row in TextWrap.lines(DisplayWidth.sanitize(state.region), width: w) { line(row, theme.dim) }
        }
        if let error = state.likeError { line(error, theme.warning) }
        y += 1
        for (i, fact) in state.facts.enumerated() {
            for row in TextWrap.lines(DisplayWidth.sanitize(fact), width: w) {
                line(row, state.warnings.contains(i) ? theme.warning : theme.text)
            }
        }
    }
}
