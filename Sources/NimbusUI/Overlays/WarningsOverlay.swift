import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The full text of a city's warnings in force (`a` on its detail): each warning's facts, then its
/// headline, description and instructions as the service published them, wrapped and scrolled.
/// `a` or Esc closes it.
@MainActor
public final class WarningsOverlay: OverlayScreen {
    /// The one way in to the view model.
    private let events = PassthroughSubject<WarningsViewModel.Event, Never>()
    private var binding: StateBinding<WarningsOverlayState>!
    private let closed: AnyPublisher<Void, Never>
    private var state: WarningsOverlayState? { binding.value }
    /// Measured by the last frame: the largest scroll that still fills the box, and a page.
    private var maxScroll = 0
    private var page = 1

    /// The text is wrapped to at most this many columns, for reading.
    static let readingWidth = 76

    public init(viewModel: WarningsViewModel) {
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        closed = output.route.map { _ in () }.eraseToAnyPublisher()
        binding = StateBinding(output.state)
    }

    public var changes: AnyPublisher<Void, Never> { binding.changes }
    public var closeRequests: AnyPublisher<Void, Never> { closed }

    /// The overlay's keys, as data.
    nonisolated static func keyMap() -> KeyMap<WarningsViewModel.Event, WarningsOverlayState> {
        typealias B = KeyBinding<WarningsViewModel.Event, WarningsOverlayState>
        return KeyMap([
            B([.char("a"), .escape], "a Esc", help: .key(.helpKeyWarningsClose), .send(.closeRequested)),
            B([.up, .down, .char("k"), .char("j"), .pageUp, .pageDown, .char(" "), .home, .end, .char("g"), .char("G")],
              "↑ ↓ PgUp PgDn", help: .key(.helpKeyWarningsScroll), .scroll),
        ])
    }

    public var bindings: [Binding] { Self.keyMap().bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard let command = KeyMap<WarningsViewModel.Event, WarningsOverlayState>.command(command, pressed: key) else { return false }
        return command.performOnText(key, scroll: textScroll, send: events.send, scrolled: { .scrolled($0) })
    }

    /// The wheel scrolls the text.
    public func handle(_ pointer: Pointer) -> Bool {
        if case .wheel(let n) = pointer.action { events.send(.scrolled(textScroll.afterWheel(n))) }
        return true
    }

    private var textScroll: TextScroll { TextScroll(line: state?.scroll ?? 0, page: page, last: maxScroll) }

    /// The text's lines wrapped to `width` columns; a warning's event is marked with "!".
    static func lines(_ text: WarningsText, width: Int) -> [String] {
        var lines: [String] = []
        for line in text.lines {
            switch line.kind {
            case .blank: lines.append("")
            case .event: lines += TextWrap.lines("! " + DisplayWidth.sanitize(line.text), width: width)
            case .fact, .text: lines += TextWrap.lines(DisplayWidth.sanitize(line.text), width: width)
            }
        }
        return lines + [""] + TextWrap.lines(text.footer, width: width)
    }

    public func draw(_ p: Painter, theme: Theme) {
        guard let state else { return }
        let width = max(1, min(Self.readingWidth, p.width - 4))
        let shown = Self.lines(state.text, width: width)
        // Lines keep a reading width; a text taller than the screen scrolls, and its box then takes
        // the screen's whole width, so that a line scrolled moves rows the terminal already shows
        // (it can move whole rows only) instead of drawing the box again.
        let scrolls = shown.count + 2 > p.height
        maxScroll = Overlay.draw(p, title: state.text.title, lines: shown, style: theme.overlay, borderStyle: theme.overlayBorder,
                                 scroll: state.scroll, minimum: Size(cols: scrolls ? p.width : min(p.width, width + 4), rows: 0))
        page = max(1, min(shown.count, p.height - 2) - 1)
    }
}
