import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers

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
}

/// What the Liked tab shows.
public struct LikedCitiesState: Equatable, Sendable {
    public let rows: [LikedRow]
    /// Shown instead of rows when there are none.
    public let emptyMessage: String?
    /// Trouble: the database was moved aside, a like could not be read or removed, the ranges failed.
    public let notice: String?
    /// Today's ranges failed: `r` asks again.
    public let canRetry: Bool
}

public enum LikedCitiesRoute: Equatable, Sendable {
    case showDetail(City)
}

/// The map the Liked screen has room for: the city (by GeoNames id) and the size in cells.
public struct LikedThumbnailRequest: Equatable, Sendable {
    public let cityID: Int
    public let size: MapSize
    public init(cityID: Int, size: MapSize) {
        self.cityID = cityID
        self.size = size
    }
}

/// A liked city's small map.
public struct LikedThumbnail: Sendable {
    public let cityID: Int
    public let snapshot: MapSnapshot
}

/// The liked cities with today's high and low, from one batched request per change.
public final class LikedCitiesViewModel {
    public struct Input {
        /// The tab is shown (the first time, and every time after): after a failure, shown again retries.
        public let appeared: AnyPublisher<Void, Never>
        public let rowOpened: AnyPublisher<Int, Never>
        /// `d` on a row.
        public let removeRequested: AnyPublisher<Int, Never>
        /// `r`: ask for today's ranges again.
        public let refreshRequested: AnyPublisher<Void, Never>
        /// The map the screen has room for beside the list: the selected row's city at a size; nil
        /// when there is no room (or no row).
        public let thumbnailWanted: AnyPublisher<LikedThumbnailRequest?, Never>
        public init(appeared: AnyPublisher<Void, Never>, rowOpened: AnyPublisher<Int, Never>,
                    removeRequested: AnyPublisher<Int, Never>, refreshRequested: AnyPublisher<Void, Never>,
                    thumbnailWanted: AnyPublisher<LikedThumbnailRequest?, Never> = Empty().eraseToAnyPublisher()) {
            self.appeared = appeared
            self.rowOpened = rowOpened
            self.removeRequested = removeRequested
            self.refreshRequested = refreshRequested
            self.thumbnailWanted = thumbnailWanted
        }
    }

    public struct Output {
        public let state: AnyPublisher<LikedCitiesState, Never>
        public let route: AnyPublisher<LikedCitiesRoute, Never>
        /// The map for the last `thumbnailWanted`, delivered at once (from the cache, or drawn on
        /// the spot: about a millisecond for a thumbnail); nil when none is wanted or there is no map.
        public let thumbnail: AnyPublisher<LikedThumbnail?, Never>
    }

    private let liked: GetLikedCitiesUseCase
    private let like: LikeCityUseCase
    private let ranges: GetTodayRangesUseCase
    private let format: WeatherFormatter
    private let countries: CountryNames
    private let scheduler: AnySchedulerOf<DispatchQueue>
    /// A notice from start-up (the database file was unreadable and moved aside).
    private let startupNotice: String?
    /// City maps, for the selected row's thumbnail; nil shows none.
    private let map: ShowCityMapUseCase?

    public init(liked: GetLikedCitiesUseCase, like: LikeCityUseCase, ranges: GetTodayRangesUseCase,
                format: WeatherFormatter, countries: CountryNames, scheduler: AnySchedulerOf<DispatchQueue>,
                startupNotice: String?, map: ShowCityMapUseCase? = nil) {
        self.map = map
        self.liked = liked
        self.like = like
        self.ranges = ranges
        self.format = format
        self.countries = countries
        self.scheduler = scheduler
        self.startupNotice = startupNotice
    }

    enum Event {
        case cities(Result<[City], LikesError>)
        case ranges(PlaceAnswers<DayRange>)
        case rangesFailed(WeatherError)
        case removeFailed
        case unitsChanged
    }

    struct Model: Equatable {
        var cities: [City] = []
        var ranges: [Coordinate: DayRange] = [:]
        /// Why the last answer had nothing usable for a city.
        var rangeProblems: [Coordinate: WeatherError] = [:]
        var loadFailed = false
        var rangeError: WeatherError?
        var removeFailed = false
        /// Counts the settings' changes of units: the same ranges are formatted again.
        var formatting = 0
    }

    public func transform(input: Input) -> Output {
        let liked = self.liked
        let like = self.like
        let ranges = self.ranges
        let scheduler = self.scheduler
        let citiesSubject = CurrentValueSubject<[City], Never>([])

        let removals = input.removeRequested
            .map { index -> Event? in
                let cities = citiesSubject.value
                guard cities.indices.contains(index) else { return nil }
                if case .failure = like.unlike(cities[index].id) { return .removeFailed }
                return nil
            }
            .compactMap { $0 }
            .eraseToAnyPublisher()

        // Whether the last request for ranges failed: showing the tab again then retries by itself.
        let failed = CurrentValueSubject<Bool, Never>(false)
        // The rows follow the store from the first appearance on; `r`, and a return after a failure, ask again.
        let saved = input.appeared.first()
            .map { _ in liked.contents }
            .switchToLatest()
            .handleEvents(receiveOutput: { citiesSubject.send($0) })
        let again = merge(input.refreshRequested, input.appeared.dropFirst().filter { failed.value }.eraseToAnyPublisher())
            .map { _ in citiesSubject.value }
        // The list, and one batched request for its ranges.
        let loads = merge(saved.eraseToAnyPublisher(), again.eraseToAnyPublisher())
            .map { cities -> AnyPublisher<Event, Never> in
                guard !cities.isEmpty else { return Just(Event.cities(.success(cities))).eraseToAnyPublisher() }
                let fetch = ranges.execute(for: cities.map(\.coordinate))
                    .map(Event.ranges)
                    .catch { Just(Event.rangesFailed($0)) }
                    .handleEvents(receiveOutput: { event in
                        switch event {
                        case .rangesFailed: failed.send(true)
                        case .ranges(let answers): failed.send(answers.values.contains { if case .failure = $0 { true } else { false } })
                        default: failed.send(false)
                        }
                    })
                return Just(Event.cities(.success(cities))).append(fetch).eraseToAnyPublisher()
            }
            .switchToLatest()
            .eraseToAnyPublisher()

        // A change of units in the settings formats the same ranges again.
        let reformat = format.display.changes.dropFirst().map { Event.unitsChanged }
        let state = merge(merge(loads, removals).eraseToAnyPublisher(), reformat.eraseToAnyPublisher())
            .scan(Model()) { model, event in
                var m = model
                switch event {
                case .cities(.success(let cities)):
                    m.cities = cities
                    m.loadFailed = false
                case .cities(.failure):
                    m.loadFailed = true
                case .ranges(let answers):
                    // Every load asks for every liked city: what failed before is this answer's to say.
                    m.rangeProblems = [:]
                    for (place, answer) in answers {
                        switch answer {
                        case .success(let range):
                            m.ranges[place] = range
                            m.rangeProblems[place] = nil
                        case .failure(let error):
                            m.ranges[place] = nil
                            m.rangeProblems[place] = error
                        }
                    }
                    m.rangeError = nil
                case .rangesFailed(let e):
                    m.rangeError = e
                case .removeFailed:
                    m.removeFailed = true
                case .unitsChanged:
                    m.formatting += 1
                }
                return m
            }
            .removeDuplicates()
            .map { self.state($0) }
            .receive(on: scheduler)
            .share()

        let route = input.rowOpened
            .map { index -> LikedCitiesRoute? in
                let cities = citiesSubject.value
                return cities.indices.contains(index) ? .showDetail(cities[index]) : nil
            }
            .compactMap { $0 }
            .eraseToAnyPublisher()

        let map = self.map
        let thumbnail = input.thumbnailWanted
            .removeDuplicates()
            .map { request -> LikedThumbnail? in
                guard let request, let map,
                      let city = citiesSubject.value.first(where: { $0.id == request.cityID }),
                      let snapshot = try? map.thumbnail(for: city, size: request.size) else { return nil }
                return LikedThumbnail(cityID: city.id, snapshot: snapshot)
            }
            .eraseToAnyPublisher()

        return Output(state: state.eraseToAnyPublisher(), route: route, thumbnail: thumbnail)
    }

    func state(_ model: Model) -> LikedCitiesState {
        let l10n = format.l10n
        let rows = model.cities.map { city -> LikedRow in
            let range = model.ranges[city.coordinate]
            let name = CityNameChoice.name(city, language: l10n.language)
            if range == nil, let error = model.rangeProblems[city.coordinate] ?? model.rangeError {
                var row = LikedRow(cityID: city.id, name: name, country: countries.name(city.countryCode),
                                   range: l10n[.weatherUnavailable], condition: format.shortMessage(error),
                                   coordinates: WeatherFormatter.coordinates(city.coordinate))
                row.unavailable = true
                return row
            }
            return LikedRow(cityID: city.id, name: name, country: countries.name(city.countryCode),
                            range: range.map { format.shortTemperature($0.high) + " / " + format.shortTemperature($0.low) },
                            condition: range.map { format.condition($0.condition) },
                            coordinates: WeatherFormatter.coordinates(city.coordinate))
        }
        var notices: [String] = []
        if let startupNotice { notices.append(startupNotice) }
        if model.loadFailed { notices.append(l10n[.likesErrorLoad]) }
        if model.removeFailed { notices.append(l10n[.likesErrorSave]) }
        if let error = model.rangeError { notices.append(format.message(error)) }
        return LikedCitiesState(rows: rows, emptyMessage: rows.isEmpty && !model.loadFailed ? l10n[.likedEmpty] : nil,
                                notice: notices.isEmpty ? nil : notices.joined(separator: " "),
                                canRetry: model.rangeError != nil || !model.rangeProblems.isEmpty)
    }
}
