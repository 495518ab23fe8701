import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension QuakeListViewModel {
    // MARK: Presenting

    /// What the rows depend on: a change of selection alone formats no row again.
    struct Listing: Equatable {
        let update: QuakeFeedUpdate?, near: Bool, byDistance: Bool, places: [Coordinate], display: DisplayUnits.Value, l10n: L10n, minute: Int
        init(_ s: State) {
            update = s.update
            near = s.near
            byDistance = s.byDistance
            places = s.places
            display = s.display
            l10n = s.l10n
            minute = Int(s.now.timeIntervalSince1970 / 60)
        }
    }

    /// The events shown and their rows.
    struct Rows {
        let shown: [Quake]
        let rows: [QuakeRow]
    }

    /// The list as last formatted, kept beside the state it was made for.
    struct Presented {
        let rows: Memo<Listing, Rows>
        let state: State
        /// Each event's place in words, by id, in the listing's units and language: finding the nearest
        /// city and its local name for every row again at every change would cost a long feed dearly.
        let places: [String: (updated: Date, text: String)]
    }

    func present(_ states: AnyPublisher<State, Never>) -> AnyPublisher<QuakeListState, Never> {
        states
            .filter(\.started)
            .scan(nil as Presented?) { [self] previous, state in
                let listing = Listing(state)
                var places = previous.map { $0.rows.key.display == listing.display && $0.rows.key.l10n == listing.l10n } == true
                    ? previous?.places ?? [:] : [:]
                if places.count > 20_000 { places = [:] }
                let made = Memo(listing, after: previous?.rows) { () -> Rows in
                    let shown = Self.shownQuakes(state)
                    let format = formatter.with(state.display, state.l10n)
                    var rows = rows(shown, now: state.now, format: format, places: &places)
                    if state.byDistance, !state.places.isEmpty {
                        for i in rows.indices {
                            let kilometres = state.places.map { $0.distance(to: shown[i].coordinate) }.min() ?? .infinity
                            rows[i].distance = format.distance(kilometres: kilometres)
                        }
                    }
                    return Rows(shown: shown, rows: rows)
                }
                return Presented(rows: made, state: state, places: places)
            }
            .compactMap { [self] in $0.map(view) }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    private func rows(_ shown: [Quake], now: Date, format: QuakeFormatter, places: inout [String: (updated: Date, text: String)]) -> [QuakeRow] {
        shown.map { quake in
            let place: String
            if let known = places[quake.id], known.updated == quake.updated {
                place = known.text
            } else {
                place = format.place(quake, quakes.place(of: quake))
                places[quake.id] = (quake.updated, place)
            }
            return QuakeRow(id: quake.id, magnitude: QuakeFormatter.magnitude(quake.magnitude),
                     strength: QuakeFormatter.strength(quake.magnitude),
                     time: format.weather.age(now.timeIntervalSince(quake.time)),
                     place: place, depth: format.distance(kilometres: quake.depthKilometres),
                     flagged: quake.tsunami || (quake.alert.map { $0 != .green } ?? false))
        }
    }

    private func view(_ presented: Presented) -> QuakeListState {
        let state = presented.state, rows = presented.rows.value.rows
        let format = formatter.with(state.display, state.l10n)
        let l10n = format.l10n
        var filter = format.filterParts(state.feed)
        let radius = format.distance(kilometres: QuakeFormatter.nearRadiusKilometres(state.units))
        if state.near { filter.append(l10n.format(.quakesNearFilter, radius)) }
        if state.byDistance { filter.append(l10n[.quakesByDistance]) }

        var message: String?
        if rows.isEmpty {
            if state.stopped, state.update == nil {
                message = l10n[.quakesStopped] + " " + l10n[.quakesRetry]
            } else if let error = state.error, state.update == nil {
                message = format.message(error) + " " + l10n[.quakesRetry]
            } else if state.update == nil {
                message = l10n[.quakesLoading]
            } else if state.near && state.places.isEmpty {
                message = l10n[.quakesNoPlaces]
            } else if state.near {
                message = l10n.format(.quakesEmptyNear, radius)
            } else if !state.loading {
                message = l10n[.quakesEmpty]
            }
        }
        var summary: [String] = []
        var status: [String] = []
        if let update = state.update {
            summary.append(l10n.count(.quakesCount, rows.count, l10n.number(rows.count)))
            let dropped = update.snapshot.dropped
            if dropped > 0 { summary.append(l10n.count(.quakesDropped, dropped, l10n.number(dropped))) }
            let age = format.weather.age(state.now.timeIntervalSince(update.checkedAt))
            if state.stopped {
                status.append(l10n.format(.quakesStoppedCached, age))
            } else if let error = state.error {
                switch error {
                case .offline: status.append(l10n.format(.quakesOfflineCached, age))
                case .timedOut: status.append(l10n.format(.quakesTimedOutCached, age))
                default: status.append(format.message(error))
                }
            } else {
                status.append(l10n.format(.quakesUpdated, age))
                if update.origin == .notModified { status.append(l10n[.quakesNotModified]) }
            }
        }
        if state.loading, state.update != nil { status.append(l10n[.quakesRefreshing]) }
        let selection = state.selected.flatMap { id in presented.rows.value.shown.firstIndex { $0.id == id } } ?? 0
        return QuakeListState(filterParts: filter, rows: rows, selection: selection, message: message,
                              summaryParts: summary, likeError: state.likeFailed ? l10n[.likesErrorSave] : nil,
                              status: status.joined(separator: " · "),
                              failed: (state.error != nil || state.stopped) && !state.loading, loading: state.loading)
    }
}
