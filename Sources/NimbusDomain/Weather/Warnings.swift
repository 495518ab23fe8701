import Foundation
import OpenCombineShim

/// An official weather warning (a watch, warning or advisory) as the issuing service published it:
/// its text in the service's own language, its times as instants.
public struct WeatherWarning: Equatable, Sendable, Identifiable {
    /// Who publishes it.
    public enum Source: String, Equatable, Sendable, CaseIterable {
        /// The US National Weather Service.
        case nws
        /// MeteoAlarm, for the European national services.
        case meteoAlarm
        /// The Japan Meteorological Agency.
        case jma
    }

    /// How bad it is, in CAP's words; anything a service sends outside them is `.unknown`.
    public enum Severity: Int, Equatable, Comparable, Sendable, CaseIterable {
        case unknown, minor, moderate, severe, extreme

        public static func < (l: Severity, r: Severity) -> Bool { l.rawValue < r.rawValue }

        /// CAP's `severity` ("Extreme", "Severe", "Moderate", "Minor"), any case; else `.unknown`.
        public init(cap: String?) {
            switch cap?.trimmingCharacters(in: .whitespaces).lowercased() {
            case "extreme": self = .extreme
            case "severe": self = .severe
            case "moderate": self = .moderate
            case "minor": self = .minor
            default: self = .unknown
            }
        }
    }

    /// The service's identifier of the message (unique within its source).
    public let id: String
    public let source: Source
    /// "Tornado Warning", "Yellow wind warning", "大雨警報".
    public let event: String
    public let severity: Severity
    public let headline: String?
    public let description: String?
    /// What to do.
    public let instruction: String?
    /// The issuing office ("NWS Seattle WA", "Deutscher Wetterdienst", "気象庁").
    public let sender: String?
    /// From when the message is in force.
    public let effective: Date?
    /// When the weather itself is expected to start.
    public let onset: Date?
    /// When the message stops being valid; nil when the service gives none (JMA: until lifted).
    public let expires: Date?
    /// The language of the text (BCP 47, "en-US", "de-DE", "ja"), when known.
    public let language: String?

    public init(id: String, source: Source, event: String, severity: Severity, headline: String?, description: String?,
                instruction: String?, sender: String?, effective: Date?, onset: Date?, expires: Date?, language: String?) {
        self.id = id
        self.source = source
        self.event = event
        self.severity = severity
        self.headline = headline
        self.description = description
        self.instruction = instruction
        self.sender = sender
        self.effective = effective
        self.onset = onset
        self.expires = expires
        self.language = language
    }

    /// Instants a warning's times must lie in to be believed: from 2000 to 2200.
    public static let believableTimes = Date(timeIntervalSince1970: 946_684_800)...Date(timeIntervalSince1970: 7_258_118_400)

    /// Longest a warning can be in force (from its effective time, or its onset, to its expiry):
    /// anything longer is a malformed message, not a warning.
    public static let longestValidity: TimeInterval = 31 * 86_400
}

/// Whether a place has an official warnings source.
public enum WarningsCoverage: Equatable, Sendable {
    /// Warnings for the place come from `source`.
    case covered(WeatherWarning.Source)
    /// There is no official warnings source for the place (its country, or no warning region
    /// could be found for it); the screen says so rather than showing nothing.
    case notCovered
}

/// A place's warnings as a source last gave them.
public struct WarningsReport: Equatable, Sendable {
    /// Most severe first, then the soonest to expire.
    public let warnings: [WeatherWarning]
    public let source: WeatherWarning.Source
    /// When the service last answered for them (a fetch or a "not modified").
    public let checkedAt: Date
    /// From the disk: the service has not been asked yet, or could not be reached.
    public let isCached: Bool

    public init(warnings: [WeatherWarning], source: WeatherWarning.Source, checkedAt: Date, isCached: Bool) {
        self.warnings = warnings
        self.source = source
        self.checkedAt = checkedAt
        self.isCached = isCached
    }

    /// How long a warning without an expiry time (JMA's last until lifted) is believed after the
    /// service last confirmed it: past this an old copy could show a warning long lifted.
    public static let trustWithoutExpiry: TimeInterval = 3 * 3600

    /// The warnings in force at `now`: not expired, and a warning without an expiry only while the
    /// report is younger than `trustWithoutExpiry`; most severe first, then the soonest to expire.
    public func active(at now: Date) -> [WeatherWarning] {
        warnings.filter { warning in
            if let expires = warning.expires { return expires > now }
            return now.timeIntervalSince(checkedAt) < Self.trustWithoutExpiry && checkedAt <= now.addingTimeInterval(60)
        }
        .sorted(by: Self.order)
    }

    /// Most severe first; then the soonest to expire (none last); then by event and id, so equal
    /// warnings keep one order.
    public static func order(_ a: WeatherWarning, _ b: WeatherWarning) -> Bool {
        if a.severity != b.severity { return a.severity > b.severity }
        switch (a.expires, b.expires) {
        case let (x?, y?) where x != y: return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default: break
        }
        return a.event != b.event ? a.event < b.event : a.id < b.id
    }
}

/// Why warnings could not be had.
public enum WarningsError: Error, Equatable, Sendable {
    case offline
    case timedOut
    case rateLimited
    case server(status: Int)
    /// The answer was not what the service sends (not its format, nothing believable in it).
    case badResponse
    case tooLarge
    /// The service said "not modified" but there is no copy to keep showing.
    case notModifiedWithoutCache
    /// A configured base URL (`NIMBUS_NWS_URL`, `NIMBUS_METEOALARM_URL`, `NIMBUS_JMA_URL`) is not a URL.
    case badConfiguration
    /// The server redirected elsewhere, or round in a loop.
    case redirected
    /// The connection broke off in the answer (the server sent less than it announced).
    case connectionLost
    /// MeteoAlarm's warning regions (`meteoalarm-regions.tsv`) could not be read: the place's
    /// country has a source, but which of its warnings are the place's is not known.
    case regionsUnavailable
    /// The service's own area table put the place in none of its warning areas.
    case regionUnknown
}

/// Official warnings for cities; the live one asks the NWS, MeteoAlarm or JMA, by the city's country.
public protocol WarningsRepository: Sendable {
    /// Whether the city has a warnings source; cheap, no network.
    func coverage(for city: City) -> WarningsCoverage
    /// The city's warnings: the kept copy first, when there is one (`isCached`), then the service's
    /// answer. Only for a covered city; an uncovered one finishes with no value.
    func warnings(for city: City) -> AnyPublisher<WarningsReport, WarningsError>
}

/// A city's warnings in force, with whether it has a source at all.
public struct CityWarnings: Equatable, Sendable {
    public let coverage: WarningsCoverage
    /// In force when the answer was read (`GetWarningsUseCase`'s clock), most severe first.
    public let active: [WeatherWarning]
    /// The report they came from (nil for an uncovered city): `report.active(at:)` tells again
    /// which are in force as the clock moves, without asking the service.
    public let report: WarningsReport?

    public init(coverage: WarningsCoverage, active: [WeatherWarning], report: WarningsReport?) {
        self.coverage = coverage
        self.active = active
        self.report = report
    }

    /// Which of the report's warnings are in force at `now`.
    public func active(at now: Date) -> [WeatherWarning] { report?.active(at: now) ?? [] }
}

/// A city's official warnings in force: only unexpired ones, at the clock's time when each answer
/// comes; an uncovered city gets one answer saying so.
public struct GetWarningsUseCase: Sendable {
    private let repository: WarningsRepository
    private let now: @Sendable () -> Date

    public init(repository: WarningsRepository, now: @escaping @Sendable () -> Date = Date.init) {
        self.repository = repository
        self.now = now
    }

    public func coverage(for city: City) -> WarningsCoverage { repository.coverage(for: city) }

    /// Which service covers the city is asked when the answer is subscribed to, so a subscriber on
    /// another queue reads the services' region tables there.
    public func execute(for city: City) -> AnyPublisher<CityWarnings, WarningsError> {
        let repository = self.repository
        let now = self.now
        return Deferred { () -> AnyPublisher<CityWarnings, WarningsError> in
            let coverage = repository.coverage(for: city)
            guard case .covered = coverage else {
                return Just(CityWarnings(coverage: .notCovered, active: [], report: nil))
                    .setFailureType(to: WarningsError.self).eraseToAnyPublisher()
            }
            return repository.warnings(for: city)
                .map { CityWarnings(coverage: coverage, active: $0.active(at: now()), report: $0) }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
