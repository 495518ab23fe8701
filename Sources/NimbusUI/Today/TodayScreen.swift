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
    /// The one way in to the view model.
    private let events = PassthroughSubject<TodayViewModel.Event, Never>()
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
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher(), tick: ticks))
        binding = StateBinding(output.state)
        routes = output.route.sink { onRoute($0) }
        events.send(.appeared) // made when the tab is first shown (the navigator tells of later showings)
    }

    public func didAppear() { events.send(.appeared) }

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

    /// The widest a place's or a quake's name column gets: on a wide terminal (200 columns) the row's
    /// columns stay together at the left, as in the Cities list, instead of the weather and the
    /// distances drifting a hundred columns away from their names. Up to 110 columns the names take
    /// what is left, as before.
    nonisolated static let widestName = 64

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

    /// The tab's keys for `state`, as data: the moves, `[ ]` between sections, `← →` along the
    /// viewed films (while the selection is on them), Enter opens the selected item, `r` refreshes
    /// the selection's section.
    nonisolated static func keyMap(_ l10n: L10n, for state: TodayState?) -> KeyMap<TodayViewModel.Event, TodayState> {
        typealias B = KeyBinding<TodayViewModel.Event, TodayState>
        var moves = B.listMoves()
        // The bar shows the moves as "↑↓ move".
        moves[0] = moves[0].hinted(l10n[.hintMove], key: "↑↓", when: .always)
        let along: [Key: TodayViewModel.Event] = [.left: .moved(.along(-1)), .char("h"): .moved(.along(-1)),
                                                 .right: .moved(.along(1)), .char("l"): .moved(.along(1))]
        return KeyMap(moves + [
            B([.char("["), .char("]")], "[ ]", help: .key(.helpKeyTodaySection),
              .sendEach([.char("["): .moved(.section(-1)), .char("]"): .moved(.section(1))])),
            B([.left, .right, .char("h"), .char("l")], "← →", help: .key(.helpKeyTodayViewed), .sendEach(along),
              when: .when(\.hasViewed), enabled: .when(\.onViewed)),
            B(.enter, help: .key(.helpKeyTodayOpen), hint: l10n[.hintOpen], state?.selectedItem.map { .send(.opened($0)) } ?? .describe,
              enabled: .when(\.onItem), hintWhen: .when(\.onItem)),
            B(.char("r"), help: .key(.helpKeyTodayRefresh), hint: l10n[.hintRefresh],
              .send(.refreshRequested(state?.selection?.section ?? .places))),
        ])
    }

    public var bindings: [Binding] { Self.keyMap(l10n, for: state).bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard let command = KeyMap<TodayViewModel.Event, TodayState>.command(command, pressed: key) else { return false }
        switch command {
        case .send(let event): events.send(event)
        case .moveSelection:
            guard let move = move(key) else { return false }
            events.send(.moved(move))
        case .scroll, .openSelection, .removeSelection, .likeSelection, .editField, .describe, .sendEach: return false
        }
        return true
    }

    /// Where a key of the list's moves takes the selection, a page being the last frame's height.
    private func move(_ key: Key) -> TodayMove? {
        let page = max(1, lastHeight - 2)
        switch key {
        case .up, .char("k"): return .by(-1)
        case .down, .char("j"): return .by(1)
        case .pageUp: return .by(-page)
        case .pageDown: return .by(page)
        case .home, .char("g"): return .first
        case .end, .char("G"): return .last
        default: return nil
        }
    }

    /// A click selects the place, quake or film under it (a double click, or a click on what is
    /// already selected, opens it); the wheel moves the selection as ↑ ↓ do.
    public func handle(_ pointer: Pointer) -> Bool {
        guard let state else { return false }
        switch pointer.action {
        case .wheel(let notches):
            guard notches != 0 else { return false }
            events.send(.moved(.by(notches)))
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
            events.send(.selected(target))
            if clicks >= 2 || again, case .item(let item) = target { events.send(.opened(item)) }
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
            let nameWidth = min(Self.widestName, max(0, p.width - 2 - nowWidth - rangeWidth - conditionWidth - hereWidth - 1))
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
            let placeWidth = min(Self.widestName, max(0, p.width - 2 - magnitudeWidth - timeWidth - distanceWidth))
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
