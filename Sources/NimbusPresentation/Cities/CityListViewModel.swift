import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
@preconcurrency import CombineSchedulers

/// One row of the city list, already formatted for display.
public struct CityRow: Equatable, Sendable {
    public let cityID: Int
    public let name: String
    /// The alternate name the query matched, when it was not the canonical name (e.g. "서울" for Seoul).
    public let matchedName: String?
    public let country: String
    public let population: String
}

/// Rows of a result list, formatted on demand: a query can match tens of thousands of cities,
/// and only the visible rows are ever shown.
public struct CityRows: Equatable, Sendable {
    private let matches: CityMatches
    private let cache: RowCache

    init(matches: CityMatches, format: @escaping @Sendable (CityRef) -> CityRow) {
        self.matches = matches
        self.cache = RowCache(format: format)
    }

    public var count: Int { matches.count }
    /// The row at `i`, formatted once and kept for redraws and scrolling back.
    public subscript(_ i: Int) -> CityRow { cache.row(matches.refs[i]) }
    public func ref(at i: Int) -> CityRef { matches.refs[i] }

    /// The first `n` rows, formatted (for tests and snapshots).
    public func prefix(_ n: Int) -> [CityRow] { (0..<min(n, count)).map { self[$0] } }

    public static func == (l: CityRows, r: CityRows) -> Bool { l.matches == r.matches }
}

/// Formatted rows of one result list; only rows that were shown are ever formatted.
private final class RowCache: @unchecked Sendable {
    private let format: @Sendable (CityRef) -> CityRow
    private var rows: [CityRef: CityRow] = [:]
    private let lock = NSLock()

    init(format: @escaping @Sendable (CityRef) -> CityRow) { self.format = format }

    func row(_ ref: CityRef) -> CityRow {
        lock.lock()
        if let hit = rows[ref] { lock.unlock(); return hit }
        lock.unlock()
        let row = format(ref)
        lock.lock()
        if rows.count > 4096 { rows.removeAll(keepingCapacity: true) }
        rows[ref] = row
        lock.unlock()
        return row
    }
}

/// What the city list screen shows.
public struct CityListState: Equatable, Sendable {
    public let query: String
    public let rows: CityRows
    /// "34,006 cities", "3 of 34,006 cities".
    public let summary: String
    /// Shown instead of rows when nothing matched.
    public let emptyMessage: String?
}

public enum CityListRoute: Equatable, Sendable {
    case showDetail(City)
}

/// Search-as-you-type over the city catalogue.
public final class CityListViewModel {
    public struct Input {
        public let queryChanged: AnyPublisher<String, Never>
        public let rowOpened: AnyPublisher<Int, Never>
        public init(queryChanged: AnyPublisher<String, Never>, rowOpened: AnyPublisher<Int, Never>) {
            self.queryChanged = queryChanged
            self.rowOpened = rowOpened
        }
    }

    public struct Output {
        public let state: AnyPublisher<CityListState, Never>
        public let route: AnyPublisher<CityListRoute, Never>
    }

    private let search: SearchCitiesUseCase
    private let l10n: L10n
    private let countries: CountryNames
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let totalCount: Int

    public init(search: SearchCitiesUseCase, totalCount: Int, l10n: L10n, countries: CountryNames,
                scheduler: AnySchedulerOf<DispatchQueue>) {
        self.search = search
        self.totalCount = totalCount
        self.l10n = l10n
        self.countries = countries
        self.scheduler = scheduler
    }

    public func transform(input: Input) -> Output {
        let search = self.search
        let l10n = self.l10n
        let countries = self.countries
        let total = totalCount

        let state = input.queryChanged
            .removeDuplicates()
            .map { query -> CityListState in
                let matches = search.execute(query: query)
                let rows = CityRows(matches: matches) { ref in
                    let hit = search.hit(ref, query: matches.query)
                    return CityRow(
                        cityID: hit.city.id,
                        name: hit.city.name,
                        matchedName: hit.matchedName,
                        country: countries.name(hit.city.countryCode),
                        population: l10n.number(hit.city.population)
                    )
                }
                let summary = matches.query.isEmpty
                    ? l10n.format(.citiesSummaryAll, l10n.number(total))
                    : l10n.format(.citiesSummaryMatches, l10n.number(matches.count), l10n.number(total))
                let empty = matches.count == 0 ? l10n.format(.citiesEmpty, matches.query) : nil
                return CityListState(query: matches.query, rows: rows, summary: summary, emptyMessage: empty)
            }
            .receive(on: scheduler)
            .share()

        let route = input.rowOpened
            .withLatest(from: state)
            .compactMap { index, state -> CityListRoute? in
                guard state.rows.count > index, index >= 0 else { return nil }
                return .showDetail(search.city(state.rows.ref(at: index)))
            }
            .eraseToAnyPublisher()

        return Output(state: state.eraseToAnyPublisher(), route: route)
    }
}
