import Foundation
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The Quakes tab's root: the feed's events, newest (or nearest) first.
@MainActor
public final class QuakeListScreen: Screen {
    private let l10n: L10n
    /// The one way in to the view model: what the user does.
    private let events = PassthroughSubject<QuakeListViewModel.Event, Never>()
    /// The keys, as data.
    let keyMap: KeyMap<QuakeListViewModel.Event, QuakeListState>
    private var binding: StateBinding<QuakeListState>!
    private var routes: AnyCancellable?
    private var state: QuakeListState? { binding.value }
    /// The list's rows and scroll position as the last frame drew them (for page keys and clicks).
    private var list = ListState()
    private var lastPageSize = 10

    public var changes: AnyPublisher<Void, Never> { binding.changes }

    /// `ticks` is the app's clock: the feed is asked again each minute while the tab is shown.
    public init(viewModel: QuakeListViewModel, l10n: L10n, ticks: AnyPublisher<Date, Never>,
                onRoute: @escaping (QuakeListRoute) -> Void) {
        self.l10n = l10n
        keyMap = Self.keyMap(l10n, likesCities: viewModel.likesCities)
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher(), tick: ticks))
        binding = StateBinding(output.state) { [weak self] _, new in
            self?.list.setCount(new.rows.count)
            self?.list.select(new.selection)
        }
        routes = output.route.sink { onRoute($0) }
        events.send(.appeared)
    }

    /// The tab's keys: `f` only where likes are saved.
    nonisolated static func keyMap(_ l10n: L10n, likesCities: Bool) -> KeyMap<QuakeListViewModel.Event, QuakeListState> {
        typealias B = KeyBinding<QuakeListViewModel.Event, QuakeListState>
        var all = [B(.escape, help: .key(.helpKeyQuakesStop), hint: l10n[.hintStop], .send(.cancelRequested), when: .when(\.loading))]
        all += B.listMoves()
        all += [
            B(.enter, help: .key(.helpKeyOpenQuake), hint: l10n[.hintOpen], .openSelection, when: .when(\.hasRows)),
            B(.char("m"), help: .key(.helpKeyQuakesMagnitude), hint: l10n[.hintMagnitude], .send(.magnitudeCycled)),
            B(.char("p"), help: .key(.helpKeyQuakesPeriod), hint: l10n[.hintPeriod], .send(.periodCycled)),
            B(.char("n"), help: .key(.helpKeyQuakesNear), hint: l10n[.hintNear], .send(.nearToggled)),
            B(.char("s"), help: .key(.helpKeyQuakesSort), .send(.sortToggled)),
        ]
        if likesCities {
            all.append(B(.char("f"), help: .key(.helpKeyLikeNearest), .send(.likeToggled), when: .when(\.hasRows)))
        }
        all += [
            B(.char("r"), help: .key(.helpKeyQuakesRefresh), hint: l10n[.hintRetry], .send(.refreshRequested), when: .when(\.failed)),
            B(.char("r"), help: .key(.helpKeyQuakesRefresh), hint: l10n[.hintRefresh], .send(.refreshRequested), when: .unless(\.failed)),
        ]
        return KeyMap(all)
    }

    /// How fresh the feed is ("updated 2 min ago · not modified", "offline · cached 3 h ago"), for the
    /// status bar; nil before anything is loaded.
    /// A like that could not be saved comes first.
    public var status: String? {
        let parts = [state?.likeError, state?.status].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    public func didAppear() { events.send(.appeared) }
    public func didDisappear() { events.send(.disappeared) }

    // MARK: Screen

    public var capturesText: Bool { false }

    public var bindings: [Binding] { keyMap.bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        KeyMap<QuakeListViewModel.Event, QuakeListState>.command(command, pressed: key).map { perform($0, key) } ?? false
    }

    /// Carries out a binding's command.
    private func perform(_ command: KeyCommand<QuakeListViewModel.Event>, _ key: Key) -> Bool {
        switch command {
        case .send(let event): events.send(event)
        case .moveSelection:
            guard let selection = list.move(key, pageSize: lastPageSize) else { return false }
            events.send(.rowSelected(selection))
        case .openSelection: events.send(.rowOpened(list.selection))
        case .removeSelection, .likeSelection, .editField, .describe, .scroll, .sendEach: return false
        }
        return true
    }

    /// A click selects an event, a double click (or a click on the selected one) opens it; the wheel moves the selection.
    public func handle(_ pointer: Pointer) -> Bool {
        switch list.move(pointer) {
        case .ignored: return false
        case .select(let row): events.send(.rowSelected(row))
        case .open(let row): events.send(.rowOpened(row))
        }
        return true
    }

    /// The selected event's summary: "M4.4 · 2.4 km NW of Tsukuba · 75 min ago · 50 km".
    public var copyText: String? {
        guard let state, state.rows.indices.contains(list.selection) else { return nil }
        let row = state.rows[list.selection]
        return (["M" + row.magnitude] + [row.place, row.time, row.depth].filter { !$0.isEmpty }).joined(separator: " · ")
    }

    // MARK: Drawing

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.width > 0, p.height > 0, let state else { return }
        // The filter, and what the list holds on the right when there is room; how fresh the feed is
        // goes on the status bar (`status`).
        let header = Self.header(filter: state.filterParts, summary: state.summaryParts, width: p.width)
        p.text(header.filter, x: 0, y: 0, style: theme.accent)
        if !header.summary.isEmpty {
            p.text(header.summary, x: p.width - DisplayWidth.of(header.summary), y: 0, style: theme.dim)
        }
        let body = p.sub(Rect(x: 0, y: 1, width: p.width, height: max(0, p.height - 1)))
        if let message = state.message {
            TextWrap.drawCentred(body, [message], top: min(1, body.height - 1),
                                 style: state.failed ? theme.warning : theme.dim)
            return
        }
        guard body.height > 1 else { return }
        let columns = Columns(width: body.width, distance: state.showsDistance)
        drawHeader(body.sub(Rect(x: 0, y: 0, width: body.width, height: 1)), columns: columns, theme: theme)
        let area = body.sub(Rect(x: 0, y: 1, width: body.width, height: body.height - 1))
        lastPageSize = max(1, area.height)
        ListView.draw(area, state: &list, selectedStyle: theme.selection) { i, row, selected in
            guard state.rows.indices.contains(i) else { return }
            self.drawRow(state.rows[i], in: row, columns: columns, theme: theme, selected: selected)
        }
    }

    /// The header for `width` columns: the filter's parts on the left and what the list holds on the
    /// right, " · " between parts, two columns between the sides. What fits least usefully goes first:
    /// the summary's last parts, then the whole summary, then the filter's last parts; only a lone
    /// first part is ever cut short. Never wider than `width`.
    public nonisolated static func header(filter: [String], summary: [String], width: Int) -> (filter: String, summary: String) {
        let clean = { (parts: [String]) in parts.map { DisplayWidth.sanitize($0) }.filter { !$0.isEmpty } }
        var left = clean(filter), right = clean(summary)
        func text(_ parts: [String]) -> String { parts.joined(separator: " · ") }
        func columns(_ parts: [String]) -> Int { DisplayWidth.of(text(parts)) }
        while !right.isEmpty, columns(left) + 2 + columns(right) > max(0, width) { right.removeLast() }
        while left.count > 1, columns(left) > max(0, width) { left.removeLast() }
        return (DisplayWidth.truncate(text(left), to: max(0, width)), text(right))
    }

    private struct Columns {
        let magnitude = 5, distance: Int, time: Int, depth: Int, place: Int
        /// The distance to my places, when the list is sorted by it, goes before the others: the
        /// column a list is sorted by is always shown.
        init(width: Int, distance shown: Bool) {
            distance = shown && width >= 24 ? 11 : 0
            time = width - distance >= 40 ? 13 : 0
            depth = width - distance >= 64 ? 10 : 0
            place = max(0, width - 2 - magnitude - distance - time - depth)
        }
    }

    private func drawHeader(_ p: Painter, columns: Columns, theme: Theme) {
        let style = Style(fg: theme.dim.fg, dim: theme.dim.dim, underline: true)
        var x = p.text(DisplayWidth.pad("  " + l10n[.quakesColumnMagnitude], to: 2 + columns.magnitude), x: 0, y: 0, style: style)
        for (cols, key) in [(columns.distance, L10nKey.quakesColumnDistance), (columns.time, .quakesColumnTime), (columns.depth, .quakesColumnDepth),
                            (columns.place, .quakesColumnPlace)] where cols > 0 {
            x += p.text(DisplayWidth.pad(DisplayWidth.truncate(l10n[key], to: cols - 1), to: cols), x: x, y: 0, style: style)
        }
        if x < p.width { p.text(String(repeating: " ", count: p.width - x), x: x, y: 0, style: style) }
    }

    /// The magnitude's style: stronger events stand out, in colour and (bold, reverse) without it.
    static func style(_ strength: Int, theme: Theme) -> Style {
        switch strength {
        case 0: return theme.dim
        case 1: return theme.text
        case 2: return theme.accent
        case 3: return theme.warning
        default:
            var strong = theme.warning
            strong.reverse = true
            return strong
        }
    }

    private func drawRow(_ row: QuakeRow, in p: Painter, columns: Columns, theme: Theme, selected: Bool) {
        let base = selected ? theme.selection : theme.text
        if selected { p.text("›", x: 0, y: 0, style: base) }
        if row.flagged { p.text("!", x: 1, y: 0, style: selected ? base : theme.warning) }
        var x = 2
        p.text(DisplayWidth.pad(row.magnitude, to: columns.magnitude), x: x, y: 0,
               style: selected ? base : Self.style(row.strength, theme: theme))
        x += columns.magnitude
        for (cols, text) in [(columns.distance, row.distance), (columns.time, row.time), (columns.depth, row.depth), (columns.place, row.place)] where cols > 0 {
            p.text(DisplayWidth.truncate(DisplayWidth.sanitize(text), to: max(0, cols - 1)), x: x, y: 0,
                   style: selected ? base : (cols == columns.place ? theme.text : theme.dim))
            x += cols
        }
    }
}
