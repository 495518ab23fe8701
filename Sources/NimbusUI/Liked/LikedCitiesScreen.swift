import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The Liked tab's root: liked cities with today's high and low, and a map of them all (the selected
/// one marked) beside or below them when the terminal has room.
@MainActor
public final class LikedCitiesScreen: Screen {
    private let l10n: L10n
    /// The one way in to the view model.
    private let events = PassthroughSubject<LikedCitiesViewModel.Event, Never>()
    /// The keys, as data.
    let keyMap: KeyMap<LikedCitiesViewModel.Event, LikedCitiesState>
    private var binding: StateBinding<LikedCitiesState>!
    private var routes: AnyCancellable?
    private var state: LikedCitiesState? { binding.value }
    /// The rows and scroll position as the last frame drew them.
    private var list = ListState()
    private var lastPageSize = 10
    /// The room for a map the last frame had, and the room last told to the view model (the outer
    /// nil: nothing told yet).
    private var measuredMapRoom: MapSize?
    private var reportedMapRoom: MapSize??
    public var changes: AnyPublisher<Void, Never> { binding.changes }

    /// The map goes beside the list from this width, below its rows under it; either way at least
    /// `mapMinRows` rows high and `mapMinCols` wide.
    nonisolated static let mapMinWidth = 100
    nonisolated static let mapMinRows = 6
    nonisolated static let mapMinCols = 28

    public init(viewModel: LikedCitiesViewModel, l10n: L10n, onRoute: @escaping (LikedCitiesRoute) -> Void) {
        self.l10n = l10n
        keyMap = Self.keyMap(l10n)
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        binding = StateBinding(output.state) { [weak self] _, new in
            self?.list.setCount(new.rows.count)
            self?.list.select(new.selection)
        }
        routes = output.route.sink { onRoute($0) }
        events.send(.appeared)
    }

    /// The tab's keys: Enter and `d` are listed while the list is empty, and then say nothing is liked yet.
    nonisolated static func keyMap(_ l10n: L10n) -> KeyMap<LikedCitiesViewModel.Event, LikedCitiesState> {
        typealias B = KeyBinding<LikedCitiesViewModel.Event, LikedCitiesState>
        var moves = B.listMoves()
        // The moves' hint, while there are rows to move through.
        moves[0] = moves[0].hinted(l10n[.hintMove], key: "↑↓", when: .when(\.hasRows))
        return KeyMap(moves + [
            B([.enter], "Enter", help: .key(.helpKeyOpenCity), hint: l10n[.hintOpen], .openSelection,
              enabled: .when(\.hasRows), disabledReason: l10n[.likedEmpty], hintWhen: .when(\.hasRows)),
            B([.char("d"), .delete], "d", help: .key(.helpKeyRemove), hint: l10n[.hintRemove], .removeSelection,
              enabled: .when(\.hasRows), disabledReason: l10n[.likedEmpty], hintWhen: .when(\.hasRows)),
            B(.char("r"), help: .key(.helpKeyRefresh), hint: l10n[.hintRetry], .send(.refreshRequested), hintWhen: .when(\.canRetry)),
        ])
    }

    public func didAppear() { events.send(.appeared) }

    /// The frame shows the room the screen has: the view model hears which map fits (after a resize,
    /// or the first frame) and answers at once.
    public func frameShown() {
        guard reportedMapRoom != .some(measuredMapRoom) else { return }
        reportedMapRoom = .some(measuredMapRoom)
        events.send(.mapRoomChanged(measuredMapRoom))
    }

    // MARK: Screen

    public var capturesText: Bool { false }

    public var bindings: [Binding] { keyMap.bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        KeyMap<LikedCitiesViewModel.Event, LikedCitiesState>.command(command, pressed: key).map { perform($0, key) } ?? false
    }

    /// Carries out a binding's command.
    private func perform(_ command: KeyCommand<LikedCitiesViewModel.Event>, _ key: Key) -> Bool {
        switch command {
        case .send(let event): events.send(event)
        case .moveSelection:
            guard let selection = list.move(key, pageSize: lastPageSize) else { return false }
            events.send(.rowSelected(selection))
        case .openSelection: events.send(.rowOpened(state?.selection ?? 0))
        case .removeSelection: events.send(.removeRequested(state?.selection ?? 0))
        case .likeSelection, .editField, .describe, .scroll, .sendEach: return false
        }
        return true
    }

    /// A click selects a city, a double click (or a click on the selected one) opens it; the wheel moves the selection.
    public func handle(_ pointer: Pointer) -> Bool {
        switch list.move(pointer) {
        case .ignored: return false
        case .select(let row): events.send(.rowSelected(row))
        case .open(let row): events.send(.rowOpened(row))
        }
        return true
    }

    /// The selected city's name and coordinates.
    public var copyText: String? {
        guard let state, state.rows.indices.contains(state.selection) else { return nil }
        return state.rows[state.selection].name + " " + state.rows[state.selection].coordinates
    }

    // MARK: Drawing

    /// Where the map and its scale line go in a body `width` × `height` whose first `top` rows are
    /// taken (the notice and the list's header), with `listRows` rows of list: beside the list, as tall
    /// as the body below those rows, when the body is wide; otherwise below the list's rows after a
    /// blank one, in the rows left. Nil when neither has room.
    nonisolated static func mapPlace(width: Int, height: Int, top: Int, listRows: Int) -> (area: Rect, beside: Bool)? {
        if width >= mapMinWidth {
            let cols = min(48, max(mapMinCols, width / 4))
            guard height - top - 1 >= mapMinRows else { return nil }
            return (Rect(x: width - cols, y: top, width: cols, height: height - top), true)
        }
        let y = top + listRows + 1
        let cols = min(96, width - 4)
        guard height - y - 1 >= mapMinRows, cols >= mapMinCols else { return nil }
        return (Rect(x: 2, y: y, width: cols, height: height - y), false)
    }

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.width > 0, p.height > 0, let state else { return }
        let top = state.notice == nil ? 1 : 2
        let place = state.rows.isEmpty ? nil
            : Self.mapPlace(width: p.width, height: p.height, top: top, listRows: state.rows.count)
        measuredMapRoom = place.map { MapSize(cols: $0.area.width, rows: $0.area.height - 1) }
        // The cities' map where there is room for it and the list.
        guard let place, let map = state.map else {
            drawList(p, state: state, theme: theme)
            return
        }
        drawMap(map, in: p.sub(place.area), theme: theme)
        guard place.beside else {
            drawList(p.sub(Rect(x: 0, y: 0, width: p.width, height: place.area.y - 1)), state: state, theme: theme)
            return
        }
        drawList(p.sub(Rect(x: 0, y: 0, width: p.width - place.area.width - 1, height: p.height)), state: state, theme: theme,
                 beside: true)
        if let notice = state.notice {
            p.text(DisplayWidth.truncate(DisplayWidth.sanitize(notice), to: max(0, p.width - 1)), x: 1, y: 0,
                   style: theme.warning)
        }
    }

    /// The map, its city and the other liked cities in view named on it, and the scale under it.
    private func drawMap(_ map: LikedMap, in p: Painter, theme: Theme) {
        let mapArea = p.sub(Rect(x: 0, y: 0, width: p.width, height: max(0, p.height - 1)))
        MapSnapshotView.draw(map.snapshot, in: mapArea, palette: theme.map, label: map.label, markers: map.markers)
        if let scale = map.scale, let text = MapSnapshotView.scaleText(scale, maxWidth: p.width) {
            p.text(text, x: 0, y: p.height - 1, style: theme.map.scale)
        }
    }

    private func drawList(_ p: Painter, state: LikedCitiesState, theme: Theme, beside: Bool = false) {
        var y = 0
        if let notice = state.notice {
            p.text(DisplayWidth.truncate(DisplayWidth.sanitize(notice), to: max(0, p.width - 1)), x: 1, y: y, style: theme.warning)
            y += 1
        }
        if let empty = state.emptyMessage {
            TextWrap.drawCentred(p, [empty], top: min(y + 1, p.height - 1), style: theme.dim)
            return
        }
        guard y + 1 < p.height else { return }
        let rangeWidth = p.width >= 40 ? 12 : 0
        let countryWidth = p.width >= 60 ? min(24, p.width / 4) : 0
        let conditionWidth = p.width >= 80 ? 18 : 0
        let nameWidth = min(ListColumns.nameCap, max(0, p.width - rangeWidth - countryWidth - conditionWidth - 3))
        let header = Style(fg: theme.dim.fg, dim: theme.dim.dim, underline: true)
        p.text(DisplayWidth.pad("  " + l10n[.citiesColumnName], to: nameWidth + 2), x: 0, y: y, style: header)
        if countryWidth > 0 {
            p.text(DisplayWidth.pad(l10n[.citiesColumnCountry], to: countryWidth), x: nameWidth + 2, y: y, style: header)
        }
        if rangeWidth > 0 {
            p.text(DisplayWidth.pad(DisplayWidth.truncate(l10n[.likedColumnToday], to: rangeWidth), to: rangeWidth),
                   x: nameWidth + 2 + countryWidth, y: y, style: header)
        }
        y += 1
        let area = p.sub(Rect(x: 0, y: y, width: p.width, height: p.height - y))
        lastPageSize = max(1, area.height)
        // Beside the map the terminal cannot move the rows' lines (only whole lines move): the view
        // moves by half a page, as vim's 'scrolljump' does for slow terminals.
        list.scrollJump = beside ? max(1, area.height / 2) : 1
        // Namesakes' regions: with the country's code where one does not fit (every such row alike),
        // and in the name where no country is shown.
        let shortRegions = state.rows.contains { $0.countryShort != nil && DisplayWidth.of($0.country) > countryWidth - 1 }
        ListView.draw(area, state: &list, selectedStyle: theme.selection) { index, row, selected in
            guard state.rows.indices.contains(index) else { return }
            let item = state.rows[index]
            let base = selected ? theme.selection : theme.text
            if selected { row.text("›", x: 0, y: 0, style: base) }
            let name = countryWidth > 0 ? item.name : item.qualifiedName ?? item.name
            row.text(DisplayWidth.truncate(DisplayWidth.sanitize(name), to: nameWidth), x: 2, y: 0, style: base)
            var x = nameWidth + 2
            if countryWidth > 0 {
                let country = shortRegions ? item.countryShort ?? item.country : item.country
                row.text(DisplayWidth.truncate(DisplayWidth.sanitize(country), to: countryWidth - 1), x: x, y: 0, style: base)
                x += countryWidth
            }
            if rangeWidth > 0, let range = item.range {
                row.text(DisplayWidth.truncate(range, to: rangeWidth - 1), x: x, y: 0,
                         style: selected ? base : item.unavailable ? theme.warning : theme.accent)
            }
            x += rangeWidth
            if conditionWidth > 0, let condition = item.condition {
                row.text(DisplayWidth.truncate(condition, to: conditionWidth), x: x, y: 0, style: selected ? base : theme.dim)
            }
        }
    }
}
