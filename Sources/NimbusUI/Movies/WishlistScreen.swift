import Foundation
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The Wishlist tab's root: saved films, newest first.
@MainActor
public final class WishlistScreen: Screen {
    private let l10n: L10n
    /// The one way in to the view model.
    private let events = PassthroughSubject<WishlistViewModel.Event, Never>()
    /// The keys, as data.
    let keyMap: KeyMap<WishlistViewModel.Event, WishlistState>
    private var binding: StateBinding<WishlistState>!
    private var routes: AnyCancellable?
    private var state: WishlistState? { binding.value }
    /// The rows and scroll position as the last frame drew them.
    private var list = ListState()
    private var lastPageSize = 10
    /// The import's path field as edited; kept after Enter, so `i` again edits the path last tried.
    private var field = TextFieldState()

    public var changes: AnyPublisher<Void, Never> { binding.changes }

    public init(viewModel: WishlistViewModel, l10n: L10n, onRoute: @escaping (WishlistRoute) -> Void) {
        self.l10n = l10n
        keyMap = Self.keyMap(l10n)
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        binding = StateBinding(output.state) { [weak self] _, new in
            self?.list.setCount(new.rows.count)
            self?.list.select(new.selection)
        }
        routes = output.route.sink { onRoute($0) }
        events.send(.appeared)
    }

    /// The tab's keys: open, delete and delete all are listed while nothing is saved, and then say
    /// there is no row; `i` opens the import's path field, where every other key is text.
    nonisolated static func keyMap(_ l10n: L10n) -> KeyMap<WishlistViewModel.Event, WishlistState> {
        typealias B = KeyBinding<WishlistViewModel.Event, WishlistState>
        let rows = Condition<WishlistState>.when(\.hasRows), none = l10n[.helpKeyDisabledNoRow]
        let inList = Condition<WishlistState>.unless(\.importing), inField = Condition<WishlistState>.when(\.importing)
        return KeyMap(B.listMoves(when: inList) + [
            B(.enter, help: .key(.helpKeyOpen), hint: l10n[.hintOpen], .openSelection, when: inList, enabled: rows, disabledReason: none,
              hintWhen: rows),
            B(.char("d"), help: .key(.helpKeyDelete), hint: l10n[.hintDelete], .removeSelection, when: inList, enabled: rows,
              disabledReason: none, hintWhen: rows),
            B(.char("D"), help: .key(.helpKeyDeleteAll), hint: l10n[.hintDeleteAll], .send(.deleteAllRequested), when: inList,
              enabled: rows, disabledReason: none, hintWhen: rows),
            B(.char("i"), help: .key(.helpKeyImport), hint: l10n[.hintImport], .send(.importRequested), when: inList),
            // In the field.
            B([.enter], "Enter", help: .key(.helpKeyImportDone), hint: l10n[.hintImport], .editField, when: inField),
            B([.escape], "Esc", help: .key(.helpKeyImportCancel), hint: l10n[.hintImportCancel], .editField, when: inField),
            // The app quits on Ctrl-C before any screen hears it; the bar says so while `q` is text.
            B([.ctrl("c")], "Ctrl-C", help: .key(.helpKeyCtrlc), hint: l10n[.hintQuit], .describe, when: inField),
        ])
    }

    public func didAppear() { events.send(.appeared) }

    /// The "delete all?" question is an overlay over the list: a click on a tab's title does not
    /// leave it half-answered.
    public var capturesText: Bool { state?.importing == true }
    public var isAsking: Bool { state?.confirmation != nil }

    /// The answer to "delete all?", from the question's overlay.
    public func answerDeleteAll(_ yes: Bool) { events.send(.deleteAllAnswered(yes)) }

    public var bindings: [Binding] { keyMap.bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        KeyMap<WishlistViewModel.Event, WishlistState>.command(command, pressed: key).map { perform($0, key) } ?? false
    }

    /// Carries out a binding's command.
    private func perform(_ command: KeyCommand<WishlistViewModel.Event>, _ key: Key) -> Bool {
        switch command {
        case .send(let event): events.send(event)
        case .moveSelection:
            guard let selection = list.move(key, pageSize: lastPageSize) else { return false }
            events.send(.rowSelected(selection))
        case .openSelection: events.send(.rowOpened(list.selection))
        case .removeSelection: events.send(.rowDeleted(list.selection))
        case .editField: return edit(key)
        case .likeSelection, .describe, .scroll, .sendEach: return false
        }
        return true
    }

    /// In the import's field, a key edits the path (Enter and Esc as its bindings say).
    public func handle(_ key: Key) -> Bool {
        guard capturesText else { return false }
        return edit(key)
    }

    private func edit(_ key: Key) -> Bool {
        switch field.handle(key, maxLength: 4096) {
        case .submitted: events.send(.importSubmitted(field.text))
        case .cancelled:
            field = TextFieldState()
            events.send(.importCancelled)
        case .changed, .unchanged: break
        case .ignored: return false
        }
        return true
    }

    /// A click selects a film, a double click (or a click on the selected one) opens it; the wheel
    /// moves the selection. Nothing while the "delete all?" question is asked.
    public func handle(_ pointer: Pointer) -> Bool {
        guard state?.confirmation == nil else { return false }
        switch list.move(pointer) {
        case .ignored: return false
        case .select(let row): events.send(.rowSelected(row))
        case .open(let row): events.send(.rowOpened(row))
        }
        return true
    }

    /// The selected film's title and year.
    public var copyText: String? {
        guard let state, state.confirmation == nil, state.rows.indices.contains(list.selection) else { return nil }
        let row = state.rows[list.selection]
        return row.year.isEmpty ? row.title : "\(row.title) (\(row.year))"
    }

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.width > 0, p.height > 0, let state else { return }
        let summary = DisplayWidth.truncate(state.summary, to: p.width)
        p.text(summary, x: 0, y: 0, style: theme.dim)
        let message = state.message.map(DisplayWidth.sanitize)
        let messageRows = message == nil && !state.importing ? 0 : 1
        let body = p.sub(Rect(x: 0, y: 1, width: p.width, height: p.height - 1 - messageRows))
        if state.importing {
            TextField.draw(p.sub(Rect(x: 0, y: p.height - 1, width: p.width, height: 1)), state: field,
                           prompt: l10n[.wishlistImportPrompt], placeholder: l10n[.wishlistImportHint], focused: true,
                           style: theme.accent, placeholderStyle: theme.placeholder)
        } else if let message {
            p.text(DisplayWidth.truncate(message, to: p.width), x: 0, y: p.height - 1, style: theme.accent)
        }
        if let empty = state.emptyMessage {
            TextWrap.drawCentred(body, [empty], top: min(1, body.height - 1), style: theme.dim)
        } else if body.height > 1 {
            let columns = WishlistColumns(width: body.width)
            drawHeader(body.sub(Rect(x: 0, y: 0, width: body.width, height: 1)), columns: columns, theme: theme)
            let area = body.sub(Rect(x: 0, y: 1, width: body.width, height: body.height - 1))
            lastPageSize = max(1, area.height)
            ListView.draw(area, state: &list, selectedStyle: theme.selection) { i, row, selected in
                guard state.rows.indices.contains(i) else { return }
                self.drawRow(state.rows[i], in: row, columns: columns, theme: theme, selected: selected)
            }
        }
    }

    private func drawHeader(_ p: Painter, columns: WishlistColumns, theme: Theme) {
        let style = Style(fg: theme.dim.fg, dim: theme.dim.dim, underline: true)
        var x = p.text(DisplayWidth.pad("  " + l10n[.moviesColumnTitle], to: columns.title + 2), x: 0, y: 0, style: style)
        for (cols, key) in [(columns.year, L10nKey.moviesColumnYear), (columns.director, .moviesColumnDirector),
                            (columns.genres, .moviesColumnGenres), (columns.added, .wishlistColumnAdded)] where cols > 0 {
            x += p.text(DisplayWidth.pad(" " + l10n[key], to: cols), x: x, y: 0, style: style)
        }
        if x < p.width { p.text(String(repeating: " ", count: p.width - x), x: x, y: 0, style: style) }
    }

    private func drawRow(_ row: WishlistRow, in p: Painter, columns: WishlistColumns, theme: Theme, selected: Bool) {
        let base = selected ? theme.selection : theme.text
        if selected { p.text("›", x: 0, y: 0, style: base) }
        p.text(DisplayWidth.truncate(DisplayWidth.sanitize(row.title), to: max(0, columns.title - 1)), x: 2, y: 0, style: base)
        var x = 2 + columns.title
        for (cols, text) in [(columns.year, row.year), (columns.director, row.director), (columns.genres, row.genres),
                             (columns.added, row.added)] where cols > 0 {
            p.text(DisplayWidth.truncate(DisplayWidth.sanitize(text), to: cols - 1), x: x + 1, y: 0, style: selected ? base : theme.dim)
            x += cols
        }
    }
}
