import Foundation
import Testing

/// Work a parser does on hostile input, bounded by the processor time of the thread doing it, not
/// by the clock: Swift Testing runs these suites beside each other (and beside the XCTest run) on
/// two cores, where the clock also counts every other test's turn (a mutated TMDB page once took
/// 5.6 s by the clock in CI and a few milliseconds of its own). The bound is generous, for a debug
/// build; it is there to catch work that grows out of proportion with the input.
enum ThreadTime {
    /// Processor time used by the calling thread so far, in seconds.
    static var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Runs `work` (synchronous, so on this thread throughout) and expects it to use at most
    /// `seconds` of this thread's processor time.
    static func within(_ seconds: Double, _ work: () -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        let start = now
        work()
        let used = now - start
        #expect(used < seconds, "used \(used) s of processor time", sourceLocation: sourceLocation)
    }
}
