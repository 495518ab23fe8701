import Foundation
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The recent searches, a panel of the film list shown under an empty search field: draws its view
/// model's state and sends it the moves and the pick; the pick goes on through the view model's route.
@MainActor
public final class MoviesQueriesListPanel {
    /// The one way in to the view model.
    private let events = PassthroughSubject<MoviesQueriesListViewModel.Event, Never>()
    private var binding: StateBinding<MoviesQueriesListState>!
    private var routes: AnyCancellable?
    /// The rows as the last frame drew them (scroll offset, drawn area), and how many it showed.
    private var list = ListState()
    private var lastPageSize = 10

    public var state: MoviesQueriesListState? { binding.value }
    /// Fires after every new state (the host screen merges it into its own).
    public var changes: AnyPublisher<Void, Never> { binding.changes }
    public var isEmpty: Bool { state?.queries.isEmpty ?? true }
    /// The highlighted row.
    public var selection: Int { state?.selection ?? 0 }

    public init(viewModel: MoviesQueriesListViewModel, onRoute: @escaping (MoviesQueriesListRoute) -> Void) {
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        binding = StateBinding(output.state) { [weak self] _, new in
            self?.list.setCount(new.queries.count)
            self?.list.select(new.selection)
        }
        routes = output.route.sink { onRoute($0) }
        events.send(.appeared)
    }

    /// Enter picks the highlighted query; the list's keys move the highlight. False for any other key.
    public func handle(_ key: Key) -> Bool {
        if key == .enter {
            events.send(.rowPicked(selection))
            return true
        }
        guard let selection = list.move(key, pageSize: lastPageSize) else { return false }
        events.send(.rowSelected(selection))
        return true
    }

    /// `d`: the highlighted query leaves the recent searches (when the store has taken it off).
    public func deleteSelection() {
        guard !isEmpty else { return }
        events.send(.rowDeleted(selection))
    }

    /// A click highlights a query, a double click (or a click on the highlighted one) picks it; the
    /// wheel moves the highlight. False when the pointer is not over the rows.
    public func handle(_ pointer: Pointer) -> Bool {
        switch list.move(pointer) {
        case .ignored: return false
        case .select(let index): events.send(.rowSelected(index))
        case .open(let index): events.send(.rowPicked(index))
        }
        return true
    }

    /// The title, then a query a line; `highlighted`: the panel has the focus (its selection is marked).
    public func draw(_ p: Painter, theme: Theme, highlighted: Bool) {
        guard let state, p.height > 0 else { return }
        p.text(DisplayWidth.truncate(state.title, to: p.width), x: 0, y: 0,
               style: Style(fg: theme.dim.fg, dim: theme.dim.dim, underline: true))
        let area = p.sub(Rect(x: 0, y: 1, width: p.width, height: p.height - 1))
        lastPageSize = max(1, area.height)
        ListView.draw(area, state: &list, selectedStyle: highlighted ? theme.selection : theme.text) { i, row, selected in
            guard state.queries.indices.contains(i) else { return }
            let mark = selected && highlighted ? "› " : "  "
            row.text(mark + DisplayWidth.truncate(DisplayWidth.sanitize(state.queries[i]), to: max(0, row.width - 2)), x: 0, y: 0,
                     style: selected && highlighted ? theme.selection : theme.text)
        }
    }
}
