import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers

/// One event, formatted.
public struct QuakeRow: Equatable, Sendable, Identifiable {
    public let id: String
    public let magnitude: String
    /// 0 (below 3) … 4 (6 and above).
    public let strength: Int
    public let time: String
    /// "23 km SW of Pohang".
    public let place: String
    public let depth: String
    /// A tsunami flag or a PAGER alert: shown as a mark.
    public let flagged: Bool
}

/// What the Quakes tab shows.
public struct QuakeListState: Equatable, Sendable {
    /// "M2.5+ · past day · within 500 km of my places".
    public let filter: String
    public let rows: [QuakeRow]
    /// Shown instead of rows: loading, empty, or what went wrong and how to retry.
    public let message: String?
    /// "12 events · 3 unreadable events left out": what the list holds, beside the filter.
    public let summary: String
    /// "updated 2 min ago · not modified", "offline · cached 3 h ago", "refreshing…": how fresh the
    /// feed is, for the status bar; empty before anything is loaded.
    public let status: String
    /// The last request failed or was stopped (r retries).
    public let failed: Bool
    /// A request is in flight (Esc stops it).
    public let loading: Bool
}

public enum QuakeListRoute: Equatable, Sendable {
    case showDetail(Quake, QuakePlace?)
}

/// An event feed: the kept copy at once, then the server's answer (asked conditionally), every
/// minute while the tab is shown and on `r`; filters choose the feed, "near my places" and the
/// order work on what is loaded.
public final class QuakeListViewModel {
    public struct Input {
        /// The tab is shown (first and every time after); `disappeared`, it is not any more.
        public let appeared: AnyPublisher<Void, Never>
        public let disappeared: AnyPublisher<Void, Never>
        public let refreshRequested: AnyPublisher<Void, Never>
        /// `m`: the next minimum magnitude.
        public let magnitudeCycled: AnyPublisher<Void, Never>
        /// `p`: the next period.
        public let periodCycled: AnyPublisher<Void, Never>
        /// `n`: only events near my places, or all.
        public let nearToggled: AnyPublisher<Void, Never>
        /// `s`: newest first, or nearest first.
        public let sortToggled: AnyPublisher<Void, Never>
        public let rowOpened: AnyPublisher<Int, Never>
        /// `Esc` while loading: the request in flight is stopped; what is shown stays.
        public let cancelRequested: AnyPublisher<Void, Never>

        public init(appeared: AnyPublisher<Void, Never>, disappeared: AnyPublisher<Void, Never>,
                    refreshRequested: AnyPublisher<Void, Never>, magnitudeCycled: AnyPublisher<Void, Never>,
                    periodCycled: AnyPublisher<Void, Never>, nearToggled: AnyPublisher<Void, Never>,
                    sortToggled: AnyPublisher<Void, Never>, rowOpened: AnyPublisher<Int, Never>,
                    cancelRequested: AnyPublisher<Void, Never> = Empty().eraseToAnyPublisher()) {
            self.appeared = appeared
            self.disappeared = disappeared
            self.refreshRequested = refreshRequested
            self.magnitudeCycled = magnitudeCycled
            self.periodCycled = periodCycled
            self.nearToggled = nearToggled
            self.sortToggled = sortToggled
            self.rowOpened = rowOpened
            self.cancelRequested = cancelRequested
        }
    }

    public struct Output {
        public let state: AnyPublisher<QuakeListState, Never>
        public let route: AnyPublisher<QuakeListRoute, Never>
    }

    /// Events within this distance of a place count as near it.
    public static let nearRadiusKilometres = 500.0
    /// How often the feed is asked again while the tab is shown (the feeds change once a minute).
    public static let refreshInterval = QuakeFeed.updateInterval

    private let quakes: QuakesUseCase
    private let places: AnyPublisher<[Coordinate], Never>
    private let format: QuakeFormatter
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let now: @Sendable () -> Date

    private var feed: QuakeFeed
    private var near = false
    private var byDistance = false
    private var update: QuakeFeedUpdate?
    private var error: QuakeError?
    private var loading = false
    /// The user stopped the last request (Esc); the minute's refresh waits for `r` or a new appearance.
    private var stopped = false
    private var myPlaces: [Coordinate] = []
    private var shown: [Quake] = []
    /// Each event's place and its words, worked out once per event and update: the catalogue lookup
    /// and the city's local name (a romanising transform in Korean and Japanese) would otherwise run
    /// for every row on every change of the list.
    private var placeCache: [String: (updated: Date, place: QuakePlace?, text: String)] = [:]
    private var load: AnyCancellable?
    private var timer: AnyCancellable?
    private var cancellables: Set<AnyCancellable> = []
    private let stateSubject = PassthroughSubject<QuakeListState, Never>()
    private let routeSubject = PassthroughSubject<QuakeListRoute, Never>()
    private var started = false

    /// `places` are the user's places (liked cities and the current location), as they change.
    public init(quakes: QuakesUseCase, places: AnyPublisher<[Coordinate], Never>, format: QuakeFormatter,
                scheduler: AnySchedulerOf<DispatchQueue>, feed: QuakeFeed = QuakeFeed(magnitude: .twoAndAHalf, period: .day),
                now: @escaping @Sendable () -> Date) {
        self.quakes = quakes
        self.places = places
        self.format = format
        self.scheduler = scheduler
        self.feed = feed
        self.now = now
    }

    public func transform(input: Input) -> Output {
        input.appeared
            .sink { [weak self] in self?.appeared() }
            .store(in: &cancellables)
        input.disappeared
            .sink { [weak self] in self?.timer = nil }
            .store(in: &cancellables)
        input.refreshRequested
            .sink { [weak self] in self?.fetch() }
            .store(in: &cancellables)
        input.cancelRequested
            .sink { [weak self] in self?.stop() }
            .store(in: &cancellables)
        input.magnitudeCycled
            .sink { [weak self] in
                guard let self else { return }
                self.feed = QuakeFeed(magnitude: Self.next(self.feed.magnitude), period: self.feed.period)
                self.switchFeed()
            }
            .store(in: &cancellables)
        input.periodCycled
            .sink { [weak self] in
                guard let self else { return }
                self.feed = QuakeFeed(magnitude: self.feed.magnitude, period: Self.next(self.feed.period))
                self.switchFeed()
            }
            .store(in: &cancellables)
        input.nearToggled
            .sink { [weak self] in
                self?.near.toggle()
                self?.emit()
            }
            .store(in: &cancellables)
        input.sortToggled
            .sink { [weak self] in
                self?.byDistance.toggle()
                self?.emit()
            }
            .store(in: &cancellables)
        input.rowOpened
            .sink { [weak self] index in
                guard let self, self.shown.indices.contains(index) else { return }
                let quake = self.shown[index]
                self.routeSubject.send(.showDetail(quake, self.placed(quake).place))
            }
            .store(in: &cancellables)
        places
            .sink { [weak self] places in
                guard let self else { return }
                self.myPlaces = places
                if self.started { self.emit() }
            }
            .store(in: &cancellables)
        // A change of units in the settings formats the same list again (depths, distances).
        format.weather.display.changes.dropFirst()
            .receive(on: scheduler)
            .sink { [weak self] in
                guard let self, self.started else { return }
                self.emit()
            }
            .store(in: &cancellables)
        return Output(state: stateSubject.removeDuplicates().eraseToAnyPublisher(),
                      route: routeSubject.eraseToAnyPublisher())
    }

    static func next<T: CaseIterable & Equatable>(_ value: T) -> T {
        let all = Array(T.allCases)
        let i = all.firstIndex(of: value) ?? all.startIndex
        return all[(i + 1) % all.count]
    }

    private func appeared() {
        started = true
        stopped = false
        // Shown again within the minute the feed was checked: nothing new can be there yet.
        if let update, error == nil, now().timeIntervalSince(update.checkedAt) < Self.refreshInterval, load == nil {
            emit()
        } else if load == nil {
            fetch()
        }
        timer = scheduler.timerPublisher(every: .seconds(Self.refreshInterval))
            .autoconnect()
            .sink { [weak self] _ in if self?.load == nil, self?.stopped == false { self?.fetch() } }
    }

    /// Stops the request in flight; the events shown (the kept copy) stay.
    private func stop() {
        guard loading else { return }
        load?.cancel()
        load = nil
        loading = false
        stopped = true
        emit()
    }

    private func switchFeed() {
        update = nil
        error = nil
        fetch()
    }

    private func fetch() {
        started = true
        stopped = false
        load?.cancel()
        loading = true
        emit()
        let feed = self.feed
        load = quakes.feed(feed)
            .receive(on: scheduler)
            .sink(receiveCompletion: { [weak self] completion in
                guard let self, self.feed == feed else { return }
                self.loading = false
                self.load = nil
                if case .failure(let error) = completion { self.error = error }
                self.emit()
            }, receiveValue: { [weak self] update in
                guard let self, self.feed == feed else { return }
                self.update = update
                if update.origin != .cache {
                    self.error = nil
                    self.loading = false
                }
                self.emit()
            })
    }

    private func placed(_ quake: Quake) -> (place: QuakePlace?, text: String) {
        if let known = placeCache[quake.id], known.updated == quake.updated { return (known.place, known.text) }
        let found = quakes.place(of: quake)
        let text = format.place(quake, found)
        if placeCache.count > 5_000 { placeCache.removeAll() }
        placeCache[quake.id] = (quake.updated, found, text)
        return (found, text)
    }

    /// Kilometres to the nearest of my places, or nil without places.
    private func nearest(_ quake: Quake) -> Double? {
        myPlaces.map { $0.distance(to: quake.coordinate) }.min()
    }

    private func emit() {
        let l10n = format.l10n
        let all = update?.snapshot.quakes ?? []
        var list = all
        if near { list = list.filter { (nearest($0) ?? .infinity) <= Self.nearRadiusKilometres } }
        if byDistance, !myPlaces.isEmpty {
            list = list.map { ($0, nearest($0) ?? .infinity) }.sorted { $0.1 < $1.1 }.map(\.0)
        }
        shown = list
        let time = now()
        let rows = list.map { quake in
            QuakeRow(id: quake.id, magnitude: QuakeFormatter.magnitude(quake.magnitude),
                     strength: QuakeFormatter.strength(quake.magnitude),
                     time: format.weather.age(time.timeIntervalSince(quake.time)),
                     place: placed(quake).text, depth: format.distance(kilometres: quake.depthKilometres),
                     flagged: quake.tsunami || (quake.alert.map { $0 != .green } ?? false))
        }
        var filter = format.filter(feed)
        let radius = format.distance(kilometres: Self.nearRadiusKilometres)
        if near { filter += " · " + l10n.format(.quakesNearFilter, radius) }
        if byDistance { filter += " · " + l10n[.quakesByDistance] }

        var message: String?
        if rows.isEmpty {
            if stopped, update == nil {
                message = l10n[.quakesStopped] + " " + l10n[.quakesRetry]
            } else if let error, update == nil {
                message = format.message(error) + " " + l10n[.quakesRetry]
            } else if update == nil {
                message = l10n[.quakesLoading]
            } else if near && myPlaces.isEmpty {
                message = l10n[.quakesNoPlaces]
            } else if near {
                message = l10n.format(.quakesEmptyNear, radius)
            } else if !loading {
                message = l10n[.quakesEmpty]
            }
        }
        var summary: [String] = []
        var status: [String] = []
        if let update {
            summary.append(l10n.format(.quakesCount, l10n.number(rows.count)))
            if update.snapshot.dropped > 0 { summary.append(l10n.format(.quakesDropped, l10n.number(update.snapshot.dropped))) }
            let age = format.weather.age(time.timeIntervalSince(update.checkedAt))
            if stopped {
                status.append(l10n.format(.quakesStoppedCached, age))
            } else if let error {
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
        if loading, update != nil { status.append(l10n[.quakesRefreshing]) }
        stateSubject.send(QuakeListState(filter: filter, rows: rows, message: message,
                                         summary: summary.joined(separator: " · "), status: status.joined(separator: " · "),
                                         failed: (error != nil || stopped) && !loading, loading: loading))
    }
}
