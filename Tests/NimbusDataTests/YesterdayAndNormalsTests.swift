import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Yesterday in the forecast's own request, and the 1991–2020 normals from the archive, asked once.
final class YesterdayAndNormalsTests: XCTestCase {
    private var server: FixtureServer!
    private var cacheDirectory: URL!

    override func setUpWithError() throws {
        server = try FixtureServer()
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-normals-\(UUID().uuidString)")
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    /// The Seoul fixture as `past_days=1` answers: a day (and its 24 hours) before the others.
    static func seoulWithYesterday(high: Double = 25.0, low: Double = 19.5) throws -> Data {
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: OpenMeteoWeatherRepositoryTests.seoulJSON) as? [String: Any])
        var daily = try XCTUnwrap(root["daily"] as? [String: Any])
        var hourly = try XCTUnwrap(root["hourly"] as? [String: Any])
        let firstDay = try XCTUnwrap((daily["time"] as? [Int])?.first)
        for (key, value) in daily {
            guard var list = value as? [Any] else { continue }
            switch key {
            case "time": list.insert(firstDay - 86_400, at: 0)
            case "temperature_2m_max": list.insert(high, at: 0)
            case "temperature_2m_min": list.insert(low, at: 0)
            case "sunrise", "sunset": list.insert(((list.first as? Int) ?? 0) - 86_400, at: 0)
            default: list.insert(list.first ?? NSNull(), at: 0)
            }
            daily[key] = list
        }
        for (key, value) in hourly {
            guard var list = value as? [Any] else { continue }
            let earlier: [Any] = key == "time" ? (0..<24).map { firstDay - 86_400 + $0 * 3600 } : Array(list.prefix(24))
            list.insert(contentsOf: earlier, at: 0)
            hourly[key] = list
        }
        root["daily"] = daily
        root["hourly"] = hourly
        return try JSONSerialization.data(withJSONObject: root)
    }

    private func weather() -> OpenMeteoWeatherRepository {
        OpenMeteoWeatherRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                                   cache: WeatherCache(directory: cacheDirectory), timeout: 3,
                                   now: { OpenMeteoWeatherRepositoryTests.fetchTime })
    }

    func testTheForecastAsksForYesterdayInTheSameRequest() throws {
        server.route("/v1/forecast", .init(body: try Self.seoulWithYesterday()))
        let result = collectAll(weather().forecast(for: OpenMeteoWeatherRepositoryTests.seoul))
        XCTAssertNil(result.error)
        let forecast = try XCTUnwrap(result.values.last?.value)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(server.requests.first?.query["past_days"], "1")
        XCTAssertEqual(forecast.yesterday, DayTemperatures(day: LocalDate(year: 2026, month: 6, day: 20)!, high: 25, low: 19.5))
        // The forecast itself is as it was: today first, seven days, its hours from today's midnight.
        XCTAssertEqual(forecast.daily.count, 7)
        XCTAssertEqual(forecast.daily[0].high, 28.0)
        XCTAssertEqual(forecast.hourly.count, 168)
        XCTAssertEqual(forecast.hourly.first?.time, Date(timeIntervalSince1970: 1_781_967_600))
        XCTAssertEqual(forecast.todayAgainstYesterday, TemperatureDifference(degrees: 3))
        XCTAssertEqual(forecast.todayAgainstYesterday?.direction, .warmer)
    }

    func testAnAnswerWithoutYesterdayStillDecodes() throws {
        // A forecast kept by an earlier version, or a server that ignores `past_days`.
        server.route("/v1/forecast", .init(body: OpenMeteoWeatherRepositoryTests.seoulJSON))
        let forecast = try XCTUnwrap(collectAll(weather().forecast(for: OpenMeteoWeatherRepositoryTests.seoul)).values.last?.value)
        XCTAssertNil(forecast.yesterday)
        XCTAssertEqual(forecast.daily.count, 7)
        XCTAssertEqual(forecast.hourly.count, 168)
    }

    func testAnUnbelievableYesterdayIsLeftOutWithoutLosingTheForecast() throws {
        server.route("/v1/forecast", .init(body: try Self.seoulWithYesterday(high: 1e308, low: -400)))
        let forecast = try XCTUnwrap(collectAll(weather().forecast(for: OpenMeteoWeatherRepositoryTests.seoul)).values.last?.value)
        XCTAssertNil(forecast.yesterday)
        XCTAssertEqual(forecast.daily.count, 7)
        XCTAssertEqual(forecast.daily[0].high, 28.0)
    }

    func testSplittingDaysAroundNow() {
        let day = { (n: Int, high: Double) in
            DailyForecast(day: LocalDate(daysSince1970: n), high: high, low: 0, condition: .clear, sunrise: nil, sunset: nil)
        }
        let days = [day(0, 1), day(1, 2), day(2, 3)]
        let (y1, d1) = OpenMeteoForecastDTO.split(days, at: Date(timeIntervalSince1970: 90_000), utcOffset: 0)
        XCTAssertEqual(y1?.high, 1)
        XCTAssertEqual(y1?.day, LocalDate(daysSince1970: 0))
        XCTAssertEqual(d1.map(\.high), [2, 3])
        // Now before every day: all are the forecast, no yesterday.
        let (y2, d2) = OpenMeteoForecastDTO.split(days, at: Date(timeIntervalSince1970: -5), utcOffset: 0)
        XCTAssertNil(y2)
        XCTAssertEqual(d2.map(\.high), [1, 2, 3])
        // A gap of two days is no "yesterday".
        let (y3, d3) = OpenMeteoForecastDTO.split([day(0, 1), day(2, 3)], at: Date(timeIntervalSince1970: 172_900), utcOffset: 0)
        XCTAssertNil(y3)
        XCTAssertEqual(d3.map(\.high), [3])
        // Today is the place's date: 23:00 UTC on day 1 is already day 2 at UTC+2, still day 1 at UTC−2.
        XCTAssertEqual(OpenMeteoForecastDTO.split(days, at: Date(timeIntervalSince1970: 86_400 + 82_800), utcOffset: 7200).1.map(\.high), [3])
        XCTAssertEqual(OpenMeteoForecastDTO.split(days, at: Date(timeIntervalSince1970: 86_400 + 82_800), utcOffset: -7200).1.map(\.high), [2, 3])
    }

    /// Open-Meteo dates every day with one offset (the offset now): on the day summer time starts in
    /// Berlin (2026-03-29, +02:00 from 01:00 UTC), yesterday's midnight comes as 2026-03-27T22:00Z.
    /// Its date is still 28 March: the time plus the answer's offset.
    func testDatesAcrossASummerTimeChangeAreThePlacesDates() throws {
        let json = #"""
        {"latitude":52.52,"longitude":13.41,"utc_offset_seconds":7200,
         "current":{"time":1774778400,"temperature_2m":9.5},
         "hourly":{"time":[1774735200,1774738800,1774742400],"temperature_2m":[5,5,5]},
         "daily":{"time":[1774648800,1774735200,1774821600],"temperature_2m_max":[9.1,12.0,13.0],"temperature_2m_min":[1,2,3]}}
        """#
        let dto = try JSONDecoder().decode(OpenMeteoForecastDTO.self, from: Data(json.utf8))
        let forecast = try dto.toDomain()
        XCTAssertEqual(forecast.yesterday?.day.description, "2026-03-28")
        XCTAssertEqual(forecast.daily.map(\.day.description), ["2026-03-29", "2026-03-30"])
    }

    // MARK: Normals

    /// A synthetic 1991–2020 archive answer: a seasonal curve with a yearly trend and a deterministic wobble.
    static func archiveAnswer(missingEvery: Int? = nil) -> (Data, [(Int, Int, Int, Double, Double)]) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var date = calendar.date(from: DateComponents(year: 1991, month: 1, day: 1))!
        let end = calendar.date(from: DateComponents(year: 2020, month: 12, day: 31))!
        var times: [String] = [], highs: [Any] = [], lows: [Any] = []
        var rows: [(Int, Int, Int, Double, Double)] = []
        var i = 0
        while date <= end {
            let p = calendar.dateComponents([.year, .month, .day], from: date)
            let doy = Double(calendar.ordinality(of: .day, in: .year, for: date)!)
            let wobble = Double((i * 7919) % 13) / 4 - 1.5
            let high = ((12 + 14 * sin(2 * .pi * (doy - 110) / 365.25) + Double(p.year! - 1991) * 0.03 + wobble) * 10).rounded() / 10
            let low = ((high - 7 - abs(wobble)) * 10).rounded() / 10
            times.append(String(format: "%04d-%02d-%02d", p.year!, p.month!, p.day!))
            if let n = missingEvery, i % n == 0 {
                highs.append(NSNull())
                lows.append(NSNull())
            } else {
                highs.append(high)
                lows.append(low)
                rows.append((p.year!, p.month!, p.day!, high, low))
            }
            date = calendar.date(byAdding: .day, value: 1, to: date)!
            i += 1
        }
        let body: [String: Any] = [
            "latitude": 37.55, "longitude": 127.0, "generationtime_ms": 41.2, "utc_offset_seconds": 32_400,
            "timezone": "Asia/Seoul", "timezone_abbreviation": "GMT+9", "elevation": 38.0,
            "daily_units": ["time": "iso8601", "temperature_2m_max": "°C", "temperature_2m_min": "°C"],
            "daily": ["time": times, "temperature_2m_max": highs, "temperature_2m_min": lows],
        ]
        return (try! JSONSerialization.data(withJSONObject: body), rows)
    }

    private func archive(cache: Bool = true) -> OpenMeteoArchiveRepository {
        OpenMeteoArchiveRepository(client: URLSessionHTTPClient(connectTimeout: 2), baseURL: server.baseURL.absoluteString,
                                   cache: cache ? ClimateNormalsCache(directory: cacheDirectory) : nil, timeout: 5)
    }

    /// Reference: each calendar day's normal computed directly from the rows, by date arithmetic (a
    /// window of the calendar dates 7 days either side in each year), for all 366 days.
    func testNormalsAreTheMeanOverThirtyYearsOfAFifteenDayWindow() throws {
        let (body, rows) = Self.archiveAnswer()
        server.route("/v1/archive", .init(body: body))
        let normals = try XCTUnwrap(collectAll(archive().normals(for: OpenMeteoWeatherRepositoryTests.seoul)).values.first)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.query["start_date"], "1991-01-01")
        XCTAssertEqual(request.query["end_date"], "2020-12-31")
        XCTAssertEqual(request.query["daily"], "temperature_2m_max,temperature_2m_min")
        print("archive answer: \(body.count) bytes for 30 years")

        var byDay: [String: (Double, Double)] = [:]
        for (y, m, d, h, l) in rows { byDay[String(format: "%04d-%02d-%02d", y, m, d)] = (h, l) }
        // The 366-day calendar as the month/day sequence, 29 February included, wrapping at the year's end.
        var calendarDays: [(Int, Int)] = []
        for (month, length) in [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31].enumerated() {
            for day in 1...length { calendarDays.append((month + 1, day)) }
        }
        var checked = 0
        for (slot, (month, day)) in calendarDays.enumerated() {
            var highs: [Double] = [], lows: [Double] = []
            for offset in -7...7 {
                let (m, d) = calendarDays[(slot + offset + 366) % 366]
                for year in 1991...2020 {
                    if let (h, l) = byDay[String(format: "%04d-%02d-%02d", year, m, d)] {
                        highs.append(h)
                        lows.append(l)
                    }
                }
            }
            let normal = normals.days[slot]
            XCTAssertEqual(normal.month, month)
            XCTAssertEqual(normal.day, day)
            XCTAssertEqual(normal.high, highs.reduce(0, +) / Double(highs.count), accuracy: 1e-9, "\(month)-\(day)")
            XCTAssertEqual(normal.low, lows.reduce(0, +) / Double(lows.count), accuracy: 1e-9, "\(month)-\(day)")
            checked += 1
        }
        XCTAssertEqual(checked, 366)
    }

    func testNormalsAreAskedForOnceAndKept() throws {
        let (body, _) = Self.archiveAnswer()
        server.route("/v1/archive", .init(body: body))
        let first = try XCTUnwrap(collectAll(archive().normals(for: OpenMeteoWeatherRepositoryTests.seoul)).values.first)
        server.route("/v1/archive", .init(status: 500, json: "{}"))
        let again = collectAll(archive().normals(for: OpenMeteoWeatherRepositoryTests.seoul))
        XCTAssertNil(again.error)
        XCTAssertEqual(again.values, [first])
        XCTAssertEqual(server.requests.count, 1)
    }

    func testAFewMissingDaysAreToleratedButNotAGappyAnswer() throws {
        server.route("/v1/archive", .init(body: Self.archiveAnswer(missingEvery: 50).0))
        XCTAssertNil(collectAll(archive(cache: false).normals(for: OpenMeteoWeatherRepositoryTests.seoul)).error)
        server.route("/v1/archive", .init(body: Self.archiveAnswer(missingEvery: 3).0))
        XCTAssertEqual(collectAll(archive().normals(for: OpenMeteoWeatherRepositoryTests.seoul)).error, .badResponse)
        XCTAssertNil(ClimateNormalsCache(directory: cacheDirectory).read(OpenMeteoWeatherRepositoryTests.seoul), "nothing kept")
    }

    /// The archive's answer with every high `high` and every low `low`.
    private func flatArchive(high: Double, low: Double) throws -> Data {
        let (body, _) = Self.archiveAnswer()
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: Any])
        var daily = try XCTUnwrap(root["daily"] as? [String: Any])
        daily["temperature_2m_max"] = Array(repeating: high, count: 10_958)
        daily["temperature_2m_min"] = Array(repeating: low, count: 10_958)
        root["daily"] = daily
        return try JSONSerialization.data(withJSONObject: root)
    }

    /// 69.9 °C by day and −99.9 °C by night, every day for thirty years: each value is in the physical
    /// range, the whole is no climate on Earth (Seoul's records are 39.6 and −23.1).
    func testNormalsNoClimateHasAreNeitherBelievedNorKept() throws {
        server.route("/v1/archive", .init(body: try flatArchive(high: 69.9, low: -99.9)))
        XCTAssertEqual(collectAll(archive().normals(for: OpenMeteoWeatherRepositoryTests.seoul)).error, .badResponse)
        XCTAssertNil(ClimateNormalsCache(directory: cacheDirectory).read(OpenMeteoWeatherRepositoryTests.seoul), "nothing kept")
        // Nor a high 40° above the low every day of the year.
        server.route("/v1/archive", .init(body: try flatArchive(high: 30, low: -10)))
        XCTAssertEqual(collectAll(archive().normals(for: OpenMeteoWeatherRepositoryTests.seoul)).error, .badResponse)
    }

    /// A copy kept by an earlier version, before the checks: read back through them, and asked for again.
    func testAKeptCopyNoClimateHasIsAskedForAgain() throws {
        let seoul = OpenMeteoWeatherRepositoryTests.seoul
        let bad = try XCTUnwrap(ClimateNormals(coordinate: seoul, days: (0..<366).map { slot in
            let (month, day) = ArchiveDTO.monthDay(slot)
            return DayNormal(month: month, day: day, high: 69.9, low: -99.9)
        }))
        ClimateNormalsCache(directory: cacheDirectory).write(bad)
        let (body, _) = Self.archiveAnswer()
        server.route("/v1/archive", .init(body: body))
        let normals = try XCTUnwrap(collectAll(archive().normals(for: seoul)).values.first)
        XCTAssertNotEqual(normals, bad)
        XCTAssertEqual(server.requests.count, 1, "asked for again")
    }

    /// Kept normals are asked for again after 90 days: a copy that was wrong does not stay for good.
    func testKeptNormalsExpireAfterNinetyDays() throws {
        let seoul = OpenMeteoWeatherRepositoryTests.seoul
        let (body, _) = Self.archiveAnswer()
        server.route("/v1/archive", .init(body: body))
        _ = try XCTUnwrap(collectAll(archive().normals(for: seoul)).values.first)
        let file = cacheDirectory.appendingPathComponent("normals").appendingPathComponent(ClimateNormalsCache.key(seoul))
        func age(days: Double) {
            let then = Date().addingTimeInterval(-days * 86_400).timeIntervalSince1970
            var times = [timeval(tv_sec: Int(then), tv_usec: 0), timeval(tv_sec: Int(then), tv_usec: 0)]
            XCTAssertEqual(utimes(file.path, &times), 0)
        }
        age(days: 89)
        _ = collectAll(archive().normals(for: seoul))
        XCTAssertEqual(server.requests.count, 1, "89 days: the kept copy")
        age(days: 91)
        _ = collectAll(archive().normals(for: seoul))
        XCTAssertEqual(server.requests.count, 2, "91 days: asked for again")
    }

    func testUnbelievableArchivesAreRefused() throws {
        let (body, _) = Self.archiveAnswer()
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: Any])
        var daily = try XCTUnwrap(root["daily"] as? [String: Any])
        daily["temperature_2m_max"] = Array(repeating: 1e308, count: 10_958)
        root["daily"] = daily
        for bad in [try JSONSerialization.data(withJSONObject: root), Data("{}".utf8), Data("[1,2]".utf8),
                    Data(#"{"daily":{"time":[],"temperature_2m_max":[],"temperature_2m_min":[]}}"#.utf8)] {
            server.route("/v1/archive", .init(body: bad))
            XCTAssertEqual(collectAll(archive().normals(for: OpenMeteoWeatherRepositoryTests.seoul)).error, .badResponse)
        }
        server.route("/v1/archive", .init(status: 429, json: "{}"))
        XCTAssertEqual(collectAll(archive().normals(for: OpenMeteoWeatherRepositoryTests.seoul)).error, .rateLimited)
        server.stop()
        XCTAssertEqual(collectAll(archive().normals(for: OpenMeteoWeatherRepositoryTests.seoul)).error, .offline)
    }
}
