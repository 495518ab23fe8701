import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension LikedCitiesViewModel {
    // MARK: Presenting

    /// What the rows depend on: a change of selection alone formats no row again.
    struct Listing: Equatable {
        let cities: [City], ranges: [Coordinate: DayRange], problems: [Coordinate: WeatherError]
        let rangeError: WeatherError?, removeFailed: Bool, display: DisplayUnits.Value
        init(_ s: State) {
            cities = s.cities
            ranges = s.ranges
            problems = s.rangeProblems
            rangeError = s.rangeError
            removeFailed = s.removeFailed
            display = s.display
        }
    }

    /// What the map beside the rows depends on.
    struct MapInputs: Equatable {
        let listing: Listing
        let thumbnail: Thumbnail?
    }

    /// The rows and the map as last made, each with what it was made from.
    struct Presented {
        let rows: Memo<Listing, LikedCitiesState>
        let map: Memo<MapInputs, LikedMap?>
    }

    func present(_ states: AnyPublisher<State, Never>) -> AnyPublisher<LikedCitiesState, Never> {
        states
            .filter(\.loaded)
            .scan(nil as (Presented, LikedCitiesState)?) { [self] previous, state in
                let listing = Listing(state)
                let rows = Memo(listing, after: previous?.0.rows) { list(state) }
                let map = Memo(MapInputs(listing: listing, thumbnail: state.thumbnail), after: previous?.0.map) { mapView(state) }
                var view = rows.value
                view.selection = Self.selection(state)
                view.map = map.value
                return (Presented(rows: rows, map: map), view)
            }
            .compactMap { $0?.1 }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    private func list(_ state: State) -> LikedCitiesState {
        let format = self.format.with(state.display)
        let l10n = format.l10n
        let rows = state.cities.map { city -> LikedRow in
            let range = state.ranges[city.coordinate]
            let name = CityNameChoice.name(city, language: l10n.language)
            if range == nil, let error = state.rangeProblems[city.coordinate] ?? state.rangeError {
                var row = LikedRow(cityID: city.id, name: name, country: CityPlace.text(city, language: l10n.language, countries: countries),
                                   range: l10n[.weatherUnavailable], condition: format.shortMessage(error),
                                   coordinates: WeatherFormatter.coordinates(city.coordinate))
                row.unavailable = true
                row.countryShort = CityPlace.short(CitySummary(city), language: l10n.language)
                row.qualifiedName = CityPlace.qualifiedName(city, language: l10n.language)
                return row
            }
            var row = LikedRow(cityID: city.id, name: name, country: CityPlace.text(city, language: l10n.language, countries: countries),
                               range: range.map { format.shortTemperature($0.high) + " / " + format.shortTemperature($0.low) },
                               condition: range.map { format.condition($0.condition) },
                               coordinates: WeatherFormatter.coordinates(city.coordinate))
            row.countryShort = CityPlace.short(CitySummary(city), language: l10n.language)
            row.qualifiedName = CityPlace.qualifiedName(city, language: l10n.language)
            return row
        }
        var notices: [String] = []
        if let startupNotice = UserDataNotice.message(dataStatus, l10n: format.l10n) { notices.append(startupNotice) }
        if state.removeFailed { notices.append(l10n[.likesErrorSave]) }
        if let error = state.rangeError { notices.append(format.message(error)) }
        return LikedCitiesState(rows: rows, emptyMessage: rows.isEmpty ? l10n[.likedEmpty] : nil,
                                notice: notices.isEmpty ? nil : notices.joined(separator: " "),
                                canRetry: Self.canRetry(state))
    }

    /// The selected city's map as drawn, with its name, the other liked cities in view and a scale.
    private func mapView(_ state: State) -> LikedMap? {
        guard let thumbnail = state.thumbnail, let snapshot = thumbnail.snapshot else { return nil }
        let language = format.l10n.language
        let others = state.cities.filter { $0.id != thumbnail.want.city.id }.map { MapMarker.place($0, language: language) }
        let scale = MapScaleBar.make(kilometresPerColumn: snapshot.kilometresPerColumn, maxColumns: snapshot.key.size.cols,
                                     units: state.display.system, l10n: format.l10n)
        return LikedMap(snapshot: snapshot, label: CityNameChoice.name(thumbnail.want.city, language: language),
                        markers: MapMarkerPlacement.place(others, on: snapshot), scale: scale)
    }
}
