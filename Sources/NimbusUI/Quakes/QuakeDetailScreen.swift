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
    private let likeToggled = PassthroughSubject<Void, Never>()
    private var binding: StateBinding<QuakeDetailState>!
    private var state: QuakeDetailState? { binding.value }
    private let panelChanges = PassthroughSubject<Void, Never>()
    private var panelShown = false
    private var left = false

    public var onNeedsDisplay: (() -> Void)?

    public init(viewModel: QuakeDetailViewModel, l10n: L10n, panel: ScreenPanel?) {
        self.l10n = l10n
        self.viewModel = viewModel
        self.panel = panel
        binding = StateBinding(viewModel.transform(input: .init(likeToggled: likeToggled.eraseToAnyPublisher())).state)
        panel?.onNeedsDisplay = { [panelChanges] in panelChanges.send() }
    }

    /// The event's state, or the map panel's.
    public var changes: AnyPublisher<Void, Never> {
        merge(binding.changes, panelChanges.eraseToAnyPublisher())
    }

    isolated deinit { if !left { panel?.cancel() } }

    public var capturesText: Bool { false }

    public var hints: [KeyHint] {
        [KeyHint("Esc", l10n[.hintBack])] + (panelShown ? panel?.hints ?? [] : [])
            + (state?.nearestCity == nil ? [] : [KeyHint("f", l10n[.hintLike])])
            + [KeyHint("?", l10n[.hintHelp]), KeyHint("q", l10n[.hintQuit])]
    }

    public var help: [KeyHint] {
        [KeyHint("Esc Backspace", l10n[.helpKeyBack])]
            + (state?.nearestCity == nil ? [] : [KeyHint("f", l10n[.helpKeyLikeNearest])])
            + (panelShown ? panel?.help ?? [] : [])
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

    public func handle(_ key: Key) -> Bool {
        switch key {
        case .escape, .backspace:
            left = true
            panel?.cancel()
            return false // the navigator pops the screen
        case .char("f") where state?.nearestCity != nil:
            likeToggled.send()
            return true
        default:
            return panelShown ? panel?.handle(key) ?? false : false
        }
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
        let liked = state.nearestLiked ? " [" + l10n[.weatherLiked] + "]" : ""
        line(state.title + liked, theme.accent)
        if !state.region.isEmpty {
            for row in TextWrap.lines(DisplayWidth.sanitize(state.region), width: w) { line(row, theme.dim) }
        }
        if let notice = state.notice { line(notice, theme.warning) }
        y += 1
        for (i, fact) in state.facts.enumerated() {
            for row in TextWrap.lines(DisplayWidth.sanitize(fact), width: w) {
                line(row, state.warnings.contains(i) ? theme.warning : theme.text)
            }
        }
    }
}
