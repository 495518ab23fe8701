import Foundation
import NimbusDomain
import OpenCombineShim

/// What a warnings service answered for a place.
struct WarningsAnswer: Sendable {
    enum Kind: Sendable {
        /// A new body (200): its warnings, checked, and its validators.
        case fresh
        /// The kept warnings still stand (304).
        case notModified
    }

    let kind: Kind
    let warnings: [WeatherWarning]
    let validators: HTTPValidators
}

/// One warnings service: which cities it covers, and their warnings, asked conditionally on what
/// was kept from its last answer.
protocol WarningsSource: Sendable {
    var source: WeatherWarning.Source { get }
    /// Whether the city is in the service's area (and, where regions are matched, in one of them).
    func covers(_ city: City) -> Bool
    /// The city's warnings, asked conditionally on `kept` (its validators); `kept`'s warnings are the
    /// answer to a 304.
    func fetch(for city: City, kept: WarningsCache.Entry?) -> AnyPublisher<WarningsAnswer, WarningsError>
}

extension WarningsSource {
    /// A conditional GET of `request` on `kept`, the body made into warnings by `decode` (which
    /// throws when nothing believable is in it).
    func conditional(_ client: HTTPClient, _ request: HTTPRequest, kept: WarningsCache.Entry?,
                     decode: @escaping @Sendable (Data) throws -> [WeatherWarning]) -> AnyPublisher<WarningsAnswer, WarningsError> {
        client.conditionalGet(request, cached: kept.map { HTTPCached(value: $0.warnings, validators: $0.validators) })
            .mapError(WarningsErrors.map)
            .tryMap { response -> WarningsAnswer in
                switch response {
                case .modified(let response, let validators):
                    return WarningsAnswer(kind: .fresh, warnings: try decode(response.body), validators: validators)
                case .notModified(let warnings):
                    return WarningsAnswer(kind: .notModified, warnings: warnings, validators: kept?.validators ?? HTTPValidators(etag: nil, lastModified: nil))
                }
            }
            .mapError { ($0 as? WarningsError) ?? .badResponse }
            .eraseToAnyPublisher()
    }
}

enum WarningsErrors {
    static func map(_ error: ConditionalGetError) -> WarningsError {
        switch error {
        case .notModifiedWithoutCache: return .notModifiedWithoutCache
        case .http(let error): return map(error)
        }
    }

    static func map(_ error: HTTPError) -> WarningsError { .from(error) }
}

/// The checks every service's warning goes through before it becomes a `WeatherWarning`.
enum WarningChecks {
    /// A warning from its parts, or nil when it is not believable: no event, no expiry where the
    /// service always gives one (`needsExpiry`), an expiry before its start, or one in force longer
    /// than `WeatherWarning.longestValidity`.
    static func warning(id: String?, source: WeatherWarning.Source, event: String?, severity: WeatherWarning.Severity,
                        headline: String?, description: String?, instruction: String?, sender: String?,
                        effective: Date?, onset: Date?, expires: Date?, needsExpiry: Bool,
                        language: String?) -> WeatherWarning? {
        guard let event = WarningText.single(event),
              let id = WarningText.single(id, limit: WarningText.id) else { return nil }
        if needsExpiry && expires == nil { return nil }
        if let expires {
            let start = [effective, onset].compactMap { $0 }.min()
            if let start {
                guard expires >= start, expires.timeIntervalSince(start) <= WeatherWarning.longestValidity else { return nil }
            }
        }
        return WeatherWarning(id: id, source: source, event: event, severity: severity,
                              headline: WarningText.single(headline), description: WarningText.multiline(description),
                              instruction: WarningText.multiline(instruction), sender: WarningText.single(sender),
                              effective: effective, onset: onset, expires: expires, language: WarningText.language(language))
    }

    /// The warnings of an answer that had `count` items: at most `WarningText.maxWarnings`, in
    /// `WarningsReport.order`, one per id; throws when items came but none was believable (a body
    /// that only looks like an answer is not cached as "no warnings").
    static func kept(_ warnings: [WeatherWarning], of count: Int) throws -> [WeatherWarning] {
        guard count == 0 || !warnings.isEmpty else { throw WarningsError.badResponse }
        var seen = Set<String>()
        let unique = warnings.sorted(by: WarningsReport.order).filter { seen.insert($0.id).inserted }
        return Array(unique.prefix(WarningText.maxWarnings))
    }
}
