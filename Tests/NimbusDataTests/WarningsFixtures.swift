import XCTest
import OpenCombineShim
import NimbusDomain
@testable import NimbusData
import TestSupport

/// The warnings services' recorded shapes (`Tests/Tapes/fixtures/warnings`), the cities they are
/// for, and a way to wait for a publisher.
enum WarningsFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tapes/fixtures/warnings")

    /// The fixture's bytes, with `{BASE}` (links in MeteoAlarm's feeds) replaced by `base`.
    static func data(_ name: String, base: String = "http://127.0.0.1:9") -> Data {
        let raw = try! Data(contentsOf: directory.appendingPathComponent(name))
        guard name.hasSuffix(".xml") else { return raw }
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return Data(String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "{BASE}", with: trimmed).utf8)
    }

    /// 2026-01-15 18:00 UTC: the fixtures' warnings are in force.
    static let now = Date(timeIntervalSince1970: 1_768_500_000)

    static let seattle = City(id: 5809844, name: "Seattle", countryCode: "US", latitude: 47.60621, longitude: -122.33207,
                              population: 737_015, timeZone: "America/Los_Angeles", alternateNames: [])
    static let berlin = City(id: 2950159, name: "Berlin", countryCode: "DE", latitude: 52.52437, longitude: 13.41053,
                             population: 3_426_354, timeZone: "Europe/Berlin", alternateNames: [])
    static let london = City(id: 2643743, name: "London", countryCode: "GB", latitude: 51.50853, longitude: -0.12574,
                             population: 8_961_989, timeZone: "Europe/London", alternateNames: [])
    static let edinburgh = City(id: 2650225, name: "Edinburgh", countryCode: "GB", latitude: 55.95206, longitude: -3.19648,
                                population: 464_990, timeZone: "Europe/London", alternateNames: [])
    static let tokyo = City(id: 1850147, name: "Tokyo", countryCode: "JP", latitude: 35.6895, longitude: 139.69171,
                            population: 8_336_599, timeZone: "Asia/Tokyo", alternateNames: [])
    static let seoul = City(id: 1835848, name: "Seoul", countryCode: "KR", latitude: 37.566, longitude: 126.9784,
                            population: 10_349_312, timeZone: "Asia/Seoul", alternateNames: [])

    /// The region table with Berlin and the two feeds the fixtures are of.
    static let regions = MeteoAlarmRegions(text: "C\tDE\tgermany\tgeocode\nC\tGB\tunited-kingdom\tpolygon\n2950159\tDE202\n")

    /// The repository over the live HTTP client, every service at `server`.
    static func repository(_ server: FixtureServer, cache: URL?, timeout: TimeInterval = 3,
                           now: @escaping @Sendable () -> Date = { WarningsFixtures.now }) -> LiveWarningsRepository {
        let base = server.baseURL.absoluteString
        return LiveWarningsRepository(
            client: URLSessionHTTPClient(connectTimeout: 2),
            environment: ["NIMBUS_NWS_URL": base, "NIMBUS_METEOALARM_URL": base, "NIMBUS_JMA_URL": base,
                          "NIMBUS_NWS_CONTACT": "weather@example.org"],
            cacheDirectory: cache, version: "0.1.0", regions: regions, timeout: timeout, now: now)
    }

    /// Routes for every source's "active" answer.
    static func routeActive(_ server: FixtureServer) {
        let base = server.baseURL.absoluteString
        server.route("/alerts/active", .init(body: data("nws-active.json")))
        server.route("/feeds/meteoalarm-legacy-atom-germany", .init(headers: ["Content-Type": "application/atom+xml"],
                                                                   body: data("meteoalarm-germany.xml", base: base)))
        server.route("/feeds/meteoalarm-legacy-atom-united-kingdom", .init(headers: ["Content-Type": "application/atom+xml"],
                                                                          body: data("meteoalarm-united-kingdom.xml", base: base)))
        server.route("/api/v1/warnings/feeds-germany/5d3c0a51-1e2b-4f7a-9c8d-0a1b2c3d4e5f",
                     .init(headers: ["Content-Type": "application/cap+xml"], body: data("meteoalarm-cap-berlin-wind.xml")))
        routeJMA(server)
    }

    static func routeJMA(_ server: FixtureServer, report: String = "jma-warning-130000.json") {
        server.route("/bosai/common/const/relm.json", .init(body: data("jma-relm.json")))
        server.route("/bosai/common/const/geojson/class20s_0.json", .init(body: data("jma-class20s_0.json")))
        server.route("/bosai/common/const/geojson/class20s_1.json", .init(body: data("jma-class20s_1.json")))
        server.route("/bosai/common/const/area.json", .init(body: data("jma-area.json")))
        server.route("/bosai/warning/data/warning/130000.json", .init(body: data(report)))
    }
}

/// Waits for a publisher to finish, at most `timeout` seconds.
func collectAll<T, E: Error>(_ publisher: AnyPublisher<T, E>, timeout: TimeInterval = 10) -> (values: [T], error: E?, finished: Bool) {
    let done = DispatchSemaphore(value: 0)
    let box = LockedBox<([T], E?, Bool)>(([], nil, false))
    let c = publisher.sink(
        receiveCompletion: { completion in
            if case .failure(let e) = completion { box.update { $0.1 = e } }
            box.update { $0.2 = true }
            done.signal()
        },
        receiveValue: { v in box.update { $0.0.append(v) } })
    _ = done.wait(timeout: .now() + timeout)
    c.cancel()
    return box.value
}
