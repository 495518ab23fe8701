import Foundation
import LoopbackServer
import NimbusApp
import NimbusData
import NimbusTerminal
import CombineSchedulers

/// The Today tab against loopback servers that answer each request after `delay`: the time from
/// pressing `2` to the frame with every section drawn. The places' weather and the quakes feed are
/// asked at once, so all is drawn after about one delay, not the sum of them. Then the selection
/// moved down and up (`j`, `k`), each key handled and its frame drawn, as the app's loop does.
@MainActor
enum TodayBenchmark {
    static let delay: TimeInterval = 0.2

    static func run(runs: Int, into table: inout Table) {
        table.section("Today tab: the weather and the quake feed each answered after \(Int(delay * 1000)) ms on loopback (\(runs) runs)")
        guard let server = try? FixtureServer() else {
            table.row("loopback server", "could not start")
            return
        }
        server.route("/v1/forecast", FixtureServer.Response(json: place, behaviour: .delay(delay)))
        server.route("/earthquakes/feed/v1.0/summary/2.5_day.geojson", FixtureServer.Response(json: feed, behaviour: .delay(delay)))
        var times: [Double] = []
        var keys: [Double] = []
        var failures: [String] = []
        for _ in 0..<runs {
            switch once(base: server.baseURL.absoluteString) {
            case .success(let t):
                times.append(t.drawn)
                keys += t.keys
            case .failure(let why): failures.append(why.message)
            }
        }
        table.header("", "p50", "max")
        if !times.isEmpty {
            table.row("press 2 → all three sections drawn", NimbusBenchmark.ms(NimbusBenchmark.pct(times, 50)), NimbusBenchmark.ms(times.max() ?? 0))
            table.row("one after another would take at least", NimbusBenchmark.ms(2 * delay), "")
            table.row("j / k → frame drawn (\(keys.count) keys)", NimbusBenchmark.ms(NimbusBenchmark.pct(keys, 50)),
                      NimbusBenchmark.ms(keys.max() ?? 0))
        }
        if let failure = failures.first { table.row("failed runs: \(failures.count)", failure) }
    }

    struct Failure: Error { let message: String }

    /// How many keys each run times once everything is drawn.
    static let keystrokes = 200

    private static func once(base: String) -> Result<(drawn: Double, keys: [Double]), Failure> {
        let home = BenchHome("today")
        defer { home.remove() }
        let container: AppDIContainer
        switch home.container(["NIMBUS_WEATHER_URL": base, "NIMBUS_QUAKES_URL": base, "NIMBUS_LOCATION": "37.5,127.0"]) {
        case .success(let made): container = made
        case .failure(let failure): return .failure(failure)
        }
        let app = AppCoordinator(container: container)
        app.start()
        let size = Size(cols: 100, rows: 30)
        _ = app.render(size: size)
        let t0 = NimbusBenchmark.now()
        app.handle(.char("2"))
        var drawn: Double?
        // Each batch of main-queue work is followed by a frame, as in the app's own loop.
        MainQueuePump.run(until: Date().addingTimeInterval(5)) {
            let frame = app.render(size: size).text()
            if frame.contains("23°"), frame.contains("N of Gyeongju"), frame.contains("No films yet"), !frame.contains("Loading") {
                drawn = NimbusBenchmark.now() - t0
            }
            return drawn != nil
        }
        if let drawn {
            var keys: [Double] = []
            for i in 0..<keystrokes {
                let start = NimbusBenchmark.now()
                app.handle(.char(i % 2 == 0 ? "j" : "k"))
                _ = app.render(size: size)
                keys.append(NimbusBenchmark.now() - start)
            }
            return .success((drawn, keys))
        }
        return .failure(Failure(message: "not all drawn in 5 s: " + app.render(size: size).text()
            .split(separator: "\n").prefix(12).joined(separator: " | ")))
    }

    /// Seoul, as Open-Meteo answers one place.
    static let place = """
        {"latitude":37.55,"longitude":127.0,"utc_offset_seconds":32400,
         "current":{"time":1782000000,"temperature_2m":23.4,"weather_code":2},
         "daily":{"time":[1781967600],"weather_code":[2],"temperature_2m_max":[28.0],"temperature_2m_min":[17.0]}}
        """

    /// One event an hour ago near Gyeongju, as the USGS feed has it.
    static var feed: String {
        let time = Int((Date().timeIntervalSince1970 - 3600) * 1000)
        return """
            {"type":"FeatureCollection","metadata":{"generated":\(time),"count":1},"features":[
             {"type":"Feature","id":"bench1","properties":{"mag":4.1,"place":"somewhere","time":\(time),
              "updated":\(time),"type":"earthquake","status":"reviewed","tsunami":0,"magType":"mb"},
              "geometry":{"type":"Point","coordinates":[129.2,35.9,10.0]}}]}
            """
    }
}
