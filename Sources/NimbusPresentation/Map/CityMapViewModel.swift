import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers

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
    /// Catalogue cities in the snapshot's view (found off the main queue), marked after the others.
    public var towns: [MapMarker] = []
}

/// A city's map: zoom, pan and style change the view; maps come from the cache at once or are drawn
/// off the main queue, and a drawing for a view that was left is cancelled.
public final class CityMapViewModel {
    public struct Input {
        /// The panel's map area changed size (also its first layout).
        public let sizeChanged: AnyPublisher<MapSize, Never>
        /// +1 zooms in, −1 out.
        public let zoomed: AnyPublisher<Int, Never>
        public let panned: AnyPublisher<MapPan, Never>
        /// Back to the city at the starting zoom.
        public let resetRequested: AnyPublisher<Void, Never>
        public let styleToggled: AnyPublisher<Void, Never>
        /// The screen showing the map went away.
        public let dismissed: AnyPublisher<Void, Never>
        /// Nearby recent earthquakes on or off (when the map can show them).
        public let quakesToggled: AnyPublisher<Void, Never>
        /// Zooms about a point of the view (the wheel).
        public let zoomedAt: AnyPublisher<MapZoomAt, Never>

        public init(sizeChanged: AnyPublisher<MapSize, Never>, zoomed: AnyPublisher<Int, Never>,
                    panned: AnyPublisher<MapPan, Never>, resetRequested: AnyPublisher<Void, Never>,
                    styleToggled: AnyPublisher<Void, Never>, dismissed: AnyPublisher<Void, Never>,
                    quakesToggled: AnyPublisher<Void, Never> = Empty().eraseToAnyPublisher(),
                    zoomedAt: AnyPublisher<MapZoomAt, Never> = Empty().eraseToAnyPublisher()) {
            self.zoomedAt = zoomedAt
            self.sizeChanged = sizeChanged
            self.zoomed = zoomed
            self.panned = panned
            self.resetRequested = resetRequested
            self.styleToggled = styleToggled
            self.dismissed = dismissed
            self.quakesToggled = quakesToggled
        }
    }

    public struct Output {
        public let state: AnyPublisher<CityMapState, Never>
    }

    private struct View: Equatable {
        var size: MapSize?
        var zoom: MapZoom
        var offset: MapOffset
        var style: MapStyle
    }

    private enum Action {
        case size(MapSize), zoom(Int), zoomAt(MapZoomAt), pan(MapPan), reset, toggleStyle
    }

    private let city: City
    private let showMap: ShowCityMapUseCase
    private let l10n: L10n
    private let units: UnitSystem
    private let initialZoom: MapZoom
    private let initialStyle: MapStyle
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let renderScheduler: AnySchedulerOf<DispatchQueue>
    private let places: AnyPublisher<[MapMarker], Never>
    private let nearbyQuakes: (() -> AnyPublisher<[MapMarker], Never>)?
    private let towns: MapTownFinder?

    /// `scheduler` delivers state (the main queue); `renderScheduler` draws maps (a background queue).
    /// `places` are marked on every map (as they change); `nearbyQuakes`, when given, are recent
    /// earthquakes the user can show and hide (`quakesToggled`), asked for each time they are shown.
    public init(city: City, showMap: ShowCityMapUseCase, l10n: L10n, units: UnitSystem,
                initialZoom: MapZoom = .country, initialStyle: MapStyle = .braille,
                scheduler: AnySchedulerOf<DispatchQueue>, renderScheduler: AnySchedulerOf<DispatchQueue>,
                places: AnyPublisher<[MapMarker], Never> = Just([]).eraseToAnyPublisher(),
                nearbyQuakes: (() -> AnyPublisher<[MapMarker], Never>)? = nil, towns: MapTownFinder? = nil) {
        self.towns = towns
        self.city = city
        self.showMap = showMap
        self.l10n = l10n
        self.units = units
        self.initialZoom = initialZoom
        self.initialStyle = initialStyle
        self.scheduler = scheduler
        self.renderScheduler = renderScheduler
        self.places = places
        self.nearbyQuakes = nearbyQuakes
    }

    /// Half, rounded towards zero (as the keys' zoom-out does).
    private static func halved(_ n: Int) -> Int { n / 2 }

    public func transform(input: Input) -> Output {
        let initial = View(size: nil, zoom: initialZoom, offset: .zero, style: initialStyle)
        // Merged with flatMap: OpenCombine has no Merge.
        let actions = [
            input.sizeChanged.map { Action.size($0) }.eraseToAnyPublisher(),
            input.zoomed.map { Action.zoom($0) }.eraseToAnyPublisher(),
            input.zoomedAt.map { Action.zoomAt($0) }.eraseToAnyPublisher(),
            input.panned.map { Action.pan($0) }.eraseToAnyPublisher(),
            input.resetRequested.map { Action.reset }.eraseToAnyPublisher(),
            input.styleToggled.map { Action.toggleStyle }.eraseToAnyPublisher(),
        ].publisher.flatMap { $0 }

        let initialZoom = self.initialZoom
        let views = actions
            .scan(initial) { view, action in
                var view = view
                switch action {
                case .size(let size): view.size = size
                case .zoom(let delta):
                    let zoom = MapZoom(view.zoom.level + delta)
                    // Zooming keeps the same place in the centre: the pan is in quarters of the view.
                    if zoom != view.zoom {
                        let factor = zoom > view.zoom ? 2 : 1
                        let divisor = zoom > view.zoom ? 1 : 2
                        view.offset = MapOffset(x: view.offset.x * factor / divisor, y: view.offset.y * factor / divisor)
                    }
                    view.zoom = zoom
                case .zoomAt(let at):
                    let zoom = MapZoom(view.zoom.level + at.delta)
                    guard zoom != view.zoom else { break }
                    // The point under the pointer stays put: zooming in, the centre moves half-way
                    // to it (in the new zoom's quarters: twice the offset, plus the point); zooming
                    // out, it moves as far again away from it (half of offset minus the point).
                    if zoom > view.zoom {
                        view.offset = MapOffset(x: view.offset.x * 2 + at.x, y: view.offset.y * 2 + at.y)
                    } else {
                        view.offset = MapOffset(x: Self.halved(view.offset.x - at.x), y: Self.halved(view.offset.y - at.y))
                    }
                    view.zoom = zoom
                case .pan(let pan):
                    switch pan {
                    case .left: view.offset = MapOffset(x: view.offset.x - 1, y: view.offset.y)
                    case .right: view.offset = MapOffset(x: view.offset.x + 1, y: view.offset.y)
                    case .up: view.offset = MapOffset(x: view.offset.x, y: view.offset.y - 1)
                    case .down: view.offset = MapOffset(x: view.offset.x, y: view.offset.y + 1)
                    }
                case .reset:
                    view.zoom = initialZoom
                    view.offset = .zero
                case .toggleStyle: view.style = view.style.toggled
                }
                return view
            }
            .compactMap { view -> MapRequest? in
                guard let size = view.size, size.cells > 0 else { return nil }
                return MapRequest(city: self.city, zoom: view.zoom, size: size, style: view.style, offset: view.offset)
            }
            .removeDuplicates()

        let last = LastSnapshot()
        let showMap = self.showMap
        let scheduler = self.scheduler
        let renderScheduler = self.renderScheduler
        let towns = self.towns
        let state = views
            .map { [self] request -> AnyPublisher<CityMapState, Never> in
                if let hit = showMap.cached(request) {
                    last.snapshot = hit
                    var shown = self.state(request, snapshot: hit, loading: false, message: nil)
                    guard let towns, hit.key.zoom >= MapTownFinder.minimumZoom else { return Just(shown).eraseToAnyPublisher() }
                    if let known = last.towns[hit.key] {
                        shown.towns = known
                        return Just(shown).eraseToAnyPublisher()
                    }
                    // The towns of a map from the cache are found off the main queue, then shown;
                    // not at all when the view was left before the queue came to them.
                    let flag = CancellationFlag()
                    let found = Deferred { (flag.isCancelled ? [] : [towns.towns(on: hit)]).publisher }
                        .subscribe(on: renderScheduler)
                        .receive(on: scheduler)
                        .map { found -> CityMapState in
                            last.remember(found, for: hit.key)
                            var withTowns = shown
                            withTowns.towns = found
                            return withTowns
                        }
                    return found.prepend(shown)
                        .handleEvents(receiveCancel: { flag.cancel() })
                        .eraseToAnyPublisher()
                }
                let loading = self.state(request, snapshot: last.snapshot, loading: true, message: self.l10n[.mapLoading])
                let flag = CancellationFlag()
                let render = Deferred {
                    Future<Result<(MapSnapshot, [MapMarker])?, MapError>, Never> { promise in
                        promise(.success(Result { () throws(MapError) -> (MapSnapshot, [MapMarker])? in
                            // A view left before the render queue came to it is not drawn at all.
                            guard !flag.isCancelled, let snapshot = try showMap.render(request, cancel: flag) else { return nil }
                            // The towns in view are found here too, off the main queue.
                            return (snapshot, flag.isCancelled ? [] : towns?.towns(on: snapshot) ?? [])
                        }))
                    }
                }
                .subscribe(on: renderScheduler)
                .receive(on: scheduler)
                .compactMap { [self] result -> CityMapState? in
                    switch result {
                    case .success(nil): return nil
                    case .success(let (snapshot, found)?):
                        last.snapshot = snapshot
                        if towns != nil { last.remember(found, for: snapshot.key) }
                        var shown = self.state(request, snapshot: snapshot, loading: false, message: nil)
                        shown.towns = found
                        return shown
                    case .failure(let error):
                        return self.state(request, snapshot: nil, loading: false, message: self.message(error))
                    }
                }
                // The cancel is heard here, above `subscribe(on:)`: below it, nothing hears a cancel
                // until the render queue has subscribed, which is when the render runs (each view
                // panned past then drew its whole map later, one after another, holding its
                // subscription until then: ~4 KB a view, and a queue of renders minutes long).
                return render.prepend(loading)
                    .handleEvents(receiveCancel: { flag.cancel() })
                    .eraseToAnyPublisher()
            }
            .switchToLatest()

        // The markers go over whichever map is shown; a new map or new markers make a new state.
        let quakes: AnyPublisher<[MapMarker]?, Never>
        if let nearbyQuakes {
            quakes = input.quakesToggled
                .scan(false) { shown, _ in !shown }
                .map { shown -> AnyPublisher<[MapMarker]?, Never> in
                    shown ? nearbyQuakes().map { Optional($0) }.prepend([]).eraseToAnyPublisher()
                        : Just(nil).eraseToAnyPublisher()
                }
                .switchToLatest()
                .receive(on: scheduler)
                .eraseToAnyPublisher()
        } else {
            quakes = Empty().eraseToAnyPublisher()
        }
        let canShowQuakes = nearbyQuakes != nil
        let combined = [
            state.map { Part.map($0) }.eraseToAnyPublisher(),
            places.receive(on: scheduler).map { Part.places($0) }.eraseToAnyPublisher(),
            quakes.map { Part.quakes($0) }.eraseToAnyPublisher(),
        ].publisher.flatMap { $0 }
            .scan(Layers()) { layers, part in
                var layers = layers
                switch part {
                case .map(let state): layers.map = state
                case .places(let places): layers.places = places
                case .quakes(let quakes): layers.quakes = quakes
                }
                return layers
            }
            .compactMap { [self] layers -> CityMapState? in
                guard var state = layers.map else { return nil }
                if let snapshot = state.snapshot {
                    state.markers = MapMarkerPlacement.place(layers.places + (layers.quakes ?? []) + state.towns, on: snapshot)
                }
                if canShowQuakes {
                    state.quakesShown = layers.quakes != nil
                    if layers.quakes != nil {
                        let count = state.markers.filter { $0.kind == .quake }.count
                        state = state.with(status: state.status + " · " + l10n.format(.mapQuakesShown, l10n.number(count)))
                    }
                }
                return state
            }
            // Markers that came before the first map (or did not change) make no new state.
            .removeDuplicates()
            .prefix(untilOutputFrom: input.dismissed)
            .eraseToAnyPublisher()
        return Output(state: combined)
    }

    private enum Part {
        case map(CityMapState), places([MapMarker]), quakes([MapMarker]?)
    }

    /// The latest map state and markers.
    private struct Layers {
        var map: CityMapState?
        var places: [MapMarker] = []
        /// Nil while hidden.
        var quakes: [MapMarker]?
    }

    private func state(_ request: MapRequest, snapshot: MapSnapshot?, loading: Bool, message: String?) -> CityMapState {
        let key = request.key
        let styleName = l10n[key.style == .braille ? .mapStyleBraille : .mapStyleBlocks]
        let status = l10n.format(.mapStatus, String(key.zoom.level), String(MapZoom.range.upperBound), styleName)
        let scale = snapshot.flatMap {
            MapScaleBar.make(kilometresPerColumn: $0.kilometresPerColumn,
                             maxColumns: min(24, key.size.cols / 3), units: units, l10n: l10n)
        }
        return CityMapState(cityName: CityNameChoice.name(city, language: l10n.language), snapshot: snapshot, isLoading: loading, message: message,
                            status: status, scaleBar: scale, zoom: key.zoom, style: key.style)
    }

    private func message(_ error: MapError) -> String {
        switch error {
        case .dataMissing(let path): return l10n.format(.mapErrorMissing, path)
        case .dataDamaged(let reason): return l10n.format(.mapErrorDamaged, reason)
        }
    }
}

extension CityMapState {
    func with(status: String) -> CityMapState {
        var copy = CityMapState(cityName: cityName, snapshot: snapshot, isLoading: isLoading, message: message,
                                status: status, scaleBar: scaleBar, zoom: zoom, style: style)
        copy.markers = markers
        copy.quakesShown = quakesShown
        copy.towns = towns
        return copy
    }
}

/// The last map shown, kept while the next one is drawn; touched on the state scheduler only.
private final class LastSnapshot {
    var snapshot: MapSnapshot?
    /// The towns found for the latest maps (a few, the oldest forgotten first).
    private(set) var towns: [MapSnapshotKey: [MapMarker]] = [:]
    private var order: [MapSnapshotKey] = []

    func remember(_ found: [MapMarker], for key: MapSnapshotKey) {
        if towns.updateValue(found, forKey: key) == nil { order.append(key) }
        if order.count > 32 { towns[order.removeFirst()] = nil }
    }
}
