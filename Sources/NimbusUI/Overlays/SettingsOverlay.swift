import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The settings (`,` or F2): a row per setting, changed with ←/→ or Enter; the home row opens a city
/// search. The box keeps the size it opened with (made for the widest value of every row), and on a
/// short terminal scrolls so that the chosen row stays in view.
@MainActor
public final class SettingsOverlay: OverlayScreen {
    /// The one way in to the view model.
    private let events = PassthroughSubject<SettingsViewModel.Event, Never>()
    private var binding: StateBinding<SettingsState>!
    private let closed: AnyPublisher<Void, Never>
    private var state: SettingsState? { binding.value }
    /// The home search's text as it is edited (its text goes to the view model on every change).
    private var field = TextFieldState()
    /// The box's size at the last frame's size (kept while the overlay is open).
    private var boxSize: (frame: Size, box: Size)?

    public init(viewModel: SettingsViewModel) {
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        closed = output.route.map { _ in () }.eraseToAnyPublisher()
        binding = StateBinding(output.state) { [weak self] old, new in
            // A search that opens starts empty.
            if old?.search == nil, new.search != nil { self?.field = TextFieldState() }
        }
    }

    public var changes: AnyPublisher<Void, Never> { binding.changes }
    public var closeRequests: AnyPublisher<Void, Never> { closed }
    public var capturesText: Bool { state?.search != nil }

    /// The settings' keys for `state`, as data. In the home search: Esc, Enter and ↑ ↓ on its results.
    /// Else the moves between rows (each key sends the row it lands on), ← → step the value,
    /// Backspace clears it, and Esc q , F2 ? close. Nothing before the first state.
    nonisolated static func keyMap(for state: SettingsState?) -> KeyMap<SettingsViewModel.Event, SettingsState> {
        typealias B = KeyBinding<SettingsViewModel.Event, SettingsState>
        guard let state else { return KeyMap([]) }
        let search = Words.key(.settingsHomeSearch), help = Words.key(.settingsHelp)
        let pick = state.search?.pick ?? 0
        let last = state.rows.count - 1
        /// The row each move lands on.
        func row(_ key: Key) -> Int {
            switch key {
            case .up, .char("k"): max(0, state.selected - 1)
            case .down, .char("j"): min(last, state.selected + 1)
            case .home, .char("g"), .pageUp: 0
            default: last
            }
        }
        let moves = B.listMoves(when: .unless(\.searching)).map { move in
            B(move.keys, move.keyLabel, help: move.help, .sendEach(Dictionary(uniqueKeysWithValues: move.keys.map { ($0, .rowSelected(row($0))) })),
              when: move.when)
        }
        return KeyMap([
            B(.escape, help: search, .send(.searchCancelled), when: .when(\.searching)),
            B(.enter, help: search, .send(.resultPicked), when: .when(\.searching)),
            B([.up, .down], "↑ ↓", help: search, .sendEach([.up: .resultSelected(pick - 1), .down: .resultSelected(pick + 1)]),
              when: .when(\.searching)),
        ] + moves + [
            B([.right, .char("l"), .enter, .char(" ")], "→ l Enter Space", help: help, .send(.valueStepped(1)), when: .unless(\.searching)),
            B([.left, .char("h")], "← h", help: help, .send(.valueStepped(-1)), when: .unless(\.searching)),
            B([.backspace, .delete], "Backspace Delete", help: help, .send(.valueCleared), when: .unless(\.searching)),
            B([.escape, .char("q"), .char(","), .function(2), .char("?")], "Esc q , F2 ?", help: .key(.helpKeySettings),
              .send(.closeRequested), when: .unless(\.searching)),
        ])
    }

    public var bindings: [Binding] { Self.keyMap(for: state).bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard case .send(let event)? = KeyMap<SettingsViewModel.Event, SettingsState>.command(command, pressed: key) else { return false }
        events.send(event)
        return true
    }

    /// Keys for the home search's text.
    public func handle(_ key: Key) -> Bool {
        guard state?.search != nil else { return false }
        if field.handle(key, maxLength: 64) == .changed { events.send(.searchChanged(field.text)) }
        return true
    }

    public func draw(_ p: Painter, theme: Theme) {
        guard let state else { return }
        let inner = max(1, p.width - 4)
        let labelWidth = state.rows.map { DisplayWidth.of($0.label) }.max() ?? 0
        func row(_ row: SettingsState.Row, value: String, selected: Bool) -> String {
            (selected ? "▸ " : "  ") + DisplayWidth.pad(row.label, to: labelWidth) + "  ‹ " + value + " ›" + (row.flagged ? " !" : "")
        }
        var lines = state.rows.enumerated().map { i, r in row(r, value: r.value, selected: i == state.selected) }
        var focus = state.selected
        if let search = state.search {
            lines += ["", search.prompt, "> " + search.text + "▏"]
            lines += search.results.enumerated().map { i, name in (i == search.pick ? "▸ " : "  ") + name }
            focus = min(lines.count - 1, state.rows.count + 3 + search.pick)
        } else {
            lines += [""] + TextWrap.lines(state.footer, width: inner) + TextWrap.lines(state.help, width: inner)
        }
        // The box is sized once per frame size, for every value each row can show, the search with
        // all its results and the longest footer: changing a value never resizes or moves it.
        let frame = Size(cols: p.width, rows: p.height)
        if boxSize?.frame != frame {
            let widest = state.rows.map { r in r.values.map { row(r, value: $0, selected: true) }.max { DisplayWidth.of($0) < DisplayWidth.of($1) } ?? "" }
            let below = max(state.footers.map { TextWrap.lines($0, width: inner).count }.max() ?? 1
                                + TextWrap.lines(state.help, width: inner).count,
                            2 + SettingsState.maxResults)
            let cols = (widest + state.footers + [state.help, state.searchPrompt]).map { DisplayWidth.of($0) }.max() ?? 0
            boxSize = (frame, Size(cols: min(cols + 4, p.width), rows: min(state.rows.count + 1 + below + 2, p.height)))
        }
        let visible = max(1, (boxSize?.box.rows ?? p.height) - 2)
        // In a box too short for every line, news in the footer (a change refused, saved or not
        // saved) is pinned under the rows, which scroll in what is left, so it is seen where it is said.
        if state.search == nil, state.footer != state.footers.first, lines.count > visible {
            let pinned = Array(TextWrap.lines(state.footer, width: inner).prefix(max(1, visible / 2)))
            let room = visible - pinned.count
            let top = min(max(0, focus - room + 1), max(0, state.rows.count - room))
            lines = Array(lines[top..<min(top + room, state.rows.count)]) + pinned
            focus = 0
        }
        Overlay.draw(p, title: state.title, lines: lines, style: theme.overlay, borderStyle: theme.overlayBorder,
                     scroll: max(0, focus - visible + 1), minimum: boxSize?.box ?? Size(cols: 0, rows: 0))
    }
}
