/// Words within a few edits of each other, for "did you mean" (`CityCatalog.suggestions`): folded
/// UTF-8 as Unicode scalars, a 64-bit signature of which letters a word holds, and the
/// Damerau–Levenshtein distance (optimal string alignment: a transposition is one edit), bounded.
enum NearWords {
    /// The edits allowed from a word: in letters that write a sound each (Latin, Cyrillic…) none
    /// under three, one up to four, else two; in Hangul syllables, kana and kanji, which hold more,
    /// one from two on and two from five (셔울 → 서울).
    static func limit(for word: [UInt32]) -> Int {
        let dense = word.contains { $0 >= 0x1100 }
        if dense { return word.count < 2 ? 0 : word.count < 5 ? 1 : 2 }
        return word.count < 3 ? 0 : word.count <= 4 ? 1 : 2
    }

    /// The scalars of UTF-8 bytes (folded tokens are valid UTF-8; a bad byte is kept as itself).
    static func scalars<Bytes: Collection>(_ bytes: Bytes) -> [UInt32] where Bytes.Element == UInt8 {
        var out: [UInt32] = []
        out.reserveCapacity(bytes.count)
        appendScalars(bytes, to: &out)
        return out
    }

    /// Appends the scalars of UTF-8 bytes to `out`, as `scalars` reads them.
    @inline(__always)
    static func appendScalars<Bytes: Sequence>(_ bytes: Bytes, to out: inout [UInt32]) where Bytes.Element == UInt8 {
        var value: UInt32 = 0, pending = 0
        for byte in bytes {
            if pending > 0, byte & 0xC0 == 0x80 {
                value = value << 6 | UInt32(byte & 0x3F)
                pending -= 1
                if pending == 0 { out.append(value) }
                continue
            }
            pending = 0
            switch byte {
            case 0xF0...0xF7: value = UInt32(byte & 0x07); pending = 3
            case 0xE0...0xEF: value = UInt32(byte & 0x0F); pending = 2
            case 0xC0...0xDF: value = UInt32(byte & 0x1F); pending = 1
            default: out.append(UInt32(byte))
            }
        }
    }

    /// One bit per letter or digit (a–z, 0–9) and 28 bits shared by the rest: one edit changes at
    /// most two bits, so words within `n` edits differ in at most `2n` bits.
    static func signature(_ scalars: [UInt32]) -> UInt64 {
        var bits: UInt64 = 0
        for c in scalars {
            let bit: UInt32 = switch c {
            case 0x61...0x7A: c - 0x61
            case 0x30...0x39: 26 + c - 0x30
            default: 36 + c % 28
            }
            bits |= 1 << UInt64(bit)
        }
        return bits
    }

    /// The edits from `a` to `b` (insertions, deletions, substitutions, adjacent transpositions),
    /// nil when more than `limit`.
    static func distance(_ a: [UInt32], _ b: [UInt32], atMost limit: Int) -> Int? {
        let n = a.count, m = b.count
        guard abs(n - m) <= limit else { return nil }
        if n == 0 || m == 0 { return max(n, m) <= limit ? max(n, m) : nil }
        var before = [Int](repeating: 0, count: m + 1)   // row i - 2
        var previous = Array(0...m)                      // row i - 1
        var current = [Int](repeating: 0, count: m + 1)
        for i in 1...n {
            current[0] = i
            var best = i
            for j in 1...m {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
                best = min(best, value)
            }
            if best > limit { return nil }
            (before, previous, current) = (previous, current, before)
        }
        return previous[m] <= limit ? previous[m] : nil
    }

    /// `distance` for many words against one, with its rows and the other word's scalars kept
    /// between calls (no allocation per word once they are long enough).
    struct Distance {
        private var other: [UInt32] = []
        private var rows: [Int] = []

        /// The edits from `a` to the UTF-8 word `b`, nil when more than `limit`.
        mutating func between(_ a: [UInt32], _ b: UnsafeRawBufferPointer, atMost limit: Int) -> Int? {
            other.removeAll(keepingCapacity: true)
            NearWords.appendScalars(b, to: &other)
            let n = a.count, m = other.count
            guard abs(n - m) <= limit else { return nil }
            if n == 0 || m == 0 { return max(n, m) <= limit ? max(n, m) : nil }
            let width = m + 1
            if rows.count < 3 * width { rows = [Int](repeating: 0, count: 3 * width) }
            return rows.withUnsafeMutableBufferPointer { rows in
                other.withUnsafeBufferPointer { b in
                    a.withUnsafeBufferPointer { a in
                        var before = 0, previous = width, current = 2 * width   // rows i - 2, i - 1, i
                        for j in 0...m { rows[previous + j] = j }
                        for i in 1...n {
                            rows[current] = i
                            var best = i
                            for j in 1...m {
                                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                                var value = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                                    value = min(value, rows[before + j - 2] + 1)
                                }
                                rows[current + j] = value
                                best = min(best, value)
                            }
                            if best > limit { return nil }
                            (before, previous, current) = (previous, current, before)
                        }
                        return rows[previous + m] <= limit ? rows[previous + m] : nil
                    }
                }
            }
        }
    }
}
