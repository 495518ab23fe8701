import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// One liked city, formatted.
public struct LikedRow: Equatable, Sendable {
    public let cityID: Int
    public let name: String
    public let country: String
    /// "28° / 17°", nil until today's range came; the unavailable mark ("n/a") when it will not come.
    public let range: String?
    /// The sky, or why there is no range ("bad response", "offline").
    public let condition: String?
    /// "37.57°N 126.98°E" (what `y` copies beside the name).
    public let coordinates: String
    /// True when this city's range could not be had (`r` asks again).
    public var unavailable = false
    /// `country` where it does not fit, when it gives the city's region: "Illinois, US".
    public var countryShort: String? = nil
    /// The name with the region where no country is shown beside it ("Springfield, Illinois").
    public var qualifiedName: String? = nil
}

/// The map beside the list: every liked city on one view (the closest that holds them all), the
/// selected one marked and labelled, the others marked and named where there is room, and a scale.
/// The view follows the set of cities, not the selection: moving through the list changes the map
/// only where the marks are.
public struct LikedMap: Equatable, Sendable {
    /// The view, with the selected city's cell as its marker.
    public let snapshot: MapSnapshot
    /// The selected city's name, beside its marker.
    public let label: String
    /// The other liked cities inside the map.
    public let markers: [PlacedMapMarker]
    /// How long a stretch of the map is ("├────┤ 50 km"); nil when no round distance fits.
    public let scale: MapScaleBar?
}

/// What the Liked tab shows.
public struct LikedCitiesState: Equatable, Sendable {
    public let rows: [LikedRow]
    /// Shown instead of rows when there are none.
    public let emptyMessage: String?
    /// Trouble: the database was moved aside, a like could not be removed, the ranges failed.
    public let notice: String?
    /// Today's ranges failed: `r` asks again.
    public let canRetry: Bool
    /// The selected row (0 when there are none).
    public var selection: Int = 0
    /// The liked cities' map, when the screen has room for one.
    public var map: LikedMap?
    /// There are cities to move through, open and remove.
    public var hasRows: Bool { !rows.isEmpty }
}

public enum LikedCitiesRoute: Equatable, Sendable {
    case showDetail(City)
}

/// The liked cities with today's high and low, from one batched request per change, and a map of
/// them all with the selected one marked.
public final class LikedCitiesViewModel {
    /// What happens on the tab: the user's doing, and what the screen measured; sent through one stream.
    public enum Event: Equatable, Sendable {
        /// The tab is shown (the first time, and every time after): after a failure, shown again retries.
        case appeared
        /// The row the selection moved to (keys, a click, the wheel), and the row opened.
        case rowSelected(Int), rowOpened(Int)
        /// `d` on a row.
        case removeRequested(Int)
        /// `r`: ask for today's ranges again.
        case refreshRequested
        /// The room the screen has for a map beside the list, as its last frame measured it; nil
        /// when there is none.
        case mapRoomChanged(MapSize?)
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) {
            self.events = events
        }
    }

    public struct Output {
        public let state: AnyPublisher<LikedCitiesState, Never>
        public let route: AnyPublisher<LikedCitiesRoute, Never>
    }

    /// Which map: the view that holds every liked city at the room's size.
    public struct MapWant: Equatable, Sendable {
        let request: MapRequest
    }

    /// A map drawn for a want (nil: there is no map data).
    public struct Thumbnail: Equatable, Sendable {
        let want: MapWant
        let snapshot: MapSnapshot?
    }

    /// Everything the tab's screen depends on.
    public struct State: Equatable {
        /// The tab has been shown (the store is followed from then on).
        var started = false
        /// The store has answered: before, there is nothing to show.
        var loaded = false
        /// The store's latest contents: rows are always derived from these.
        var cities: [City] = []
        /// The selected city's id (nil: the first row).
        var selected: Int?
        var ranges: [Coordinate: DayRange] = [:]
        /// Why the last answer had nothing usable for a city.
        var rangeProblems: [Coordinate: WeatherError] = [:]
        var rangeError: WeatherError?
        /// The last removal could not be saved (until the next action).
        var removeFailed = false
        /// The map room the screen measured.
        var mapRoom: MapSize?
        /// The map last asked for, and the one drawn.
        var mapWanted: MapWant?
        var thumbnail: Thumbnail?
        /// The settings' units (the ranges and the scale are formatted in them).
        var display = DisplayUnits.Value(system: .metric)
        /// The language it speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
    }

    public enum Action {
        case appeared, refresh
        case contents([City])
        case selected(Int), opened(Int), remove(Int)
        case ranges(PlaceAnswers<DayRange>), rangesFailed(WeatherError)
        case removeFailed
        case mapRoom(MapSize?), mapDrawn(Thumbnail)
        case display(DisplayUnits.Value)
    }

    public enum Effect: Equatable {
        /// Follow the likes store's contents from now on.
        case observe
        /// Ask for these places' ranges in one batch, replacing the request in flight (none: just stop it).
        case fetchRanges([Coordinate])
        case remove(cityID: Int)
        case open(City)
        case drawMap(MapWant)
    }

    private let liked: GetLikedCitiesUseCase
    private let like: LikeCityUseCase
    private let ranges: GetTodayRangesUseCase
    /// The zones, and the first state's language and units: a state is formatted in its own.
    let formatter: WeatherFormatter
    /// The settings' units as they change (nil: the formatter's, fixed).
    private let display: DisplayUnits?
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// How the user database opened: a file that was unreadable and moved aside, or data not saved,
    /// is told under the list.
    let dataStatus: UserDataStatus
    /// City maps, for the liked cities' map; nil shows none.
    private let map: ShowCityMapUseCase?

    public init(liked: GetLikedCitiesUseCase, like: LikeCityUseCase, ranges: GetTodayRangesUseCase,
                format: WeatherFormatter, display: DisplayUnits? = nil, scheduler: AnySchedulerOf<DispatchQueue>,
                dataStatus: UserDataStatus = .saved, map: ShowCityMapUseCase? = nil) {
        self.map = map
        self.liked = liked
        self.like = like
        self.ranges = ranges
        self.formatter = format
        self.display = display
        self.scheduler = scheduler
        self.dataStatus = dataStatus
    }

    /// The action an event is.
    static func action(_ event: Event) -> Action {
        switch event {
        case .appeared: .appeared
        case .rowSelected(let row): .selected(row)
        case .rowOpened(let row): .opened(row)
        case .removeRequested(let row): .remove(row)
        case .refreshRequested: .refresh
        case .mapRoomChanged(let room): .mapRoom(room)
        }
    }

    public func transform(input: Input) -> Output {
        var actions: [AnyPublisher<Action, Never>] = [input.events.map(Self.action).eraseToAnyPublisher()]
        if let display {
            // The settings' units, now and after each change: the same ranges are formatted again.
            actions.append(display.changes.map { Action.display(display.value) }.eraseToAnyPublisher())
        }
        let loop = EffectRunner.run(
            initial: State(display: formatter.display, l10n: formatter.l10n), actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
            scheduler: scheduler, reduce: Self.reduce, perform: perform)
        return Output(state: present(loop.state), route: loop.route)
    }

    // MARK: Reduce

    /// How the tab's state follows from each action: pure, no I/O.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .appeared:
            // The rows follow the store from the first appearance on; a return after a failure asks again.
            guard state.started else {
                state.started = true
                return [.observe]
            }
            return canRetry(state) ? [.fetchRanges(state.cities.map(\.coordinate))] : []
        case .refresh:
            state.removeFailed = false
            return [.fetchRanges(state.cities.map(\.coordinate))]
        case .contents(let cities):
            // A removed city's row goes; the selection stays on the row that takes its place.
            if let selected = state.selected, !cities.contains(where: { $0.id == selected }),
               let index = state.cities.firstIndex(where: { $0.id == selected }) {
                state.selected = cities.isEmpty ? nil : cities[min(index, cities.count - 1)].id
            }
            state.cities = cities
            state.loaded = true
            // Every change asks for every liked city's range, in one request.
            return [.fetchRanges(cities.map(\.coordinate))] + mapEffects(&state)
        case .selected(let index):
            state.removeFailed = false
            guard state.cities.indices.contains(index) else { return [] }
            // The map's view holds every city: a move changes only its marks (drawn from the state).
            state.selected = state.cities[index].id
            return []
        case .opened(let index):
            state.removeFailed = false
            guard state.cities.indices.contains(index) else { return [] }
            state.selected = state.cities[index].id
            return [.open(state.cities[index])]
        case .remove(let index):
            state.removeFailed = false
            guard state.cities.indices.contains(index) else { return [] }
            // The row goes when the store publishes what it saved.
            return [.remove(cityID: state.cities[index].id)]
        case .ranges(let answers):
            // Every load asks for every liked city: what failed before is this answer's to say.
            state.rangeProblems = [:]
            for (place, answer) in answers {
                switch answer {
                case .success(let range):
                    state.ranges[place] = range
                case .failure(let error):
                    state.ranges[place] = nil
                    state.rangeProblems[place] = error
                }
            }
            state.rangeError = nil
            return []
        case .rangesFailed(let error):
            state.rangeError = error
            return []
        case .removeFailed:
            state.removeFailed = true
            return []
        case .mapRoom(let room):
            state.mapRoom = room
            return mapEffects(&state)
        case .mapDrawn(let thumbnail):
            guard thumbnail.want == state.mapWanted else { return [] }
            state.thumbnail = thumbnail
            return []
        case .display(let display):
            state.display = display
            return []
        }
    }

    /// Today's ranges failed, for a city or all: `r` (or showing the tab again) asks again.
    static func canRetry(_ state: State) -> Bool {
        state.rangeError != nil || !state.rangeProblems.isEmpty
    }

    /// The selected row's index in the list (0 when there are none, or the selected city went).
    static func selection(_ state: State) -> Int {
        state.selected.flatMap { id in state.cities.firstIndex { $0.id == id } } ?? 0
    }

    /// The map wanted now (the view of every liked city in the room), asked for when it is not the
    /// one asked for last.
    private static func mapEffects(_ state: inout State) -> [Effect] {
        let want = state.mapRoom.flatMap { room in MapOverview.request(for: state.cities, size: room) }.map(MapWant.init)
        guard want != state.mapWanted else { return [] }
        state.mapWanted = want
        if state.thumbnail?.want != want { state.thumbnail = nil }
        return want.map { [.drawMap($0)] } ?? []
    }

    // MARK: Effects

    private enum Job: Hashable { case store, ranges, map }

    private func perform(_ effect: Effect) -> Work<Action, LikedCitiesRoute> {
        switch effect {
        case .observe:
            return .run(liked.contents.map(Action.contents).eraseToAnyPublisher(), id: Job.store, immediate: true)
        case .fetchRanges(let places):
            guard !places.isEmpty else { return .cancel(Job.ranges) }
            let answers = ranges.execute(for: places)
                .map(Action.ranges)
                .catch { Just(Action.rangesFailed($0)) }
                .eraseToAnyPublisher()
            return .run(answers, id: Job.ranges)
        case .remove(let id):
            let like = self.like
            return .answer {
                if case .failure = like.unlike(id) { return .removeFailed }
                return nil
            }
        case .open(let city):
            return .route(.showDetail(city))
        case .drawMap(let want):
            // From the cache, or drawn on the spot (a few milliseconds): drawn when the cities or the
            // room change, never for a move of the selection.
            let map = self.map
            return .answer(id: Job.map) {
                .mapDrawn(Thumbnail(want: want, snapshot: try? map?.snapshot(want.request)))
            }
        }
    }
}
