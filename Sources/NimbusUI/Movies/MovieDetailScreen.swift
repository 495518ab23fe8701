import Foundation
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// One film: its facts, then its cast (a few lines of it until `c`), wrapped by display width,
/// scrollable; `w` toggles the wishlist.
@MainActor
public final class MovieDetailScreen: Screen {
    private let l10n: L10n
    /// The one way in to the view model.
    private let events = PassthroughSubject<MovieDetailViewModel.Event, Never>()
    /// The keys, as data.
    let keyMap: KeyMap<MovieDetailViewModel.Event, MovieDetailState>
    private var binding: StateBinding<MovieDetailState>!
    private var state: MovieDetailState? { binding.value }
    /// How many lines the last frame had room for, and how many the details filled.
    private var lastHeight = 10
    private var lastContentHeight = 0
    public var changes: AnyPublisher<Void, Never> { binding.changes }

    public init(viewModel: MovieDetailViewModel, l10n: L10n) {
        self.l10n = l10n
        keyMap = Self.keyMap(l10n)
        binding = StateBinding(viewModel.transform(input: .init(events: events.eraseToAnyPublisher())).state)
        events.send(.appeared)
    }

    /// The film's keys: `r` (its hint while the details failed), `w`, and scrolling.
    nonisolated static func keyMap(_ l10n: L10n) -> KeyMap<MovieDetailViewModel.Event, MovieDetailState> {
        typealias B = KeyBinding<MovieDetailViewModel.Event, MovieDetailState>
        return KeyMap([
            B(.char("r"), help: .key(.helpKeyRetry), hint: l10n[.hintRetry], .send(.retried), hintWhen: .when(\.failed)),
            B(.char("w"), help: .key(.helpKeyWishlist), hint: l10n[.hintWishlist], .send(.wishlistToggled)),
            B(.char("c"), help: .key(.helpKeyCast), .send(.castToggled), when: .when(\.hasCast)),
            B([.up, .down, .char("k"), .char("j")], "↑ ↓  j k", help: .key(.helpKeyScroll), .scroll),
            B([.pageUp, .pageDown, .home, .end, .char("g"), .char("G")], "PgUp PgDn", help: .key(.helpKeyPage), .scroll),
        ])
    }

    public var capturesText: Bool { false }

    public var bindings: [Binding] { keyMap.bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        // A scroll within what the last frame measured.
        KeyMap<MovieDetailViewModel.Event, MovieDetailState>.command(command, pressed: key)?
            .performOnText(key, scroll: textScroll, send: events.send, scrolled: { .scrolled($0) }) ?? false
    }

    /// The wheel scrolls the details.
    public func handle(_ pointer: Pointer) -> Bool {
        guard case .wheel(let notches) = pointer.action, notches != 0 else { return false }
        events.send(.scrolled(textScroll.afterWheel(notches)))
        return true
    }

    private var textScroll: TextScroll {
        TextScroll(line: state?.scroll ?? 0, page: lastHeight - 1, last: lastContentHeight - lastHeight)
    }

    /// The film's title and year: "Heat (1995)".
    public var copyText: String? {
        guard let state, !state.title.isEmpty else { return nil }
        let year = state.fields.first { $0.label == l10n[.movieDetailYear] }?.value
        return year.map { "\(state.title) (\($0))" } ?? state.title
    }

    /// Lines of a cast shortened: a few, so that it never pushes the facts far down.
    nonisolated static let castLines = 4

    /// The cast as a line wraps it at `width`: every name when it is shown whole or fits in
    /// `castLines`; otherwise the most names that fit there with "… and 112 more (c: all)".
    nonisolated static func castText(_ cast: MovieDetailState.Cast, width: Int, l10n: L10n) -> String {
        func text(_ count: Int) -> String {
            var names = cast.names.prefix(count).map(DisplayWidth.sanitize).joined(separator: ", ")
            if count < cast.names.count { names += l10n.format(.movieDetailCastMore, l10n.number(cast.names.count - count)) }
            return cast.bestKnownFirst ? l10n.format(.movieDetailCastKnown, names) : names
        }
        guard !cast.names.isEmpty else { return cast.unknown }
        let whole = text(cast.names.count)
        func fits(_ t: String) -> Bool { TextWrap.lines(t, width: width).count <= Self.castLines }
        if cast.expanded || fits(whole) { return whole }
        // The most names that fit: a binary search, a few wraps a frame.
        var low = 1, high = cast.names.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if fits(text(mid)) { low = mid } else { high = mid - 1 }
        }
        return text(low)
    }

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.width > 0, p.height > 0, let state else { return }
        var lines: [(String, Style, Int)] = []   // text, style, indent
        // Remote text may carry control characters or escape sequences: they never reach the screen.
        lines.append((DisplayWidth.sanitize(state.title), Style(fg: theme.accent.fg, bold: true), 0))
        if state.inWishlist { lines.append((l10n[.movieDetailInWishlist], theme.accent, 0)) }
        lines.append(("", theme.text, 0))
        switch state.phase {
        case .loading(let text):
            lines.append((Spinner.frame(0) + " " + text, theme.dim, 0))
        case .error(let text):
            for l in TextWrap.lines(text, width: p.width) { lines.append((l, theme.warning, 0)) }
            lines.append((l10n[.moviesRetry], theme.dim, 0))
        case .loaded:
            let labels = state.fields.map(\.label) + (state.cast.map { [$0.label] } ?? [])
            let labelWidth = min(max(8, p.width / 3), (labels.map { DisplayWidth.of($0) }.max() ?? 0) + 2)
            let valueWidth = p.width - labelWidth
            let cast = state.cast.map { MovieDetailState.Field(label: $0.label, value: Self.castText($0, width: valueWidth >= 12 ? valueWidth : max(1, p.width - 2), l10n: l10n)) }
            for field in state.fields + (cast.map { [$0] } ?? []) {
                if valueWidth >= 12 {
                    for (i, l) in TextWrap.lines(DisplayWidth.sanitize(field.value), width: valueWidth).enumerated() {
                        let label = i == 0 ? DisplayWidth.pad(field.label, to: labelWidth) : String(repeating: " ", count: labelWidth)
                        lines.append((label + l, theme.text, 0))
                    }
                } else {
                    // Too narrow for two columns: the label on its own line, the value below.
                    lines.append((field.label, theme.dim, 0))
                    for l in TextWrap.lines(DisplayWidth.sanitize(field.value), width: max(1, p.width - 2)) { lines.append((l, theme.text, 2)) }
                }
            }
        }
        let message = state.message.map(DisplayWidth.sanitize)
        let messageRows = message == nil ? 0 : 1
        // When the details overflow, the last row says there is more and how much has been read.
        let overflows = lines.count > p.height - messageRows && p.height - messageRows >= 3
        let area = p.sub(Rect(x: 0, y: 0, width: p.width, height: p.height - messageRows - (overflows ? 1 : 0)))
        lastHeight = max(1, area.height)
        lastContentHeight = lines.count
        let scroll = min(state.scroll, max(0, lines.count - area.height))
        for (row, line) in lines.dropFirst(scroll).prefix(area.height).enumerated() {
            let text = DisplayWidth.truncate(line.0, to: max(0, area.width - line.2))
            area.text(text, x: line.2, y: row, style: line.1)
        }
        if overflows {
            let seen = min(lines.count, scroll + area.height)
            let more = seen < lines.count
                ? l10n.format(.movieDetailMore, String(seen * 100 / max(1, lines.count)))
                : "↑ " + String(100) + "%"
            let shown = DisplayWidth.truncate(more, to: p.width)
            p.text(shown, x: max(0, p.width - DisplayWidth.of(shown)), y: area.height, style: theme.dim)
        }
        if let message {
            p.text(DisplayWidth.truncate(message, to: p.width), x: 0, y: p.height - 1, style: theme.accent)
        }
    }
}
