import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim
import CombineSchedulers

/// The Today tab: your places with their weather and warnings, the earthquakes near them and your
/// films, each section drawn the moment its own answer arrives.
@MainActor
public final class TodayScreen: Screen {
    /// One line of the screen as laid out for the last state.
    enum Line: Equatable {
        case header(TodaySection)
        case note(String)
        case message(TodaySection, String, warning: Bool)
        case place(Int)
        /// Why the place above has no weather, where its row has no room to say it (narrow screens).
        case placeProblem(Int, String)
        /// The official warnings in force at the place above, at the level of the worst.
        case placeWarning(Int, String, level: Int)
        case quake(Int)
        case wishlist(Int)
        case wishlistTitle
        case viewed
        case blank
    }

    private let l10n: L10n
    private let appeared = PassthroughSubject<Void, Never>()
    private let refreshRequested = PassthroughSubject<TodaySection, Never>()
    private let moved = PassthroughSubject<TodayMove, Never>()
    private let selected = PassthroughSubject<TodayTarget, Never>()
    private let opened = PassthroughSubject<TodayItem, Never>()
    private var binding: StateBinding<TodayState>!
    private var routes: AnyCancellable?
    private var state: TodayState? { binding.value }
    private var selection: TodayTarget? { state?.selection }
    /// Turns while a section loads.
    private let spinner: SpinnerSteps
    // What the last frame measured: the first line shown, the size, and the selection the lines
    // were last scrolled to (a new one is brought into view).
    private var offset = 0
    private var lastHeight = 10
    private var lastWidth = 80
    private var scrolledTo: TodayTarget?

    /// The state's changes, and the spinner's steps while a section loads.
    public var changes: AnyPublisher<Void, Never> {
        let binding = self.binding!
        return merge(binding.changes, spinner.ticks(following: binding, isLoading: \.isLoading))
    }

    /// `ticks` is the app's clock: ages and warnings in force follow it.
    public init(viewModel: TodayViewModel, l10n: L10n, scheduler: AnySchedulerOf<DispatchQueue>,
                ticks: AnyPublisher<Date, Never> = Empty().eraseToAnyPublisher(),
                onRoute: @escaping (TodayRoute) -> Void) {
        self.l10n = l10n
        spinner = SpinnerSteps(scheduler: scheduler)
        let output = viewModel.transform(input: .init(
            appeared: appeared.eraseToAnyPublisher(), refreshRequested: refreshRequested.eraseToAnyPublisher(),
            moved: moved.eraseToAnyPublisher(), selected: selected.eraseToAnyPublisher(),
            opened: opened.eraseToAnyPublisher(), tick: ticks))
        binding = StateBinding(output.state)
        routes = output.route.sink { onRoute($0) }
        appeared.send() // made when the tab is first shown (the navigator tells of later showings)
    }

    public func didAppear() { appeared.send() }

    // MARK: Layout

    /// The screen's lines for `width` columns.
    func lines(_ state: TodayState, width: Int) -> [Line] {
        var lines: [Line] = []
        let wrap = { (text: String) in TextWrap.lines(text, width: max(1, width - 3)) }
        func messageLines(_ section: TodaySection, _ status: TodaySectionStatus, hasRows: Bool) {
            switch status {
            case .empty(let text) where !hasRows:
                lines += wrap(text).map { .message(section, $0, warning: false) }
            case .failed(let text):
                lines += wrap(text).map { .message(section, $0, warning: true) }
            case .loading where !hasRows:
                lines.append(.message(section, "", warning: false))
            default:
                break
            }
        }
        lines.append(.header(.places))
        // How the place was found, or what to do to have one: wrapped, never cut.
        lines += state.placesNotes.flatMap(wrap).map { Line.note($0) }
        for (i, row) in state.places.rows.enumerated() {
            lines.append(.place(i))
            if let warning = row.warning {
                lines += TextWrap.lines(warning.text, width: max(1, width - 5))
                    .map { Line.placeWarning(i, $0, level: warning.level) }
            }
            if width < Self.rangeColumnsFrom, let problem = row.problem {
                lines += TextWrap.lines(problem, width: max(1, width - 5)).map { Line.placeProblem(i, $0) }
            }
        }
        messageLines(.places, state.places.status, hasRows: !state.places.rows.isEmpty)
        lines.append(.blank)
        lines.append(.header(.quakes))
        lines += state.quakes.rows.indices.map { Line.quake($0) }
        messageLines(.quakes, state.quakes.status, hasRows: !state.quakes.rows.isEmpty)
        lines.append(.blank)
        lines.append(.header(.films))
        if !state.films.rows.isEmpty {
            lines.append(.wishlistTitle)
            lines += state.films.rows.indices.map { Line.wishlist($0) }
        }
        if !state.viewed.isEmpty { lines.append(.viewed) }
        messageLines(.films, state.films.status, hasRows: !state.films.rows.isEmpty || !state.viewed.isEmpty)
        return lines
    }

    /// From this width a place's row has its range column, where a missing weather's reason is told.
    static let rangeColumnsFrom = 50

    /// The line the selection is on.
    private func lineIndex(of target: TodayTarget, in lines: [Line]) -> Int? {
        lines.firstIndex { line in
            switch (target, line) {
            case (.item(.place(let a)), .place(let b)), (.item(.quake(let a)), .quake(let b)),
                 (.item(.wishlist(let a)), .wishlist(let b)):
                return a == b
            case (.item(.viewed), .viewed): return true
            case (.section(let a), .message(let b, _, _)): return a == b
            default: return false
            }
        }
    }

    // MARK: Screen

    public var capturesText: Bool { false }

    public var bindings: [Binding] {
        let onItem: Bool = { if case .item? = selection { return true } else { return false } }()
        var moves = Binding.listMoves(l10n) { [unowned self] key in
            let page = max(1, lastHeight - 2)
            let move: TodayMove
            switch key {
            case .up, .char("k"): move = .by(-1)
            case .down, .char("j"): move = .by(1)
            case .pageUp: move = .by(-page)
            case .pageDown: move = .by(page)
            case .home, .char("g"): move = .first
            case .end, .char("G"): move = .last
            default: return false
            }
            moved.send(move)
            return true
        }
        // The bar shows the moves as "↑↓ move".
        if let first = moves.first {
            moves[0] = Binding(first.keys, first.keyLabel, help: first.help, hint: l10n[.hintMove], hintKey: "↑↓", run: first.run)
        }
        var all = moves
        all.append(Binding([.char("["), .char("]")], "[ ]", help: l10n[.helpKeyTodaySection]) { [moved] key in
            moved.send(.section(key == .char("]") ? 1 : -1))
            return true
        })
        if state?.viewed.isEmpty == false {
            all.append(Binding([.left, .right, .char("h"), .char("l")], "← →", help: l10n[.helpKeyTodayViewed]) { [unowned self] key in
                guard case .item(.viewed)? = selection else { return false }
                moved.send(.along(key == .left || key == .char("h") ? -1 : 1))
                return true
            })
        }
        all += [
            Binding([.enter], Binding.name(.enter), help: l10n[.helpKeyTodayOpen], hint: onItem ? l10n[.hintOpen] : nil) {
                [unowned self] _ in
                guard case .item(let item)? = selection else { return false }
                opened.send(item)
                return true
            },
            Binding(.char("r"), help: l10n[.helpKeyTodayRefresh], hint: l10n[.hintRefresh]) { [unowned self] in
                refreshRequested.send(selection?.section ?? .places)
            },
        ]
        return all
    }

    /// A click selects the place, quake or film under it (a double click, or a click on what is
    /// already selected, opens it); the wheel moves the selection as ↑ ↓ do.
    public func handle(_ pointer: Pointer) -> Bool {
        guard let state else { return false }
        switch pointer.action {
        case .wheel(let notches):
            guard notches != 0 else { return false }
            moved.send(.by(notches))
            return true
        case .click(let clicks):
            let lines = lines(state, width: lastWidth)
            let i = offset + pointer.y
            guard pointer.y >= 0, pointer.y < lastHeight, lines.indices.contains(i) else { return false }
            let target: TodayTarget
            switch lines[i] {
            case .place(let n), .placeProblem(let n, _), .placeWarning(let n, _, _): target = .item(.place(n))
            case .quake(let n): target = .item(.quake(n))
            case .wishlist(let n): target = .item(.wishlist(n))
            case .viewed:
                if case .item(.viewed)? = selection { target = selection! } else { target = .item(.viewed(0)) }
            default: return false
            }
            let again = selection == target
            selected.send(target)
            if clicks >= 2 || again, case .item(let item) = target { opened.send(item) }
            return true
        case .drag:
            return false
        }
    }

    /// Brings the selection into view: a section's first stop with its header (and notes), a
    /// section's message whole.
    private func scroll(to selection: TodayTarget, _ state: TodayState, lines: [Line], height: Int) {
        guard var at = lineIndex(of: selection, in: lines) else { return }
        let targets = TodayViewModel.targets(places: state.places.rows.count, quakes: state.quakes.rows.count,
                                             wishlist: state.films.rows.count, viewed: state.viewed.count)
        if targets.first(where: { $0.section == selection.section }) == selection,
           let header = lines.firstIndex(of: .header(selection.section)) {
            at = header
        }
        if at < offset { offset = at }
        // The whole of a section's message (it may wrap onto several lines) comes into view.
        var end = lineIndex(of: selection, in: lines) ?? at
        if case .section(let section) = selection,
           let last = lines.lastIndex(where: { if case .message(section, _, _) = $0 { return true } else { return false } }) {
            end = last
        }
        if end >= offset + height { offset = min(at, end - height + 1) }
        offset = max(0, min(offset, max(0, lines.count - height)))
    }

    // MARK: Drawing

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.width > 0, p.height > 0, let state else { return }
        let resized = lastWidth != p.width || lastHeight != p.height
        lastWidth = p.width
        lastHeight = p.height
        let lines = lines(state, width: p.width)
        // A new selection (a key, a click, rows that came or went), or a new size, is brought into view.
        if let selection = state.selection, resized || selection != scrolledTo {
            scroll(to: selection, state, lines: lines, height: p.height)
        }
        scrolledTo = state.selection
        offset = max(0, min(offset, max(0, lines.count - p.height)))
        let selectedLine = state.selection.flatMap { lineIndex(of: $0, in: lines) }
        for y in 0..<p.height {
            let i = offset + y
            guard lines.indices.contains(i) else { break }
            let row = p.sub(Rect(x: 0, y: y, width: p.width, height: 1))
            draw(lines[i], in: row, state: state, theme: theme, selected: i == selectedLine)
        }
    }

    private func draw(_ line: Line, in p: Painter, state: TodayState, theme: Theme, selected: Bool) {
        let fit = { (text: String, width: Int) in DisplayWidth.truncate(DisplayWidth.sanitize(text), to: max(0, width)) }
        // A whole-row selection (not the viewed strip, which marks its one film).
        if selected, line != .viewed {
            p.fill(style: theme.selection)
            p.text("›", x: 0, y: 0, style: theme.selection)
        }
        let base = selected ? theme.selection : theme.text
        switch line {
        case .blank:
            break
        case .header(let section):
            let (title, status, hasRows): (String, TodaySectionStatus, Bool) = switch section {
            case .places: (state.places.title, state.places.status, !state.places.rows.isEmpty)
            case .quakes: (state.quakes.title, state.quakes.status, !state.quakes.rows.isEmpty)
            case .films: (state.films.title, state.films.status, !state.films.rows.isEmpty || !state.viewed.isEmpty)
            }
            var header = theme.accent
            header.bold = true
            let note: (String, Style)? = switch status {
            // Without rows the spinner is on the section's own line below.
            case .loading where hasRows: (Spinner.frame(spinner.step) + " " + l10n[.todayLoading], theme.dim)
            case .loaded(let note?): (note, theme.dim)
            case .stale(let note): (note, theme.warning)
            default: nil
            }
            let noteWidth = note.map { min(DisplayWidth.of($0.0), max(0, p.width - 12)) } ?? 0
            p.text(fit(title, p.width - noteWidth - 3), x: 1, y: 0, style: header)
            if let note, noteWidth > 0 {
                p.text(fit(note.0, noteWidth), x: p.width - noteWidth - 1, y: 0, style: note.1)
            }
        case .note(let text):
            p.text(fit(text, p.width - 3), x: 2, y: 0, style: theme.dim)
        case .message(_, let text, let warning):
            let shown = text.isEmpty ? Spinner.frame(spinner.step) + " " + l10n[.todayLoading] : text
            p.text(fit(shown, p.width - 3), x: 2, y: 0, style: selected ? base : (warning ? theme.warning : theme.dim))
        case .place(let i):
            guard state.places.rows.indices.contains(i) else { return }
            let row = state.places.rows[i]
            let rangeWidth = p.width >= Self.rangeColumnsFrom ? 12 : 0
            let nowWidth = 6
            let conditionWidth = p.width >= 70 ? min(20, p.width - 50) : 0
            let hereWidth = p.width >= 60 ? DisplayWidth.of(l10n[.todayHere]) + 2 : 0
            let nameWidth = max(0, p.width - 2 - nowWidth - rangeWidth - conditionWidth - hereWidth - 1)
            p.text(fit(row.name, nameWidth - 1), x: 2, y: 0, style: base)
            if let warning = row.warning {
                // Official warnings in force: "!" in the severity's colour (the mark reads without
                // colour); the worst of them is told on the line below.
                p.text("!", x: 1, y: 0, style: selected ? base : theme.level(warning.level))
            }
            var x = 2 + nameWidth
            if hereWidth > 0, row.isHere { p.text(l10n[.todayHere], x: x, y: 0, style: selected ? base : theme.dim) }
            x += hereWidth
            p.text(fit(row.now ?? "…", nowWidth - 1), x: x, y: 0,
                   style: selected ? base : row.problem != nil ? theme.warning : theme.accent)
            x += nowWidth
            if let problem = row.problem {
                // Why this place has no weather, where its range and sky would be.
                if rangeWidth > 0 { p.text(fit(problem, rangeWidth + conditionWidth), x: x, y: 0, style: selected ? base : theme.dim) }
                return
            }
            if rangeWidth > 0 { p.text(fit(row.range ?? "", rangeWidth - 1), x: x, y: 0, style: base) }
            x += rangeWidth
            if conditionWidth > 0 { p.text(fit(row.condition ?? "", conditionWidth), x: x, y: 0, style: selected ? base : theme.dim) }
        case .placeWarning(_, let text, let level):
            p.text(fit(text, p.width - 5), x: 4, y: 0, style: theme.level(level))
        case .placeProblem(_, let text):
            p.text(fit(text, p.width - 5), x: 4, y: 0, style: theme.warning)
        case .quake(let i):
            guard state.quakes.rows.indices.contains(i) else { return }
            let row = state.quakes.rows[i]
            let magnitudeWidth = 7
            let timeWidth = p.width >= 50 ? 12 : 0
            let distanceWidth = p.width >= 70 ? min(26, p.width / 4) : 0
            let placeWidth = max(0, p.width - 2 - magnitudeWidth - timeWidth - distanceWidth)
            p.text(fit("M " + row.magnitude, magnitudeWidth - 1), x: 2, y: 0,
                   style: selected ? base : QuakeListScreen.style(row.strength, theme: theme))
            var x = 2 + magnitudeWidth
            p.text(fit(row.place, placeWidth - 1), x: x, y: 0, style: base)
            x += placeWidth
            if distanceWidth > 0 { p.text(fit(row.distance, distanceWidth - 1), x: x, y: 0, style: selected ? base : theme.dim) }
            x += distanceWidth
            if timeWidth > 0 { p.text(fit(row.time, timeWidth - 1), x: x, y: 0, style: selected ? base : theme.dim) }
        case .wishlistTitle:
            p.text(fit(l10n[.todayWishlist], p.width - 3), x: 2, y: 0, style: theme.dim)
        case .wishlist(let i):
            guard state.films.rows.indices.contains(i) else { return }
            p.text(fit(state.films.rows[i].title, p.width - 5), x: 4, y: 0, style: base)
        case .viewed:
            // "Viewed: Oldboy (2003) · Memento (2000) · …", the selected film marked; the strip
            // starts late enough that the selected film is on screen.
            var selectedFilm: Int?
            if case .item(.viewed(let i))? = selection { selectedFilm = i }
            if selectedFilm != nil { p.text("›", x: 0, y: 0, style: theme.selection) }
            let label = l10n[.todayViewed] + " "
            var x = 2 + p.text(label, x: 2, y: 0, style: theme.dim)
            let first = max(0, (selectedFilm ?? 0) - 2)
            if first > 0 { x += p.text("… ", x: x, y: 0, style: theme.dim) }
            for (i, film) in state.viewed.enumerated().dropFirst(first) {
                let room = p.width - x - 1
                guard room > 1 else { break }
                let title = fit(film.title, min(room, 30))
                x += p.text(title, x: x, y: 0, style: i == selectedFilm ? theme.selection : theme.text)
                if i < state.viewed.count - 1, p.width - x > 4 { x += p.text(" · ", x: x, y: 0, style: theme.dim) }
            }
        }
    }
}
