import Foundation
import Glibc
import Synchronization
import NimbusDomain
import OpenCombineShim

/// Climate normals from Open-Meteo's historical weather API (ERA5 reanalysis, keyless):
/// `GET /v1/archive?latitude=…&longitude=…&start_date=1991-01-01&end_date=2020-12-31
/// &daily=temperature_2m_max,temperature_2m_min&timezone=auto`, whose `daily` has `time`
/// ("YYYY-MM-DD") and the two series. One request a place in 90 days: the answer (10,958 days,
/// about 280 kB) becomes the mean high and low of every calendar day, each over a 15-day window of
/// the 30 years (450 values); normals no climate at the place's latitude has (`ClimatePlausibility`)
/// are refused, and those 366 pairs are kept on disk for 90 days (normals do not change; a copy that
/// was wrong does not stay), read back through the same checks.
public final class OpenMeteoArchiveRepository: ClimateNormalsRepository, Sendable {
    public static let defaultBaseURL = "https://archive-api.open-meteo.com"
    /// The answer is about 280 kB.
    static let maxBytes = 4 << 20

    private let client: HTTPClient
    private let baseURL: String
    private let cache: ClimateNormalsCache?
    private let timeout: TimeInterval

    public init(client: HTTPClient, baseURL: String = defaultBaseURL, cache: ClimateNormalsCache?, timeout: TimeInterval = 30) {
        self.client = client
        self.baseURL = baseURL
        self.cache = cache
        self.timeout = timeout
    }

    /// `NIMBUS_ARCHIVE_URL`, else Open-Meteo's.
    public static func baseURL(environment: [String: String]) -> String {
        HTTPRequest.base(environment["NIMBUS_ARCHIVE_URL"], else: defaultBaseURL)
    }

    func request(for coordinate: Coordinate) -> HTTPRequest? {
        HTTPRequest(base: baseURL, path: "/v1/archive", query: [
            URLQueryItem(name: "latitude", value: String(format: "%.4f", coordinate.latitude)),
            URLQueryItem(name: "longitude", value: String(format: "%.4f", coordinate.longitude)),
            URLQueryItem(name: "start_date", value: "\(ClimateNormals.years.lowerBound)-01-01"),
            URLQueryItem(name: "end_date", value: "\(ClimateNormals.years.upperBound)-12-31"),
            URLQueryItem(name: "daily", value: "temperature_2m_max,temperature_2m_min"),
            URLQueryItem(name: "timezone", value: "auto"),
        ], timeout: timeout, maxBytes: Self.maxBytes)
    }

    public func normals(for coordinate: Coordinate, refresh: Bool) -> AnyPublisher<ClimateNormals, ClimateError> {
        let cache = self.cache
        let client = self.client
        guard coordinate.isValid, let request = request(for: coordinate) else {
            return Fail(error: .badConfiguration).eraseToAnyPublisher()
        }
        return Deferred { () -> AnyPublisher<ClimateNormals, ClimateError> in
            if !refresh, let kept = cache?.read(coordinate) {
                return Just(kept).setFailureType(to: ClimateError.self).eraseToAnyPublisher()
            }
            return client.publisher(for: request)
                .mapError(Self.map)
                .tryMap { response -> ClimateNormals in
                    let normals = try ArchiveDTO.normals(response.body, at: coordinate)
                    cache?.write(normals)
                    return normals
                }
                .mapError { ($0 as? ClimateError) ?? .badResponse }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    public func forget(_ coordinate: Coordinate) {
        cache?.remove(coordinate)
    }

    static func map(_ error: HTTPError) -> ClimateError { .from(error) }
}

/// The archive's answer.
enum ArchiveDTO {
    struct Answer: Decodable {
        struct Daily: Decodable {
            let time: [String]
            let temperature_2m_max: [Double?]
            let temperature_2m_min: [Double?]
        }
        let daily: Daily?
    }

    /// Days of 1991–2020.
    static let expectedDays = 10_958
    /// Share of the period's days that must have a believable high and low.
    static let minimumShare = 0.9
    /// Values a calendar day's normal must rest on, at least (of 450).
    static let minimumSamples = 100

    /// The normals of an answer; throws `.badResponse` when it is not 30 years of believable days.
    static func normals(_ body: Data, at coordinate: Coordinate) throws -> ClimateNormals {
        guard let daily = (try? JSONDecoder().decode(Answer.self, from: body))?.daily,
              daily.time.count <= expectedDays + 400 else { throw ClimateError.badResponse }
        var highs = [Double](repeating: 0, count: 366), lows = [Double](repeating: 0, count: 366)
        var counts = [Int](repeating: 0, count: 366)
        // Days believed (each date once): a day without a believable high and low does not count.
        var seen = Set<String>()
        for (i, day) in daily.time.enumerated() where i < daily.temperature_2m_max.count && i < daily.temperature_2m_min.count {
            guard let (year, month, dayOfMonth) = date(day), ClimateNormals.years.contains(year),
                  let slot = ClimateNormals.index(month: month, day: dayOfMonth),
                  let high = daily.temperature_2m_max[i], let low = daily.temperature_2m_min[i],
                  PhysicalRange.temperature.contains(high), PhysicalRange.temperature.contains(low), low <= high,
                  seen.insert(day).inserted else { continue }
            highs[slot] += high
            lows[slot] += low
            counts[slot] += 1
        }
        guard Double(seen.count) >= Double(expectedDays) * minimumShare else { throw ClimateError.badResponse }
        let w = ClimateNormals.windowHalfWidth
        var days: [DayNormal] = []
        days.reserveCapacity(366)
        for slot in 0..<366 {
            var high = 0.0, low = 0.0, n = 0
            for offset in -w...w {
                let k = (slot + offset + 366) % 366
                high += highs[k]
                low += lows[k]
                n += counts[k]
            }
            guard n >= minimumSamples else { throw ClimateError.badResponse }
            let (month, day) = monthDay(slot)
            days.append(DayNormal(month: month, day: day, high: high / Double(n), low: low / Double(n)))
        }
        guard let normals = ClimateNormals(coordinate: coordinate, days: days),
              normals.isPlausible(latitude: coordinate.latitude) else { throw ClimateError.badResponse }
        return normals
    }

    /// "YYYY-MM-DD" as its parts.
    static func date(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: "-")
        guard text.utf8.count == 10, parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              ClimateNormals.index(month: m, day: d) != nil else { return nil }
        return (y, m, d)
    }

    /// The month and day of a slot of the 366-day year.
    static func monthDay(_ slot: Int) -> (Int, Int) {
        let lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var rest = slot
        for (i, length) in lengths.enumerated() {
            if rest < length { return (i + 1, rest + 1) }
            rest -= length
        }
        return (12, 31)
    }
}

/// Each place's normals, kept for `maximumAge` under `$XDG_CACHE_HOME/nimbus/normals` (one small
/// file a place, 0600, atomic; its age is its modification time), read back through the same checks.
public final class ClimateNormalsCache: Sendable {
    public let directory: URL
    private let lock = Mutex(())
    private let now: @Sendable () -> Date

    /// How long a kept copy is used: then it is asked for again.
    public static let maximumAge: TimeInterval = 90 * 86_400

    public init(directory: URL, now: @escaping @Sendable () -> Date = Date.init) {
        self.directory = directory.appendingPathComponent("normals")
        self.now = now
    }

    /// Places closer than about a kilometre share a file: the reanalysis grid is 25 km wide.
    static func key(_ coordinate: Coordinate) -> String {
        String(format: "normals_%.2f_%.2f.json", coordinate.latitude, coordinate.longitude)
    }

    private struct Stored: Codable {
        let latitude: Double, longitude: Double
        let highs: [Double], lows: [Double]
    }

    public func read(_ coordinate: Coordinate) -> ClimateNormals? {
        let url = directory.appendingPathComponent(Self.key(coordinate))
        let data = lock.withLock { _ -> Data? in
            var st = stat()
            guard lstat(url.path, &st) == 0 else { return nil }
            let saved = Date(timeIntervalSince1970: TimeInterval(st.st_mtim.tv_sec))
            guard now().timeIntervalSince(saved) < Self.maximumAge else { return nil }
            return SafeFile.read(url, maxBytes: 64 << 10)
        }
        guard let data, let stored = try? JSONDecoder().decode(Stored.self, from: data),
              stored.highs.count == 366, stored.lows.count == 366 else { return nil }
        let days = (0..<366).map { slot -> DayNormal in
            let (month, day) = ArchiveDTO.monthDay(slot)
            return DayNormal(month: month, day: day, high: stored.highs[slot], low: stored.lows[slot])
        }
        guard days.allSatisfy({ PhysicalRange.temperature.contains($0.high) && PhysicalRange.temperature.contains($0.low) }),
              let normals = ClimateNormals(coordinate: coordinate, days: days),
              normals.isPlausible(latitude: coordinate.latitude) else { return nil }
        return normals
    }

    /// Drops the place's kept copy.
    public func remove(_ coordinate: Coordinate) {
        lock.withLock { _ in _ = unlink(directory.appendingPathComponent(Self.key(coordinate)).path) }
    }

    public func write(_ normals: ClimateNormals) {
        let stored = Stored(latitude: normals.coordinate.latitude, longitude: normals.coordinate.longitude,
                            highs: normals.days.map(\.high), lows: normals.days.map(\.low))
        guard let data = try? JSONEncoder().encode(stored) else { return }
        lock.withLock { _ in
            _ = SafeFile.makeDirectory(directory)
            SafeFile.write(data, to: directory.appendingPathComponent(Self.key(normals.coordinate)))
        }
    }
}
