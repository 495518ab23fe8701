import Foundation
import LoopbackServer
import NimbusApp
import NimbusData
import NimbusTerminal
import CombineSchedulers

/// A city's detail against a loopback forecast server that answers after `delay`: the time from
/// `Enter` on Seoul to the first frame with the weather drawn, with the air-quality request answered
/// at once, answered late, failing, or not made at all (an unusable `NIMBUS_AIR_URL`): the forecast
/// must draw as soon as it arrives whatever the air does.
@MainActor
enum DetailBenchmark {
    static let delay: TimeInterval = 0.1

    enum Air: CaseIterable {
        case none, prompt, late, refused
        var label: String {
            switch self {
            case .none: "no air request (baseline)"
            case .prompt: "air answered at once"
            case .late: "air answered after 2 s"
            case .refused: "air server unreachable"
            }
        }
    }

    static func run(runs: Int, into table: inout Table) {
        table.section("City detail: Enter → the forecast drawn, the forecast answered after \(Int(delay * 1000)) ms on loopback (\(runs) runs each, interleaved)")
        guard let server = try? FixtureServer() else {
            table.row("loopback server", "could not start")
            return
        }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Tapes/fixtures")
        guard let forecast = try? Data(contentsOf: fixtures.appendingPathComponent("open-meteo-seoul.json")),
              let air = try? Data(contentsOf: fixtures.appendingPathComponent("open-meteo-air-seoul.json")) else {
            table.row("fixtures", "not found under \(fixtures.path)")
            return
        }
        server.route("/v1/forecast", FixtureServer.Response(body: forecast, behaviour: .delay(delay)))
        server.route("/prompt/v1/air-quality", FixtureServer.Response(body: air))
        server.route("/late/v1/air-quality", FixtureServer.Response(body: air, behaviour: .delay(2)))
        let base = server.baseURL.absoluteString
        var times: [Air: [Double]] = [:]
        var firstFrames: [Air: [Double]] = [:]
        var keptFrames: [Air: [Double]] = [:]
        var failures: [String] = []
        // Interleaved, so a busy moment of the machine is shared by every case.
        for _ in 0..<runs {
            for air in Air.allCases {
                let airURL: String
                switch air {
                case .none: airURL = "not a url ://"
                case .prompt: airURL = base + "/prompt"
                case .late: airURL = base + "/late"
                case .refused: airURL = "http://127.0.0.1:9"
                }
                switch once(base: base, air: airURL) {
                case .success(let t):
                    times[air, default: []].append(t.drawn)
                    firstFrames[air, default: []].append(t.firstFrame)
                    keptFrames[air, default: []].append(t.keptFrame)
                case .failure(let why): failures.append(why.message)
                }
            }
        }
        func rows(_ title: String, _ times: [Air: [Double]]) {
            table.header(title, "p50", "p90", "max")
            for air in Air.allCases {
                let t = times[air] ?? []
                guard !t.isEmpty else { continue }
                table.row(air.label, NimbusBenchmark.ms(NimbusBenchmark.pct(t, 50)), NimbusBenchmark.ms(NimbusBenchmark.pct(t, 90)),
                          NimbusBenchmark.ms(t.max() ?? 0))
            }
        }
        rows("Enter → first frame (header, loading)", firstFrames)
        rows("Enter → the forecast drawn", times)
        rows("again, with kept copies: Enter → first frame", keptFrames)
        if let failure = failures.first { table.row("failed runs: \(failures.count)", failure) }
    }

    struct Times {
        /// Enter to the first frame (header and "loading"), Enter to the forecast drawn, and Enter to
        /// the first frame of a second visit, with the forecast (and the air) kept on disk.
        let firstFrame, drawn, keptFrame: Double
    }

    /// `Enter` on the listed city and the frame drawn: the span timed as the first frame, a function
    /// of its own so a profiler can collect exactly it (`valgrind --tool=callgrind
    /// --toggle-collect='*profiledFirstFrame*' nimbus-bench --detail`).
    @inline(never) static func profiledFirstFrame(_ app: AppCoordinator, _ size: Size) {
        app.handle(.enter)
        _ = app.render(size: size)
    }

    private static func once(base: String, air: String) -> Result<Times, TodayBenchmark.Failure> {
        let home = BenchHome("detail")
        defer { home.remove() }
        let container: AppDIContainer
        switch home.container(["NIMBUS_WEATHER_URL": base, "NIMBUS_AIR_URL": air, "NIMBUS_QUAKES_URL": "http://127.0.0.1:9"]) {
        case .success(let made): container = made
        case .failure(let failure): return .failure(failure)
        }
        let app = AppCoordinator(container: container)
        app.start()
        let size = Size(cols: 100, rows: 30)
        app.handle(.char("/"))
        for ch in "seoul" { app.handle(.char(ch)) }
        var listed = false
        MainQueuePump.run(until: Date().addingTimeInterval(5)) {
            listed = app.render(size: size).text().contains("South Korea")
            return listed
        }
        guard listed else { return .failure(.init(message: "Seoul was not listed")) }
        app.handle(.enter)
        _ = app.render(size: size)
        let t0 = NimbusBenchmark.now()
        profiledFirstFrame(app, size)
        let firstFrame = NimbusBenchmark.now() - t0
        var drawn: Double?
        MainQueuePump.run(until: Date().addingTimeInterval(5)) {
            if app.render(size: size).text().contains("Partly cloudy") { drawn = NimbusBenchmark.now() - t0 }
            return drawn != nil
        }
        guard let drawn else {
            return .failure(.init(message: "the forecast was not drawn in 5 s: " + app.render(size: size).text()
                .split(separator: "\n").prefix(8).joined(separator: " | ")))
        }
        // Let the air settle, go back, and open the city again: now from the kept copies.
        MainQueuePump.run(until: Date().addingTimeInterval(0.3)) { false }
        app.handle(.escape)
        _ = app.render(size: size)
        let t1 = NimbusBenchmark.now()
        app.handle(.enter)
        _ = app.render(size: size)
        let keptFrame = NimbusBenchmark.now() - t1
        return .success(Times(firstFrame: firstFrame, drawn: drawn, keptFrame: keptFrame))
    }
}
