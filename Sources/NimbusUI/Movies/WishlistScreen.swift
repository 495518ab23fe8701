import Foundation
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The Wishlist tab's root: saved films, newest first.
@MainActor
public final class WishlistScreen: Screen {
    private let l10n: L10n
    private let viewModel: WishlistViewModel
    private let appeared = PassthroughSubject<Void, Never>()
    private let rowOpened = PassthroughSubject<Int, Never>()
    private let rowDeleted = PassthroughSubject<Int, Never>()
    private let deleteAllRequested = PassthroughSubject<Void, Never>()
    private let deleteAllAnswered = PassthroughSubject<Bool, Never>()
    private var cancellables: Set<AnyCancellable> = []
    private var state: WishlistState?
    private var list = ListState()
    private var message: String?
    private var lastPageSize = 10

    public var onNeedsDisplay: (() -> Void)?

    public init(viewModel: WishlistViewModel, l10n: L10n, onRoute: @escaping (WishlistRoute) -> Void) {
        self.l10n = l10n
        self.viewModel = viewModel
        let output = viewModel.transform(input: .init(
            appeared: appeared.eraseToAnyPublisher(), rowOpened: rowOpened.eraseToAnyPublisher(),
            rowDeleted: rowDeleted.eraseToAnyPublisher(), deleteAllRequested: deleteAllRequested.eraseToAnyPublisher(),
            deleteAllAnswered: deleteAllAnswered.eraseToAnyPublisher()))
        output.state
            .sink { [weak self] in self?.apply($0) }
            .store(in: &cancellables)
        output.route
            .sink { onRoute($0) }
            .store(in: &cancellables)
        output.message
            .sink { [weak self] in
                self?.message = DisplayWidth.sanitize($0)
                self?.onNeedsDisplay?()
            }
            .store(in: &cancellables)
        appeared.send(())
    }

    private func apply(_ new: WishlistState) {
        let oldIDs = state?.rows.map(\.id) ?? []
        let selected = oldIDs.indices.contains(list.selection) ? oldIDs[list.selection] : nil
        state = new
        let diff = SnapshotDiff(old: oldIDs, new: new.rows.map(\.id))
        list.setCount(new.rows.count)
        if let selected, let i = diff.index(of: selected) { list.select(i) }
        onNeedsDisplay?()
    }

    /// While the "delete all?" question is asked it takes every key (as a text field does), so
    /// `1`–`6`, `?` and `q` cannot leave it half-answered; Ctrl-C still quits.
    public var capturesText: Bool { state?.confirmation != nil }
    public var isAsking: Bool { state?.confirmation != nil }

    public var hints: [KeyHint] {
        if state?.confirmation != nil {
            return [KeyHint("y", l10n[.hintDeleteAll]), KeyHint("n Esc", l10n[.hintBack])]
        }
        guard !(state?.rows.isEmpty ?? true) else { return [KeyHint("?", l10n[.hintHelp]), KeyHint("q", l10n[.hintQuit])] }
        return [KeyHint("Enter", l10n[.hintOpen]), KeyHint("d", l10n[.hintDelete]), KeyHint("D", l10n[.hintDeleteAll]),
                KeyHint("?", l10n[.hintHelp]), KeyHint("q", l10n[.hintQuit])]
    }

    public var help: [KeyHint] {
        [KeyHint("↑ ↓  j k", l10n[.helpKeyMove]),
         KeyHint("PgUp PgDn", l10n[.helpKeyPage]),
         KeyHint("Home End  g G", l10n[.helpKeyEnds]),
         KeyHint("Enter", l10n[.helpKeyOpen]),
         KeyHint("d", l10n[.helpKeyDelete]),
         KeyHint("D", l10n[.helpKeyDeleteAll])]
    }

    /// A click selects a film, a double click (or a click on the selected one) opens it; the wheel
    /// moves the selection. Nothing while the "delete all?" question is asked.
    public func handle(_ pointer: Pointer) -> Bool {
        guard state?.confirmation == nil else { return false }
        switch list.handle(pointer) {
        case .ignored: return false
        case .moved: onNeedsDisplay?()
        case .open: _ = handle(.enter)
        }
        return true
    }

    /// The selected film's title and year.
    public var copyText: String? {
        guard let state, state.confirmation == nil, state.rows.indices.contains(list.selection) else { return nil }
        let row = state.rows[list.selection]
        return row.year.isEmpty ? row.title : "\(row.title) (\(row.year))"
    }

    public func handle(_ key: Key) -> Bool {
        message = nil
        if state?.confirmation != nil {
            // The question takes every key until it is answered.
            switch key {
            case .char("y"), .char("Y"): deleteAllAnswered.send(true)
            case .char("n"), .char("N"), .escape: deleteAllAnswered.send(false)
            default: break
            }
            onNeedsDisplay?()
            return true
        }
        let hasRows = !(state?.rows.isEmpty ?? true)
        switch key {
        case .enter where hasRows: rowOpened.send(list.selection)
        case .char("d") where hasRows: rowDeleted.send(list.selection)
        case .char("D") where hasRows: deleteAllRequested.send(())
        default:
            guard list.handle(key, pageSize: lastPageSize) else {
                onNeedsDisplay?()
                return false
            }
        }
        onNeedsDisplay?()
        return true
    }

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.width > 0, p.height > 0, let state else { return }
        let summary = DisplayWidth.truncate(state.summary, to: p.width)
        p.text(summary, x: 0, y: 0, style: theme.dim)
        let messageRows = message == nil ? 0 : 1
        let body = p.sub(Rect(x: 0, y: 1, width: p.width, height: p.height - 1 - messageRows))
        if let message {
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
        if let question = state.confirmation {
            Overlay.draw(p, title: l10n[.wishlistConfirmTitle], lines: [question, "", l10n[.wishlistConfirmKeys]],
                         style: theme.overlay, borderStyle: theme.overlayBorder)
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
