import AppExploration
import Foundation
import NimbusTerminal

/// `nimbus-bench --map-soak [PANS] [SEED]`: Shanghai's map in the whole app at 120×40, its maps drawn
/// on a real queue as the live app draws them, moved by random `h j k l + -` keys and, every other
/// round, by wheel and drag reports, in bursts of 200 (as a terminal hands them over when keys
/// repeat). The process's resident memory (`VmRSS`, /proc/self/status) is read after each round,
/// once the render queue is idle. Every new view is a new map; the cache keeps at most its limits,
/// so memory must stay flat: exits 1 when the second half of the run grew it by more than `allowance`.
@MainActor
enum MapSoak {
    /// How much the resident memory may grow over the second half of the run (allocator noise).
    static let allowance = 4 * 1024 * 1024

    static func run(pans total: Int, seed: UInt64) {
        let (environment, home) = AppHarness.sandbox(["NIMBUS_LANG": "en", "NIMBUS_UNITS": "metric"])
        defer { try? FileManager.default.removeItem(at: home) }
        let queue = DispatchQueue(label: "nimbus.map", qos: .userInitiated)
        let harness: AppHarness
        do {
            harness = try AppHarness(environment: environment, size: Size(cols: 120, rows: 40), renderQueue: queue)
        } catch {
            print("map soak: the app could not start: \(error)")
            exit(1)
        }
        harness.press(.char("/"))
        harness.type("shanghai")
        harness.press(.enter, .enter)
        guard harness.wait(for: "zoom"), harness.screen.contains("Shanghai") else {
            print("map soak: Shanghai's map is not on screen:\n\(harness.screen)")
            exit(1)
        }
        /// Lets the render queue finish and its answers be shown.
        func drain() {
            queue.sync {}
            harness.advance(by: .milliseconds(50))
        }
        var rng = Soak.SplitMix(seed: seed)
        let keys: [UInt8] = Array("hjkl+-".utf8)
        let rounds = 10, burst = 200
        drain()
        var samples: [Int] = [residentBytes()]
        let mb = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 1_048_576) }
        let start = Date()
        var pans = 0
        for round in 0..<rounds {
            let target = total * (round + 1) / rounds
            while pans < target {
                var bytes: [UInt8] = []
                let count = min(burst, target - pans)
                for _ in 0..<count {
                    if round % 2 == 1 {
                        // The wheel over the map, or a drag across it, as SGR mouse reports.
                        let x = 70 + Int(rng.next() % 40), y = 8 + Int(rng.next() % 24)
                        let report = rng.next() % 2 == 0
                            ? "\u{1B}[<\(rng.next() % 2 == 0 ? 64 : 65);\(x);\(y)M"
                            : "\u{1B}[<0;\(x);\(y)M\u{1B}[<32;\(x - 20);\(y - 6)M\u{1B}[<0;\(x - 20);\(y - 6)m"
                        bytes += Array(report.utf8)
                    } else {
                        bytes.append(keys[Int(rng.next() % UInt64(keys.count))])
                    }
                }
                harness.feed(bytes)
                pans += count
                harness.advance(by: .milliseconds(5))
            }
            drain()
            samples.append(residentBytes())
            print("map soak: \(pans) pans, RSS \(mb(samples.last!)) MB (\(String(format: "%+.1f", Double(samples.last! - samples[0]) / 1_048_576)) MB), "
                  + "\(harness.container.map.statistics.count) maps cached, \(String(format: "%.0f", Date().timeIntervalSince(start))) s")
        }
        guard harness.screen.contains("Shanghai") else {
            print("map soak: the map left the screen:\n\(harness.screen)")
            exit(1)
        }
        let growth = samples.last! - samples[rounds / 2]
        print("map soak: \(total) pans (keys, then wheel and drags) in \(String(format: "%.0f", Date().timeIntervalSince(start))) s; "
              + "RSS \(samples.map(mb).joined(separator: " → ")) MB; the second half grew it by \(mb(growth)) MB "
              + "(allowed \(allowance / 1_048_576) MB); map cache \(harness.container.map.statistics.count) maps, "
              + "\(harness.container.map.statistics.totalCost) cells")
        if growth > allowance {
            print("map soak: memory keeps growing")
            exit(1)
        }
    }

    /// The process's resident set (`VmRSS`), in bytes.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb * 1024
    }
}
