import AppExploration
import Foundation

/// `nimbus-bench --soak [ACTIONS]`: random user actions against the whole app (see `AppExploration`),
/// in sequences of 200 from a fresh sandbox with seeded data, with every invariant checked after every
/// action. Prints actions per second and the checks made; exits 1 with the sequence at the first
/// broken invariant.
@MainActor
enum Soak {
    static func run(actions total: Int, seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var counts = Exploration.Counts()
        var sequences = 0
        let start = Date()
        var lastReport = start
        while counts.actions < total {
            let setup = Exploration.Setup(code: Int(rng.next() % 720))
            let actions = (0..<min(200, total - counts.actions)).map { _ in
                UserAction(code: Int(rng.next() % UInt64(UserAction.codeCount)))
            }
            do {
                if let failure = try Exploration.run(setup, actions: actions, counts: &counts) {
                    print("soak: an invariant broke in sequence \(sequences + 1) (seed \(seed)) \(failure)")
                    exit(1)
                }
            } catch {
                print("soak: the app could not start: \(error)")
                exit(1)
            }
            sequences += 1
            if Date().timeIntervalSince(lastReport) > 30 {
                lastReport = Date()
                let rate = Double(counts.actions) / Date().timeIntervalSince(start)
                var stderr = StandardError()
                print("soak: \(counts.actions) actions, \(Int(rate)) a second", to: &stderr)
            }
        }
        let seconds = Date().timeIntervalSince(start)
        print("soak: \(counts.actions) actions in \(sequences) sequences, \(String(format: "%.0f", seconds)) s, "
            + "\(Int(Double(counts.actions) / seconds)) actions/s; \(counts.checks) invariant evaluations "
            + "(of: \(Invariants.names.joined(separator: ", "))), none broken (seed \(seed))")
    }

    /// A small seeded generator, so a soak can be run again exactly.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

private struct StandardError: TextOutputStream {
    mutating func write(_ string: String) { FileHandle.standardError.write(Data(string.utf8)) }
}

