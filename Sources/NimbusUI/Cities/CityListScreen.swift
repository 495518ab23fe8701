import Foundation
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The Cities tab's root: a search field over a list of matching cities.
@MainActor
public final class CityListScreen: Screen {
    private let l10n: L10n
    /// The one way in to the view model.
    private let events = PassthroughSubject<CityListViewModel.Event, Never>()
    /// The keys, as data.
    let keyMap: KeyMap<CityListViewModel.Event, CityListState>
    private var binding: StateBinding<CityListState>!
    private var routes: AnyCancellable?
    private var state: CityListState? { binding.value }

    /// The search field's text and caret as edited; every edit is sent to the view model, whose
    /// state says what was searched and whether the field has the focus.
    private var field = TextFieldState()
    /// The rows and scroll position as the last frame drew them (for page keys and clicks).
    private var list = ListState()
    private var lastPageSize = 10
    /// The rows the last frame drew, and the rows last told to the view model, with their query.
    private var drawnVisible: (query: String, rows: Range<Int>)?
    private var reportedVisible: (query: String, rows: Range<Int>)?
    public var changes: AnyPublisher<Void, Never> { binding.changes }

    /// `ticks` is the clock of the rows' local times: now, then at the start of every minute.
    public init(viewModel: CityListViewModel, l10n: L10n, ticks: AnyPublisher<Date, Never> = Empty().eraseToAnyPublisher(),
                onRoute: @escaping (CityListRoute) -> Void) {
        self.l10n = l10n
        keyMap = Self.keyMap(l10n)
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher(), tick: ticks))
        binding = StateBinding(output.state) { [weak self] _, new in
            self?.list.setCount(new.rows.count)
            self?.list.select(new.selection)
        }
        routes = output.route.sink { onRoute($0) }
        events.send(.queryChanged(""))
    }

    /// The tab's keys. In the list: `/` to search, the list's moves, Enter, `f`, `r` and, for the
    /// help, the field's own keys. In the field: what leaves it, for the status bar; every other key
    /// is text (`handle(_:)`).
    nonisolated static func keyMap(_ l10n: L10n) -> KeyMap<CityListViewModel.Event, CityListState> {
        typealias B = KeyBinding<CityListViewModel.Event, CityListState>
        let inList = Condition<CityListState>.unless(\.searching), inField = Condition<CityListState>.when(\.searching)
        var all = [B(.char("/"), help: .key(.helpKeySearch), hint: l10n[.hintSearch], .send(.searchFocused(true)), when: inList)]
        all += B.listMoves(when: inList)
        all += [
            B([.enter], "Enter", help: .key(.helpKeyOpenCity), hint: l10n[.hintOpen], .openSelection, when: inList,
              enabled: .when(\.hasRows), disabledReason: l10n[.helpKeyDisabledNoRow]),
            B([.char("f")], "f", help: .key(.helpKeyLike), hint: l10n[.hintLike], .likeSelection, when: inList,
              enabled: .when(\.hasRows), disabledReason: l10n[.helpKeyDisabledNoRow]),
            // Its hint only while rows on screen have no temperature.
            B(.char("r"), help: .key(.helpKeyRetryTemperatures), hint: l10n[.hintRetry], .send(.retryRequested), when: inList,
              hintWhen: .when(\.offersRetry)),
            // The field's keys, for the help (in the field, they are the bindings).
            B([], "Enter ↓", help: .key(.helpKeyFieldDone), .describe, when: inList),
            B([], "Esc", help: .key(.helpKeyFieldEsc), .describe, when: inList),
            // In the field.
            B([.enter, .down], "Enter ↓", help: .key(.helpKeyFieldDone), hint: l10n[.hintResults], hintKey: "Enter", .editField,
              when: inField),
            B([.escape], "Esc", help: .key(.helpKeyFieldEsc), hint: l10n[.hintClear], .editField, when: inField),
            // The app quits on Ctrl-C before any screen hears it; the bar says so while `q` is text.
            B([.ctrl("c")], "Ctrl-C", help: .key(.helpKeyCtrlc), hint: l10n[.hintQuit], .describe, when: inField),
        ]
        return KeyMap(all)
    }

    // MARK: Screen

    public var capturesText: Bool { state?.searching == true }

    public var bindings: [Binding] { keyMap.bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        KeyMap<CityListViewModel.Event, CityListState>.command(command, pressed: key).map { perform($0, key) } ?? false
    }

    /// Carries out a binding's command.
    private func perform(_ command: KeyCommand<CityListViewModel.Event>, _ key: Key) -> Bool {
        switch command {
        case .send(let event): events.send(event)
        case .moveSelection:
            guard let selection = list.move(key, pageSize: lastPageSize) else { return false }
            events.send(.rowSelected(selection))
        case .openSelection: events.send(.rowOpened(state?.selection ?? 0))
        case .likeSelection: events.send(.likeToggled(state?.selection ?? 0))
        case .editField: return edit(key)
        case .removeSelection, .describe, .scroll, .sendEach: return false
        }
        return true
    }

    /// In the field, a key edits it (Enter, ↓ and Esc as its bindings say).
    public func handle(_ key: Key) -> Bool {
        guard capturesText else { return false }
        return edit(key)
    }

    private func edit(_ key: Key) -> Bool {
        switch field.handleSearchKey(key) {
        case .edited(let query): events.send(.queryChanged(query))
        case .submitted: events.send(.searchSubmitted)
        case .down: events.send(.searchFocused(false))
        case .cancelled:
            events.send(.queryChanged(""))
            events.send(.searchFocused(false))
        case .unchanged: break
        case .ignored: return false
        }
        return true
    }

    /// A click on the search line focuses the field; on the list, a click selects, a double click
    /// (or a click on the selected row) opens; the wheel moves the selection.
    public func handle(_ pointer: Pointer) -> Bool {
        if case .click = pointer.action, pointer.y == 0 {
            events.send(.searchFocused(true))
            return true
        }
        switch list.move(pointer) {
        case .ignored: return false
        case .select(let row):
            events.send(.searchFocused(false))
            events.send(.rowSelected(row))
        case .open(let index):
            events.send(.searchFocused(false))
            events.send(.rowOpened(index))
        }
        return true
    }

    /// The selected city's name and coordinates: "Seoul 37.57°N 126.98°E".
    public var copyText: String? {
        guard let state, !state.searching, state.selection < state.rows.count else { return nil }
        return state.rows.copyText(at: state.selection)
    }

    // MARK: Drawing

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.height > 0, p.width > 0 else { return }
        drawSearchLine(p.sub(Rect(x: 0, y: 0, width: p.width, height: 1)), theme: theme)
        guard p.height > 2 else { return }
        let body = p.sub(Rect(x: 0, y: 1, width: p.width, height: p.height - 1))
        guard let state else { return }
        if let message = state.emptyMessage {
            drawnVisible = nil
            // A blank row above the words and between them only when all of them fit with it.
            let rows = { (text: String) in TextWrap.lines(DisplayWidth.sanitize(text), width: body.width).count }
            let hintRows = state.emptyHint.map { 1 + rows($0) } ?? 0
            let said = [message] + (state.searchAgain.map { [$0] } ?? [])
            let gap = 1 + said.map(rows).reduce(0, +) + hintRows <= body.height ? 1 : 0
            let used = TextWrap.drawCentred(body, said, top: gap, style: theme.dim)
            if let hint = state.emptyHint {
                TextWrap.drawCentred(body, [hint], top: gap + used + gap, style: theme.dim)
            }
            return
        }
        let columns = layout(width: body.width, clock: state.clock)
        var listArea = body.sub(Rect(x: 0, y: 1, width: body.width, height: body.height - 1))
        if let heading = state.suggesting {
            // The cities a query that matched nothing may have meant, under what was not found (on two
            // lines where one is too narrow); what the catalogue holds below them when there is room.
            let lines = TextWrap.lines(DisplayWidth.sanitize(heading), width: max(1, body.width - 1))
            let used = lines.count > 1 && body.height > 4 ? 2 : 1
            for (i, line) in lines.prefix(used).enumerated() {
                let last = i == used - 1 && lines.count > used
                p.text(DisplayWidth.truncate(" " + line + (last ? "…" : ""), to: body.width), x: 0, y: 1 + i, style: theme.dim)
            }
            listArea = body.sub(Rect(x: 0, y: used, width: body.width, height: body.height - used))
            if let hint = state.emptyHint {
                let below = 1 + state.rows.count
                let lines = TextWrap.lines(DisplayWidth.sanitize(hint), width: body.width)
                if below + 1 + lines.count <= listArea.height {
                    TextWrap.drawCentred(listArea, [hint], top: below + 1, style: theme.dim)
                    listArea = listArea.sub(Rect(x: 0, y: 0, width: listArea.width, height: below))
                }
            }
        } else {
            drawHeader(body.sub(Rect(x: 0, y: 0, width: body.width, height: 1)), columns: columns, theme: theme)
        }
        lastPageSize = max(1, listArea.height)
        // Where a region (a namesake's) does not fit beside its country in a visible row, every row
        // with one gives the country's code instead, so that the rows read alike.
        var visible = list
        visible.setCount(state.rows.count)
        visible.scrollToSelection(pageSize: max(1, listArea.height))
        let country = columns.columns.first { $0.kind == .country }
        let short = country.map { column in
            (visible.offset..<min(state.rows.count, visible.offset + listArea.height)).contains { i in
                let row = state.rows[i]
                return row.countryShort != nil && DisplayWidth.of(DisplayWidth.sanitize(row.country)) > column.contentWidth
            }
        } ?? false
        ListView.draw(listArea, state: &list, selectedStyle: theme.selection) { index, row, selected in
            guard index < state.rows.count else { return }
            self.drawRow(state.rows, index, in: row, columns: columns, state: state, theme: theme, selected: selected, shortRegions: short)
        }
        drawnVisible = (state.query, list.offset..<min(list.count, list.offset + listArea.height))
    }

    /// Tells the view model which rows are on screen when that changed, once the frame is out (the
    /// keystroke's frame does not wait for it); their temperatures follow later.
    public func frameShown() {
        guard let drawn = drawnVisible else { return }
        if let last = reportedVisible, last.query == drawn.query, last.rows == drawn.rows { return }
        reportedVisible = drawn
        events.send(.visibleRowsChanged(drawn.rows))
    }

    private func drawSearchLine(_ p: Painter, theme: Theme) {
        let warning = state?.likes.message ?? state?.temperatures.message
        let summary = warning.map { " \($0) " } ?? state.map { " \($0.summary) " } ?? ""
        let summaryWidth = DisplayWidth.of(summary)
        let focused = state?.searching == true
        // A warning with no room beside the field takes the line while the field is not being typed
        // in (the next key clears it): a like refused on a full disk never goes unsaid.
        // (The temperatures' message can stay unsaid there: their rows are marked n/a.)
        if let refused = state?.likes.message, summaryWidth + 20 > p.width, !focused {
            p.text(DisplayWidth.truncate(" " + DisplayWidth.sanitize(refused), to: p.width), x: 0, y: 0, style: theme.warning)
            return
        }
        let fieldWidth = summaryWidth + 20 <= p.width ? p.width - summaryWidth : p.width
        TextField.draw(p.sub(Rect(x: 0, y: 0, width: fieldWidth, height: 1)), state: field,
                       prompt: l10n[.citiesSearchPrompt], placeholder: l10n[.citiesSearchHint],
                       focused: focused, style: focused ? theme.accent : theme.field,
                       placeholderStyle: theme.placeholder)
        if fieldWidth < p.width {
            p.text(summary, x: fieldWidth, y: 0, style: warning == nil ? theme.dim : theme.warning)
        }
    }

    /// The columns for `width` as the state now has them.
    func layout(width: Int) -> CityListColumns { layout(width: width, clock: state?.clock) }

    /// The columns for `width`: local times when the view model keeps a clock.
    func layout(width: Int, clock: CityClock?) -> CityListColumns {
        guard let clock else { return CityListColumns(width: width, timeWidth: { 0 }) }
        // As wide as the widest time of the language and clock, or its title when that is wider (up to 12).
        let title = min(12, DisplayWidth.of(l10n[.citiesColumnLocalTime]))
        return CityListColumns(width: width, timeWidth: { max(clock.columnWidth(DisplayWidth.of), title) },
                               narrowestTime: max(5, title))
    }

    private func title(_ kind: CityListColumns.Kind) -> String {
        switch kind {
        case .country: return l10n[.citiesColumnCountry]
        case .temperature: return l10n[.citiesColumnTemperature]
        case .population: return l10n[.citiesColumnPopulation]
        case .localTime: return l10n[.citiesColumnLocalTime]
        case .coordinates: return l10n[.citiesColumnCoordinates]
        case .timeZone: return l10n[.citiesColumnTimeZone]
        }
    }

    private func drawHeader(_ p: Painter, columns: CityListColumns, theme: Theme) {
        let style = Style(fg: theme.dim.fg, dim: theme.dim.dim, underline: true)
        p.text(DisplayWidth.pad("  " + l10n[.citiesColumnName], to: CityListColumns.gutter + columns.name), x: 0, y: 0, style: style)
        for column in columns.columns {
            p.text(column.fit(title(column.kind)), x: column.x, y: 0, style: style)
        }
    }

    private func drawRow(_ rows: CityRows, _ index: Int, in p: Painter, columns: CityListColumns, state: CityListState,
                         theme: Theme, selected: Bool, shortRegions: Bool = false) {
        let row = rows[index]
        let base = selected ? theme.selection : theme.text
        if selected { p.text("›", x: 0, y: 0, style: base) }
        if state.likes.ids.contains(row.cityID) { p.text("*", x: 1, y: 0, style: selected ? base : theme.warning) }
        // One blank column after the name, so a cut name never touches the country.
        let room = columns.name - 1
        var x = CityListColumns.gutter
        x += p.text(DisplayWidth.truncate(DisplayWidth.sanitize(row.name), to: room), x: x, y: 0, style: base)
        if let matched = row.matchedName, room - (x - CityListColumns.gutter) > 3 {
            let extra = DisplayWidth.truncate(" " + l10n.format(.citiesMatched, DisplayWidth.sanitize(matched)), to: room - (x - CityListColumns.gutter))
            p.text(extra, x: x, y: 0, style: selected ? base : theme.dim)
        }
        let temperatures = state.temperatures
        for column in columns.columns {
            let text: String
            let style: Style
            switch column.kind {
            case .country:
                // A region and country that do not fit give the country's code, keeping the region that
                // tells namesakes apart; in a narrow column ("Congo - …") a country's name that does
                // not fit gives its code, where a wider one still reads cut ("Cocos (Keeling) Is…").
                let full = DisplayWidth.sanitize(row.country)
                if let short = row.countryShort, shortRegions {
                    (text, style) = (DisplayWidth.sanitize(short), theme.text)
                } else if column.contentWidth <= CityListColumns.codeOnlyWidth, DisplayWidth.of(full) > column.contentWidth,
                          !row.countryCode.isEmpty {
                    (text, style) = (DisplayWidth.sanitize(row.countryCode), theme.text)
                } else {
                    (text, style) = (full, theme.text)
                }
            case .temperature:
                (text, style) = (temperatures.texts[row.cityID] ?? "",
                                 temperatures.failed.contains(row.cityID) ? theme.warning : theme.accent)
            case .population: (text, style) = (row.population, theme.dim)
            case .localTime: (text, style) = (state.clock.flatMap { $0.time(in: row.timeZone) } ?? "", theme.text)
            case .coordinates: (text, style) = (CityListColumns.alignedCoordinates(rows.coordinates(at: index)), theme.dim)
            case .timeZone: (text, style) = (DisplayWidth.sanitize(row.timeZone), theme.dim)
            }
            p.text(column.fit(text), x: column.x, y: 0, style: selected ? base : style)
        }
    }
}
