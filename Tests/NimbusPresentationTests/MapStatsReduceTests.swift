import XCTest
import NimbusDomain
@testable import NimbusPresentation

/// `MapStatsViewModel.reduce` as a table: each read replaces the counters whole; Esc closes and
/// leaves them.
final class MapStatsReduceTests: XCTestCase {
    typealias VM = MapStatsViewModel

    func testAReadReplacesTheCountersAndEscCloses() {
        let some = MapCacheStatistics(hits: 12, misses: 3, evictions: 1, count: 4, totalCost: 900, countLimit: 8, totalCostLimit: 4096)
        let later = MapCacheStatistics(hits: 13, misses: 3, evictions: 1, count: 4, totalCost: 900, countLimit: 8, totalCostLimit: 4096)
        let cases: [(String, MapCacheStatistics, VM.Action, MapCacheStatistics, [VM.Effect])] = [
            ("the first read", MapCacheStatistics(), .read(some), some, []),
            ("a later read", some, .read(later), later, []),
            ("a read of a cleared cache goes back to zero", later, .read(MapCacheStatistics()), MapCacheStatistics(), []),
            ("the same counters again", some, .read(some), some, []),
            ("Esc closes", some, .close, some, [.close]),
            ("Esc before anything was counted", MapCacheStatistics(), .close, MapCacheStatistics(), [.close]),
        ]
        for (name, before, action, after, effects) in cases {
            var state = VM.State(statistics: before)
            XCTAssertEqual(VM.reduce(&state, action), effects, name)
            XCTAssertEqual(state, VM.State(statistics: after), name)
        }
    }
}
