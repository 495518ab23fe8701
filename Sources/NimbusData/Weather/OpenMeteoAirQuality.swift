import Foundation
import Logging
import FoundationNetworking
import NimbusDomain
import OpenCombineShim

/// Open-Meteo `/v1/air-quality` answers, as requested with `timeformat=unixtime` and `timezone=auto`:
/// the air now, and today's hourly UV index (the API has no daily fields).
struct OpenMeteoAirQualityDTO: Codable {
    struct Current: Codable {
        let time: Int
        let us_aqi: Double?
        let european_aqi: Double?
        let pm2_5: Double?
        let pm10: Double?
        let ozone: Double?
        let uv_index: Double?
    }

    struct Hourly: Codable {
        let time: [Int]
        let uv_index: [Double?]?
    }

    let latitude: Double
    let longitude: Double
    let utc_offset_seconds: Int?
    let current: Current?
    let hourly: Hourly?
}

/// The bounds an air-quality value must lie in to be believed; outside them it counts as missing.
enum AirRange {
    /// Both indices: the US one tops out at 500, the European one has no top but passes 100 only in
    /// the worst smoke and dust; beyond 1000 is not a reading.
    static let index = 0.0...1000.0
    /// µg/m³: wildfire smoke reaches a few hundred PM2.5, dust storms a few thousand PM10.
    static let pm2_5 = 0.0...2000.0
    static let pm10 = 0.0...5000.0
    static let ozone = 0.0...1000.0
    /// The highest UV index ever measured is about 43 (the Andes, 2003).
    static let uv = 0.0...50.0
    /// Hours of UV read for "today" (one day is asked for; a longer list is cut).
    static let maxHours = 48
}

extension OpenMeteoAirQualityDTO {
    /// The air now and today's UV maximum; throws when there is nothing to show.
    func toDomain() throws -> AirQuality {
        guard let current else { throw OpenMeteoShapeError.missing("current") }
        guard Coordinate(latitude: latitude, longitude: longitude).isValid else {
            throw OpenMeteoShapeError.outOfRange("latitude/longitude")
        }
        guard let time = PhysicalRange.date(current.time) else { throw OpenMeteoShapeError.outOfRange("current.time") }
        let uvNow = PhysicalRange.check(current.uv_index, AirRange.uv)
        // Today's hours only: the answer is for one local day, and hours outside it are not today's.
        let hours = (hourly?.time ?? []).prefix(AirRange.maxHours).enumerated().compactMap { i, t -> Double? in
            guard PhysicalRange.date(t) != nil, let list = hourly?.uv_index, i < list.count else { return nil }
            return PhysicalRange.check(list[i], AirRange.uv)
        }
        let uvMax = (hours + [uvNow].compactMap { $0 }).max()
        let air = AirQuality(
            time: time,
            usIndex: PhysicalRange.check(current.us_aqi, AirRange.index),
            europeanIndex: PhysicalRange.check(current.european_aqi, AirRange.index),
            pm2_5: PhysicalRange.check(current.pm2_5, AirRange.pm2_5),
            pm10: PhysicalRange.check(current.pm10, AirRange.pm10),
            ozone: PhysicalRange.check(current.ozone, AirRange.ozone),
            uvIndex: uvNow, uvIndexMax: uvMax)
        guard air.usIndex != nil || air.europeanIndex != nil || air.pm2_5 != nil || air.pm10 != nil
                || air.ozone != nil || air.uvIndexMax != nil else { throw OpenMeteoShapeError.empty("current") }
        return air
    }

    static func decode(_ data: Data) throws -> OpenMeteoAirQualityDTO {
        try JSONDecoder().decode(OpenMeteoAirQualityDTO.self, from: data)
    }
}

/// Air quality and UV from Open-Meteo's air-quality API (no key), with the last answer for each place on disk.
public final class OpenMeteoAirQualityRepository: AirQualityRepository, Sendable {
    public static let defaultBaseURL = "https://air-quality-api.open-meteo.com"
    /// The largest answer accepted (one day is a few kilobytes).
    public static let maxBytes = 256 << 10

    private let client: HTTPClient
    private let baseURL: String
    private let cache: WeatherCache?
    private let now: @Sendable () -> Date
    private let timeout: TimeInterval
    private let logger: Logger?

    /// - Parameters:
    ///   - baseURL: the server (`NIMBUS_AIR_URL`), without `/v1/air-quality`.
    ///   - cache: where answers are kept; nil keeps none.
    public init(client: HTTPClient, baseURL: String = defaultBaseURL, cache: WeatherCache?, timeout: TimeInterval = 10,
                now: @escaping @Sendable () -> Date = Date.init, logger: Logger? = nil) {
        self.client = client
        self.baseURL = baseURL
        self.cache = cache
        self.timeout = timeout
        self.now = now
        self.logger = logger
    }

    /// The base URL from the environment (`NIMBUS_AIR_URL`), else Open-Meteo's.
    public static func baseURL(environment: [String: String]) -> String {
        HTTPRequest.base(environment["NIMBUS_AIR_URL"], else: defaultBaseURL)
    }

    static let currentFields = "us_aqi,european_aqi,pm2_5,pm10,ozone,uv_index"

    public func airQuality(for coordinate: Coordinate) -> AnyPublisher<Fetched<AirQuality>, WeatherError> {
        guard coordinate.isValid, let request = HTTPRequest(base: baseURL, path: "/v1/air-quality", query: [
            URLQueryItem(name: "latitude", value: String(format: "%.4f", coordinate.latitude)),
            URLQueryItem(name: "longitude", value: String(format: "%.4f", coordinate.longitude)),
            URLQueryItem(name: "current", value: Self.currentFields),
            URLQueryItem(name: "hourly", value: "uv_index"),
            URLQueryItem(name: "forecast_days", value: "1"),
            URLQueryItem(name: "timezone", value: "auto"),
            URLQueryItem(name: "timeformat", value: "unixtime"),
        ], timeout: timeout, maxBytes: Self.maxBytes) else {
            return Fail(error: .badConfiguration).eraseToAnyPublisher()
        }
        return WeatherCache.keptThenFresh(cache, coordinate: coordinate, client: client, request: request, now: now,
                                          logger: logger, what: "air quality") { try OpenMeteoAirQualityDTO.decode($0).toDomain() }
    }
}
