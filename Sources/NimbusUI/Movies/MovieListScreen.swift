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
    /// Keys and clicks, as the view model's inputs, and what the last frame measured.
    private let controls: MovieListControls
    private var binding: StateBinding<MovieListState>!
    private var routes: AnyCancellable?
    private var state: MovieListState? { binding.value }
    /// Turns while a page loads.
    private let spinner: SpinnerSteps

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
        let controls = MovieListControls(l10n: l10n, queries: queries)
        self.controls = controls
        let output = viewModel.transform(input: controls.input)
        binding = StateBinding(output.state) { old, new in controls.follow(old, new) }
        routes = output.route.sink { onRoute($0) }
        controls.start()
    }

    /// A query picked in the recent searches (through the coordinator): it fills the field and is
    /// searched at once, and the results take the focus.
    public func search(_ query: String) {
        controls.search(query)
    }

    // MARK: Screen

    /// An open picker is a question over the list: Esc (or a choice) first, as the wishlist's "delete all?".
    public var isAsking: Bool { state?.picker != nil }

    /// The field, and an open picker (the years picker takes digits; `q` and tab digits are not commands there).
    public var capturesText: Bool { state?.focus == .field || state?.picker != nil }

    public func frameShown() { controls.frameShown() }

    /// (The first state comes with the screen: the first query is sent as it is made.)
    public var bindings: [Binding] { state.map(controls.bindings) ?? [] }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        state.map { controls.perform(command, key: key, $0) } ?? false
    }

    public func handle(_ key: Key) -> Bool { state.map { controls.handle(key, $0) } ?? false }

    public func handle(_ pointer: Pointer) -> Bool { state.map { controls.handle(pointer, $0) } ?? false }

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
        controls.recentHits = []
        controls.chipHits = []
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
        controls.listRows = max(1, body.height - 1)
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
        TextField.draw(p.sub(Rect(x: 0, y: 0, width: fieldWidth, height: 1)), state: controls.field,
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
            controls.chipHits.append((chip.kind, p.origin.y, (p.origin.x + start)..<(p.origin.x + removeAt),
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
        ListView.draw(area, state: &controls.pickerList, selectedStyle: theme.selection) { i, row, selected in
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
            controls.recentHits.append((i, p.origin.y, (p.origin.x + start)..<(p.origin.x + x)))
            if i < state.recent.count - 1 { x += p.text(" · ", x: x, y: 0, style: theme.dim) }
        }
    }

    private func drawResults(_ p: Painter, state: MovieListState, theme: Theme) {
        let columns = MovieColumns(width: p.width, sortedBy: state.filter.sort)
        drawHeader(p.sub(Rect(x: 0, y: 0, width: p.width, height: 1)), columns: columns, theme: theme)
        let footer = state.loadingMore || state.moreError != nil
        let listArea = p.sub(Rect(x: 0, y: 1, width: p.width, height: p.height - 1 - (footer ? 1 : 0)))
        controls.listRows = max(1, listArea.height)
        ListView.draw(listArea, state: &controls.list, selectedStyle: theme.selection) { index, row, selected in
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
