import Foundation
import OpenCombineShim

/// One earthquake (or other seismic event) from a feed.
public struct Quake: Equatable, Sendable, Identifiable {
    /// PAGER's estimate of the impact, when there is one.
    public enum Alert: String, Equatable, Sendable, CaseIterable {
        case green, yellow, orange, red
    }

    public let id: String
    public let magnitude: Double
    /// "23 km SW of Pohang, South Korea", as the feed names the place (sanitised and capped).
    public let place: String
    public let time: Date
    /// When the feed last changed this event: a newer one replaces it.
    public let updated: Date
    /// Minutes from UTC at the epicentre, when the feed gives it.
    public let timeZoneOffsetMinutes: Int?
    public let coordinate: Coordinate
    public let depthKilometres: Double
    public let url: String?
    /// "Did you feel it?" reports.
    public let felt: Int?
    public let alert: Alert?
    public let tsunami: Bool
    public let significance: Int?
    public let magnitudeType: String?
    /// "earthquake", "quarry blast", ...
    public let kind: String?
    public let reviewed: Bool

    public init(id: String, magnitude: Double, place: String, time: Date, updated: Date, timeZoneOffsetMinutes: Int?,
                coordinate: Coordinate, depthKilometres: Double, url: String?, felt: Int?, alert: Alert?, tsunami: Bool,
                significance: Int?, magnitudeType: String?, kind: String?, reviewed: Bool) {
        self.id = id
        self.magnitude = magnitude
        self.place = place
        self.time = time
        self.updated = updated
        self.timeZoneOffsetMinutes = timeZoneOffsetMinutes
        self.coordinate = coordinate
        self.depthKilometres = depthKilometres
        self.url = url
        self.felt = felt
        self.alert = alert
        self.tsunami = tsunami
        self.significance = significance
        self.magnitudeType = magnitudeType
        self.kind = kind
        self.reviewed = reviewed
    }

    /// The physical ranges an event's numbers must be in; anything outside is not an event to show.
    public static let magnitudes: ClosedRange<Double> = -2...10.5
    public static let depths: ClosedRange<Double> = -10...1_000
}

/// Which of the USGS summary feeds: a minimum magnitude and a period.
public struct QuakeFeed: Hashable, Sendable, CustomStringConvertible {
    public enum Magnitude: String, CaseIterable, Sendable {
        case all, one = "1.0", twoAndAHalf = "2.5", fourAndAHalf = "4.5", significant
    }

    public enum Period: String, CaseIterable, Sendable {
        case hour, day, week, month

        /// How far back the feed reaches.
        public var duration: TimeInterval {
            switch self {
            case .hour: return 3_600
            case .day: return 86_400
            case .week: return 7 * 86_400
            case .month: return 30 * 86_400
            }
        }
    }

    public let magnitude: Magnitude
    public let period: Period

    public init(magnitude: Magnitude, period: Period) {
        self.magnitude = magnitude
        self.period = period
    }

    /// `/earthquakes/feed/v1.0/summary/2.5_day.geojson`.
    public var path: String { "/earthquakes/feed/v1.0/summary/\(magnitude.rawValue)_\(period.rawValue).geojson" }

    public var description: String { "\(magnitude.rawValue)_\(period.rawValue)" }

    /// How often the feed changes at most: asking more often than this gains nothing.
    public static let updateInterval: TimeInterval = 60
}

/// A feed's events as last fetched or kept: newest first, at most `QuakeFeedSnapshot.limit`.
public struct QuakeFeedSnapshot: Equatable, Sendable {
    /// Events kept per feed.
    public static let limit = 500

    public let quakes: [Quake]
    /// Events in the answer that were malformed or out of range and left out.
    public let dropped: Int
    /// When USGS made the feed.
    public let generated: Date?

    public init(quakes: [Quake], dropped: Int, generated: Date?) {
        self.quakes = quakes
        self.dropped = dropped
        self.generated = generated
    }

    /// `fresh` merged into `old`: events are one per id, the later `updated` wins, newest first, at most `limit`.
    public static func merging(_ old: [Quake], _ fresh: [Quake]) -> [Quake] {
        var byID: [String: Quake] = [:]
        for quake in old + fresh {
            if let known = byID[quake.id], known.updated > quake.updated { continue }
            byID[quake.id] = quake
        }
        return byID.values.sorted { $0.time != $1.time ? $0.time > $1.time : $0.id < $1.id }.prefix(limit).map { $0 }
    }
}

/// How a feed came: from the disk cache, fresh from the server, or confirmed unchanged by it (304).
public enum QuakeFeedOrigin: Equatable, Sendable {
    case cache
    case fresh
    case notModified
}

/// A feed with where it came from and when it was last checked with the server.
public struct QuakeFeedUpdate: Equatable, Sendable {
    public let snapshot: QuakeFeedSnapshot
    public let origin: QuakeFeedOrigin
    /// When the server last answered for it (a fetch or a 304); for a cached feed, when it was fetched.
    public let checkedAt: Date

    public init(snapshot: QuakeFeedSnapshot, origin: QuakeFeedOrigin, checkedAt: Date) {
        self.snapshot = snapshot
        self.origin = origin
        self.checkedAt = checkedAt
    }
}

public enum QuakeError: Error, Equatable, Sendable {
    case offline
    case timedOut
    case rateLimited
    case server(status: Int)
    /// The answer was not a feed (not GeoJSON, no `features`).
    case badResponse
    /// The answer was larger than a feed can be.
    case tooLarge
    /// The server said "not modified" but there is no copy to keep showing.
    case notModifiedWithoutCache
    /// `NIMBUS_QUAKES_URL` is not a URL.
    case badConfiguration
}

/// The event feeds.
public protocol QuakeRepository: Sendable {
    /// The feed: the cached copy first (if any), then the server's answer, asked for conditionally
    /// when a copy with validators is kept.
    func feed(_ feed: QuakeFeed) -> AnyPublisher<QuakeFeedUpdate, QuakeError>
}

/// A Flinn–Engdahl seismic region: the name seismologists (and USGS) give an event far from towns
/// ("South Atlantic Ocean", "Mid-Atlantic Ridge"), in English, Korean and Japanese.
public struct SeismicRegion: Equatable, Sendable {
    public let number: Int
    public let english: String
    public let korean: String
    public let japanese: String

    public init(number: Int, english: String, korean: String, japanese: String) {
        self.number = number
        self.english = english
        self.korean = korean
        self.japanese = japanese
    }
}

/// The Flinn–Engdahl regions: which one a point is in.
public protocol SeismicRegions: Sendable {
    func region(at coordinate: Coordinate) -> SeismicRegion?
}

/// Where an event is, said the way people say it: its distance and direction from the nearest
/// catalogue city ("23 km SW of Pohang"), and, where that city is too far to tell anyone where the
/// event was, its seismic region; found offline.
public struct QuakePlace: Equatable, Sendable {
    public let city: City
    public let kilometres: Double
    /// From the city towards the epicentre, degrees clockwise from north.
    public let bearing: Double
    /// The event's Flinn–Engdahl region (nil when the regions are not at hand).
    public let region: SeismicRegion?
    /// The zone whose clocks tell the event's local time (`QuakesUseCase.zone`).
    public let zone: String

    public init(city: City, kilometres: Double, bearing: Double, region: SeismicRegion? = nil, zone: String? = nil) {
        self.city = city
        self.kilometres = kilometres
        self.bearing = bearing
        self.region = region
        self.zone = zone ?? city.timeZone
    }

    /// Beyond this distance a town's name misleads more than it tells ("3,909 km S of Ushuaia" for the
    /// South Pole): the event is named by its region, and the town is said second.
    public static let regionBeyondKilometres = 300.0

    /// Whether the event is named by its region rather than by the town.
    public var isNamedByRegion: Bool { region != nil && kilometres > Self.regionBeyondKilometres }

    /// Whether `zone` is the sea's nautical zone rather than the town's.
    public var isNauticalZone: Bool { zone.hasPrefix("Etc/") }
}

/// Fetches a feed and places its events near the catalogue's cities.
public struct QuakesUseCase: Sendable {
    private let repository: QuakeRepository
    private let locator: CityLocating
    private let cities: CityRepository
    private let regions: SeismicRegions?

    public init(repository: QuakeRepository, locator: CityLocating, cities: CityRepository, regions: SeismicRegions? = nil) {
        self.repository = repository
        self.locator = locator
        self.cities = cities
        self.regions = regions
    }

    public func feed(_ feed: QuakeFeed) -> AnyPublisher<QuakeFeedUpdate, QuakeError> { repository.feed(feed) }

    /// The event's nearest catalogue city, its distance and direction; nil for an empty catalogue.
    public func place(of quake: Quake) -> QuakePlace? {
        guard let point = GeoPoint(latitude: quake.coordinate.latitude, longitude: quake.coordinate.longitude),
              let ref = locator.nearestCity(to: point) else { return nil }
        let city = cities.city(ref)
        let from = Coordinate(latitude: city.latitude, longitude: city.longitude)
        let kilometres = from.distance(to: quake.coordinate)
        return QuakePlace(city: city, kilometres: kilometres, bearing: Self.bearing(from: from, to: quake.coordinate),
                          region: regions?.region(at: quake.coordinate),
                          zone: Self.zone(at: quake.coordinate, nearest: city, kilometres: kilometres))
    }

    /// The zone of an event's local time: the nearest town's, within the distance where the town
    /// names the place (a quake off Japan keeps Japan's clocks); beyond it, out at sea or far inland
    /// where no catalogue town says which clocks people keep, the nautical zone of its longitude
    /// (UTC±n for the 15° band around n × 15°, what ships keep on the high seas: `Etc/GMT∓n`).
    public static func zone(at point: Coordinate, nearest city: City, kilometres: Double) -> String {
        if kilometres <= QuakePlace.regionBeyondKilometres { return city.timeZone }
        let hours = Int((point.longitude / 15).rounded())
        switch hours {
        case 0: return "Etc/GMT"
        // The Etc names count the other way: Etc/GMT-3 is three hours east of UTC.
        case let h where h > 0: return "Etc/GMT-\(min(h, 12))"
        default: return "Etc/GMT+\(min(-hours, 12))"
        }
    }

    /// The initial great-circle bearing from `a` to `b`, in degrees 0..<360.
    public static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let degrees = atan2(y, x) * 180 / .pi
        return (degrees + 360).truncatingRemainder(dividingBy: 360)
    }
}
