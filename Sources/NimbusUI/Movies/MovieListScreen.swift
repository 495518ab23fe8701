import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim
import CombineSchedulers

/// The Movies tab's root: a search field, the recently viewed strip, and paged results.
@MainActor
public final class MovieListScreen: Screen {
    private let l10n: L10n
    /// The recent searches under an empty field (their own view model; a pick comes back through `search`).
    private let queries: MoviesQueriesListPanel
    private let queryChanged = PassthroughSubject<String, Never>()
    private let querySubmitted = PassthroughSubject<String, Never>()
    private let selectionMoved = PassthroughSubject<Int, Never>()
    private let rowOpened = PassthroughSubject<Int, Never>()
    private let recentSelected = PassthroughSubject<Int, Never>()
    private let recentOpened = PassthroughSubject<Int, Never>()
    private let wishlistToggled = PassthroughSubject<Int, Never>()
    private let retried = PassthroughSubject<Void, Never>()
    private let filterChanged = PassthroughSubject<MovieFilter, Never>()
    private let chipRemoved = PassthroughSubject<MovieChip.Kind, Never>()
    private let visibleRows = PassthroughSubject<Int, Never>()
    private let focusChanged = PassthroughSubject<MovieListState.Focus, Never>()
    private let pickerOpened = PassthroughSubject<MovieChip.Kind, Never>()
    private let pickerClosed = PassthroughSubject<Void, Never>()
    private let pickerMoved = PassthroughSubject<Int, Never>()
    private let pickerTyped = PassthroughSubject<Character, Never>()
    private let pickerErased = PassthroughSubject<Void, Never>()
    private let suggestionPicked = PassthroughSubject<String, Never>()
    private var binding: StateBinding<MovieListState>!
    private var routes: AnyCancellable?
    private var state: MovieListState? { binding.value }
    /// Turns while a page loads.
    private let spinner: SpinnerSteps

    /// The search field's text and caret as edited; every edit is sent to the view model, whose state
    /// says what the field holds (a picked suggestion fills it) and whether it has the focus.
    private var field = TextFieldState()
    // What the last frame measured: the results' and the picker's scroll positions and drawn areas,
    // the rows the list showed (and the count last told to the view model), and where the chips and
    // the recently viewed titles were drawn (absolute cells, for clicks).
    private var list = ListState()
    private var pickerList = ListState()
    private var lastPageSize = 10
    private var listRows = 0
    private var toldRows = -1
    private var chipHits: [(kind: MovieChip.Kind, y: Int, chip: Range<Int>, remove: Range<Int>)] = []
    private var recentHits: [(index: Int, y: Int, columns: Range<Int>)] = []

    /// The state's changes, the recent searches' panel's, and the spinner's steps while a page loads.
    public var changes: AnyPublisher<Void, Never> {
        let binding = self.binding!
        return merge(merge(binding.changes, queries.changes), spinner.ticks(following: binding, isLoading: \.isLoading))
    }

    public init(viewModel: MovieListViewModel, queries: MoviesQueriesListPanel, l10n: L10n,
                scheduler: AnySchedulerOf<DispatchQueue>, onRoute: @escaping (MovieListRoute) -> Void) {
        self.l10n = l10n
        self.queries = queries
        spinner = SpinnerSteps(scheduler: scheduler)
        let suggestionsAvailable = queries.changes.map { [weak queries] in !(queries?.isEmpty ?? true) }
            .prepend(Deferred { [weak queries] in Just(!(queries?.isEmpty ?? true)) })
            .removeDuplicates()
            .eraseToAnyPublisher()
        let output = viewModel.transform(input: .init(
            queryChanged: queryChanged.eraseToAnyPublisher(),
            querySubmitted: querySubmitted.eraseToAnyPublisher(),
            selectionMoved: selectionMoved.eraseToAnyPublisher(),
            rowOpened: rowOpened.eraseToAnyPublisher(),
            recentOpened: recentOpened.eraseToAnyPublisher(),
            wishlistToggled: wishlistToggled.eraseToAnyPublisher(),
            retried: retried.eraseToAnyPublisher(),
            filterChanged: filterChanged.eraseToAnyPublisher(),
            visibleRows: visibleRows.eraseToAnyPublisher(),
            focusChanged: focusChanged.eraseToAnyPublisher(),
            recentSelected: recentSelected.eraseToAnyPublisher(),
            chipRemoved: chipRemoved.eraseToAnyPublisher(),
            pickerOpened: pickerOpened.eraseToAnyPublisher(),
            pickerClosed: pickerClosed.eraseToAnyPublisher(),
            pickerMoved: pickerMoved.eraseToAnyPublisher(),
            pickerTyped: pickerTyped.eraseToAnyPublisher(),
            pickerErased: pickerErased.eraseToAnyPublisher(),
            suggestionPicked: suggestionPicked.eraseToAnyPublisher(),
            suggestionsAvailable: suggestionsAvailable))
        binding = StateBinding(output.state) { [weak self] old, new in self?.follow(old, new) }
        routes = output.route.sink { onRoute($0) }
        queryChanged.send("")
    }

    /// Keeps what the last frame measured in step with a new state: the field's text, the picker's
    /// rows, and the results' top row, matched by id (a page appended below leaves it where it was).
    private func follow(_ old: MovieListState?, _ new: MovieListState) {
        if new.fieldText != field.text { field = TextFieldState(text: new.fieldText) }
        if let picker = new.picker {
            if old?.picker?.kind != picker.kind { pickerList = ListState(count: picker.options.count) }
            pickerList.setCount(picker.options.count)
            pickerList.select(picker.selection)
        }
        if old?.query != new.query {
            list = ListState(count: new.rows.count)
        } else {
            let oldRows = old?.rows ?? []
            let top = oldRows.indices.contains(list.offset) ? (list.offset, oldRows[list.offset].id) : nil
            list.setCount(new.rows.count)
            if let top, let i = Self.index(of: top.1, was: top.0, in: new.rows) { list.offset = i }
        }
        list.select(new.selection)
    }

    /// Where the row of film `id`, at `was` before, is in `rows` now: at the same place when it
    /// still is (a page arrived below it, the usual case, found without a pass over the rows),
    /// else wherever it went.
    static func index(of id: MovieID, was: Int, in rows: PagedList<MovieRow>) -> Int? {
        if rows.indices.contains(was), rows[was].id == id { return was }
        return rows.firstIndex { $0.id == id }
    }

    /// A query picked in the recent searches (through the coordinator): it fills the field and is
    /// searched at once, and the results take the focus.
    public func search(_ query: String) {
        suggestionPicked.send(query)
    }

    // MARK: Screen

    /// An open picker is a question over the list: Esc (or a choice) first, as the wishlist's "delete all?".
    public var isAsking: Bool { state?.picker != nil }

    /// The field, and an open picker (the years picker takes digits; `q` and tab digits are not commands there).
    public var capturesText: Bool { state?.focus == .field || state?.picker != nil }

    /// Tells the view model how many rows the list shows, once the frame is out: pages load to fill it.
    public func frameShown() {
        guard listRows != toldRows, listRows > 0 else { return }
        toldRows = listRows
        visibleRows.send(listRows)
    }

    public var bindings: [Binding] {
        // (The first state comes with the screen: the first query is sent as it is made.)
        guard let state else { return [] }
        if let picker = state.picker { return pickerBindings(picker) }
        switch state.focus {
        case .list: return listBindings(state)
        case .field: return fieldBindings(state)
        case .suggestions: return suggestionBindings
        case .recent: return recentBindings
        }
    }

    /// In the results: `/`, the list's moves (`g` is the genre here), Enter, `w`, `r` and the filters;
    /// and, for the help, the keys of the strip, the field and the suggestions.
    private func listBindings(_ state: MovieListState) -> [Binding] {
        let results = state.phase == .results
        let filterable: Bool
        switch state.phase {
        case .results, .empty: filterable = true
        default: filterable = false
        }
        var all = [Binding(.char("/"), help: l10n[.helpKeySearch], hint: l10n[.hintSearch]) { [focusChanged] in
            focusChanged.send(.field)
        }]
        all += Binding.listMoves(l10n, top: false) { [unowned self] key in
            if key == .up, list.selection == 0, !state.recent.isEmpty {
                focusChanged.send(.recent)
                return true
            }
            guard let selection = list.move(key, pageSize: lastPageSize) else { return false }
            selectionMoved.send(selection)
            return true
        }
        all += [
            Binding([.enter], "Enter", help: l10n[.helpKeyOpen], hint: results ? l10n[.hintOpen] : nil) { [unowned self] _ in
                guard results else { return false }
                rowOpened.send(state.selection)
                return true
            },
            Binding([.char("w")], "w", help: l10n[.helpKeyWishlist], hint: results ? l10n[.hintWishlist] : nil) { [unowned self] _ in
                guard results else { return false }
                wishlistToggled.send(state.selection)
                return true
            },
            Binding(.char("r"), help: l10n[.helpKeyRetry], hint: state.canRetry ? l10n[.hintRetry] : nil) { [retried] in
                retried.send()
            },
            // The filters the source applies, once there is a list (or an empty one) to filter.
            Binding([.char("x")], "x", help: l10n[.helpKeyClearFilters],
                    hint: filterable && !state.filter.isEmpty ? l10n[.hintClearFilters] : nil) { [filterChanged] _ in
                guard !state.filter.isEmpty else { return false }
                filterChanged.send(.none)
                return true
            },
            Binding(.char("g"), help: l10n[.helpKeyGenre], hint: filterable && state.filterSupport.genre ? l10n[.hintGenre] : nil) {
                [pickerOpened] in pickerOpened.send(.genre)
            },
            Binding(.char("p"), help: l10n[.helpKeyYears], hint: filterable ? l10n[.hintYears] : nil) { [pickerOpened] in
                pickerOpened.send(.years)
            },
            Binding(.char("s"), help: l10n[.helpKeySort], hint: filterable && state.filterSupport.sort ? l10n[.hintSort] : nil) {
                [pickerOpened] in pickerOpened.send(.sort)
            },
            // The keys of the strip, the field and the suggestions, for the help (there, they are the bindings).
            Binding([], "↑ ← →", help: l10n[.helpKeyRecent]) { _ in false },
            Binding([], "Enter ↓", help: l10n[.helpKeyFieldDone]) { _ in false },
            Binding([], "↓", help: l10n[.helpKeySuggestions]) { _ in false },
            Binding([], "Esc", help: l10n[.helpKeyFieldEsc]) { _ in false },
        ]
        return all
    }

    /// In the field: what leaves it, for the status bar; every other key is text (`handle(_:)`).
    private func fieldBindings(_ state: MovieListState) -> [Binding] {
        [
            Binding([.enter], "Enter", help: l10n[.helpKeyFieldDone], hint: l10n[.hintResults]) { [unowned self] key in edit(key) },
            Binding([.escape], "Esc", help: l10n[.helpKeyFieldEsc], hint: l10n[.hintClear]) { [unowned self] key in edit(key) },
            Binding([.down], "↓", help: l10n[.helpKeySuggestions], hint: state.showsSuggestions ? l10n[.hintSuggestions] : nil) {
                [unowned self] key in edit(key)
            },
            // The app quits on Ctrl-C before any screen hears it; the bar says so while `q` is text.
            Binding([.ctrl("c")], "Ctrl-C", help: l10n[.helpKeyCtrlc], hint: l10n[.hintQuit]) { _ in false },
        ]
    }

    /// In the recent searches: the panel's moves and Enter; above its first row is the field.
    private var suggestionBindings: [Binding] {
        var all = [Binding([.enter], "Enter", help: l10n[.helpKeyOpen], hint: l10n[.hintOpen]) { [queries] key in
            queries.handle(key)
        }]
        all.append(Binding([.escape], "Esc", help: l10n[.helpKeyBack], hint: l10n[.hintBack]) { [focusChanged] _ in
            focusChanged.send(.list)
            return true
        })
        all.append(Binding(.char("/"), help: l10n[.helpKeySearch]) { [focusChanged] in focusChanged.send(.field) })
        all += Binding.listMoves(l10n) { [queries, focusChanged] key in
            if key == .up, queries.selection == 0 {
                focusChanged.send(.field)
                return true
            }
            return queries.handle(key)
        }
        return all
    }

    /// In the recently viewed strip: ← → choose, Enter opens, ↓ (or Esc) goes back to the results.
    private var recentBindings: [Binding] {
        let selection = state?.recentSelection ?? 0
        return [
            Binding([.enter], "Enter", help: l10n[.helpKeyOpen], hint: l10n[.hintOpen]) { [recentOpened] _ in
                recentOpened.send(selection)
                return true
            },
            Binding([.escape, .down, .char("j")], "Esc ↓ j", help: l10n[.helpKeyBack], hint: l10n[.hintBack], hintKey: "Esc") {
                [focusChanged] _ in
                focusChanged.send(.list)
                return true
            },
            Binding([.left, .char("h"), .right, .char("l")], "← → h l", help: l10n[.helpKeyRecent]) { [recentSelected] key in
                recentSelected.send(key == .left || key == .char("h") ? selection - 1 : selection + 1)
                return true
            },
            Binding(.char("/"), help: l10n[.helpKeySearch]) { [focusChanged] in focusChanged.send(.field) },
        ]
    }

    /// In an open picker: Enter applies the selected option, Esc (or the key that opened it) closes
    /// it; the moves and, in the years picker, what is typed go through `handle(_:)`.
    private func pickerBindings(_ picker: MoviePicker) -> [Binding] {
        var all = [
            Binding([.enter], "Enter", help: l10n[.hintApply], hint: l10n[.hintApply]) { [filterChanged, pickerClosed] _ in
                if picker.options.indices.contains(picker.selection) {
                    filterChanged.send(picker.options[picker.selection].filter)
                } else {
                    pickerClosed.send()
                }
                return true
            },
            Binding([.escape, .char(picker.kind.key)], "Esc", help: l10n[.helpKeyBack], hint: l10n[.hintBack]) { [pickerClosed] _ in
                pickerClosed.send()
                return true
            },
            Binding([.ctrl("c")], "Ctrl-C", help: l10n[.helpKeyCtrlc], hint: l10n[.hintQuit]) { _ in false },
        ]
        if picker.kind == .years {
            all.append(Binding([.backspace], "Backspace", help: l10n[.helpKeyYears]) { [pickerErased] _ in
                pickerErased.send()
                return true
            })
        }
        return all
    }

    /// A key the bindings left: text for the focused field, or for the open picker (digits and a dash
    /// for the years; a list key moves its selection; any other is swallowed while it asks).
    public func handle(_ key: Key) -> Bool {
        guard let state, capturesText else { return false }
        guard let picker = state.picker else { return edit(key) }
        if picker.kind == .years, case .char(let c) = key, MovieFilterOptions.isYearCharacter(c) {
            pickerTyped.send(c)
            return true
        }
        if let selection = pickerList.move(key, pageSize: max(1, picker.options.count)) {
            pickerMoved.send(selection)
        }
        return true
    }

    private func edit(_ key: Key) -> Bool {
        switch field.handleSearchKey(key) {
        case .edited(let query): queryChanged.send(query)
        case .submitted(let query): querySubmitted.send(query)
        case .down: focusChanged.send(.suggestions)
        case .left: focusChanged.send(.list)
        case .unchanged: break
        case .ignored: return false
        }
        return true
    }

    // MARK: Pointer and copy

    /// A click on the search line focuses the field; a click on a recently viewed film opens it; on
    /// the results (or the suggestions) a click selects, a double click (or a click on the selected
    /// row) opens, and the wheel moves the selection.
    public func handle(_ pointer: Pointer) -> Bool {
        guard let state else { return false }
        if let picker = state.picker {
            // A click on an option applies it; a click elsewhere closes the picker.
            var moved = pickerList
            switch moved.handle(pointer) {
            case .ignored:
                if case .click = pointer.action { pickerClosed.send() }
            case .moved, .open:
                if case .click = pointer.action, picker.options.indices.contains(moved.selection) {
                    filterChanged.send(picker.options[moved.selection].filter)
                } else {
                    pickerList.offset = moved.offset
                    pickerMoved.send(moved.selection)
                }
            }
            return true
        }
        if case .click = pointer.action,
           let hit = chipHits.first(where: { $0.y == pointer.screen.y && ($0.chip.contains(pointer.screen.x) || $0.remove.contains(pointer.screen.x)) }) {
            if hit.remove.contains(pointer.screen.x) { chipRemoved.send(hit.kind) } else { pickerOpened.send(hit.kind) }
            return true
        }
        if case .click = pointer.action {
            if pointer.y == 0 {
                focusChanged.send(.field)
                return true
            }
            if let hit = recentHits.first(where: { $0.y == pointer.screen.y && $0.columns.contains(pointer.screen.x) }) {
                recentOpened.send(hit.index)
                return true
            }
        }
        if state.showsSuggestions {
            // The panel takes the focus; a pick hands it to the results (through `search`).
            guard queries.handle(pointer) else { return false }
            focusChanged.send(.suggestions)
            return true
        }
        guard state.phase == .results else { return false }
        switch list.move(pointer) {
        case .ignored: return false
        case .select(let index): selectionMoved.send(index)
        case .open(let index):
            if index != state.selection { selectionMoved.send(index) }
            rowOpened.send(index)
        }
        return true
    }

    /// `y` (the app's copy): the selected film's title and year, as a film's details and the wishlist copy it.
    public var copyText: String? {
        guard let state, state.picker == nil, state.focus == .list, state.phase == .results,
              state.rows.indices.contains(state.selection) else { return nil }
        let row = state.rows[state.selection]
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
            drawRecent(p.sub(Rect(x: 0, y: y, width: p.width, height: 1)), state: state, theme: theme)
            y += 1
        }
        let messageRows = state.message == nil ? 0 : 1
        let body = p.sub(Rect(x: 0, y: y, width: p.width, height: p.height - y - messageRows))
        if let message = state.message {
            let line = DisplayWidth.truncate(DisplayWidth.sanitize(message), to: p.width)
            p.text(line, x: 0, y: p.height - 1, style: theme.accent)
        }
        guard body.height > 0 else { return }
        if state.showsSuggestions {
            queries.draw(body, theme: theme, highlighted: state.focus == .suggestions)
            return
        }
        listRows = max(1, body.height - 1)
        defer { if let picker = state.picker { drawPicker(body, picker: picker, chosen: state.filter, theme: theme) } }
        switch state.phase {
        case .idle(let text), .empty(let text):
            centred(body, text.components(separatedBy: "\n"), style: theme.dim)
        case .loading:
            centred(body, [Spinner.frame(spinner.step) + " " + l10n[.moviesLoading]], style: theme.dim)
        case .error(let text):
            // `r` is text while the field has focus: say how to get to where it works.
            centred(body, [text, l10n[state.focus == .field ? .moviesRetryField : .moviesRetry]], style: theme.warning)
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
        let focused = state?.focus == .field
        TextField.draw(p.sub(Rect(x: 0, y: 0, width: fieldWidth, height: 1)), state: field,
                       prompt: l10n[.moviesSearchPrompt], placeholder: l10n[.moviesSearchHint],
                       focused: focused, style: focused ? theme.accent : theme.field,
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
    private func drawPicker(_ p: Painter, picker: MoviePicker, chosen: MovieFilter, theme: Theme) {
        guard p.width >= 8, p.height >= 3 else { return }
        let widest = max(DisplayWidth.of(picker.title) + 4, picker.options.map { DisplayWidth.of($0.label) + 4 }.max() ?? 0,
                         picker.prompt.map { DisplayWidth.of($0) + 2 } ?? 0)
        let width = min(p.width, widest + 2)
        let promptRows = picker.prompt == nil ? 0 : 1
        let height = min(p.height, picker.options.count + 2 + promptRows)
        let box = p.sub(Rect(x: min(2, p.width - width), y: 0, width: width, height: height))
        box.fill(style: theme.text)
        let line = String(repeating: "─", count: max(0, width - 2))
        box.text("┌" + line + "┐", x: 0, y: 0, style: theme.accent)
        for row in 1..<max(1, height - 1) {
            box.text("│", x: 0, y: row, style: theme.accent)
            box.text("│", x: width - 1, y: row, style: theme.accent)
        }
        box.text("└" + line + "┘", x: 0, y: height - 1, style: theme.accent)
        box.text(" " + DisplayWidth.truncate(picker.title, to: max(0, width - 5)) + " ", x: 2, y: 0, style: theme.accent)
        if let prompt = picker.prompt {
            box.text(DisplayWidth.truncate(prompt, to: max(0, width - 3)), x: 2, y: 1, style: picker.typed ? theme.text : theme.dim)
        }
        let area = box.sub(Rect(x: 1, y: 1 + promptRows, width: width - 2, height: max(0, height - 2 - promptRows)))
        ListView.draw(area, state: &pickerList, selectedStyle: theme.selection) { i, row, selected in
            guard picker.options.indices.contains(i) else { return }
            let option = picker.options[i]
            let mark = option.filter == chosen ? "✓ " : "  "
            row.text(DisplayWidth.truncate(mark + option.label, to: row.width - 1), x: 1, y: 0,
                     style: selected ? theme.selection : theme.text)
        }
    }

    private func drawRecent(_ p: Painter, state: MovieListState, theme: Theme) {
        var x = p.text(l10n[.moviesRecent] + " ", x: 0, y: 0, style: theme.dim)
        for (i, title) in state.recent.enumerated() {
            guard x < p.width else { break }
            let label = DisplayWidth.truncate(DisplayWidth.sanitize(title), to: min(28, max(1, p.width - x)))
            let selected = state.focus == .recent && i == state.recentSelection
            let start = x
            x += p.text(label, x: x, y: 0, style: selected ? theme.selection : theme.text)
            recentHits.append((i, p.origin.y, (p.origin.x + start)..<(p.origin.x + x)))
            if i < state.recent.count - 1 { x += p.text(" · ", x: x, y: 0, style: theme.dim) }
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
            let text = state.moreError.map { DisplayWidth.sanitize($0) + " · " + l10n[state.focus == .field ? .moviesRetryField : .moviesRetry] }
                ?? (Spinner.frame(spinner.step) + " " + l10n[.moviesLoadingMore])
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
    /// The key that opens this kind's picker (and closes it).
    var key: Character {
        switch self {
        case .genre: return "g"
        case .years: return "p"
        case .sort: return "s"
        }
    }
}
