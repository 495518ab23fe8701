import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The Movies screen's input side, as lazygit splits a view's keys and clicks into its controller:
/// the view model's input events, the values the keys edit (the search field's text and caret, the
/// lists' scroll positions), what the last frame measured (the page size, where the chips and the
/// recently viewed titles were drawn), and how each key and click becomes an input event for the
/// state on screen. It keeps nothing that changes what is drawn: that is the view model's state.
@MainActor
final class MovieListControls {
    private let l10n: L10n
    /// The recent searches' panel (its own view model; its keys and clicks go to it).
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

    /// The search field's text and caret as edited; every edit is sent to the view model, whose state
    /// says what the field holds (a picked suggestion fills it) and whether it has the focus.
    private(set) var field = TextFieldState()
    /// The results' and the picker's scroll positions and drawn areas (the frame draws them).
    var list = ListState()
    var pickerList = ListState()
    /// The rows the results showed in the last frame (a page for PgUp and PgDn, and pages to load).
    var listRows = 0
    private var toldRows = -1
    /// Where the last frame drew the chips and the recently viewed titles (absolute cells, for clicks).
    var chipHits: [(kind: MovieChip.Kind, y: Int, chip: Range<Int>, remove: Range<Int>)] = []
    var recentHits: [(index: Int, y: Int, columns: Range<Int>)] = []

    init(l10n: L10n, queries: MoviesQueriesListPanel) {
        self.l10n = l10n
        self.queries = queries
    }

    /// The view model's input: the events below, and whether the panel has recent searches to show.
    var input: MovieListViewModel.Input {
        let suggestionsAvailable = queries.changes.map { [weak queries] in !(queries?.isEmpty ?? true) }
            .prepend(Deferred { [weak queries] in Just(!(queries?.isEmpty ?? true)) })
            .removeDuplicates()
            .eraseToAnyPublisher()
        return .init(
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
            suggestionsAvailable: suggestionsAvailable)
    }

    /// The first query (an empty one: the hint), sent once the view model listens.
    func start() {
        queryChanged.send("")
    }

    /// A query picked in the recent searches (through the coordinator).
    func search(_ query: String) {
        suggestionPicked.send(query)
    }

    /// Tells the view model how many rows the list shows, once the frame is out: pages load to fill it.
    func frameShown() {
        guard listRows != toldRows, listRows > 0 else { return }
        toldRows = listRows
        visibleRows.send(listRows)
    }

    /// Keeps the field and the lists in step with a new state: the field's text, the picker's rows,
    /// and the results' top row, matched by id (a page appended below leaves it where it was).
    func follow(_ old: MovieListState?, _ new: MovieListState) {
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

    // MARK: Keys

    /// The keys of the part that has the focus, or of the open picker.
    func bindings(_ state: MovieListState) -> [Binding] {
        if let picker = state.picker { return pickerBindings(picker) }
        switch state.focus {
        case .list: return listBindings(state)
        case .field: return fieldBindings(state)
        case .suggestions: return suggestionBindings
        case .recent: return recentBindings(state)
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
            guard let selection = list.move(key, pageSize: max(1, listRows)) else { return false }
            selectionMoved.send(selection)
            return true
        }
        all += [
            Binding([.enter], "Enter", help: l10n[.helpKeyOpen], hint: results ? l10n[.hintOpen] : nil) { [rowOpened] _ in
                guard results else { return false }
                rowOpened.send(state.selection)
                return true
            },
            Binding([.char("w")], "w", help: l10n[.helpKeyWishlist], hint: results ? l10n[.hintWishlist] : nil) { [wishlistToggled] _ in
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

    /// In the field: what leaves it, for the status bar; every other key is text (`handle(_:_:)`).
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
    private func recentBindings(_ state: MovieListState) -> [Binding] {
        let selection = state.recentSelection
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
    /// it; the moves and, in the years picker, what is typed go through `handle(_:_:)`.
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
    func handle(_ key: Key, _ state: MovieListState) -> Bool {
        guard let picker = state.picker else { return state.focus == .field && edit(key) }
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

    // MARK: Pointer

    /// In an open picker, a click on an option applies it and a click elsewhere closes it. Otherwise
    /// a click on a chip opens its picker (its × removes it), on the search line focuses the field, on
    /// a recently viewed film opens it; on the results (or the suggestions) a click selects, a double
    /// click (or a click on the selected row) opens, and the wheel moves the selection.
    func handle(_ pointer: Pointer, _ state: MovieListState) -> Bool {
        let click: Bool
        if case .click = pointer.action { click = true } else { click = false }
        if let picker = state.picker {
            switch pickerList.move(pointer) {
            case .ignored: if click { pickerClosed.send() }
            case .select(let i) where !click: pickerMoved.send(i)
            case .select(let i), .open(let i):
                if picker.options.indices.contains(i) { filterChanged.send(picker.options[i].filter) }
            }
            return true
        }
        let at = pointer.screen
        if click, let hit = chipHits.first(where: { $0.y == at.y && ($0.chip.contains(at.x) || $0.remove.contains(at.x)) }) {
            if hit.remove.contains(at.x) { chipRemoved.send(hit.kind) } else { pickerOpened.send(hit.kind) }
            return true
        }
        if click, pointer.y == 0 {
            focusChanged.send(.field)
            return true
        }
        if click, let hit = recentHits.first(where: { $0.y == at.y && $0.columns.contains(at.x) }) {
            recentOpened.send(hit.index)
            return true
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
