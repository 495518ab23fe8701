import Foundation

/// Read access to the city catalogue.
///
/// Search is synchronous and fast (well under a millisecond at 34k cities); callers choose the queue.
public protocol CityRepository: Sendable {
    /// Number of cities in the catalogue.
    var cityCount: Int { get }
    /// Cities whose names contain, for every word of `query`, a word starting with it
    /// (case- and accent-insensitive, any script), ranked by what matched (`CityMatches`): the
    /// cities whose own name (GeoNames', or the one shown in `language`) the query is or starts
    /// with first. An empty query matches every city, most populous first.
    func search(_ query: String, in language: CityNameLanguage) -> CityMatches
    /// The city at a position of the catalogue.
    func city(_ ref: CityRef) -> City
    /// The parts of that city a result row shows, without decoding its alternate names.
    func summary(_ ref: CityRef) -> CitySummary
    /// The name of `ref` that matched `query`, or nil when an own name matched: the canonical one, or
    /// the one shown in `language`.
    func matchedName(_ ref: CityRef, query: String, in language: CityNameLanguage) -> String?
    /// When nothing matches `query`: the cities it may have meant (names within two edits), at most `limit`.
    func suggestions(for query: String, in language: CityNameLanguage, limit: Int) -> [CityRef]
}

extension CityRepository {
    /// A repository that suggests nothing.
    public func suggestions(for query: String, in language: CityNameLanguage, limit: Int) -> [CityRef] { [] }
    /// `search(_:in:)` ranking by GeoNames' names alone.
    public func search(_ query: String) -> CityMatches { search(query, in: .geoNames) }
    /// `matchedName(_:query:in:)` with GeoNames' name alone as the city's own.
    public func matchedName(_ ref: CityRef, query: String) -> String? { matchedName(ref, query: query, in: .geoNames) }
}

/// Finds cities by any of their names, ranked for the language the names are shown in.
public struct SearchCitiesUseCase: Sendable {
    private let repository: CityRepository
    private let language: CityNameLanguage

    public init(repository: CityRepository, language: CityNameLanguage = .geoNames) {
        self.repository = repository
        self.language = language
    }

    /// How many cities a query that matches nothing suggests.
    public static let suggestionLimit = 3

    /// The matches, and when there are none (and no region or country the query named was unknown)
    /// the cities it may have meant.
    public func execute(query: String) -> CityMatches {
        let matches = repository.search(Self.trimmed(query), in: language)
        guard matches.count == 0, !matches.nameQuery.isEmpty else { return matches }
        if case .unknown? = matches.qualifier { return matches }
        return matches.suggesting(repository.suggestions(for: matches.nameQuery, in: language, limit: Self.suggestionLimit))
    }

    /// `query` without leading white space, and with trailing white space as one space: a space
    /// typed after a word says the word is whole ("la " for La Paz before Lagos), however many
    /// were typed (what `trimmingCharacters(in: .whitespacesAndNewlines)` would give, plus that
    /// space, without Foundation's bridging on every keystroke).
    static func trimmed(_ query: String) -> String {
        let scalars = query.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.index(after: last)
        if first == scalars.startIndex && (end == scalars.endIndex || scalars[end] == " " && scalars.index(after: end) == scalars.endIndex) {
            return query
        }
        return String(scalars[first...last]) + (end == scalars.endIndex ? "" : " ")
    }

    public func hit(_ ref: CityRef, query: String) -> CitySearchHit {
        CitySearchHit(city: repository.summary(ref), matchedName: repository.matchedName(ref, query: query, in: language))
    }

    public func city(_ ref: CityRef) -> City { repository.city(ref) }
}
