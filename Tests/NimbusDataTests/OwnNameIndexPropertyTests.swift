import Foundation
import Testing
import PropertyBased
import TestSupport
@testable import NimbusData

/// The own names' sorted tables find the entries starting with a prefix by binary search (over
/// their eight-byte keys, for a prefix that fits in one); here, by looking at every entry.
@Suite struct OwnNameIndexPropertyTests {
    /// Few distinct bytes, so that names share long prefixes; a space, and the bytes of "é" and "서".
    static let alphabet: [UInt8] = [0x61, 0x62, 0x6E, 0x20, 0xC3, 0xA9, 0xEC, 0x84, 0x9C]

    /// A table of names made from `numbers`, a few of them longer than eight bytes, some repeated.
    static func table(_ numbers: [Int]) -> OwnNameIndex.Table {
        var bytes: [UInt8] = [], entries: [OwnNameIndex.Entry] = []
        var i = 0
        for city in 0..<(numbers[0] % 40 + 1) {
            let length = numbers[(i + 1) % numbers.count] % 13 + 1
            let start = bytes.count
            for k in 0..<length { bytes.append(alphabet[numbers[(i + 2 + k) % numbers.count] % alphabet.count]) }
            entries.append(OwnNameIndex.Entry(start: UInt32(start), length: UInt32(length), city: UInt32(city)))
            i += 3
        }
        return OwnNameIndex.Table(bytes: bytes, entries: entries)
    }

    @Test func theRangeOfAPrefixIsEveryEntryStartingWithIt() async {
        let input = Gen.int(in: 0...9999).array(of: 24)
        await propertyCheck(count: PropertyCount.scaled(default: 300), input: input) { numbers in
            let table = Self.table(numbers)
            // A prefix of an entry (so that some match), or bytes of the alphabet, up to ten.
            let prefix: [UInt8]
            let entry = table.entries[numbers[3] % table.entries.count]
            let own = Array(table.bytes[Int(entry.start)..<Int(entry.start + entry.length)])
            if numbers[4] % 3 > 0 {
                prefix = Array(own.prefix(numbers[5] % (own.count + 1)))
            } else {
                prefix = (0..<(numbers[5] % 11)).map { Self.alphabet[numbers[(6 + $0) % numbers.count] % Self.alphabet.count] }
            }
            let range = prefix.withUnsafeBytes { table.range(startingWith: $0) }
            let starting = table.entries.indices.filter { i in
                let e = table.entries[i]
                return Int(e.length) >= prefix.count && table.bytes[Int(e.start)..<(Int(e.start) + prefix.count)].elementsEqual(prefix)
            }
            #expect(Array(range) == starting, "prefix \(prefix) of \(table.entries.count) entries")
            // The prefix's exact entries come first.
            let exact = starting.filter { Int(table.entries[$0].length) == prefix.count }
            #expect(Array(starting.prefix(exact.count)) == exact)
        }
    }
}
