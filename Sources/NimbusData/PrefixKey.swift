/// A byte string's first eight bytes as a big-endian number, zeros after its end: for strings
/// without a zero byte (folded names hold none), two whose keys differ are in the order of their
/// keys, so a sorted table of strings has sorted keys, and a binary search over the keys alone (one
/// array of numbers) finds where a prefix's strings are, without reading their bytes. The own
/// names' tables (`OwnNameIndex.Table`) and the catalogue's token table (`CityCatalog`) search so.
enum PrefixKey {
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var key: UInt64 = 0
        for i in 0..<8 { key = key << 8 | (i < bytes.count ? UInt64(bytes[i]) : 0) }
        return key
    }

    /// The keys of the strings starting with `prefix`: its own key, then any bytes after it. For a
    /// prefix of eight bytes or fewer, a string starts with it exactly when its key is in the range;
    /// a longer one's strings are in it among others. Nil when `prefix` holds a zero byte.
    static func range(of prefix: UnsafeRawBufferPointer) -> ClosedRange<UInt64>? {
        guard !prefix.contains(0) else { return nil }
        let low = of(prefix)
        return low...(prefix.count >= 8 ? low : low | (UInt64.max >> (8 * prefix.count)))
    }

    /// The first index of ascending `keys` where `past` holds (it holds from there on).
    static func firstIndex(in keys: UnsafeBufferPointer<UInt64>, where past: (UInt64) -> Bool) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if past(keys[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
