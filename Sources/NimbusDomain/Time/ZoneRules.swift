import Foundation

/// One zone's offsets from UTC for every instant, as a TZif file holds them (RFC 8536): the
/// transitions, the offset before the first, and the footer's POSIX rule for the instants after the
/// last. `offset(at:)` is the answer every local time in Nimbus comes from (through `Zone`).
public struct ZoneRules: Equatable, Sendable {
    /// Transition instants (seconds since 1970, UTC), strictly increasing.
    let times: [Int64]
    /// The offset (seconds east of UTC) from each transition on.
    let offsets: [Int32]
    /// The offset before the first transition (time type 0).
    let initial: Int32
    /// For the instants after the last transition (nil: the last transition's offset stays).
    let footer: PosixTimeZoneRule?

    public init(times: [Int64], offsets: [Int32], initial: Int32, footer: PosixTimeZoneRule?) {
        precondition(times.count == offsets.count)
        self.times = times
        self.offsets = offsets
        self.initial = initial
        self.footer = footer
    }

    /// A zone that is always `seconds` east of UTC.
    public static func fixed(_ seconds: Int) -> ZoneRules {
        ZoneRules(times: [], offsets: [], initial: Int32(clamping: seconds), footer: nil)
    }

    /// Seconds east of UTC at `t` (seconds since 1970).
    public func offset(at t: Int64) -> Int {
        guard let last = times.last else { return footer?.offset(at: t) ?? Int(initial) }
        if t > last, let footer { return footer.offset(at: t) }
        // The last transition at or before `t`.
        var low = 0, high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? Int(initial) : Int(offsets[low - 1])
    }

    /// Every instant in `range` at which the offset changes: the file's own transitions and, after
    /// the last, the footer's.
    public func transitions(in range: ClosedRange<Int64>) -> [Int64] {
        var out = times.filter { range.contains($0) && offset(at: $0 - 1) != offset(at: $0) }
        let last = times.last ?? .min
        if let footer, range.upperBound > last {
            out += footer.transitions(in: max(range.lowerBound, last &+ 1)...range.upperBound)
        }
        return out
    }
}

/// Why a TZif file was not read.
public enum TZifError: Error, Equatable, Sendable {
    case notTZif
    case tooLarge
    case truncated
    /// A count, index, offset or order the format does not allow.
    case invalid(String)
    /// Leap-second files (`right/…`) count time another way.
    case leapSeconds
}

/// Reads TZif files (RFC 8536, versions 1 to 4). The bytes are hostile: every count is checked
/// against the file's length and the format's limits before anything is read, and a damaged file
/// is an error, never a trap.
public enum TZif {
    /// Larger than any zone file (the biggest are a few kilobytes).
    public static let maxBytes = 256 * 1024
    static let maxTransitions = 10_000
    /// RFC 8536: offsets lie within −25:59:59 … +25:59:59.
    static let offsetLimit: Int32 = 93_599

    public static func parse(_ bytes: [UInt8]) throws -> ZoneRules {
        guard bytes.count <= maxBytes else { throw TZifError.tooLarge }
        var reader = Reader(bytes: bytes)
        let v1 = try reader.header(timeSize: 4)
        if v1.version < 2 {
            return try reader.block(v1, timeSize: 4, footer: false)
        }
        // Version 2 and later repeat the data with 64-bit times after the 32-bit block; the 32-bit
        // block is skipped (its sizes were checked when its header was read).
        try reader.skip(v1.blockSize(timeSize: 4))
        let v2 = try reader.header(timeSize: 8)
        return try reader.block(v2, timeSize: 8, footer: true)
    }

    struct Header {
        let version: Int
        let isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

        func blockSize(timeSize: Int) -> Int {
            timecnt * timeSize + timecnt + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var i = 0

        mutating func need(_ n: Int) throws {
            guard n >= 0, n <= bytes.count - i else { throw TZifError.truncated }
        }

        mutating func skip(_ n: Int) throws {
            try need(n)
            i += n
        }

        mutating func u8() throws -> UInt8 {
            try need(1)
            defer { i += 1 }
            return bytes[i]
        }

        mutating func be32() throws -> UInt32 {
            try need(4)
            defer { i += 4 }
            return bytes[i..<i + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func be64() throws -> Int64 {
            try need(8)
            defer { i += 8 }
            return Int64(bitPattern: bytes[i..<i + 8].reduce(0) { $0 << 8 | UInt64($1) })
        }

        mutating func header(timeSize: Int) throws -> Header {
            try need(44)
            guard bytes[i..<i + 4].elementsEqual("TZif".utf8) else { throw TZifError.notTZif }
            let versionByte = bytes[i + 4]
            let version: Int
            switch versionByte {
            case 0: version = 1
            case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
            default: throw TZifError.invalid("version")
            }
            i += 20
            var counts: [Int] = []
            for _ in 0..<6 { counts.append(Int(try be32())) }
            let h = Header(version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2],
                           timecnt: counts[3], typecnt: counts[4], charcnt: counts[5])
            guard h.typecnt >= 1, h.typecnt <= 256 else { throw TZifError.invalid("type count") }
            guard h.charcnt >= 1, h.charcnt <= 4096 else { throw TZifError.invalid("abbreviation bytes") }
            guard h.isutcnt == 0 || h.isutcnt == h.typecnt, h.isstdcnt == 0 || h.isstdcnt == h.typecnt else {
                throw TZifError.invalid("indicator count")
            }
            guard h.timecnt <= TZif.maxTransitions, h.leapcnt <= 1000 else { throw TZifError.tooLarge }
            try need(h.blockSize(timeSize: timeSize))
            return h
        }

        mutating func block(_ h: Header, timeSize: Int, footer wantsFooter: Bool) throws -> ZoneRules {
            guard h.leapcnt == 0 else { throw TZifError.leapSeconds }
            var times: [Int64] = []
            times.reserveCapacity(h.timecnt)
            for _ in 0..<h.timecnt {
                let t = timeSize == 4 ? Int64(Int32(bitPattern: try be32())) : try be64()
                if let previous = times.last, t <= previous { throw TZifError.invalid("transition order") }
                times.append(t)
            }
            var typeIndices: [Int] = []
            for _ in 0..<h.timecnt {
                let index = Int(try u8())
                guard index < h.typecnt else { throw TZifError.invalid("type index") }
                typeIndices.append(index)
            }
            var offsets: [Int32] = []
            for _ in 0..<h.typecnt {
                let utoff = Int32(bitPattern: try be32())
                let isdst = try u8()
                let abbreviation = Int(try u8())
                guard abs(Int(utoff)) <= Int(TZif.offsetLimit) else { throw TZifError.invalid("offset") }
                guard isdst <= 1, abbreviation < h.charcnt else { throw TZifError.invalid("local time type") }
                offsets.append(utoff)
            }
            try skip(h.charcnt + h.isstdcnt + h.isutcnt)
            var rule: PosixTimeZoneRule?
            if wantsFooter {
                // "\n" TZ string "\n"; an empty string means no rule.
                guard try u8() == 0x0A else { throw TZifError.invalid("footer") }
                let start = i
                while i < bytes.count, bytes[i] != 0x0A, i - start <= 256 { i += 1 }
                guard i < bytes.count, bytes[i] == 0x0A else { throw TZifError.invalid("footer") }
                let text = bytes[start..<i]
                if !text.isEmpty {
                    guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
                          let parsed = PosixTimeZoneRule(String(decoding: text, as: UTF8.self)) else {
                        throw TZifError.invalid("footer")
                    }
                    rule = parsed
                }
            }
            return ZoneRules(times: times, offsets: typeIndices.map { offsets[$0] }, initial: offsets[0], footer: rule)
        }
    }
}
