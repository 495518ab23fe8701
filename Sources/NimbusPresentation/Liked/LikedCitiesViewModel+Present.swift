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
        let rangeError: WeatherError?, removeFailed: Bool, display: DisplayUnits.Value, l10n: L10n
        init(_ s: State) {
            cities = s.cities
            ranges = s.ranges
            problems = s.rangeProblems
            rangeError = s.rangeError
            removeFailed = s.removeFailed
            display = s.display
            l10n = s.l10n
        }
    }

    /// What the map beside the rows depends on: the view, and which city is marked on it.
    struct MapInputs: Equatable {
        let listing: Listing
        let thumbnail: Thumbnail?
        let selection: Int
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
                let map = Memo(MapInputs(listing: listing, thumbnail: state.thumbnail, selection: Self.selection(state)), after: previous?.0.map) { mapView(state) }
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
        let format = formatter.with(state.display, state.l10n)
        let l10n = format.l10n
        let rows = state.cities.map { city -> LikedRow in
            let range = state.ranges[city.coordinate]
            let name = CityNameChoice.name(city, language: l10n.language)
            if range == nil, let error = state.rangeProblems[city.coordinate] ?? state.rangeError {
                var row = LikedRow(cityID: city.id, name: name, country: CityPlace.text(city, language: l10n.language, countries: l10n.countryNames),
                                   range: l10n[.weatherUnavailable], condition: format.shortMessage(error),
                                   coordinates: WeatherFormatter.coordinates(city.coordinate))
                row.unavailable = true
                row.countryShort = CityPlace.short(CitySummary(city), language: l10n.language)
                row.qualifiedName = CityPlace.qualifiedName(city, language: l10n.language)
                return row
            }
            var row = LikedRow(cityID: city.id, name: name, country: CityPlace.text(city, language: l10n.language, countries: l10n.countryNames),
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

    /// The view of every liked city as drawn, marked at the selected one with its name, the others
    /// marked, and a scale.
    private func mapView(_ state: State) -> LikedMap? {
        guard let view = state.thumbnail?.snapshot, let projection = view.projection else { return nil }
        let index = Self.selection(state)
        guard state.cities.indices.contains(index) else { return nil }
        let city = state.cities[index]
        // The view is centred on one of the cities; its marker is moved to the selected one (and the
        // cells of the centre's own country, for a label at world zoom, kept only for the centre).
        let snapshot = MapSnapshot(key: view.key, rows: view.rows, marker: projection.cell(of: city.coordinate),
                                   kilometresPerColumn: view.kilometresPerColumn, projection: projection,
                                   ownCountryCells: city.id == view.key.cityID ? view.ownCountryCells : nil)
        let others = state.cities.filter { $0.id != city.id }.map(MapMarker.place)
        let scale = MapScaleBar.make(kilometresPerColumn: snapshot.kilometresPerColumn, maxColumns: snapshot.key.size.cols,
                                     units: state.display.system, l10n: state.l10n)
        return LikedMap(snapshot: snapshot, label: CityNameChoice.name(city, language: state.l10n.language),
                        markers: MapMarkerPlacement.place(others, on: snapshot, language: state.l10n.language), scale: scale)
    }
}
