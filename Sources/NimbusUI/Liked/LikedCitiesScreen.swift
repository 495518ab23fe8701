import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The Liked tab's root: liked cities with today's high and low.
@MainActor
public final class LikedCitiesScreen: Screen {
    private let l10n: L10n
    private let appeared = PassthroughSubject<Void, Never>()
    private let rowOpened = PassthroughSubject<Int, Never>()
    private let removeRequested = PassthroughSubject<Int, Never>()
    private let refreshRequested = PassthroughSubject<Void, Never>()
    private let thumbnailWanted = PassthroughSubject<LikedThumbnailRequest?, Never>()
    private var cancellables: Set<AnyCancellable> = []
    private var state: LikedCitiesState?
    private var list = ListState()
    private var lastPageSize = 10
    /// The selected row's small map, from the view model, shown when the screen is wide.
    private var thumbnail: LikedThumbnail?
    /// The size the screen was last drawn at: whether a thumbnail fits.
    private var lastSize: (width: Int, height: Int)?

    public var onNeedsDisplay: (() -> Void)?

    /// Size of the selected city's map beside the list, shown from `thumbnailMinWidth` columns.
    static let thumbnailSize = MapSize(cols: 28, rows: 10)
    static let thumbnailMinWidth = 100

    public init(viewModel: LikedCitiesViewModel, l10n: L10n, onRoute: @escaping (LikedCitiesRoute) -> Void) {
        self.l10n = l10n
        let output = viewModel.transform(input: .init(
            appeared: appeared.eraseToAnyPublisher(), rowOpened: rowOpened.eraseToAnyPublisher(),
            removeRequested: removeRequested.eraseToAnyPublisher(), refreshRequested: refreshRequested.eraseToAnyPublisher(),
            thumbnailWanted: thumbnailWanted.eraseToAnyPublisher()))
        output.state
            .sink { [weak self] state in
                self?.state = state
                self?.list.setCount(state.rows.count)
                self?.askForThumbnail()
                self?.onNeedsDisplay?()
            }
            .store(in: &cancellables)
        output.thumbnail
            .sink { [weak self] thumbnail in
                self?.thumbnail = thumbnail
                self?.onNeedsDisplay?()
            }
            .store(in: &cancellables)
        output.route
            .sink { onRoute($0) }
            .store(in: &cancellables)
        appeared.send()
    }

    public func didAppear() { appeared.send() }

    /// The frame shows the size the screen has: the view model hears which map fits (after a resize,
    /// or the first frame).
    public func frameShown() { askForThumbnail() }

    /// Tells the view model which map the screen has room for now: the selected row's, when the
    /// screen as last drawn is wide enough. The view model answers at once, so a keystroke's frame
    /// shows the new row's map.
    private func askForThumbnail() {
        let size = Self.thumbnailSize
        guard let lastSize, let state, lastSize.width >= Self.thumbnailMinWidth, lastSize.height >= size.rows + 2,
              state.rows.indices.contains(list.selection) else {
            thumbnailWanted.send(nil)
            return
        }
        thumbnailWanted.send(LikedThumbnailRequest(cityID: state.rows[list.selection].cityID, size: size))
    }

    // MARK: Screen

    public var capturesText: Bool { false }

    public var hints: [KeyHint] {
        let retry = state?.canRetry == true ? [KeyHint("r", l10n[.hintRetry])] : []
        guard list.count > 0 else { return retry + [KeyHint("?", l10n[.hintHelp]), KeyHint("q", l10n[.hintQuit])] }
        return [KeyHint("↑↓", l10n[.hintMove]), KeyHint("Enter", l10n[.hintOpen]), KeyHint("d", l10n[.hintRemove])] + retry
            + [KeyHint("?", l10n[.hintHelp]), KeyHint("q", l10n[.hintQuit])]
    }

    public var help: [KeyHint] {
        [KeyHint("↑ ↓  j k", l10n[.helpKeyMove]),
         KeyHint("PgUp PgDn", l10n[.helpKeyPage]),
         KeyHint("Home End  g G", l10n[.helpKeyEnds]),
         KeyHint("Enter", l10n[.helpKeyOpenCity]),
         KeyHint("d", l10n[.helpKeyRemove]),
         KeyHint("r", l10n[.helpKeyRefresh])]
    }

    /// A click selects a city, a double click (or a click on the selected one) opens it; the wheel moves the selection.
    public func handle(_ pointer: Pointer) -> Bool {
        switch list.handle(pointer) {
        case .ignored: return false
        case .moved:
            askForThumbnail()
            onNeedsDisplay?()
        case .open: _ = handle(.enter)
        }
        return true
    }

    /// The selected city's name and coordinates.
    public var copyText: String? {
        guard let state, state.rows.indices.contains(list.selection) else { return nil }
        return state.rows[list.selection].name + " " + state.rows[list.selection].coordinates
    }

    public func handle(_ key: Key) -> Bool {
        if list.handle(key, pageSize: lastPageSize) {
            askForThumbnail()
            onNeedsDisplay?()
            return true
        }
        if key == .char("r") {
            refreshRequested.send()
            return true
        }
        guard list.count > 0 else { return false }
        switch key {
        case .enter:
            rowOpened.send(list.selection)
            return true
        case .char("d"), .delete:
            removeRequested.send(list.selection)
            return true
        default:
            return false
        }
    }

    // MARK: Drawing

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        lastSize = (p.width, p.height)
        guard p.width > 0, p.height > 0, let state else { return }
        // The selected city's map on the right when there is room for it and the list.
        let size = Self.thumbnailSize
        if p.width >= Self.thumbnailMinWidth, p.height >= size.rows + 2,
           state.rows.indices.contains(list.selection),
           let thumbnail, thumbnail.cityID == state.rows[list.selection].cityID {
            let snapshot = thumbnail.snapshot
            let top = state.notice == nil ? 1 : 2
            MapSnapshotView.draw(snapshot, in: p.sub(Rect(x: p.width - size.cols, y: top, width: size.cols, height: size.rows)),
                                 palette: theme.map)
            drawList(p.sub(Rect(x: 0, y: 0, width: p.width - size.cols - 1, height: p.height)), state: state, theme: theme)
            if let notice = state.notice {
                p.text(DisplayWidth.truncate(DisplayWidth.sanitize(notice), to: max(0, p.width - 1)), x: 1, y: 0,
                       style: theme.warning)
            }
            return
        }
        drawList(p, state: state, theme: theme)
    }

    private func drawList(_ p: Painter, state: LikedCitiesState, theme: Theme) {
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
        ListView.draw(area, state: &list, selectedStyle: theme.selection) { index, row, selected in
            guard state.rows.indices.contains(index) else { return }
            let item = state.rows[index]
            let base = selected ? theme.selection : theme.text
            if selected { row.text("›", x: 0, y: 0, style: base) }
            row.text(DisplayWidth.truncate(DisplayWidth.sanitize(item.name), to: nameWidth), x: 2, y: 0, style: base)
            var x = nameWidth + 2
            if countryWidth > 0 {
                row.text(DisplayWidth.truncate(item.country, to: countryWidth - 1), x: x, y: 0, style: base)
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
