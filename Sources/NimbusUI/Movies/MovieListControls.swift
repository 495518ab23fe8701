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

    /// The one way in to the view model.
    private let events = PassthroughSubject<MovieListViewModel.Event, Never>()

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
        return .init(events: events.eraseToAnyPublisher(), suggestionsAvailable: suggestionsAvailable)
    }

    /// The first query (an empty one: the hint), sent once the view model listens.
    func start() {
        events.send(.queryChanged(""))
    }

    /// A query picked in the recent searches (through the coordinator).
    func search(_ query: String) {
        events.send(.suggestionPicked(query))
    }

    /// Tells the view model how many rows the list shows, once the frame is out: pages load to fill it.
    func frameShown() {
        guard listRows != toldRows, listRows > 0 else { return }
        toldRows = listRows
        events.send(.visibleRows(listRows))
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

    /// The keys of the part that has the focus, or of the open picker, as data for `state`.
    nonisolated static func keyMap(_ l10n: L10n, for state: MovieListState) -> KeyMap<MovieListViewModel.Event, MovieListState> {
        if let picker = state.picker { return pickerKeys(l10n, picker) }
        switch state.focus {
        case .list: return listKeys(l10n, state)
        case .field: return fieldKeys(l10n)
        case .suggestions: return suggestionKeys(l10n)
        case .recent: return recentKeys(l10n, state)
        }
    }

    typealias Keys = KeyMap<MovieListViewModel.Event, MovieListState>
    typealias B = KeyBinding<MovieListViewModel.Event, MovieListState>

    /// In the results: `/`, the list's moves (`g` is the genre here), Enter, `w`, `r` and the filters;
    /// and, for the help, the keys of the strip, the field and the suggestions.
    private nonisolated static func listKeys(_ l10n: L10n, _ state: MovieListState) -> Keys {
        KeyMap([B(.char("/"), help: .key(.helpKeySearch), hint: l10n[.hintSearch], .send(.focusChanged(.field)))]
            + B.listMoves(top: false) + [
            B(.enter, help: .key(.helpKeyOpen), hint: l10n[.hintOpen], .send(.rowOpened(state.selection)),
              enabled: .when(\.hasResults), hintWhen: .when(\.hasResults)),
            B(.char("w"), help: .key(.helpKeyWishlist), hint: l10n[.hintWishlist], .send(.wishlistToggled(state.selection)),
              enabled: .when(\.hasResults), hintWhen: .when(\.hasResults)),
            B(.char("r"), help: .key(.helpKeyRetry), hint: l10n[.hintRetry], .send(.retried), hintWhen: .when(\.canRetry)),
            // The filters the source applies, once there is a list (or an empty one) to filter.
            B(.char("x"), help: .key(.helpKeyClearFilters), hint: l10n[.hintClearFilters], .send(.filterChanged(.none)),
              enabled: .when(\.hasFilter), hintWhen: .when(\.clearsFilters)),
            B(.char("g"), help: .key(.helpKeyGenre), hint: l10n[.hintGenre], .send(.pickerOpened(.genre)), hintWhen: .when(\.filtersByGenre)),
            B(.char("p"), help: .key(.helpKeyYears), hint: l10n[.hintYears], .send(.pickerOpened(.years)), hintWhen: .when(\.filterable)),
            B(.char("s"), help: .key(.helpKeySort), hint: l10n[.hintSort], .send(.pickerOpened(.sort)), hintWhen: .when(\.sorts)),
            // The keys of the strip, the field and the suggestions, for the help (there, they are the bindings).
            B([], "↑ ← →", help: .key(.helpKeyRecent), .describe),
            B([], "Enter ↓", help: .key(.helpKeyFieldDone), .describe),
            B([], "↓", help: .key(.helpKeySuggestions), .describe),
            B([], "d", help: .key(.helpKeyForgetRecent), .describe),
            B([], "Esc", help: .key(.helpKeyFieldEsc), .describe),
        ])
    }

    /// In the field: what leaves it, for the status bar; every other key is text (`handle(_:_:)`).
    private nonisolated static func fieldKeys(_ l10n: L10n) -> Keys {
        KeyMap([
            B(.enter, help: .key(.helpKeyFieldDone), hint: l10n[.hintResults], .editField),
            B(.escape, help: .key(.helpKeyFieldEsc), hint: l10n[.hintClear], .editField),
            B(.down, help: .key(.helpKeySuggestions), hint: l10n[.hintSuggestions], .editField, hintWhen: .when(\.showsSuggestions)),
            // The app quits on Ctrl-C before any screen hears it; the bar says so while `q` is text.
            B(.ctrl("c"), help: .key(.helpKeyCtrlc), hint: l10n[.hintQuit], .describe),
        ])
    }

    /// In the recent searches: the panel's moves, Enter and `d`; above its first row is the field.
    private nonisolated static func suggestionKeys(_ l10n: L10n) -> Keys {
        KeyMap([
            B(.enter, help: .key(.helpKeyOpen), hint: l10n[.hintOpen], .openSelection),
            B(.char("d"), help: .key(.helpKeyForgetSearch), hint: l10n[.hintDelete], .removeSelection,
              enabled: .when(\.showsSuggestions), disabledReason: l10n[.helpKeyDisabledNoRow], hintWhen: .when(\.showsSuggestions)),
            B(.escape, help: .key(.helpKeyBack), hint: l10n[.hintBack], .send(.focusChanged(.list))),
            B(.char("/"), help: .key(.helpKeySearch), .send(.focusChanged(.field))),
        ] + B.listMoves())
    }

    /// In the recently viewed strip: ← → choose, Enter opens, `d` takes the film off the strip, ↓ (or
    /// Esc) goes back to the results.
    private nonisolated static func recentKeys(_ l10n: L10n, _ state: MovieListState) -> Keys {
        let selection = state.recentSelection
        let before = MovieListViewModel.Event.recentSelected(selection - 1), after = MovieListViewModel.Event.recentSelected(selection + 1)
        return KeyMap([
            B(.enter, help: .key(.helpKeyOpen), hint: l10n[.hintOpen], .send(.recentOpened(selection))),
            B(.char("d"), help: .key(.helpKeyForgetViewed), hint: l10n[.hintDelete], .send(.recentDeleted(selection)),
              enabled: .when(\.hasRecent), disabledReason: l10n[.helpKeyDisabledNoRow], hintWhen: .when(\.hasRecent)),
            B([.escape, .down, .char("j")], "Esc ↓ j", help: .key(.helpKeyBack), hint: l10n[.hintBack], hintKey: "Esc",
              .send(.focusChanged(.list))),
            B([.left, .char("h"), .right, .char("l")], "← → h l", help: .key(.helpKeyRecent),
              .sendEach([.left: before, .char("h"): before, .right: after, .char("l"): after])),
            B(.char("/"), help: .key(.helpKeySearch), .send(.focusChanged(.field))),
        ])
    }

    /// In an open picker: Enter applies the selected option (or closes it, with none), Esc (or the
    /// key that opened it) closes it; the moves and, in the years picker, what is typed go through
    /// `handle(_:_:)`.
    private nonisolated static func pickerKeys(_ l10n: L10n, _ picker: MoviePicker) -> Keys {
        let apply: MovieListViewModel.Event = picker.options.indices.contains(picker.selection)
            ? .filterChanged(picker.options[picker.selection].filter) : .pickerClosed
        return KeyMap([
            B([.enter], "Enter", help: .key(.hintApply), hint: l10n[.hintApply], .send(apply)),
            B([.escape, .char(picker.kind.key)], "Esc", help: .key(.helpKeyBack), hint: l10n[.hintBack], .send(.pickerClosed)),
            B(.ctrl("c"), help: .key(.helpKeyCtrlc), hint: l10n[.hintQuit], .describe),
        ] + (picker.kind == .years ? [B(.backspace, help: .key(.helpKeyYears), .send(.pickerErased))] : []))
    }

    /// The bindings in force for `state`, as the app dispatches them.
    func bindings(_ state: MovieListState) -> [Binding] { Self.keyMap(l10n, for: state).bindings(in: state) }

    /// Carries out the command of one of `bindings(state)`.
    func perform(_ command: BoundCommand, key: Key, _ state: MovieListState) -> Bool {
        KeyMap<MovieListViewModel.Event, MovieListState>.command(command, pressed: key).map { perform($0, key, state) } ?? false
    }

    /// Carries out a binding's command.
    private func perform(_ command: KeyCommand<MovieListViewModel.Event>, _ key: Key, _ state: MovieListState) -> Bool {
        switch command {
        case .send(let event): events.send(event)
        case .editField: return edit(key)
        case .openSelection: return queries.handle(key)
        case .moveSelection where state.focus == .suggestions:
            // Above the first recent search is the field.
            guard key == .up, queries.selection == 0 else { return queries.handle(key) }
            events.send(.focusChanged(.field))
        case .moveSelection:
            // Above the first result is the recently viewed strip, when there is one.
            if key == .up, list.selection == 0, !state.recent.isEmpty {
                events.send(.focusChanged(.recent))
                return true
            }
            guard let selection = list.move(key, pageSize: max(1, listRows)) else { return false }
            events.send(.selectionMoved(selection))
        case .removeSelection where state.focus == .suggestions: queries.deleteSelection()
        case .scroll, .removeSelection, .likeSelection, .describe, .sendEach: return false
        }
        return true
    }

    /// A key the bindings left: text for the focused field, or for the open picker (digits and a dash
    /// for the years; a list key moves its selection; any other is swallowed while it asks).
    func handle(_ key: Key, _ state: MovieListState) -> Bool {
        guard let picker = state.picker else { return state.focus == .field && edit(key) }
        if picker.kind == .years, case .char(let c) = key, MovieFilterOptions.isYearCharacter(c) {
            events.send(.pickerTyped(c))
            return true
        }
        if let selection = pickerList.move(key, pageSize: max(1, picker.options.count)) {
            events.send(.pickerMoved(selection))
        }
        return true
    }

    private func edit(_ key: Key) -> Bool {
        switch field.handleSearchKey(key) {
        case .edited(let query): events.send(.queryChanged(query))
        case .submitted(let query): events.send(.querySubmitted(query))
        case .down: events.send(.focusChanged(.suggestions))
        case .cancelled:
            events.send(.queryChanged(""))
            events.send(.focusChanged(.list))
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
            case .ignored: if click { events.send(.pickerClosed) }
            case .select(let i) where !click: events.send(.pickerMoved(i))
            case .select(let i), .open(let i):
                if picker.options.indices.contains(i) { events.send(.filterChanged(picker.options[i].filter)) }
            }
            return true
        }
        let at = pointer.screen
        if click, let hit = chipHits.first(where: { $0.y == at.y && ($0.chip.contains(at.x) || $0.remove.contains(at.x)) }) {
            if hit.remove.contains(at.x) { events.send(.chipRemoved(hit.kind)) } else { events.send(.pickerOpened(hit.kind)) }
            return true
        }
        if click, pointer.y == 0 {
            events.send(.focusChanged(.field))
            return true
        }
        if click, let hit = recentHits.first(where: { $0.y == at.y && $0.columns.contains(at.x) }) {
            events.send(.recentOpened(hit.index))
            return true
        }
        if state.showsSuggestions {
            // The panel takes the focus; a pick hands it to the results (through `search`).
            guard queries.handle(pointer) else { return false }
            events.send(.focusChanged(.suggestions))
            return true
        }
        guard state.phase == .results else { return false }
        switch list.move(pointer) {
        case .ignored: return false
        case .select(let index): events.send(.selectionMoved(index))
        case .open(let index):
            if index != state.selection { events.send(.selectionMoved(index)) }
            events.send(.rowOpened(index))
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
