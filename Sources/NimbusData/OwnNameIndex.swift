import Foundation
import NimbusDomain

/// The folded own names of a catalogue's cities in one language (GeoNames' name, and the one shown
/// in that language), sorted two ways so a keystroke finds by binary search, without folding a
/// name, the cities whose own name the query is or starts (`markStarts`) and those with an own
/// word that a query word is or starts (`markWords`). The catalogue's token index cannot tell:
/// it holds every name of a city alike.
///
/// Made once per catalogue and language, in the start-up warm-up (`CityCatalog.prepareRanking`).
struct OwnNameIndex: Sendable {
    /// A run of bytes in `bytes` and the city it belongs to.
    struct Entry: Sendable {
        let start: UInt32
        let length: UInt32
        let city: UInt32
    }

    /// A sorted table of byte strings, each with its city.
    struct Table: Sendable {
        let bytes: [UInt8]
        /// Sorted by their bytes, then by city.
        let entries: [Entry]
        /// Each entry's `PrefixKey`, ascending: a prefix of at most
        /// eight bytes finds its range here alone, in one array, without reading the names' bytes.
        let keys: [UInt64]
        /// Each entry's city and length, in eight bytes rather than twelve: what marking a range reads.
        let marks: [Mark]
        struct Mark: Sendable {
            let city: UInt32
            let length: UInt32
        }

        init(bytes: [UInt8], entries: [Entry]) {
            self.bytes = bytes
            (self.entries, self.keys) = bytes.withUnsafeBufferPointer { all in
                // Sorted by each entry's first eight bytes as a number first (the order of the bytes
                // where they differ there), the bytes themselves only where those are the same.
                let raw = UnsafeRawBufferPointer(all)
                var keyed = entries.map { e in
                    (key: PrefixKey.of(UnsafeRawBufferPointer(rebasing: raw[Int(e.start)..<Int(e.start + e.length)])), entry: e)
                }
                keyed.sort { a, b in
                    if a.key != b.key { return a.key < b.key }
                    let order = Self.compare(all, a.entry, all, b.entry)
                    return order != 0 ? order < 0 : a.entry.city < b.entry.city
                }
                return (keyed.map(\.entry), keyed.map(\.key))
            }
            marks = self.entries.map { Mark(city: $0.city, length: $0.length) }
        }

        private static func compare(_ x: UnsafeBufferPointer<UInt8>, _ a: Entry,
                                    _ y: UnsafeBufferPointer<UInt8>, _ b: Entry) -> Int {
            let common = Int(min(a.length, b.length))
            if common > 0 {
                let order = memcmp(x.baseAddress! + Int(a.start), y.baseAddress! + Int(b.start), common)
                if order != 0 { return Int(order) }
            }
            return Int(a.length) - Int(b.length)
        }

        /// The entries whose bytes start with `prefix`: its exact entries first (sorted order), then the longer ones.
        func range(startingWith prefix: UnsafeRawBufferPointer) -> Range<Int> {
            // Up to eight bytes: the entries starting with it are those whose key is in its range.
            if prefix.count <= 8, let range = PrefixKey.range(of: prefix) {
                return keys.withUnsafeBufferPointer { keys in
                    PrefixKey.firstIndex(in: keys) { $0 >= range.lowerBound }..<PrefixKey.firstIndex(in: keys) { $0 > range.upperBound }
                }
            }
            return bytes.withUnsafeBufferPointer { all in
                // Before `prefix` in byte order, and not starting with it: below the range.
                func below(_ e: Entry) -> Bool {
                    let common = min(Int(e.length), prefix.count)
                    if common > 0 {
                        let order = memcmp(all.baseAddress! + Int(e.start), prefix.baseAddress!, common)
                        if order != 0 { return order < 0 }
                    }
                    return Int(e.length) < prefix.count
                }
                // Starts with `prefix` or is before it.
                func notAbove(_ e: Entry) -> Bool {
                    guard Int(e.length) >= prefix.count else { return below(e) }
                    return prefix.isEmpty || memcmp(all.baseAddress! + Int(e.start), prefix.baseAddress!, prefix.count) <= 0
                }
                var lo = 0, hi = entries.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if below(entries[mid]) { lo = mid + 1 } else { hi = mid }
                }
                let lower = lo
                hi = entries.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if notAbove(entries[mid]) { lo = mid + 1 } else { hi = mid }
                }
                return lower..<lo
            }
        }

        /// The byte after the first `offset` of entry `index`, nil at its end.
        func byte(_ index: Int, at offset: Int) -> UInt8? {
            let e = entries[index]
            return offset < Int(e.length) ? bytes[Int(e.start) + offset] : nil
        }
    }

    /// Separates the words of a name in `starts`: folded tokens never hold a space.
    static let wordSeparator: UInt8 = 0x20

    /// Each own name, its folded words joined by a space.
    let starts: Table
    /// Each word of each own name (a city's repeated words once).
    let words: Table

    /// Folds `ownNames(index)` for every city in `0..<cityCount`.
    init(cityCount: Int, ownNames: (Int) -> [String]) {
        var startBytes: [UInt8] = [], startEntries: [Entry] = []
        var wordBytes: [UInt8] = [], wordEntries: [Entry] = []
        var tokens = FoldedTokens()
        for index in 0..<cityCount {
            let city = UInt32(index)
            let firstWord = wordEntries.count, firstStart = startEntries.count
            for name in ownNames(index) {
                NameFolding.fold(name, into: &tokens)
                guard tokens.count > 0 else { continue }
                let start = startBytes.count
                for t in 0..<tokens.count {
                    if t > 0 { startBytes.append(Self.wordSeparator) }
                    let token = tokens.token(t)
                    startBytes += token
                    let repeated = wordEntries[firstWord...].contains { e in
                        Int(e.length) == token.count && wordBytes[Int(e.start)..<Int(e.start + e.length)].elementsEqual(token)
                    }
                    if !repeated {
                        wordEntries.append(Entry(start: UInt32(wordBytes.count), length: UInt32(token.count), city: city))
                        wordBytes += token
                    }
                }
                let length = startBytes.count - start
                let repeated = startEntries[firstStart...].contains { e in
                    Int(e.length) == length
                        && startBytes[Int(e.start)..<Int(e.start + e.length)].elementsEqual(startBytes[start...])
                }
                if repeated {
                    startBytes.removeLast(length)
                } else {
                    startEntries.append(Entry(start: UInt32(start), length: UInt32(length), city: city))
                }
            }
        }
        starts = Table(bytes: startBytes, entries: startEntries)
        words = Table(bytes: wordBytes, entries: wordEntries)
    }

    /// Marks, in `starts`, the cities with an own name that starts with `joined` (a query's folded
    /// words joined by a space) as words: a name's words up to the query's last are the query's,
    /// and its next starts with the query's last word, or with `whole`, is it. Marks in `exact`
    /// those with an own name that is `joined`.
    func markStarts(_ joined: UnsafeRawBufferPointer, whole: Bool,
                    exact: UnsafeMutableBufferPointer<UInt64>, starts marked: UnsafeMutableBufferPointer<UInt64>) {
        let range = starts.range(startingWith: joined)
        let n = joined.count
        // Every entry of the range starts with `joined`: one of its length is it. The byte after it is
        // read only for `whole` (the names' bytes are in city order, the entries in name order: a
        // read per entry would miss the cache for most of them).
        starts.marks.withUnsafeBufferPointer { marks in
            for i in range {
                let city = Int(marks[i].city)
                let isExact = Int(marks[i].length) == n
                if isExact { exact[city >> 6] |= 1 &<< UInt64(city & 63) }
                if whole, !isExact, starts.byte(i, at: n) != Self.wordSeparator { continue }
                marked[city >> 6] |= 1 &<< UInt64(city & 63)
            }
        }
    }

    /// The cities with an own name that is `joined` (a query's folded words joined by a space).
    func cities(named joined: UnsafeRawBufferPointer) -> [Int] {
        let range = starts.range(startingWith: joined)
        // The exact entries come first in the range.
        return starts.marks.withUnsafeBufferPointer { marks in
            var found: [Int] = []
            for i in range {
                guard Int(marks[i].length) == joined.count else { break }
                found.append(Int(marks[i].city))
            }
            return found
        }
    }

    /// Marks, in `prefixed`, the cities with an own word starting with `token`, and in `whole`
    /// those with an own word that is `token`.
    func markWords(_ token: UnsafeRawBufferPointer, whole: UnsafeMutableBufferPointer<UInt64>,
                   prefixed: UnsafeMutableBufferPointer<UInt64>) {
        let range = words.range(startingWith: token)
        words.marks.withUnsafeBufferPointer { marks in
            for i in range {
                let city = Int(marks[i].city)
                if Int(marks[i].length) == token.count { whole[city >> 6] |= 1 &<< UInt64(city & 63) }
                prefixed[city >> 6] |= 1 &<< UInt64(city & 63)
            }
        }
    }
}
