import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim
import CombineSchedulers

/// The Movies tab's root: a search field, the recently viewed strip, and paged results.
@MainActor
public final class MovieListScreen: Screen {
    private enum Focus { case list, field, suggestions, recent }

    private let l10n: L10n
    private let viewModel: MovieListViewModel
    /// The recent searches under an empty field (their own view model; a pick comes back through `search`).
    private let queries: MoviesQueriesListPanel
    private let queryChanged = PassthroughSubject<String, Never>()
    private let querySubmitted = PassthroughSubject<String, Never>()
    private let selectionMoved = PassthroughSubject<Int, Never>()
    private let rowOpened = PassthroughSubject<Int, Never>()
    private let recentOpened = PassthroughSubject<Int, Never>()
    private let wishlistToggled = PassthroughSubject<Int, Never>()
    private let retried = PassthroughSubject<Void, Never>()
    private let filterChanged = PassthroughSubject<MovieFilter, Never>()
    private let visibleRows = PassthroughSubject<Int, Never>()
    private var cancellables: Set<AnyCancellable> = []
    /// Rows the list showed in the last frame, and the count last told to the view model.
    private var listRows = 0
    private var toldRows = -1
    /// The open genre, years or sort picker: its options, the selection, and (years) what is typed.
    private struct Picker {
        let kind: MovieChip.Kind
        var options: [MovieFilterOption] = []
        var list = ListState()
        var typed = ""
    }
    private var picker: Picker?
    /// Where each chip and its × were drawn (absolute cells), for clicks.
    private var chipHits: [(kind: MovieChip.Kind, y: Int, chip: Range<Int>, remove: Range<Int>)] = []

    private var state: MovieListState?
    private var field = TextFieldState()
    private var list = ListState()
    private var recentSelection = 0
    /// Where each recently viewed title was drawn (absolute cells), for clicks.
    private var recentHits: [(index: Int, y: Int, columns: Range<Int>)] = []
    private var focus = Focus.list
    private var message: String?
    private var lastPageSize = 10
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// The spinner's frame, stepped every 100 ms while something loads.
    /// Turns while a page loads.
    private lazy var spinner = SpinnerTicker(scheduler: scheduler, isLoading: { [weak self] in self?.isLoading ?? false },
                                             redraw: { [weak self] in self?.onNeedsDisplay?() })

    public var onNeedsDisplay: (() -> Void)?

    public init(viewModel: MovieListViewModel, queries: MoviesQueriesListPanel, l10n: L10n,
                scheduler: AnySchedulerOf<DispatchQueue>, onRoute: @escaping (MovieListRoute) -> Void) {
        self.l10n = l10n
        self.viewModel = viewModel
        self.queries = queries
        self.scheduler = scheduler
        let output = viewModel.transform(input: .init(
            queryChanged: queryChanged.eraseToAnyPublisher(),
            querySubmitted: querySubmitted.eraseToAnyPublisher(),
            selectionMoved: selectionMoved.eraseToAnyPublisher(),
            rowOpened: rowOpened.eraseToAnyPublisher(),
            recentOpened: recentOpened.eraseToAnyPublisher(),
            wishlistToggled: wishlistToggled.eraseToAnyPublisher(),
            retried: retried.eraseToAnyPublisher(),
            filterChanged: filterChanged.eraseToAnyPublisher(),
            visibleRows: visibleRows.eraseToAnyPublisher()))
        output.state
            .sink { [weak self] in self?.apply($0) }
            .store(in: &cancellables)
        output.route
            .sink { onRoute($0) }
            .store(in: &cancellables)
        output.message
            .sink { [weak self] in
                self?.message = $0
                self?.onNeedsDisplay?()
            }
            .store(in: &cancellables)
        queryChanged.send("")
    }

    /// Applies a new snapshot of rows: rows are matched by id, so the selected row and the top visible
    /// row stay where they were when a page is appended.
    private func apply(_ new: MovieListState) {
        let old = state
        state = new
        if old?.query != new.query {
            list = ListState(count: new.rows.count)
        } else {
            let oldRows = old?.rows ?? []
            let selected = oldRows.indices.contains(list.selection) ? (list.selection, oldRows[list.selection].id) : nil
            let top = oldRows.indices.contains(list.offset) ? (list.offset, oldRows[list.offset].id) : nil
            list.setCount(new.rows.count)
            if let selected, let i = Self.index(of: selected.1, was: selected.0, in: new.rows) { list.select(i) }
            if let top, let i = Self.index(of: top.1, was: top.0, in: new.rows) { list.offset = i }
        }
        recentSelection = min(recentSelection, max(0, new.recent.count - 1))
        if focus == .suggestions && !showsSuggestions { focus = .field }
        if focus == .recent && new.recent.isEmpty { focus = .list }
        spinner.startIfLoading(resetting: true)
        onNeedsDisplay?()
    }

    /// Where the row of film `id`, at `was` before, is in `rows` now: at the same place when it
    /// still is (a page arrived below it, the usual case, found without a pass over the rows),
    /// else wherever it went.
    static func index(of id: MovieID, was: Int, in rows: [MovieRow]) -> Int? {
        if rows.indices.contains(was), rows[was].id == id { return was }
        return rows.firstIndex { $0.id == id }
    }

    private var isLoading: Bool { state?.phase == .loading || state?.loadingMore == true }

    private var showsSuggestions: Bool {
        (focus == .field || focus == .suggestions) && field.text.isEmpty && !queries.isEmpty
    }

    /// The recent searches' panel redraws the list when its state changes.
    public var changes: AnyPublisher<Void, Never> { queries.changes }

    /// A query picked in the recent searches (through the coordinator): it fills the field and is
    /// searched at once, and the results take the focus.
    public func search(_ query: String) {
        field = TextFieldState(text: query)
        querySubmitted.send(query)
        focus = .list
        onNeedsDisplay?()
    }

    // MARK: Screen

    /// An open picker is a question over the list: Esc (or a choice) first, as the wishlist's "delete all?".
    public var isAsking: Bool { picker != nil }

    /// The field, and an open picker (the years picker takes digits; `q` and tab digits are not commands there).
    public var capturesText: Bool { focus == .field || picker != nil }

    /// Tells the view model how many rows the list shows, once the frame is out: pages load to fill it.
    public func frameShown() {
        guard listRows != toldRows, listRows > 0 else { return }
        toldRows = listRows
        visibleRows.send(listRows)
    }

    public var hints: [KeyHint] {
        if picker != nil {
            return [KeyHint("Enter", l10n[.hintApply]), KeyHint("Esc", l10n[.hintBack]), KeyHint("Ctrl-C", l10n[.hintQuit])]
        }
        switch focus {
        case .list:
            var hints = [KeyHint("/", l10n[.hintSearch])]
            if state?.phase == .results {
                hints += [KeyHint("Enter", l10n[.hintOpen]), KeyHint("w", l10n[.hintWishlist])]
            }
            if case .error = state?.phase { hints.append(KeyHint("r", l10n[.hintRetry])) }
            if state?.moreError != nil { hints.append(KeyHint("r", l10n[.hintRetry])) }
            // The filters the source applies, once there is a list (or an empty one) to filter.
            if let state, state.phase == .results || { if case .empty = state.phase { return true } else { return false } }() {
                if !state.filter.isEmpty { hints.append(KeyHint("x", l10n[.hintClearFilters])) }
                if state.filterSupport.genre { hints.append(KeyHint("g", l10n[.hintGenre])) }
                hints.append(KeyHint("p", l10n[.hintYears]))
                if state.filterSupport.sort { hints.append(KeyHint("s", l10n[.hintSort])) }
            }
            return hints + [KeyHint("?", l10n[.hintHelp]), KeyHint("q", l10n[.hintQuit])]
        case .field:
            var hints = [KeyHint("Enter", l10n[.hintResults]), KeyHint("Esc", l10n[.hintClear])]
            if showsSuggestions { hints.append(KeyHint("↓", l10n[.hintSuggestions])) }
            return hints + [KeyHint("Ctrl-C", l10n[.hintQuit])]
        case .suggestions, .recent:
            return [KeyHint("Enter", l10n[.hintOpen]), KeyHint("Esc", l10n[.hintBack]), KeyHint("q", l10n[.hintQuit])]
        }
    }

    public var help: [KeyHint] {
        [KeyHint("/", l10n[.helpKeySearch]),
         KeyHint("↑ ↓  j k", l10n[.helpKeyMove]),
         KeyHint("PgUp PgDn", l10n[.helpKeyPage]),
         KeyHint("Home End  G", l10n[.helpKeyEnds]),
         KeyHint("Enter", l10n[.helpKeyOpen]),
         KeyHint("w", l10n[.helpKeyWishlist]),
         KeyHint("g", l10n[.helpKeyGenre]),
         KeyHint("p", l10n[.helpKeyYears]),
         KeyHint("s", l10n[.helpKeySort]),
         KeyHint("x", l10n[.helpKeyClearFilters]),
         KeyHint("r", l10n[.helpKeyRetry]),
         KeyHint("↑ ← →", l10n[.helpKeyRecent]),
         KeyHint("Enter ↓", l10n[.helpKeyFieldDone]),
         KeyHint("↓", l10n[.helpKeySuggestions]),
         KeyHint("Esc", l10n[.helpKeyFieldEsc])]
    }

    public func handle(_ key: Key) -> Bool {
        let hadMessage = message != nil
        message = nil
        let handled: Bool
        if picker != nil {
            handled = handlePicker(key)
            if hadMessage && !handled { onNeedsDisplay?() }
            return handled
        }
        switch focus {
        case .field: handled = handleField(key)
        case .list: handled = handleList(key)
        case .suggestions: handled = handleSuggestions(key)
        case .recent: handled = handleRecent(key)
        }
        if hadMessage && !handled { onNeedsDisplay?() }
        return handled
    }

    private func handleField(_ key: Key) -> Bool {
        switch field.handleSearchKey(key) {
        case .edited(let query): queryChanged.send(query)
        case .submitted(let query):
            querySubmitted.send(query)
            focus = .list
        case .down: focus = showsSuggestions ? .suggestions : .list
        case .left: focus = .list
        case .unchanged: break
        case .ignored: return false
        }
        onNeedsDisplay?()
        return true
    }

    /// The panel's keys move the highlight and pick (Enter); above its first row is the field.
    private func handleSuggestions(_ key: Key) -> Bool {
        switch key {
        case .up where queries.selection == 0, .char("/"):
            focus = .field
        case .escape:
            focus = .list
        default:
            guard queries.handle(key) else { return false }
        }
        onNeedsDisplay?()
        return true
    }

    private func handleRecent(_ key: Key) -> Bool {
        let count = state?.recent.count ?? 0
        switch key {
        case .left, .char("h"): recentSelection = max(0, recentSelection - 1)
        case .right, .char("l"): recentSelection = min(max(0, count - 1), recentSelection + 1)
        case .enter: recentOpened.send(recentSelection)
        case .down, .char("j"), .escape: focus = .list
        case .char("/"): focus = .field
        default: return false
        }
        onNeedsDisplay?()
        return true
    }

    private func handleList(_ key: Key) -> Bool {
        switch key {
        case .char("/"):
            focus = .field
        case .enter:
            guard state?.phase == .results else { return false }
            rowOpened.send(list.selection)
        case .char("w"):
            guard state?.phase == .results else { return false }
            wishlistToggled.send(list.selection)
        case .char("r"):
            retried.send(())
        case .char("g"): openPicker(.genre)
        case .char("p"): openPicker(.years)
        case .char("s"): openPicker(.sort)
        case .char("x"):
            guard let filter = state?.filter, !filter.isEmpty else { return false }
            filterChanged.send(.none)
        case .up where list.selection == 0 && !(state?.recent.isEmpty ?? true):
            focus = .recent
        default:
            guard list.handle(key, pageSize: lastPageSize) else { return false }
            selectionMoved.send(list.selection)
        }
        onNeedsDisplay?()
        return true
    }

    // MARK: Filters

    /// Opens a picker, its selection on the filter in force; with TMDB, genre and sort say they are
    /// the catalogue's only instead.
    private func openPicker(_ kind: MovieChip.Kind) {
        let support = state?.filterSupport ?? .all
        if (kind == .genre && !support.genre) || (kind == .sort && !support.sort) {
            message = l10n[.moviesFilterCatalogueOnly]
            return
        }
        picker = Picker(kind: kind)
        refreshPicker()
    }

    /// The picker's options for the filter in force (each one the whole filter it would make).
    private func refreshPicker() {
        guard var picker else { return }
        let made = MovieFilterOptions.options(picker.kind, current: state?.filter ?? .none, typed: picker.typed,
                                              support: state?.filterSupport ?? .all, l10n: l10n)
        picker.options = made.options
        picker.list = ListState(count: made.options.count)
        picker.list.select(made.selected)
        self.picker = picker
    }

    private func handlePicker(_ key: Key) -> Bool {
        guard var current = picker else { return false }
        switch key {
        case .enter:
            if current.options.indices.contains(current.list.selection) {
                filterChanged.send(current.options[current.list.selection].filter)
            }
            picker = nil
        case .escape:
            picker = nil
        case .char(let c) where current.kind == .years && MovieFilterOptions.isYearCharacter(c):
            guard current.typed.count < MovieFilterOptions.typedLimit else { return true }
            current.typed.append(c)
            picker = current
            refreshPicker()
        case .backspace where current.kind == .years && !current.typed.isEmpty:
            current.typed.removeLast()
            picker = current
            refreshPicker()
        case .char(let c) where c == current.kind.key:
            picker = nil  // the key that opened it closes it
        default:
            guard current.list.handle(key, pageSize: max(1, current.options.count)) else { return true }
            picker = current
        }
        onNeedsDisplay?()
        return true
    }

    // MARK: Pointer and copy

    /// A click on the search line focuses the field; a click on a recently viewed film opens it; on
    /// the results (or the suggestions) a click selects, a double click (or a click on the selected
    /// row) opens, and the wheel moves the selection.
    public func handle(_ pointer: Pointer) -> Bool {
        if var current = picker {
            // A click on an option applies it; a click elsewhere closes the picker.
            switch current.list.handle(pointer) {
            case .ignored:
                if case .click = pointer.action { picker = nil }
            case .moved, .open:
                if case .click = pointer.action, current.options.indices.contains(current.list.selection) {
                    filterChanged.send(current.options[current.list.selection].filter)
                    picker = nil
                } else {
                    picker = current
                }
            }
            onNeedsDisplay?()
            return true
        }
        if case .click = pointer.action,
           let hit = chipHits.first(where: { $0.y == pointer.screen.y && ($0.chip.contains(pointer.screen.x) || $0.remove.contains(pointer.screen.x)) }) {
            if hit.remove.contains(pointer.screen.x), let filter = state?.filter {
                var next = filter
                switch hit.kind {
                case .genre: next.genre = nil
                case .years: next.years = nil
                case .sort: next.sort = .relevance
                }
                filterChanged.send(next)
            } else {
                openPicker(hit.kind)
            }
            onNeedsDisplay?()
            return true
        }
        if case .click = pointer.action {
            if pointer.y == 0 {
                focus = .field
                onNeedsDisplay?()
                return true
            }
            if let hit = recentHits.first(where: { $0.y == pointer.screen.y && $0.columns.contains(pointer.screen.x) }) {
                recentSelection = hit.index
                focus = .recent
                recentOpened.send(hit.index)
                onNeedsDisplay?()
                return true
            }
        }
        if showsSuggestions {
            // The panel takes the focus; a pick hands it to the results (through `search`).
            let before = focus
            focus = .suggestions
            guard queries.handle(pointer) else {
                focus = before
                return false
            }
            onNeedsDisplay?()
            return true
        }
        guard state?.phase == .results else { return false }
        let before = list.selection
        switch list.handle(pointer) {
        case .ignored: return false
        case .moved:
            focus = .list
            selectionMoved.send(list.selection)
        case .open(let index):
            focus = .list
            if index != before { selectionMoved.send(index) }
            rowOpened.send(index)
        }
        onNeedsDisplay?()
        return true
    }

    /// `y` (the app's copy): the selected film's title and year, as a film's details and the wishlist copy it.
    public var copyText: String? {
        guard picker == nil, focus == .list, let state, state.phase == .results,
              state.rows.indices.contains(list.selection) else { return nil }
        let row = state.rows[list.selection]
        return row.year.isEmpty ? row.title : "\(row.title) (\(row.year))"
    }

    // MARK: Drawing

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.height > 0, p.width > 0 else { return }
        drawSearchLine(p.sub(Rect(x: 0, y: 0, width: p.width, height: 1)), theme: theme)
        recentHits = []
        chipHits = []
        guard p.height > 2, let state else { return }
        var y = 1
        if !state.chips.isEmpty {
            drawChips(p.sub(Rect(x: 0, y: y, width: p.width, height: 1)), chips: state.chips, theme: theme)
            y += 1
        }
        if !state.recent.isEmpty, p.height > 5 {
            drawRecent(p.sub(Rect(x: 0, y: y, width: p.width, height: 1)), recent: state.recent, theme: theme)
            y += 1
        }
        let messageRows = message == nil ? 0 : 1
        let body = p.sub(Rect(x: 0, y: y, width: p.width, height: p.height - y - messageRows))
        if let message {
            let line = DisplayWidth.truncate(DisplayWidth.sanitize(message), to: p.width)
            p.text(line, x: 0, y: p.height - 1, style: theme.accent)
        }
        guard body.height > 0 else { return }
        if showsSuggestions {
            queries.draw(body, theme: theme, highlighted: focus == .suggestions)
            return
        }
        listRows = max(1, body.height - 1)
        defer { if picker != nil { drawPicker(body, theme: theme) } }
        switch state.phase {
        case .idle(let text), .empty(let text):
            centred(body, text.components(separatedBy: "\n"), style: theme.dim)
        case .loading:
            centred(body, [Spinner.frame(spinner.tick) + " " + l10n[.moviesLoading]], style: theme.dim)
        case .error(let text):
            // `r` is text while the field has focus: say how to get to where it works.
            centred(body, [text, l10n[focus == .field ? .moviesRetryField : .moviesRetry]], style: theme.warning)
        case .results:
            drawResults(body, state: state, theme: theme)
        }
    }

    private func centred(_ p: Painter, _ lines: [String], style: Style) {
        TextWrap.drawCentred(p, lines, top: min(1, p.height - 1), style: style)
    }

    private func drawSearchLine(_ p: Painter, theme: Theme) {
        let summary = state.map { $0.summary.isEmpty ? "" : " \($0.summary) " } ?? ""
        let summaryWidth = DisplayWidth.of(summary)
        let fieldWidth = summaryWidth + 20 <= p.width ? p.width - summaryWidth : p.width
        TextField.draw(p.sub(Rect(x: 0, y: 0, width: fieldWidth, height: 1)), state: field,
                       prompt: l10n[.moviesSearchPrompt], placeholder: l10n[.moviesSearchHint],
                       focused: focus == .field, style: focus == .field ? theme.accent : theme.field,
                       placeholderStyle: theme.placeholder)
        if fieldWidth < p.width {
            p.text(summary, x: fieldWidth, y: 0, style: theme.dim)
        }
    }

    /// `[Drama ×] [1990s ×] [sort: rating ×]`: each chip opens its picker when clicked, its × removes it.
    private func drawChips(_ p: Painter, chips: [MovieChip], theme: Theme) {
        var x = 0
        for chip in chips {
            let label = "[" + DisplayWidth.truncate(DisplayWidth.sanitize(chip.text), to: 24) + " "
            guard x + DisplayWidth.of(label) + 2 <= p.width else { break }
            let start = x
            x += p.text(label, x: x, y: 0, style: theme.accent)
            let removeAt = x
            x += p.text("×", x: x, y: 0, style: theme.warning)
            x += p.text("]", x: x, y: 0, style: theme.accent)
            chipHits.append((chip.kind, p.origin.y, (p.origin.x + start)..<(p.origin.x + removeAt),
                             (p.origin.x + removeAt)..<(p.origin.x + removeAt + 1)))
            x += 1
        }
    }

    /// The open picker: a box over the list's top left, its options one a line (the years picker with
    /// what is typed on its first line).
    private func drawPicker(_ p: Painter, theme: Theme) {
        guard var current = picker, p.width >= 8, p.height >= 3 else { return }
        let title = MovieFilterOptions.title(current.kind, l10n: l10n)
        let prompt = MovieFilterOptions.prompt(current.kind, typed: current.typed, support: state?.filterSupport ?? .all, l10n: l10n)
        let widest = max(DisplayWidth.of(title) + 4, current.options.map { DisplayWidth.of($0.label) + 4 }.max() ?? 0,
                         prompt.map { DisplayWidth.of($0) + 2 } ?? 0)
        let width = min(p.width, widest + 2)
        let promptRows = prompt == nil ? 0 : 1
        let height = min(p.height, current.options.count + 2 + promptRows)
        let box = p.sub(Rect(x: min(2, p.width - width), y: 0, width: width, height: height))
        box.fill(style: theme.text)
        let line = String(repeating: "─", count: max(0, width - 2))
        box.text("┌" + line + "┐", x: 0, y: 0, style: theme.accent)
        for row in 1..<max(1, height - 1) {
            box.text("│", x: 0, y: row, style: theme.accent)
            box.text("│", x: width - 1, y: row, style: theme.accent)
        }
        box.text("└" + line + "┘", x: 0, y: height - 1, style: theme.accent)
        box.text(" " + DisplayWidth.truncate(title, to: max(0, width - 5)) + " ", x: 2, y: 0, style: theme.accent)
        if let prompt {
            box.text(DisplayWidth.truncate(prompt, to: max(0, width - 3)), x: 2, y: 1, style: current.typed.isEmpty ? theme.dim : theme.text)
        }
        let area = box.sub(Rect(x: 1, y: 1 + promptRows, width: width - 2, height: max(0, height - 2 - promptRows)))
        let chosen = state?.filter
        ListView.draw(area, state: &current.list, selectedStyle: theme.selection) { i, row, selected in
            let option = current.options[i]
            let mark = option.filter == chosen ? "✓ " : "  "
            row.text(DisplayWidth.truncate(mark + option.label, to: row.width - 1), x: 1, y: 0,
                     style: selected ? theme.selection : theme.text)
        }
        picker?.list = current.list
    }

    private func drawRecent(_ p: Painter, recent: [String], theme: Theme) {
        var x = p.text(l10n[.moviesRecent] + " ", x: 0, y: 0, style: theme.dim)
        for (i, title) in recent.enumerated() {
            guard x < p.width else { break }
            let label = DisplayWidth.truncate(DisplayWidth.sanitize(title), to: min(28, max(1, p.width - x)))
            let selected = focus == .recent && i == recentSelection
            let start = x
            x += p.text(label, x: x, y: 0, style: selected ? theme.selection : theme.text)
            recentHits.append((i, p.origin.y, (p.origin.x + start)..<(p.origin.x + x)))
            if i < recent.count - 1 { x += p.text(" · ", x: x, y: 0, style: theme.dim) }
        }
    }

    private func drawResults(_ p: Painter, state: MovieListState, theme: Theme) {
        let columns = MovieColumns(width: p.width, sortedBy: state.filter.sort)
        drawHeader(p.sub(Rect(x: 0, y: 0, width: p.width, height: 1)), columns: columns, theme: theme)
        let footer = state.loadingMore || state.moreError != nil
        let listArea = p.sub(Rect(x: 0, y: 1, width: p.width, height: p.height - 1 - (footer ? 1 : 0)))
        lastPageSize = max(1, listArea.height)
        listRows = lastPageSize
        ListView.draw(listArea, state: &list, selectedStyle: theme.selection) { index, row, selected in
            // The list's count is set from the same state; a row it does not have is left blank.
            guard state.rows.indices.contains(index) else { return }
            self.drawRow(state.rows[index], in: row, columns: columns, theme: theme, selected: selected)
        }
        if footer, p.height >= 3 {
            let text = state.moreError.map { DisplayWidth.sanitize($0) + " · " + l10n[focus == .field ? .moviesRetryField : .moviesRetry] }
                ?? (Spinner.frame(spinner.tick) + " " + l10n[.moviesLoadingMore])
            p.text(DisplayWidth.truncate(text, to: p.width), x: 2, y: p.height - 1,
                   style: state.moreError == nil ? theme.dim : theme.warning)
        }
    }

    private func drawHeader(_ p: Painter, columns: MovieColumns, theme: Theme) {
        let style = Style(fg: theme.dim.fg, dim: theme.dim.dim, underline: true)
        var x = 0
        x += p.text(DisplayWidth.pad("  " + l10n[.moviesColumnTitle], to: columns.title + 2), x: x, y: 0, style: style)
        for (cols, key) in [(columns.year, L10nKey.moviesColumnYear), (columns.rating, .moviesColumnRating),
                            (columns.runtime, .moviesColumnRuntime), (columns.genres, .moviesColumnGenres),
                            (columns.director, .moviesColumnDirector), (columns.countries, .moviesColumnCountries)] where cols > 0 {
            x += p.text(DisplayWidth.pad(" " + l10n[key], to: cols), x: x, y: 0, style: style)
        }
        if x < p.width { p.text(String(repeating: " ", count: p.width - x), x: x, y: 0, style: style) }
    }

    private func drawRow(_ row: MovieRow, in p: Painter, columns: MovieColumns, theme: Theme, selected: Bool) {
        let base = selected ? theme.selection : theme.text
        let secondary = selected ? base : theme.dim
        if selected { p.text("›", x: 0, y: 0, style: base) }
        if row.inWishlist { p.text("♥", x: 1, y: 0, style: selected ? base : theme.accent) }
        var x = 2
        p.text(DisplayWidth.truncate(DisplayWidth.sanitize(row.title), to: max(0, columns.title - 1)), x: x, y: 0, style: base)
        x += columns.title
        for (cols, text) in [(columns.year, row.year), (columns.rating, row.rating), (columns.runtime, row.runtime),
                             (columns.genres, row.genres), (columns.director, row.director),
                             (columns.countries, row.countries)] where cols > 0 {
            p.text(DisplayWidth.truncate(DisplayWidth.sanitize(text), to: cols - 1), x: x + 1, y: 0, style: secondary)
            x += cols
        }
    }
}

private extension MovieChip.Kind {
    /// The key that opens this kind's picker.
    var key: Character {
        switch self {
        case .genre: return "g"
        case .years: return "p"
        case .sort: return "s"
        }
    }
}
