import Foundation

/// Where the app believes the user is, and how it knows.
public enum DeviceLocation: Equatable, Sendable {
    /// From `--location LAT,LON`.
    case argument(GeoPoint)
    /// From `NIMBUS_LOCATION`.
    case environment(GeoPoint)
    /// From the home setting (`home` in config.toml).
    case home(GeoPoint)
    /// Only the system time zone is known (`TZ` or `/etc/localtime`): an approximation.
    case timeZone(String)
    /// Nothing to go on (no valid variable, and a time zone such as UTC that names no place).
    case unknown
}

/// A location setting that was present but unusable, and so skipped.
public struct IgnoredLocationSetting: Equatable, Sendable {
    /// The variable's name, e.g. `NIMBUS_LOCATION`.
    public let name: String
    public let value: String
    public let error: GeoPoint.ParseError
    public init(name: String, value: String, error: GeoPoint.ParseError) {
        self.name = name
        self.value = value
        self.error = error
    }
}

/// Tells where the device is; the live one reads flags, environment and the system time zone.
public protocol DeviceLocationProviding: Sendable {
    func currentLocation() -> (location: DeviceLocation, ignored: [IgnoredLocationSetting])
}

/// Finds catalogue cities by position, offline.
public protocol CityLocating: Sendable {
    /// The catalogue city nearest to `point` (nil only for an empty catalogue).
    func nearestCity(to point: GeoPoint) -> CityRef?
    /// The most populous catalogue city in the IANA time zone `zone`.
    func largestCity(inTimeZone zone: String) -> CityRef?
}

/// The city the Current tab shows.
public struct CurrentCity: Equatable, Sendable {
    public let city: City
    public let location: DeviceLocation
    /// Distance from the given position to the city, in metres; nil when located by time zone.
    public let distance: Double?
    /// True when only the time zone was known.
    public var isApproximate: Bool { distance == nil }
    /// Settings that were skipped because they could not be read.
    public let ignored: [IgnoredLocationSetting]

    public init(city: City, location: DeviceLocation, distance: Double?, ignored: [IgnoredLocationSetting]) {
        self.city = city
        self.location = location
        self.distance = distance
        self.ignored = ignored
    }
}

/// Why no current city could be found.
public enum LocateCityError: Error, Equatable, Sendable {
    /// No position and no time zone with a catalogue city; `zone` is the time zone that was tried, if any.
    case noLocation(zone: String?, ignored: [IgnoredLocationSetting])
}

/// Resolves the device's location to the nearest catalogue city (reverse geocoding, offline).
public struct LocateCurrentCityUseCase: Sendable {
    private let provider: DeviceLocationProviding
    private let locator: CityLocating
    private let cities: CityRepository

    public init(provider: DeviceLocationProviding, locator: CityLocating, cities: CityRepository) {
        self.provider = provider
        self.locator = locator
        self.cities = cities
    }

    public func execute() -> Result<CurrentCity, LocateCityError> {
        let (location, ignored) = provider.currentLocation()
        switch location {
        case .argument(let point), .environment(let point), .home(let point):
            guard let ref = locator.nearestCity(to: point) else { return .failure(.noLocation(zone: nil, ignored: ignored)) }
            let city = cities.city(ref)
            let distance = point.distance(to: GeoPoint(latitude: city.latitude, longitude: city.longitude)
                                          ?? point)
            return .success(CurrentCity(city: city, location: location, distance: distance, ignored: ignored))
        case .timeZone(let zone):
            guard let ref = locator.largestCity(inTimeZone: zone) else {
                return .failure(.noLocation(zone: zone, ignored: ignored))
            }
            return .success(CurrentCity(city: cities.city(ref), location: location, distance: nil, ignored: ignored))
        case .unknown:
            return .failure(.noLocation(zone: nil, ignored: ignored))
        }
    }
}
