import Foundation
import OpenCombineShim

/// Which air quality index a place reads: the European one (EEA, 0–100+) in Europe, the US EPA's
/// (0–500) elsewhere, as each region's own services report it.
public enum AirQualityScale: Equatable, Sendable {
    case european
    case us

    /// ISO 3166-1 codes of the countries and territories of Europe (EU, EEA, the Balkans, the UK,
    /// Switzerland, the microstates, Ukraine, Belarus and Moldova), where the European index is the
    /// one people see. Russia and Turkey lie in both continents: `isInEurope` decides by the place.
    static let europe: Set<String> = [
        "AD", "AL", "AT", "AX", "BA", "BE", "BG", "BY", "CH", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FO", "FR",
        "GB", "GG", "GI", "GR", "HR", "HU", "IE", "IM", "IS", "IT", "JE", "LI", "LT", "LU", "LV", "MC", "MD", "ME",
        "MK", "MT", "NL", "NO", "PL", "PT", "RO", "RS", "SE", "SI", "SJ", "SK", "SM", "UA", "VA", "XK",
    ]

    /// The scale of the city's region: the European index for cities in Europe, the US one elsewhere.
    public init(city: City) {
        self = Self.isInEurope(countryCode: city.countryCode, at: city.coordinate) ? .european : .us
    }

    /// Whether a place of that country at that point is in Europe: the countries above; Russia west
    /// of the Urals (60° E: Moscow, Perm and Ufa are, Yekaterinburg and Vladivostok are not); Turkey's
    /// East Thrace, west of the Bosporus and north of the Dardanelles (Istanbul's old city and Edirne,
    /// not Ankara, Bursa or Çanakkale).
    public static func isInEurope(countryCode: String, at point: Coordinate) -> Bool {
        switch countryCode.uppercased() {
        case "RU": return point.longitude < 60
        case "TR": return point.longitude < 29 && point.latitude >= 40.4
        case let code: return europe.contains(code)
        }
    }
}

/// How clean the air is: one of the six bands of the scale read, 0 (good) … 5 (the worst), which
/// share their colours across the two scales.
public struct AirQualityBand: Equatable, Sendable {
    public let scale: AirQualityScale
    /// US: good, moderate, unhealthy for sensitive groups, unhealthy, very unhealthy, hazardous.
    /// European: good, fair, moderate, poor, very poor, extremely poor.
    public let severity: Int

    /// The band of `index` on `scale`: EPA 0–50 good … 301+ hazardous; EEA 0–20 good, 20–40 fair,
    /// 40–60 moderate, 60–80 poor, 80–100 very poor, 100+ extremely poor (the index rounded).
    public init(index: Double, scale: AirQualityScale) {
        self.scale = scale
        let value = index.rounded()
        let upper: [Double] = scale == .us ? [50, 100, 150, 200, 300] : [20, 40, 60, 80, 100]
        severity = upper.firstIndex { value <= $0 } ?? upper.count
    }
}

/// The WHO's UV index categories.
public enum UVCategory: Int, Equatable, Sendable, CaseIterable {
    case low, moderate, high, veryHigh, extreme

    /// 0–2 low, 3–5 moderate, 6–7 high, 8–10 very high, 11+ extreme (the index rounded, as the WHO reports it).
    public init(index: Double) {
        switch index.rounded() {
        case ..<3: self = .low
        case ..<6: self = .moderate
        case ..<8: self = .high
        case ..<11: self = .veryHigh
        default: self = .extreme
        }
    }
}

/// The air now and today's strongest sun at one place. Every value is nil when the source gave none
/// it could be believed about.
public struct AirQuality: Equatable, Sendable {
    public let time: Date
    public let usIndex: Double?
    public let europeanIndex: Double?
    /// µg/m³.
    public let pm2_5: Double?
    public let pm10: Double?
    public let ozone: Double?
    /// The UV index now, and the day's highest (local day of the place).
    public let uvIndex: Double?
    public let uvIndexMax: Double?

    public init(time: Date, usIndex: Double?, europeanIndex: Double?, pm2_5: Double?, pm10: Double?, ozone: Double?,
                uvIndex: Double?, uvIndexMax: Double?) {
        self.time = time
        self.usIndex = usIndex
        self.europeanIndex = europeanIndex
        self.pm2_5 = pm2_5
        self.pm10 = pm10
        self.ozone = ozone
        self.uvIndex = uvIndex
        self.uvIndexMax = uvIndexMax
    }

    /// The index on `scale`, or nil when the source gave none.
    public func index(_ scale: AirQualityScale) -> Double? {
        scale == .us ? usIndex : europeanIndex
    }
}

/// Air quality for places; the live one asks Open-Meteo's air-quality API and keeps a disk cache.
public protocol AirQualityRepository: Sendable {
    /// The air at `coordinate`: the cached answer first when there is one (`isCached`), then a fresh
    /// one; fails with a `WeatherError` (after the cached value) when the server can't be reached.
    /// Cancelling the subscription cancels the request.
    func airQuality(for coordinate: Coordinate) -> AnyPublisher<Fetched<AirQuality>, WeatherError>
}

/// The air of a city: cached first, then fresh.
public struct GetAirQualityUseCase: Sendable {
    private let repository: AirQualityRepository
    public init(repository: AirQualityRepository) { self.repository = repository }

    public func execute(for city: City) -> AnyPublisher<Fetched<AirQuality>, WeatherError> {
        repository.airQuality(for: city.coordinate)
    }
}
