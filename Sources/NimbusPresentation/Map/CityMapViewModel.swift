import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// A step of panning: a quarter of the view.
public enum MapPan: Equatable, Sendable {
    case left, right, up, down
}

/// A zoom about a point of the view (the mouse wheel at the pointer): `delta` +1 in, −1 out; the
/// point is given in quarters of the view from its centre (as pans are), and stays where it was, as
/// closely as quarter steps allow.
public struct MapZoomAt: Equatable, Sendable {
    public let delta: Int
    public let x: Int
    public let y: Int
    public init(delta: Int, x: Int, y: Int) {
        self.delta = delta
        self.x = x
        self.y = y
    }
}

/// What the map panel shows.
public struct CityMapState: Equatable, Sendable {
    /// The city's name, for the marker's label.
    public let cityName: String
    /// The latest map; while a new one is drawn, the previous one (nil before the first).
    public let snapshot: MapSnapshot?
    /// True while the map for the current view is being drawn.
    public let isLoading: Bool
    /// A notice instead of (or over) the map: drawing, or why there is no map.
    public let message: String?
    /// "zoom 5/12 · braille".
    public let status: String
    public let scaleBar: MapScaleBar?
    public let zoom: MapZoom
    public let style: MapStyle
    /// Markers other than the city's inside the view, in the order they are given room for labels.
    public var markers: [PlacedMapMarker] = []
    /// Whether nearby recent earthquakes are shown; nil when this map cannot show them.
    public var quakesShown: Bool?
    /// This map can show recent earthquakes (`e` is bound).
    public var canShowQuakes: Bool { quakesShown != nil }
    /// Catalogue cities in the snapshot's view (found off the main queue), marked after the others.
    public var towns: [MapMarker] = []
}

/// A city's map: zoom, pan and style change the view; maps come from the cache at once or are drawn
/// off the main queue, and a drawing for a view that was left is cancelled.
public final class CityMapViewModel {
    /// What happens on the panel, sent through one stream: the user's keys and pointer, and what the
    /// panel measured while drawing (its size, the settings' map style).
    public enum Event: Equatable, Sendable {
        /// The panel's map area changed size (also its first layout).
        case sizeChanged(MapSize)
        /// +1 zooms in, −1 out.
        case zoomed(Int)
        case panned(MapPan)
        /// Back to the city at the starting zoom.
        case resetRequested
        case styleToggled
        /// The screen showing the map went away.
        case dismissed
        /// Nearby recent earthquakes on or off (when the map can show them).
        case quakesToggled
        /// Zooms about a point of the view (the wheel).
        case zoomedAt(MapZoomAt)
        /// The app's map style as the settings chose it, when it changed there.
        case styleChosen(MapStyle)
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) { self.events = events }
    }

    public struct Output {
        public let state: AnyPublisher<CityMapState, Never>
    }

    /// Everything the map panel depends on.
    public struct State: Equatable {
        let city: City
        /// The language the panel speaks and the units of its scale (the view model's).
        let l10n: L10n
        let units: UnitSystem
        let initialZoom: MapZoom
        var size: MapSize?
        var zoom: MapZoom
        var offset = MapOffset.zero
        var style: MapStyle
        /// The view asked for last: nil before the first layout.
        var request: MapRequest?
        /// The view changed and whether its map is cached is not known yet (the next action says):
        /// nothing is shown for this moment.
        var asking = false
        /// The map shown: the request's, or while that is drawn the last one drawn.
        var snapshot: MapSnapshot?
        /// The request's map is being drawn.
        var loading = false
        /// Why the request's map could not be drawn.
        var failure: MapError?
        /// The towns found on the shown map (none while another is drawn).
        var towns: [MapMarker] = []
        /// Towns found on the maps shown lately (a few, the oldest forgotten first): a map from the
        /// cache gets its towns again without looking.
        var knownTowns = KnownTowns()
        var places: [MapMarker] = []
        /// The recent earthquakes while shown (nil while hidden).
        var quakes: [MapMarker]?
        /// Whether this map can show earthquakes.
        let canShowQuakes: Bool

        init(city: City, l10n: L10n = .bundled(.en), units: UnitSystem = .metric, zoom: MapZoom, style: MapStyle,
             canShowQuakes: Bool) {
            self.city = city
            self.l10n = l10n
            self.units = units
            initialZoom = zoom
            self.zoom = zoom
            self.style = style
            self.canShowQuakes = canShowQuakes
        }
    }

    /// The towns of a map as a language marks them (in Korean and Japanese, only towns it names).
    public struct TownsKey: Hashable, Sendable {
        let map: MapSnapshotKey
        let language: Language
    }

    /// Towns by map and language, the latest 32.
    struct KnownTowns: Equatable {
        private(set) var towns: [TownsKey: [MapMarker]] = [:]
        private var order: [TownsKey] = []

        subscript(key: TownsKey) -> [MapMarker]? { towns[key] }

        mutating func remember(_ found: [MapMarker], for key: TownsKey) {
            if towns.updateValue(found, forKey: key) == nil { order.append(key) }
            if order.count > 32 { towns[order.removeFirst()] = nil }
        }
    }

    public enum Action {
        case sized(MapSize), zoomed(Int), zoomedAt(MapZoomAt), panned(MapPan), reset, styleToggled, styleChosen(MapStyle)
        case places([MapMarker]), quakesToggled, quakes([MapMarker])
        /// The request's map was in the cache.
        case cached(MapRequest, MapSnapshot)
        /// It was not: it is being drawn.
        case missed(MapRequest)
        /// Drawn, with the towns on it in a language (nil: the map marks none).
        case drawn(MapRequest, MapSnapshot, towns: [MapMarker]?, Language)
        case townsFound(TownsKey, [MapMarker])
        case failed(MapRequest, MapError)
    }

    public enum Effect: Equatable {
        /// Show the request's map: from the cache at once, or drawn off the main queue (replacing the
        /// drawing in flight), with the towns `language` marks. `townsKnown`: the towns of its map
        /// were found before.
        case show(MapRequest, townsKnown: Bool, language: Language)
        /// The style the user chose with `c`, for the next map the app opens.
        case keepStyle(MapStyle)
        case showQuakes
        case hideQuakes
    }

    private let city: City
    private let showMap: ShowCityMapUseCase
    /// The language and units of the first state.
    private let firstLanguage: L10n
    private let firstUnits: UnitSystem
    private let initialZoom: MapZoom
    private let initialStyle: MapStyle
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let renderScheduler: AnySchedulerOf<DispatchQueue>
    private let places: AnyPublisher<[MapMarker], Never>
    private let nearbyQuakes: (() -> AnyPublisher<[MapMarker], Never>)?
    private let towns: MapTownFinder?
    private let styleChanged: (MapStyle) -> Void

    /// `scheduler` delivers state (the main queue); `renderScheduler` draws maps (a background queue).
    /// `places` are marked on every map (as they change); `nearbyQuakes`, when given, are recent
    /// earthquakes the user can show and hide (`quakesToggled`), asked for each time they are shown.
    /// `styleChanged` hears each switch between braille and blocks made with `c` (the app keeps it).
    public init(city: City, showMap: ShowCityMapUseCase, l10n: L10n, units: UnitSystem,
                initialZoom: MapZoom = .country, initialStyle: MapStyle = .braille,
                scheduler: AnySchedulerOf<DispatchQueue>, renderScheduler: AnySchedulerOf<DispatchQueue>,
                places: AnyPublisher<[MapMarker], Never> = Just([]).eraseToAnyPublisher(),
                nearbyQuakes: (() -> AnyPublisher<[MapMarker], Never>)? = nil, towns: MapTownFinder? = nil,
                styleChanged: @escaping (MapStyle) -> Void = { _ in }) {
        self.towns = towns
        self.city = city
        self.showMap = showMap
        self.firstLanguage = l10n
        self.firstUnits = units
        self.initialZoom = initialZoom
        self.initialStyle = initialStyle
        self.scheduler = scheduler
        self.renderScheduler = renderScheduler
        self.places = places
        self.nearbyQuakes = nearbyQuakes
        self.styleChanged = styleChanged
    }

    public func transform(input: Input) -> Output {
        let actions: [AnyPublisher<Action, Never>] = [
            input.events.compactMap(Self.action).eraseToAnyPublisher(),
            places.receive(on: scheduler).map(Action.places).eraseToAnyPublisher(),
        ]
        let loop = EffectRunner.run(
            initial: State(city: city, l10n: firstLanguage, units: firstUnits, zoom: initialZoom, style: initialStyle,
                           canShowQuakes: nearbyQuakes != nil),
            actions: Publishers.Sequence(sequence: actions).flatMap { $0 }.eraseToAnyPublisher(),
            scheduler: scheduler, reduce: Self.reduce, perform: perform)
        let state = loop.state
            .compactMap { [self] in present($0) }
            // Markers that came before the first map (or did not change) make no new state.
            .removeDuplicates()
            // Leaving ends the output, and with it every drawing in flight.
            .prefix(untilOutputFrom: input.events.filter { $0 == .dismissed })
            .eraseToAnyPublisher()
        return Output(state: state)
    }

    /// The action an event is; nil for `.dismissed`, which ends the output instead.
    static func action(_ event: Event) -> Action? {
        switch event {
        case .sizeChanged(let size): .sized(size)
        case .zoomed(let delta): .zoomed(delta)
        case .panned(let pan): .panned(pan)
        case .resetRequested: .reset
        case .styleToggled: .styleToggled
        case .dismissed: nil
        case .quakesToggled: .quakesToggled
        case .zoomedAt(let at): .zoomedAt(at)
        case .styleChosen(let style): .styleChosen(style)
        }
    }

    // MARK: Reduce

    /// Half, rounded towards zero (as the keys' zoom-out does).
    private static func halved(_ n: Int) -> Int { n / 2 }

    /// How the map's state follows from each action: pure, no cache, no drawing.
    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .sized(let size):
            state.size = size
            return view(&state)
        case .zoomed(let delta):
            let zoom = MapZoom(state.zoom.level + delta)
            // Zooming keeps the same place in the centre: the pan is in quarters of the view.
            if zoom != state.zoom {
                let factor = zoom > state.zoom ? 2 : 1
                let divisor = zoom > state.zoom ? 1 : 2
                state.offset = MapOffset(x: state.offset.x * factor / divisor, y: state.offset.y * factor / divisor)
            }
            state.zoom = zoom
            return view(&state)
        case .zoomedAt(let at):
            let zoom = MapZoom(state.zoom.level + at.delta)
            guard zoom != state.zoom else { return [] }
            // The point under the pointer stays put: zooming in, the centre moves half-way to it (in
            // the new zoom's quarters: twice the offset, plus the point); zooming out, it moves as far
            // again away from it (half of offset minus the point).
            if zoom > state.zoom {
                state.offset = MapOffset(x: state.offset.x * 2 + at.x, y: state.offset.y * 2 + at.y)
            } else {
                state.offset = MapOffset(x: halved(state.offset.x - at.x), y: halved(state.offset.y - at.y))
            }
            state.zoom = zoom
            return view(&state)
        case .panned(let pan):
            let o = state.offset
            switch pan {
            case .left: state.offset = MapOffset(x: o.x - 1, y: o.y)
            case .right: state.offset = MapOffset(x: o.x + 1, y: o.y)
            case .up: state.offset = MapOffset(x: o.x, y: o.y - 1)
            case .down: state.offset = MapOffset(x: o.x, y: o.y + 1)
            }
            return view(&state)
        case .reset:
            state.zoom = state.initialZoom
            state.offset = .zero
            return view(&state)
        case .styleToggled:
            state.style = state.style.toggled
            return view(&state) + [.keepStyle(state.style)]
        case .styleChosen(let style):
            guard style != state.style else { return [] }
            state.style = style
            return view(&state)
        case .places(let places):
            state.places = places
            return []
        case .quakesToggled:
            guard state.canShowQuakes else { return [] }
            if state.quakes == nil {
                state.quakes = []
                return [.showQuakes]
            }
            state.quakes = nil
            return [.hideQuakes]
        case .quakes(let quakes):
            if state.quakes != nil { state.quakes = quakes }
            return []
        case .cached(let request, let snapshot):
            guard request == state.request else { return [] }
            state.asking = false
            state.loading = false
            state.failure = nil
            state.snapshot = snapshot
            state.towns = state.knownTowns[TownsKey(map: snapshot.key, language: state.l10n.language)] ?? []
            return []
        case .missed(let request):
            guard request == state.request else { return [] }
            state.asking = false
            state.loading = true
            state.failure = nil
            // The last map stays while the next is drawn, without its towns.
            state.towns = []
            return []
        case .drawn(let request, let snapshot, let towns, let language):
            guard request == state.request else { return [] }
            state.loading = false
            state.snapshot = snapshot
            if let towns { state.knownTowns.remember(towns, for: TownsKey(map: snapshot.key, language: language)) }
            state.towns = language == state.l10n.language ? towns ?? [] : []
            return []
        case .townsFound(let key, let towns):
            state.knownTowns.remember(towns, for: key)
            if state.snapshot?.key == key.map, key.language == state.l10n.language, !state.loading { state.towns = towns }
            return []
        case .failed(let request, let error):
            guard request == state.request else { return [] }
            state.loading = false
            state.failure = error
            state.towns = []
            return []
        }
    }

    /// The view as it is now: a new request when it changed (and has room), else nothing.
    private static func view(_ state: inout State) -> [Effect] {
        guard let size = state.size, size.cells > 0 else { return [] }
        let request = MapRequest(city: state.city, zoom: state.zoom, size: size, style: state.style, offset: state.offset)
        guard request != state.request else { return [] }
        state.request = request
        state.asking = true
        let language = state.l10n.language
        return [.show(request, townsKnown: state.knownTowns[TownsKey(map: request.key, language: language)] != nil, language: language)]
    }

    // MARK: Effects

    private enum Job: Hashable { case draw, quakes }

    private func perform(_ effect: Effect) -> Work<Action, Never> {
        switch effect {
        case .show(let request, let townsKnown, let language):
            if let hit = showMap.cached(request) {
                let shown = Work<Action, Never>.answer { .cached(request, hit) }
                // The towns of a map from the cache are found off the main queue, then shown; not at
                // all when the view was left before the queue came to them.
                guard let towns, hit.key.zoom >= MapTownFinder.minimumZoom, !townsKnown else { return .all([.cancel(Job.draw), shown]) }
                let flag = CancellationFlag()
                let found = Deferred { (flag.isCancelled ? [] : [towns.towns(on: hit, language: language)]).publisher }
                    .subscribe(on: renderScheduler)
                    .receive(on: scheduler)
                    .map { Optional(Action.townsFound(TownsKey(map: hit.key, language: language), $0)) }
                    .hearingCancelAtOnce(flag)
                return .all([shown, .run(found, id: Job.draw, immediate: true)])
            }
            return .all([.answer { .missed(request) },
                         .run(draw(request, language: language), id: Job.draw, immediate: true)])
        case .keepStyle(let style):
            let keep = styleChanged
            return .answer {
                keep(style)
                return nil
            }
        case .showQuakes:
            guard let nearbyQuakes else { return .none }
            return .run(nearbyQuakes().map(Action.quakes).eraseToAnyPublisher(), id: Job.quakes)
        case .hideQuakes:
            return .cancel(Job.quakes)
        }
    }

    /// The request's map drawn on the render queue, with the towns on it that `language` marks.
    private func draw(_ request: MapRequest, language: Language) -> AnyPublisher<Action, Never> {
        let showMap = self.showMap
        let towns = self.towns
        let flag = CancellationFlag()
        return Deferred {
            Future<Action?, Never> { promise in
                do throws(MapError) {
                    // A view left before the render queue came to it is not drawn at all.
                    guard !flag.isCancelled, let snapshot = try showMap.render(request, cancel: flag) else { return promise(.success(nil)) }
                    // The towns in view are found here too, off the main queue.
                    let found = towns.map { flag.isCancelled ? [] : $0.towns(on: snapshot, language: language) }
                    promise(.success(.drawn(request, snapshot, towns: found, language)))
                } catch {
                    promise(.success(.failed(request, error)))
                }
            }
        }
        .subscribe(on: renderScheduler)
        .receive(on: scheduler)
        .hearingCancelAtOnce(flag)
    }
}

private extension Publisher where Failure == Never {
    /// The answers, with a cancel heard at once: it sets `flag`, which the work on the render queue
    /// reads before it starts. `subscribe(on:)` hands on no subscription until the render queue has
    /// subscribed, which is when the render runs, so a cancel sent before then reached nothing (each
    /// view panned past then drew its whole map later, one after another, holding its subscription
    /// until then: ~4 KB a view, and a queue of renders minutes long). A first `nil` gives the
    /// subscriber a subscription to cancel at once. (Put below `receive(on:)`, so a screen that left
    /// before a finished render's answer was delivered still cancels it; the work runs `immediate`.)
    func hearingCancelAtOnce<Action>(_ flag: CancellationFlag) -> AnyPublisher<Action, Never> where Output == Action? {
        prepend(nil)
            .handleEvents(receiveCancel: { flag.cancel() })
            .compactMap { $0 }
            .eraseToAnyPublisher()
    }
}
