/// A fixed-size cache keyed by a number, one entry per slot (a newer key takes its slot's place):
/// what the frame encoder asks for on every run of changed cells (a cursor move's bytes, a style's
/// bytes), found with one multiply instead of hashing a `Dictionary` key. Its size never grows.
struct SlotCache<Value> {
    private var keys: [UInt64]
    private var values: [Value?]
    private let shift: UInt64

    /// `slotBits`: 2^slotBits slots.
    init(slotBits: Int = 9) {
        precondition(slotBits > 0 && slotBits < 32)
        keys = [UInt64](repeating: 0, count: 1 << slotBits)
        values = [Value?](repeating: nil, count: 1 << slotBits)
        shift = UInt64(64 - slotBits)
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    subscript(key: UInt64) -> Value? {
        get {
            let i = slot(key)
            return keys[i] == key ? values[i] : nil
        }
        set {
            let i = slot(key)
            keys[i] = key
            values[i] = newValue
        }
    }

    /// The value for `key`, made by `make` when the cache does not have it.
    @inline(__always)
    mutating func value(_ key: UInt64, _ make: () -> Value) -> Value {
        if let known = self[key] { return known }
        let made = make()
        self[key] = made
        return made
    }
}
