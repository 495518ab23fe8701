import Foundation
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The Cities tab's root: a search field over a list of matching cities.
@MainActor
public final class CityListScreen: Screen {
    private enum Focus { case list, field }

    private let l10n: L10n
    private let queryChanged = PassthroughSubject<String, Never>()
    private let rowOpened = PassthroughSubject<Int, Never>()
    private let visibleRowsChanged = PassthroughSubject<Range<Int>, Never>()
    private let likeToggled = PassthroughSubject<Int, Never>()
    private let retryRequested = PassthroughSubject<Void, Never>()
    private var temperatures = CityTemperatures()
    private var likes = CityListLikes(ids: [], message: nil)
    /// The minute of the rows' local times; nil without a clock (no local-time column).
    private var clock: CityClock?
    /// The coordinates column's text of the cities drawn with it, by city id (a wide list redraws
    /// the same rows on every key; at most `ListState`'s worth of pages, emptied when full).
    private var coordinateTexts: [Int: String] = [:]
    /// The rows last drawn and last reported as visible, with the query they belong to.
    private var drawnVisible: (query: String, rows: Range<Int>)?
    private var reportedVisible: (query: String, rows: Range<Int>)?
    private var cancellables: Set<AnyCancellable> = []

    private var state: CityListState?
    private var field = TextFieldState()
    private var list = ListState()
    private var focus = Focus.list
    private var lastPageSize = 10

    public var onNeedsDisplay: (() -> Void)?

    public init(viewModel: CityListViewModel, l10n: L10n, onRoute: @escaping (CityListRoute) -> Void) {
        self.l10n = l10n
        let output = viewModel.transform(input: .init(
            queryChanged: queryChanged.eraseToAnyPublisher(),
            rowOpened: rowOpened.eraseToAnyPublisher(),
            visibleRowsChanged: visibleRowsChanged.eraseToAnyPublisher(),
            likeToggled: likeToggled.eraseToAnyPublisher(),
            retryRequested: retryRequested.eraseToAnyPublisher()
        ))
        output.temperatures
            .sink { [weak self] temperatures in
                self?.temperatures = temperatures
                self?.onNeedsDisplay?()
            }
            .store(in: &cancellables)
        output.likes
            .sink { [weak self] likes in
                self?.likes = likes
                self?.onNeedsDisplay?()
            }
            .store(in: &cancellables)
        output.clock
            .sink { [weak self] clock in
                self?.clock = clock
                self?.onNeedsDisplay?()
            }
            .store(in: &cancellables)
        output.state
            .sink { [weak self] state in self?.apply(state) }
            .store(in: &cancellables)
        output.route
            .sink { onRoute($0) }
            .store(in: &cancellables)
        queryChanged.send("")
    }

    private func apply(_ new: CityListState) {
        let queryChanged = state?.query != new.query
        state = new
        list.setCount(new.rows.count)
        if queryChanged { list.select(0) }
        onNeedsDisplay?()
    }

    // MARK: Screen

    public var capturesText: Bool { focus == .field }

    public var hints: [KeyHint] {
        switch focus {
        case .list:
            // Arrows go without saying; room goes to what can't be guessed (`r` while rows on screen
            // have no temperature, after `? help`, which the bar keeps room for).
            let retry = temperaturesFailedOnScreen ? [KeyHint("r", l10n[.hintRetry])] : []
            return [KeyHint("/", l10n[.hintSearch]), KeyHint("Enter", l10n[.hintOpen]),
                    KeyHint("f", l10n[.hintLike]), KeyHint("?", l10n[.hintHelp])] + retry + [KeyHint("q", l10n[.hintQuit])]
        case .field:
            return [KeyHint("Enter", l10n[.hintResults]), KeyHint("Esc", l10n[.hintClear]),
                    KeyHint("Ctrl-C", l10n[.hintQuit])]
        }
    }

    public var help: [KeyHint] {
        [KeyHint("/", l10n[.helpKeySearch]),
         KeyHint("↑ ↓  j k", l10n[.helpKeyMove]),
         KeyHint("PgUp PgDn", l10n[.helpKeyPage]),
         KeyHint("Home End  g G", l10n[.helpKeyEnds]),
         KeyHint("Enter", l10n[.helpKeyOpenCity]),
         KeyHint("f", l10n[.helpKeyLike]),
         KeyHint("r", l10n[.helpKeyRetryTemperatures]),
         KeyHint("Enter ↓", l10n[.helpKeyFieldDone]),
         KeyHint("Esc", l10n[.helpKeyFieldEsc])]
    }

    public func handle(_ key: Key) -> Bool {
        switch focus {
        case .field: return handleField(key)
        case .list: return handleList(key)
        }
    }

    private func handleField(_ key: Key) -> Bool {
        switch field.handleSearchKey(key) {
        case .edited(let query): queryChanged.send(query)
        case .submitted, .down, .left: focus = .list
        case .unchanged: break
        case .ignored: return false
        }
        onNeedsDisplay?()
        return true
    }

    private func handleList(_ key: Key) -> Bool {
        if key == .char("/") {
            focus = .field
            onNeedsDisplay?()
            return true
        }
        if list.handle(key, pageSize: lastPageSize) {
            onNeedsDisplay?()
            return true
        }
        if key == .enter, list.count > 0 {
            rowOpened.send(list.selection)
            return true
        }
        if key == .char("f"), list.count > 0 {
            likeToggled.send(list.selection)
            return true
        }
        if key == .char("r") {
            retryRequested.send(())
            return true
        }
        return false
    }

    /// A click on the search line focuses the field; on the list, a click selects, a double click
    /// (or a click on the selected row) opens; the wheel moves the selection.
    public func handle(_ pointer: Pointer) -> Bool {
        if case .click = pointer.action, pointer.y == 0 {
            focus = .field
            onNeedsDisplay?()
            return true
        }
        switch list.handle(pointer) {
        case .ignored: return false
        case .moved:
            focus = .list
            onNeedsDisplay?()
        case .open(let index):
            focus = .list
            rowOpened.send(index)
            onNeedsDisplay?()
        }
        return true
    }

    /// Whether a row whose temperature could not be had is on screen (`r` then asks again).
    private var temperaturesFailedOnScreen: Bool { temperatures.message != nil }

    /// The selected city's name and coordinates: "Seoul 37.57°N 126.98°E".
    public var copyText: String? {
        guard focus == .list, let state, list.count > 0, list.selection < state.rows.count else { return nil }
        return state.rows.copyText(at: list.selection)
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
            TextWrap.drawCentred(body, [message], top: min(1, body.height - 1), style: theme.dim)
            return
        }
        let columns = layout(width: body.width)
        drawHeader(body.sub(Rect(x: 0, y: 0, width: body.width, height: 1)), columns: columns, theme: theme)
        let listArea = body.sub(Rect(x: 0, y: 1, width: body.width, height: body.height - 1))
        lastPageSize = max(1, listArea.height)
        ListView.draw(listArea, state: &list, selectedStyle: theme.selection) { index, row, selected in
            guard index < state.rows.count else { return }
            self.drawRow(state.rows[index], in: row, columns: columns, theme: theme, selected: selected)
        }
        drawnVisible = (state.query, list.offset..<min(list.count, list.offset + listArea.height))
    }

    /// Tells the view model which rows are on screen when that changed, once the frame is out (the
    /// keystroke's frame does not wait for it); their temperatures follow later.
    public func frameShown() {
        guard let drawn = drawnVisible else { return }
        if let last = reportedVisible, last.query == drawn.query, last.rows == drawn.rows { return }
        reportedVisible = drawn
        visibleRowsChanged.send(drawn.rows)
    }

    private func drawSearchLine(_ p: Painter, theme: Theme) {
        let warning = likes.message ?? temperatures.message
        let summary = warning.map { " \($0) " } ?? state.map { " \($0.summary) " } ?? ""
        let summaryWidth = DisplayWidth.of(summary)
        let fieldWidth = summaryWidth + 20 <= p.width ? p.width - summaryWidth : p.width
        TextField.draw(p.sub(Rect(x: 0, y: 0, width: fieldWidth, height: 1)), state: field,
                       prompt: l10n[.citiesSearchPrompt], placeholder: l10n[.citiesSearchHint],
                       focused: focus == .field, style: focus == .field ? theme.accent : theme.field,
                       placeholderStyle: theme.placeholder)
        if fieldWidth < p.width {
            p.text(summary, x: fieldWidth, y: 0, style: warning == nil ? theme.dim : theme.warning)
        }
    }

    /// The columns for `width`: local times when the view model keeps a clock.
    func layout(width: Int) -> CityListColumns {
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

    private func coordinateText(_ row: CityRow) -> String {
        if let known = coordinateTexts[row.cityID] { return known }
        if coordinateTexts.count >= 4096 { coordinateTexts.removeAll(keepingCapacity: true) }
        let text = CityListColumns.alignedCoordinates(row.coordinates)
        coordinateTexts[row.cityID] = text
        return text
    }

    private func drawHeader(_ p: Painter, columns: CityListColumns, theme: Theme) {
        let style = Style(fg: theme.dim.fg, dim: theme.dim.dim, underline: true)
        p.text(DisplayWidth.pad("  " + l10n[.citiesColumnName], to: CityListColumns.gutter + columns.name), x: 0, y: 0, style: style)
        for column in columns.columns {
            p.text(column.fit(title(column.kind)), x: column.x, y: 0, style: style)
        }
    }

    private func drawRow(_ row: CityRow, in p: Painter, columns: CityListColumns, theme: Theme, selected: Bool) {
        let base = selected ? theme.selection : theme.text
        if selected { p.text("›", x: 0, y: 0, style: base) }
        if likes.ids.contains(row.cityID) { p.text("*", x: 1, y: 0, style: selected ? base : theme.warning) }
        // One blank column after the name, so a cut name never touches the country.
        let room = columns.name - 1
        var x = CityListColumns.gutter
        x += p.text(DisplayWidth.truncate(DisplayWidth.sanitize(row.name), to: room), x: x, y: 0, style: base)
        if let matched = row.matchedName, room - (x - CityListColumns.gutter) > 3 {
            let extra = DisplayWidth.truncate(" " + l10n.format(.citiesMatched, DisplayWidth.sanitize(matched)), to: room - (x - CityListColumns.gutter))
            p.text(extra, x: x, y: 0, style: selected ? base : theme.dim)
        }
        for column in columns.columns {
            let text: String
            let style: Style
            switch column.kind {
            case .country: (text, style) = (DisplayWidth.sanitize(row.country), theme.text)
            case .temperature:
                (text, style) = (temperatures.texts[row.cityID] ?? "",
                                 temperatures.failed.contains(row.cityID) ? theme.warning : theme.accent)
            case .population: (text, style) = (row.population, theme.dim)
            case .localTime: (text, style) = (clock.flatMap { $0.time(in: row.timeZone) } ?? "", theme.text)
            case .coordinates: (text, style) = (coordinateText(row), theme.dim)
            case .timeZone: (text, style) = (DisplayWidth.sanitize(row.timeZone), theme.dim)
            }
            p.text(column.fit(text), x: column.x, y: 0, style: selected ? base : style)
        }
    }
}
