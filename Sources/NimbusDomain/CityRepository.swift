import Foundation

/// Read access to the city catalogue.
///
/// Search is synchronous and fast (well under a millisecond at 34k cities); callers choose the queue.
public protocol CityRepository: Sendable {
    /// Number of cities in the catalogue.
    var cityCount: Int { get }
    /// Cities whose names contain, for every word of `query`, a word starting with it
    /// (case- and accent-insensitive, any script). An empty query matches every city.
    func search(_ query: String) -> CityMatches
    /// The city at a position of the catalogue.
    func city(_ ref: CityRef) -> City
    /// The parts of that city a result row shows, without decoding its alternate names.
    func summary(_ ref: CityRef) -> CitySummary
    /// The name of `ref` that matched `query`, or nil when the canonical name matched.
    func matchedName(_ ref: CityRef, query: String) -> String?
}

/// Finds cities by any of their names.
public struct SearchCitiesUseCase: Sendable {
    private let repository: CityRepository
    public init(repository: CityRepository) { self.repository = repository }

    public func execute(query: String) -> CityMatches {
        repository.search(Self.trimmed(query))
    }

    /// `query` without leading and trailing white space (what `trimmingCharacters(in:
    /// .whitespacesAndNewlines)` gives, without Foundation's bridging on every keystroke).
    static func trimmed(_ query: String) -> String {
        let scalars = query.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return query }
        return String(scalars[first...last])
    }

    public func hit(_ ref: CityRef, query: String) -> CitySearchHit {
        CitySearchHit(city: repository.summary(ref), matchedName: repository.matchedName(ref, query: query))
    }

    public func city(_ ref: CityRef) -> City { repository.city(ref) }
}
