import Testing
import PropertyBased
@testable import NimbusTerminal
import TestSupport

/// The encoder's caches: an answer is always the last value given for that key, or none.
@Suite struct SlotCacheTests {
    @Test func everyAnswerIsTheLastValueGivenForItsKey() async {
        await propertyCheck(count: PropertyCount.scaled(default: 100),
                            input: Gen.int(in: 1...6), Gen.int(in: 0...400).array(of: 1...300)) { bits, keys in
            var cache = SlotCache<Int>(slotBits: bits)
            var last: [UInt64: Int] = [:]
            for (i, k) in keys.enumerated() {
                let key = UInt64(k) * 0x1_0001 // keys far apart and near, 0 among them
                let cached = cache[key]
                if let cached { #expect(cached == last[key]) }
                let value = cache.value(key) { i }
                #expect(value == cached ?? i)
                last[key] = value
            }
            // Every key asked for again: the last value given, or none (its slot went to another).
            for (key, value) in last {
                if let known = cache[key] { #expect(known == value) }
            }
        }
    }
}
