import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension CityMapViewModel {
    // MARK: Presenting

    /// The panel's state; nil before the first layout, and while a new view's cache is asked.
    func present(_ state: State) -> CityMapState? {
        guard let request = state.request, !state.asking else { return nil }
        let key = request.key
        let l10n = state.l10n
        let snapshot = state.failure == nil ? state.snapshot : nil
        let styleName = l10n[key.style == .braille ? .mapStyleBraille : .mapStyleBlocks]
        var status = l10n.format(.mapStatus, String(key.zoom.level), String(MapZoom.range.upperBound), styleName)
        let scale = snapshot.flatMap {
            MapScaleBar.make(kilometresPerColumn: $0.kilometresPerColumn, maxColumns: min(24, key.size.cols / 3), units: state.units, l10n: l10n)
        }
        let message = state.failure.map { Self.message($0, l10n: l10n) } ?? (state.loading ? l10n[.mapLoading] : nil)
        let markers = snapshot.map { MapMarkerPlacement.place(state.places + (state.quakes ?? []) + state.towns, on: $0, language: l10n.language) } ?? []
        if state.quakes != nil {
            let count = markers.filter { $0.kind == .quake }.count
            status += " · " + l10n.format(.mapQuakesShown, l10n.number(count))
        }
        var shown = CityMapState(cityName: CityNameChoice.name(state.city, language: l10n.language), snapshot: snapshot,
                                 isLoading: state.loading, message: message, status: status, scaleBar: scale,
                                 zoom: key.zoom, style: key.style)
        shown.markers = markers
        shown.quakesShown = state.canShowQuakes ? state.quakes != nil : nil
        shown.towns = state.towns
        return shown
    }

    static func message(_ error: MapError, l10n: L10n) -> String {
        switch error {
        case .dataMissing(let path): return l10n.format(.mapErrorMissing, path)
        case .dataDamaged(let reason): return l10n.format(.mapErrorDamaged, reason)
        }
    }
}
