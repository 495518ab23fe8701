import Foundation
import Synchronization
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension CityListViewModel {
    // MARK: Presenting

    /// What the formatted temperatures depend on.
    struct Readings: Equatable {
        let celsius: [Int: Double]
        let failures: [Int: TemperatureFailure]
        let shown: [CityRef]
        let display: DisplayUnits.Value?
        let l10n: L10n
    }

    /// What the rows are made from.
    struct Query: Equatable {
        let matches: CityMatches
        let l10n: L10n
    }

    /// The rows, the temperatures and the rows' local times as last made, each with what it was
    /// made from: a keystroke formats no temperature, a temperature no row.
    struct Presented {
        let listing: Memo<Query, Listing>
        let temperatures: Memo<Readings, CityTemperatures>
        let times: Memo<Language, LocalTimes?>
        let state: State
    }

    func present(_ states: AnyPublisher<State, Never>) -> AnyPublisher<CityListState, Never> {
        states
            .scan(nil as Presented?) { [self] previous, state -> Presented? in
                guard let matches = state.matches else { return nil }
                let l10n = state.l10n
                let listing = Memo(Query(matches: matches, l10n: l10n), after: previous?.listing) { list(matches, l10n: l10n) }
                // The rows shown matter only for the failure named (`format`): without failures a
                // scroll or a keystroke re-formats no temperature.
                let readings = Readings(celsius: state.celsius, failures: state.failures,
                                        shown: state.failures.isEmpty ? [] : state.shown, display: state.display, l10n: l10n)
                let temperatures = Memo(readings, after: previous?.temperatures) { format(readings) }
                let times = Memo(l10n.language, after: previous?.times) {
                    formatter.map { LocalTimes(language: l10n.language, zones: $0.zones) }
                }
                return Presented(listing: listing, temperatures: temperatures, times: times, state: state)
            }
            .compactMap { presented -> CityListState? in
                guard let presented else { return nil }
                let state = presented.state
                let l10n = state.l10n
                let clock = state.now.flatMap { now in
                    state.display.flatMap { display in presented.times.value.map { CityClock(now: now, clock: display.clock, times: $0) } }
                }
                let listing = presented.listing.value
                return CityListState(
                    query: presented.listing.key.matches.query, rows: listing.rows, summary: listing.summary,
                    emptyMessage: listing.empty, suggesting: listing.suggesting, emptyHint: listing.tierHint,
                    searchAgain: listing.empty != nil && !state.searching && !state.searchHintDone
                        ? l10n[.citiesEmptySearchAgain] : nil,
                    selection: state.selection, searching: state.searching,
                    temperatures: presented.temperatures.value,
                    likes: CityListLikes(ids: state.liked, message: state.likeFailed ? l10n[.likesErrorSave] : nil),
                    clock: clock)
            }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    /// The rows of `matches` (or of the cities it may have meant), formatted when drawn, with the
    /// summary above them, what to say when there are none and the heading of the suggestions.
    func list(_ matches: CityMatches, l10n: L10n) -> Listing {
        let search = self.search
        let countries = l10n.countryNames
        let text = CitySearchText(l10n: l10n)
        let rows = CityRows(matches: matches.listed, l10n: l10n) { ref in
            let hit = search.hit(ref, query: matches.nameQuery)
            let name = CityNameChoice.name(hit.city, language: l10n.language)
            return CityRow(
                cityID: hit.city.id,
                name: name,
                // The name typed, when the row shows another: 「とうきょう」 beside 東京, not 「東京」 again.
                matchedName: hit.matchedName == name ? nil : hit.matchedName,
                country: CityPlace.text(hit.city, language: l10n.language, countries: countries),
                countryShort: CityPlace.short(hit.city, language: l10n.language),
                countryCode: hit.city.countryCode,
                population: l10n.number(hit.city.population),
                coordinate: hit.city.coordinate,
                timeZone: hit.city.timeZone
            )
        } copyText: { ref in
            let city = search.city(ref)
            return city.name + " " + WeatherFormatter.coordinates(city.coordinate)
        }
        var summary = matches.query.isEmpty
            ? l10n.count(.citiesSummaryAll, totalCount, l10n.number(totalCount))
            : l10n.format(.citiesSummaryMatches, l10n.number(matches.count), l10n.number(totalCount))
        if let places = text.places(matches.qualifier) { summary = l10n.format(.citiesSummaryWithin, summary, places) }
        let suggesting = matches.count == 0 && !matches.suggestions.isEmpty
        return Listing(rows: rows, summary: summary,
                       empty: matches.count == 0 && !suggesting ? text.nothing(matches) : nil,
                       suggesting: suggesting ? text.suggesting(matches) : nil,
                       tierHint: matches.count == 0 && matches.qualifier == nil ? tierHint(l10n) : nil)
    }

    /// What the catalogue holds, said when nothing matched and no place was named.
    func tierHint(_ l10n: L10n) -> String? {
        switch tier {
        case .standard(let least, let large):
            // The large tier's threshold is also what `scripts/build-resources.py --tier` is given.
            l10n.format(.citiesEmptyStandardTier, l10n.number(least), l10n.number(large), String(large))
        case .large(let least): l10n.format(.citiesEmptyLargeTier, l10n.number(least))
        case .other: nil
        }
    }

    /// What `list(_:)` makes of one answer.
    struct Listing: Equatable {
        let rows: CityRows
        let summary: String
        let empty: String?
        let suggesting: String?
        /// What the catalogue holds, where worth saying (nothing matched, no place was named).
        let tierHint: String?
    }

    /// The temperatures as the list shows them: kept in °C and formatted in the settings' units.
    func format(_ readings: Readings) -> CityTemperatures {
        guard let display = readings.display, let format = formatter?.with(display, readings.l10n) else { return CityTemperatures() }
        let l10n = readings.l10n
        var texts = readings.celsius.mapValues { format.shortTemperature($0) }
        let mark = l10n[.weatherUnavailable]
        for id in readings.failures.keys { texts[id] = mark }
        // The reason of the first failed row on screen (by id, so the words do not flicker).
        let onScreen = Set(readings.shown)
        let reason = readings.failures.filter { onScreen.contains($0.value.ref) }.min { $0.key < $1.key }?.value.error
        return CityTemperatures(texts: texts, failed: Set(readings.failures.keys),
                                message: reason.map { l10n.format(.citiesTemperaturesFailed, format.shortMessage($0)) })
    }
}
