import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusUI
import CombineSchedulers
import OpenCombineShim

/// Makes city maps: owns the snapshot cache and the (lazily opened) land data for the app's lifetime.
///
/// The city detail screen embeds `makeCityMapPanel(city:)`; the Liked tab draws the view of its cities
/// (`MapOverview`) from `makeShowCityMapUseCase()` with `MapSnapshotView.draw`.
public final class MapSceneDIContainer {
    public let cache: MapSnapshotCache
    public let repository: RenderedMapRepository
    private let l10n: L10n
    /// The units system now (the settings change it; a map made later uses the new one).
    private let units: () -> UnitSystem
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let renderScheduler: AnySchedulerOf<DispatchQueue>
    /// The map style of the app's preferences (`AppPreferences.mapStyle`), and how a panel changes it.
    private let mapStyle: () -> MapStyle
    private let mapStyleChanged: (MapStyle) -> Void
    /// Whether the mouse is on now (the map panel's help then lists the wheel and drags).
    private let mouse: () -> Bool
    /// The catalogue's cities marked at country zoom and closer (none without it).
    public let towns: MapTownFinder?

    /// 64 maps or 200,000 cells (about 65 maps of 100×30), whichever is reached first.
    public static let countLimit = 64
    public static let totalCostLimit = 200_000

    public convenience init(repository: RenderedMapRepository, l10n: L10n, units: UnitSystem,
                            scheduler: AnySchedulerOf<DispatchQueue>, renderScheduler: AnySchedulerOf<DispatchQueue>,
                            mapStyle: @escaping () -> MapStyle = { .braille },
                            mapStyleChanged: @escaping (MapStyle) -> Void = { _ in }) {
        self.init(repository: repository, l10n: l10n, currentUnits: { units }, scheduler: scheduler,
                  renderScheduler: renderScheduler, mapStyle: mapStyle, mapStyleChanged: mapStyleChanged)
    }

    public init(repository: RenderedMapRepository, l10n: L10n, currentUnits units: @escaping () -> UnitSystem,
                scheduler: AnySchedulerOf<DispatchQueue>, renderScheduler: AnySchedulerOf<DispatchQueue>,
                mapStyle: @escaping () -> MapStyle = { .braille }, mapStyleChanged: @escaping (MapStyle) -> Void = { _ in },
                mouse: @escaping () -> Bool = { true }, towns: MapTownFinder? = nil) {
        self.mouse = mouse
        self.towns = towns
        self.mapStyle = mapStyle
        self.mapStyleChanged = mapStyleChanged
        self.cache = repository.cache
        self.repository = repository
        self.l10n = l10n
        self.units = units
        self.scheduler = scheduler
        self.renderScheduler = renderScheduler
    }

    public func makeShowCityMapUseCase() -> ShowCityMapUseCase {
        ShowCityMapUseCase(repository: repository)
    }

    /// `places` are marked on the map; `nearbyQuakes`, when given, can be shown with `e`.
    public func makeCityMapViewModel(city: City, initialZoom: MapZoom = .country,
                                     places: AnyPublisher<[MapMarker], Never> = Just([]).eraseToAnyPublisher(),
                                     nearbyQuakes: (() -> AnyPublisher<[MapMarker], Never>)? = nil) -> CityMapViewModel {
        CityMapViewModel(city: city, showMap: makeShowCityMapUseCase(), l10n: l10n, units: units(),
                         initialZoom: initialZoom, initialStyle: mapStyle(),
                         scheduler: scheduler, renderScheduler: renderScheduler,
                         places: places, nearbyQuakes: nearbyQuakes, towns: towns, styleChanged: mapStyleChanged)
    }

    /// The map panel the city detail screen embeds (call `cancel()` on it when the detail goes away).
    @MainActor public func makeCityMapPanel(city: City, places: AnyPublisher<[MapMarker], Never> = Just([]).eraseToAnyPublisher(),
                                            nearbyQuakes: (() -> AnyPublisher<[MapMarker], Never>)? = nil) -> ScreenPanel {
        CityMapPanel(viewModel: makeCityMapViewModel(city: city, places: places, nearbyQuakes: nearbyQuakes), l10n: l10n,
                     preferredStyle: mapStyle, mouse: mouse())
    }

    /// The cache's counters, for the debug overlay.
    public var statistics: MapCacheStatistics { cache.statistics }
}
