import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension TodayViewModel {
    // MARK: Presenting

    /// The state as last formatted, beside what it was made from.
    struct Presented {
        /// Made from the state without its selection: a move of the selection formats nothing again.
        let view: Memo<State, TodayState>
        /// Each event's place in words, by id, in the units and language of the view's state (the nearest
        /// city and its local name, looked up once per event).
        let places: [String: (updated: Date, text: String)]
    }

    func present(_ states: AnyPublisher<State, Never>) -> AnyPublisher<TodayState, Never> {
        states
            .filter(\.started)
            .scan(nil as (Presented, TodayState)?) { [self] previous, state in
                var content = state
                content.selection = nil
                var places = previous.map { $0.0.view.key.display == state.display && $0.0.view.key.l10n == state.l10n } == true
                    ? previous?.0.places ?? [:] : [:]
                if places.count > 20_000 { places = [:] }
                let made = Memo(content, after: previous?.0.view) { self.view(state, places: &places) }
                var view = made.value
                view.selection = state.selection
                return (Presented(view: made, places: places), view)
            }
            .compactMap { $0?.1 }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    /// "23 km SW of Pohang": looked up once per event.
    func describe(_ quake: Quake, format: QuakeFormatter, places: inout [String: (updated: Date, text: String)]) -> String {
        if let known = places[quake.id], known.updated == quake.updated { return known.text }
        let text = format.place(quake, sources.quakes.place(of: quake))
        places[quake.id] = (quake.updated, text)
        return text
    }

    func view(_ s: State, places described: inout [String: (updated: Date, text: String)]) -> TodayState {
        let format = formatter.with(s.display, s.l10n)
        let l10n = format.l10n
        let weatherFormat = format.weather
        let now = s.now

        // Places.
        let places = s.places
        let hereID: Int? = { if case .success(let here)? = s.located { return here.city.id } else { return nil } }()
        // A place without weather says why: its own item was bad, or (once the load ended) the request failed.
        let sectionError: WeatherError? = {
            if !s.placesSource.loading, case .weather(let error)? = s.placesSource.error { return error }
            return nil
        }()
        let placeRows = places.map { city -> TodayPlaceRow in
            let w = s.weather[city.coordinate]
            var row = TodayPlaceRow(cityID: city.id, name: CityPlace.qualifiedName(city, language: l10n.language),
                                    isHere: city.id == hereID,
                                    now: w.map { weatherFormat.shortTemperature($0.temperature) },
                                    range: w.map { weatherFormat.shortTemperature($0.high) + " / " + weatherFormat.shortTemperature($0.low) },
                                    condition: w.map { weatherFormat.condition($0.condition) })
            if w == nil, let error = s.weatherProblems[city.coordinate] ?? sectionError {
                row = TodayPlaceRow(cityID: row.cityID, name: row.name, isHere: row.isHere,
                                    now: l10n[.weatherUnavailable], range: nil, condition: nil,
                                    problem: Self.problem(error, weatherFormat))
            }
            let active = s.warnings[city.id]?.active(at: now) ?? []
            if let worst = active.first {
                row.warning = TodayPlaceWarning(level: TodayPlaceWarning.level(worst.severity),
                                                text: weatherFormat.warningsLine(active, city: city, now: now))
            }
            return row
        }
        let placesStatus: TodaySectionStatus
        if s.located == nil, s.placesSource.error == nil {
            placesStatus = .loading
        } else if places.isEmpty {
            placesStatus = .empty(l10n[.todayPlacesEmpty])
        } else {
            // After a failure the section is stale only when a place has weather to show: an answer
            // whose every item failed keeps nothing.
            let kept = s.placesSource.error == nil || places.contains { s.weather[$0.coordinate] != nil }
            placesStatus = Self.status(s.placesSource, fetched: kept ? s.weatherFetched.map { ($0.fetchedAt, $0.isCached) } : nil,
                                       message: { if case .weather(let e) = $0 { weatherFormat.message(e) } else { "" } },
                                       offline: { $0 == .weather(.offline) || $0 == .weather(.timedOut) },
                                       l10n: l10n, format: weatherFormat, now: now)
        }
        var notes: [String] = []
        if let located = s.located {
            let summary = LocationSummary(located, format: weatherFormat)
            switch summary.status {
            case .located(_, let text, _) where !text.isEmpty: notes.append(text)
            case .failed(let message) where !s.liked.isEmpty: notes.append(message)
            default: break
            }
            notes += summary.warnings
        }

        // Quakes near the places.
        let quakeRows = s.near.map { near in
            TodayQuakeRow(id: near.quake.id, magnitude: QuakeFormatter.magnitude(near.quake.magnitude),
                          strength: QuakeFormatter.strength(near.quake.magnitude),
                          place: describe(near.quake, format: format, places: &described),
                          distance: l10n.format(.todayQuakeFrom, format.distance(kilometres: near.kilometres),
                                                CityNameChoice.name(near.place, language: l10n.language)),
                          time: weatherFormat.age(now.timeIntervalSince(near.quake.time)))
        }
        var quakesStatus = Self.status(s.quakesSource, fetched: s.feed.map { ($0.checkedAt, $0.origin == .cache) },
                                       message: { if case .quakes(let e) = $0 { format.message(e) } else { "" } },
                                       offline: { $0 == .quakes(.offline) || $0 == .quakes(.timedOut) },
                                       l10n: l10n, format: weatherFormat, now: now)
        if quakeRows.isEmpty, s.feed != nil, s.located != nil || s.placesSource.error != nil {
            switch quakesStatus {
            case .loaded:
                quakesStatus = .empty(places.isEmpty ? l10n[.todayQuakesNoPlaces]
                                      : l10n.format(.todayQuakesEmpty, format.distance(kilometres: QuakeFormatter.nearRadiusKilometres(s.units))))
            default: break
            }
        } else if s.located == nil, s.placesSource.error == nil, s.quakesSource.error == nil {
            quakesStatus = .loading // the places it is near are not known yet
        }

        // Films.
        let title = { (movie: MovieSummary) in
            TodayFilmRow(id: movie.id, title: movie.year.map { "\(movie.title) (\($0))" } ?? movie.title)
        }
        let filmRows = Self.newest(s.wishlist ?? []).map { title($0.movie) }
        let viewed = s.viewed.prefix(Self.viewedLimit).map(title)
        let filmsStatus: TodaySectionStatus
        if s.wishlist == nil {
            filmsStatus = .loading
        } else if filmRows.isEmpty && viewed.isEmpty {
            filmsStatus = .empty(l10n[.todayFilmsEmpty])
        } else {
            filmsStatus = .loaded(note: nil)
        }

        return TodayState(
            places: .init(title: l10n[.todayPlaces], status: placesStatus, rows: placeRows),
            placesNotes: notes,
            quakes: .init(title: l10n[.todayQuakes], status: quakesStatus, rows: quakeRows),
            films: .init(title: l10n[.todayFilms], status: filmsStatus, rows: filmRows),
            viewed: Array(viewed))
    }

    /// Why a place has no weather, in the few words its row has room for. Offline, the row says that
    /// nothing was saved for it either (a kept copy would be shown), as the city's own screen does.
    static func problem(_ error: WeatherError, _ format: WeatherFormatter) -> String {
        error == .offline ? format.l10n[.todayPlaceOfflineNothingSaved] : format.shortMessage(error)
    }

    /// A network section's status from its source and what it has: loading until the first answer;
    /// then loaded (with the time of the check), or, after a failure, stale when something is kept and
    /// failed when nothing is.
    static func status(_ source: State.Source, fetched: (at: Date, cached: Bool)?,
                               message: (Failure) -> String, offline: (Failure) -> Bool,
                               l10n: L10n, format: WeatherFormatter, now: Date) -> TodaySectionStatus {
        if let error = source.error {
            guard let fetched else { return .failed(message(error) + " " + l10n[.todayRetry]) }
            let age = format.age(now.timeIntervalSince(fetched.at))
            return .stale(offline(error) ? l10n.format(.todayOfflineCached, age)
                                         : l10n.format(.todayCached, age) + " · " + message(error))
        }
        guard let fetched else { return .loading }
        if source.loading { return .loading }
        let age = format.age(now.timeIntervalSince(fetched.at))
        return .loaded(note: fetched.cached ? l10n.format(.todayCached, age) : l10n.format(.todayUpdated, age))
    }
}
