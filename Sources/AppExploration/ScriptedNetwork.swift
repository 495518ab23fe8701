import Foundation
import Synchronization
import NimbusData
import CombineSchedulers
import OpenCombineShim

/// A network the explorer switches between answers: none, a forecast for whatever was asked, a
/// server error, garbage, an answer that comes late. In process and on the virtual clock, so runs
/// are deterministic and never leave the machine.
public final class ScriptedNetwork: HTTPClient, Sendable {
    public enum Mode: String, CaseIterable, Sendable, CustomStringConvertible {
        case offline, forecast, serverError, garbage, slow, empty
        public var description: String { rawValue }
    }

    private let _mode = Mutex(Mode.offline)
    private let clock: TestSchedulerOf<DispatchQueue>

    public init(clock: TestSchedulerOf<DispatchQueue>) {
        self.clock = clock
    }

    public var mode: Mode {
        get { _mode.withLock { $0 } }
        set { _mode.withLock { $0 = newValue } }
    }

    public func send(_ request: HTTPRequest,
                     completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        let task = Task()
        func answer(_ result: Result<HTTPResponse, HTTPError>) {
            if !task.isCancelled { completion(result) }
        }
        switch mode {
        case .offline:
            answer(.failure(.transport(.notConnected)))
        case .serverError:
            answer(.success(HTTPResponse(status: 500, headers: [:], body: Data("{\"error\":true}".utf8))))
        case .garbage:
            answer(.success(HTTPResponse(status: 200, headers: ["content-type": "application/json"],
                                         body: Data([0x7B, 0x22, 0xFF, 0x00, 0x1B, 0x5B, 0x32, 0x4A, 0x5D]))))
        case .empty:
            answer(.success(HTTPResponse(status: 200, headers: [:], body: Data())))
        case .forecast:
            answer(Self.forecast(for: request))
        case .slow:
            let result = Self.forecast(for: request)
            clock.schedule(after: clock.now.advanced(by: .seconds(3))) { answer(result) }
        }
        return task
    }

    private final class Task: HTTPCancellable, Sendable {
        private let cancelled = Atomic<Bool>(false)
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
        func cancel() { cancelled.store(true, ordering: .releasing) }
    }

    /// A USGS feed of a few events around the seeded cities, one of them broken, stamped now.
    static var quakes: HTTPResponse {
        let now = Int(Date().timeIntervalSince1970 * 1000)
        let events = [(5.1, 35.9, 129.2, "near Pohang"), (4.6, 31.2, 139.9, "Izu Islands"), (2.7, 35.7, -117.7, "Ridgecrest"),
                      (6.3, 24.0, 122.6, "off Hualien \\u001b[2J")]
        let features = events.enumerated().map { i, e in
            "{\"type\":\"Feature\",\"id\":\"ex\(i)\",\"properties\":{\"mag\":\(e.0),\"place\":\"\(e.3)\","
                + "\"time\":\(now - i * 600_000),\"updated\":\(now),\"tz\":540,\"felt\":\(i * 10),\"alert\":\"green\","
                + "\"status\":\"reviewed\",\"tsunami\":\(i == 3 ? 1 : 0),\"sig\":\(100 * i),\"magType\":\"mb\"},"
                + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(e.2),\(e.1),10]}}"
        } + [#"{"type":"Feature","id":"broken","properties":{"mag":"big"},"geometry":null}"#]
        let body = #"{"type":"FeatureCollection","metadata":{"generated":"# + "\(now)" + #"},"features":["#
            + features.joined(separator: ",") + "]}"
        return HTTPResponse(status: 200, headers: ["content-type": "application/json", "etag": "\"v\(now / 60_000)\""],
                            body: Data(body.utf8))
    }

    /// An Open-Meteo air-quality answer: the air now and the day's UV.
    static var air: HTTPResponse {
        let start = Int(Date().timeIntervalSince1970) / 3600 * 3600
        let times: [Int] = (0..<24).map { start + $0 * 3600 }
        let uv: [Double] = (0..<24).map { Double($0 % 12) }
        let current = #""current":{"time":\#(start),"us_aqi":64,"european_aqi":41,"pm2_5":18.2,"pm10":30.5,"ozone":70,"uv_index":3.2}"#
        let body = #"{"latitude":37.5,"longitude":127.0,"utc_offset_seconds":0,\#(current),"hourly":{"time":\#(times),"uv_index":\#(uv)}}"#
        return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data(body.utf8))
    }

    /// An Open-Meteo answer for every place the request names (one object, or an array for several),
    /// starting at the current hour; anything else (a TMDB path) is not found.
    static func forecast(for request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        if request.url.path.hasPrefix("/earthquakes/feed/") { return .success(quakes) }
        if request.url.path.hasSuffix("/air-quality") { return .success(air) }
        guard request.url.path.hasSuffix("/forecast"),
              let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems else {
            return .success(HTTPResponse(status: 404, headers: [:], body: Data()))
        }
        func numbers(_ name: String) -> [Double] {
            (items.first { $0.name == name }?.value ?? "").split(separator: ",").compactMap { Double($0) }
        }
        let places = zip(numbers("latitude"), numbers("longitude"))
        let start = Int(Date().timeIntervalSince1970) / 3600 * 3600
        let objects = places.map { lat, lon -> String in
            let hours = (0..<48).map { start + $0 * 3600 }
            let temps = hours.indices.map { 15 + Double($0 % 24) / 2 }
            let rain = hours.indices.map { ($0 * 7) % 100 }
            let codes: [Int] = hours.indices.map { [0, 2, 3, 61, 71, 95][$0 % 6] }
            let isDay: [Int] = hours.indices.map { $0 % 24 < 12 ? 1 : 0 }
            let rainfall: [Double] = hours.indices.map { $0 % 6 == 3 ? 1.2 : 0 }
            let snowfall: [Double] = hours.indices.map { $0 % 6 == 4 ? 0.7 : 0 }
            let days = (0..<7).map { start + $0 * 86_400 }
            return """
            {"latitude":\(lat),"longitude":\(lon),"utc_offset_seconds":0,\
            "current":{"time":\(start),"temperature_2m":21.5,"relative_humidity_2m":60,"apparent_temperature":21,\
            "is_day":1,"precipitation":0,"weather_code":3,"pressure_msl":1012,"wind_speed_10m":11,"wind_direction_10m":200},\
            "hourly":{"time":\(hours),"temperature_2m":\(temps),"precipitation_probability":\(rain),\
            "weather_code":\(codes),"is_day":\(isDay),"rain":\(rainfall),"snowfall":\(snowfall)},\
            "daily":{"time":\(days),"weather_code":[0,1,2,3,61,71,95],"temperature_2m_max":[25,26,27,24,23,22,28],\
            "temperature_2m_min":[15,16,17,14,13,12,18],"sunrise":\(days.map { $0 + 20_000 }),"sunset":\(days.map { $0 + 70_000 })}}
            """
        }
        let body = objects.count == 1 ? objects[0] : "[" + objects.joined(separator: ",") + "]"
        return .success(HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data(body.utf8)))
    }
}
