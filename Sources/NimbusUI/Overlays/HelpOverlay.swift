import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The help (`?`): the shown screen's keys and the app's, made from their bindings, filtered as you
/// type, scrolled when they do not fit. The box keeps the size it opened with.
@MainActor
public final class HelpOverlay: OverlayScreen {
    /// The one way in to the view model.
    private let events = PassthroughSubject<HelpViewModel.Event, Never>()
    /// The overlay's keys, as data.
    let keyMap: KeyMap<HelpViewModel.Event, HelpState>
    private var binding: StateBinding<HelpState>!
    private let closed: AnyPublisher<Void, Never>
    private var state: HelpState? { binding.value }
    /// Measured by the last frame: the largest scroll that still fills the box, and a page.
    private var maxScroll = 0
    private var page = 1
    /// The box's size for the unfiltered help at the last frame's size (kept while the filter changes).
    private var boxSize: (frame: Size, box: Size)?

    public init(viewModel: HelpViewModel) {
        keyMap = Self.keyMap()
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        closed = output.route.map { _ in () }.eraseToAnyPublisher()
        binding = StateBinding(output.state)
    }

    public var changes: AnyPublisher<Void, Never> { binding.changes }
    public var closeRequests: AnyPublisher<Void, Never> { closed }
    public var capturesText: Bool { true }

    /// `?` closes, Esc clears the filter (then closes), Enter keeps it, Backspace and Ctrl-U edit it,
    /// the arrows and pages scroll (letters are the filter's).
    nonisolated static func keyMap() -> KeyMap<HelpViewModel.Event, HelpState> {
        typealias B = KeyBinding<HelpViewModel.Event, HelpState>
        let help = Words.key(.helpKeyHelp)
        return KeyMap([
            B(.char("?"), help: help, .send(.closeRequested)),
            B(.escape, help: help, .send(.escaped)),
            B(.enter, help: help, .send(.kept)),
            B(.backspace, help: help, .send(.backspace)),
            B(.ctrl("u"), help: help, .send(.cleared)),
            B([.up, .down, .pageUp, .pageDown, .home, .end], "↑ ↓ PgUp PgDn", help: help, .scroll),
        ])
    }

    public var bindings: [Binding] { keyMap.bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard let command = KeyMap<HelpViewModel.Event, HelpState>.command(command, pressed: key) else { return false }
        switch command {
        case .send(let event): events.send(event)
        case .scroll: return scroll(key)
        case .moveSelection, .openSelection, .removeSelection, .likeSelection, .editField, .describe, .sendEach: return false
        }
        return true
    }

    /// Letters, digits, `/` and pastes type into the filter (`/` only starts it).
    public func handle(_ key: Key) -> Bool {
        switch key {
        case .char("/") where state?.prompt == nil: events.send(.typed(""))
        case .char(" ") where state?.prompt == nil: _ = scroll(.pageDown)
        case .char(let c): events.send(.typed(String(c)))
        case .paste(let text): events.send(.typed(text))
        default: break
        }
        return true
    }

    /// The wheel scrolls the help.
    public func handle(_ pointer: Pointer) -> Bool {
        if case .wheel(let n) = pointer.action { events.send(.scrolled(textScroll.afterWheel(n))) }
        return true
    }

    /// Letters are the filter's, not the pager's.
    private func scroll(_ key: Key) -> Bool {
        guard let line = textScroll.after(key, letters: false) else { return false }
        events.send(.scrolled(line))
        return true
    }

    private var textScroll: TextScroll { TextScroll(line: state?.scroll ?? 0, page: page, last: maxScroll) }

    public func draw(_ p: Painter, theme: Theme) {
        guard let state else { return }
        let inner = max(1, p.width - 4)
        let keyWidth = (state.allScreen + state.allGlobal).map { DisplayWidth.of($0.key) }.max() ?? 0
        // A label that does not fit wraps under itself rather than being cut.
        func wrapped(_ e: HelpLine) -> [String] {
            let labelWidth = inner - keyWidth - 2
            guard labelWidth >= 8 else { return [DisplayWidth.pad(e.key, to: keyWidth) + "  " + e.label] }
            return TextWrap.lines(e.label, width: labelWidth).enumerated().map { i, part in
                (i == 0 ? DisplayWidth.pad(e.key, to: keyWidth) : String(repeating: " ", count: keyWidth)) + "  " + part
            }
        }
        let labels = state.labels
        func lines(screen: [HelpLine], global: [HelpLine], prompt: String?, noMatch: String?, footer: String) -> [String] {
            var lines: [String] = []
            if let prompt { lines += [prompt, ""] }
            if !screen.isEmpty { lines += [labels.screenHeading] + screen.flatMap(wrapped) + [""] }
            if !global.isEmpty { lines += [labels.globalHeading] + global.flatMap(wrapped) + [""] }
            if let noMatch { lines += [noMatch, ""] }
            return lines + TextWrap.lines(footer, width: inner)
        }
        let shown = lines(screen: state.screen, global: state.global, prompt: state.prompt, noMatch: state.noMatch, footer: state.footer)
        // The box is sized once per frame size, for the whole help with a filter line and the longer
        // footer: typing never resizes or moves it.
        let frame = Size(cols: p.width, rows: p.height)
        if boxSize?.frame != frame {
            let footers = labels.footers
            let longest = footers.max { TextWrap.lines($0, width: inner).count < TextWrap.lines($1, width: inner).count } ?? ""
            let whole = lines(screen: state.allScreen, global: state.allGlobal, prompt: labels.emptyPrompt,
                              noMatch: nil, footer: longest)
            let cols = max((whole.map { DisplayWidth.of($0) }.max() ?? 0), footers.map { DisplayWidth.of($0) }.max() ?? 0) + 4
            // A help taller than the screen scrolls, and then takes the screen's whole width (as
            // htop's does): the terminal can move whole rows only, so a box as wide as the screen
            // scrolls a line for the price of a line, where a narrower one is drawn again.
            let scrolls = whole.count + 2 > p.height
            boxSize = (frame, Size(cols: scrolls ? p.width : min(cols, p.width), rows: min(whole.count + 2, p.height)))
        }
        maxScroll = Overlay.draw(p, title: labels.title, lines: shown, style: theme.overlay, borderStyle: theme.overlayBorder,
                                 scroll: state.scroll, minimum: boxSize?.box ?? Size(cols: 0, rows: 0))
        page = max(1, min(shown.count, p.height - 2) - 1)
    }
}
