import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim
import CombineSchedulers

/// The Today tab: your places with their weather, the earthquakes near them and your films, each
/// section drawn the moment its own answer arrives.
@MainActor
public final class TodayScreen: Screen {
    /// What the selection can rest on: an item that opens, or a section without rows (its message,
    /// where `r` retries it).
    enum Target: Equatable, Hashable {
        case item(TodayItem)
        case section(TodaySection)

        var section: TodaySection {
            switch self {
            case .section(let s): s
            case .item(.place): .places
            case .item(.quake): .quakes
            case .item(.wishlist), .item(.viewed): .films
            }
        }
    }

    /// One line of the screen as laid out for the last state.
    enum Line: Equatable {
        case header(TodaySection)
        case note(String)
        case message(TodaySection, String, warning: Bool)
        case place(Int)
        case quake(Int)
        case wishlist(Int)
        case wishlistTitle
        case viewed
        case blank
    }

    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let appeared = PassthroughSubject<Void, Never>()
    private let refreshRequested = PassthroughSubject<TodaySection, Never>()
    private let opened = PassthroughSubject<TodayItem, Never>()
    private var cancellables: Set<AnyCancellable> = []
    private var state: TodayState?
    /// What is selected, kept by identity so an answer arriving in another section never moves it.
    private var selection: Target?
    /// The first line shown.
    private var offset = 0
    private var lastHeight = 10
    private var lastWidth = 80
    /// Turns while a section loads.
    private lazy var spinner = SpinnerTicker(scheduler: scheduler, isLoading: { [weak self] in self?.isLoading ?? false },
                                             redraw: { [weak self] in self?.onNeedsDisplay?() })

    public var onNeedsDisplay: (() -> Void)?

    public init(viewModel: TodayViewModel, l10n: L10n, scheduler: AnySchedulerOf<DispatchQueue>,
                onRoute: @escaping (TodayRoute) -> Void) {
        self.l10n = l10n
        self.scheduler = scheduler
        let output = viewModel.transform(input: .init(appeared: appeared.eraseToAnyPublisher(),
                                                      refreshRequested: refreshRequested.eraseToAnyPublisher(),
                                                      opened: opened.eraseToAnyPublisher()))
        output.state
            .sink { [weak self] in self?.apply($0) }
            .store(in: &cancellables)
        output.route
            .sink { onRoute($0) }
            .store(in: &cancellables)
        appeared.send() // made when the tab is first shown (the navigator tells of later showings)
    }

    public func didAppear() { appeared.send() }

    private func apply(_ new: TodayState) {
        state = new
        let targets = Self.targets(new)
        if selection == nil || !targets.contains(selection!) {
            // The same section's first stop (its rows came or went), else the first of all.
            let section = selection?.section
            selection = targets.first { $0.section == section } ?? targets.first
        }
        spinner.startIfLoading(resetting: false)
        onNeedsDisplay?()
    }

    private var isLoading: Bool {
        guard let state else { return false }
        return TodaySection.allCases.contains { state.status($0) == .loading }
    }

    // MARK: Layout

    /// Every stop of the selection, in order: each section's rows, or its message when it has none.
    static func targets(_ state: TodayState) -> [Target] {
        var targets: [Target] = []
        targets += state.places.rows.indices.map { .item(.place($0)) }
        if state.places.rows.isEmpty { targets.append(.section(.places)) }
        targets += state.quakes.rows.indices.map { .item(.quake($0)) }
        if state.quakes.rows.isEmpty { targets.append(.section(.quakes)) }
        targets += state.films.rows.indices.map { .item(.wishlist($0)) }
        targets += state.viewed.indices.map { .item(.viewed($0)) }
        if state.films.rows.isEmpty && state.viewed.isEmpty { targets.append(.section(.films)) }
        return targets
    }

    /// The screen's lines for `width` columns.
    func lines(_ state: TodayState, width: Int) -> [Line] {
        var lines: [Line] = []
        func messageLines(_ section: TodaySection, _ status: TodaySectionStatus, hasRows: Bool) {
            switch status {
            case .empty(let text) where !hasRows:
                lines += TextWrap.lines(text, width: max(1, width - 3)).map { .message(section, $0, warning: false) }
            case .failed(let text):
                lines += TextWrap.lines(text, width: max(1, width - 3)).map { .message(section, $0, warning: true) }
            case .loading where !hasRows:
                lines.append(.message(section, "", warning: false))
            default:
                break
            }
        }
        lines.append(.header(.places))
        lines += state.placesNotes.map { Line.note($0) }
        lines += state.places.rows.indices.map { Line.place($0) }
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

    /// The line the selection is on.
    private func lineIndex(of target: Target, in lines: [Line]) -> Int? {
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

    public var hints: [KeyHint] {
        var hints = [KeyHint("↑↓", l10n[.hintMove])]
        if case .item? = selection { hints.append(KeyHint("Enter", l10n[.hintOpen])) }
        hints += [KeyHint("r", l10n[.hintRefresh]), KeyHint("?", l10n[.hintHelp]), KeyHint("q", l10n[.hintQuit])]
        return hints
    }

    public var help: [KeyHint] {
        var help = [KeyHint("↑ ↓  j k", l10n[.helpKeyMove]),
                    KeyHint("PgUp PgDn", l10n[.helpKeyPage]),
                    KeyHint("Home End  g G", l10n[.helpKeyEnds]),
                    KeyHint("[ ]", l10n[.helpKeyTodaySection])]
        if state?.viewed.isEmpty == false { help.append(KeyHint("← →", l10n[.helpKeyTodayViewed])) }
        help += [KeyHint("Enter", l10n[.helpKeyTodayOpen]), KeyHint("r", l10n[.helpKeyTodayRefresh])]
        return help
    }

    /// A click selects the place, quake or film under it (a double click, or a click on what is
    /// already selected, opens it); the wheel moves the selection as ↑ ↓ do.
    public func handle(_ pointer: Pointer) -> Bool {
        guard let state else { return false }
        switch pointer.action {
        case .wheel(let notches):
            guard notches != 0 else { return false }
            for _ in 0..<abs(notches) { _ = handle(notches < 0 ? Key.up : Key.down) }
            return true
        case .click(let clicks):
            let lines = lines(state, width: lastWidth)
            let i = offset + pointer.y
            guard pointer.y >= 0, pointer.y < lastHeight, lines.indices.contains(i) else { return false }
            let target: Target
            switch lines[i] {
            case .place(let n): target = .item(.place(n))
            case .quake(let n): target = .item(.quake(n))
            case .wishlist(let n): target = .item(.wishlist(n))
            case .viewed:
                if case .item(.viewed)? = selection { target = selection! } else { target = .item(.viewed(0)) }
            default: return false
            }
            let again = selection == target
            selection = target
            onNeedsDisplay?()
            if clicks >= 2 || again, case .item(let item) = target { opened.send(item) }
            return true
        case .drag:
            return false
        }
    }

    public func handle(_ key: Key) -> Bool {
        guard let state else { return false }
        let targets = Self.targets(state)
        // The viewed strip is one stop for ↑ ↓; ← → move along it.
        let stops = targets.filter { if case .item(.viewed(let i)) = $0 { return i == 0 } else { return true } }
        let current: Target? = { if case .item(.viewed)? = selection { return .item(.viewed(0)) } else { return selection } }()
        let index = current.flatMap { stops.firstIndex(of: $0) } ?? 0
        func select(_ i: Int) {
            guard !stops.isEmpty else { return }
            selection = stops[min(max(0, i), stops.count - 1)]
            scrollToSelection()
            onNeedsDisplay?()
        }
        let page = max(1, lastHeight - 2)
        switch key {
        case .up, .char("k"): select(index - 1)
        case .down, .char("j"): select(index + 1)
        case .pageUp: select(index - page)
        case .pageDown: select(index + page)
        case .home, .char("g"): select(0)
        case .end, .char("G"): select(stops.count - 1)
        case .char("]"), .char("["):
            let section = current?.section ?? .places
            let step = key == .char("]") ? 1 : -1
            let next = TodaySection(rawValue: (section.rawValue + step + 3) % 3) ?? .places
            if let i = stops.firstIndex(where: { $0.section == next }) { select(i) }
        case .left, .right, .char("h"), .char("l"):
            guard case .item(.viewed(let i))? = selection else { return false }
            let step = key == .left || key == .char("h") ? -1 : 1
            selection = .item(.viewed(min(max(0, i + step), state.viewed.count - 1)))
            onNeedsDisplay?()
        case .enter:
            guard case .item(let item)? = selection else { return false }
            opened.send(item)
        case .char("r"):
            refreshRequested.send(selection?.section ?? .places)
        default:
            return false
        }
        return true
    }

    private func scrollToSelection() {
        guard let state, let selection else { return }
        let lines = lines(state, width: lastWidth)
        guard var at = lineIndex(of: selection, in: lines) else { return }
        // A section's first stop brings its header (and notes) into view.
        if Self.targets(state).first(where: { $0.section == selection.section }) == selection,
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
        if end >= offset + lastHeight { offset = min(at, end - lastHeight + 1) }
        offset = max(0, min(offset, max(0, lines.count - lastHeight)))
    }

    // MARK: Drawing

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.width > 0, p.height > 0, let state else { return }
        let widthChanged = lastWidth != p.width || lastHeight != p.height
        lastWidth = p.width
        lastHeight = p.height
        if widthChanged { scrollToSelection() }
        let lines = lines(state, width: p.width)
        offset = max(0, min(offset, max(0, lines.count - p.height)))
        let selectedLine = selection.flatMap { lineIndex(of: $0, in: lines) }
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
            case .loading where hasRows: (Spinner.frame(spinner.tick) + " " + l10n[.todayLoading], theme.dim)
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
            let shown = text.isEmpty ? Spinner.frame(spinner.tick) + " " + l10n[.todayLoading] : text
            p.text(fit(shown, p.width - 3), x: 2, y: 0, style: selected ? base : (warning ? theme.warning : theme.dim))
        case .place(let i):
            guard state.places.rows.indices.contains(i) else { return }
            let row = state.places.rows[i]
            let rangeWidth = p.width >= 50 ? 12 : 0
            let nowWidth = 6
            let conditionWidth = p.width >= 70 ? min(20, p.width - 50) : 0
            let hereWidth = p.width >= 60 ? DisplayWidth.of(l10n[.todayHere]) + 2 : 0
            let nameWidth = max(0, p.width - 2 - nowWidth - rangeWidth - conditionWidth - hereWidth - 1)
            p.text(fit(row.name, nameWidth - 1), x: 2, y: 0, style: base)
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
