import Foundation

/// A POSIX TZ string as a TZif file's footer gives it ("CET-1CEST,M3.5.0,M10.5.0/3", "<+13>-13",
/// "MST7"): the zone's rule for every instant after the file's last transition. RFC 8536's
/// extensions are read too: transition times from −167 to 167 hours, and DST all year
/// ("EST5EDT,0/0,J365/25"). Offsets here are seconds east of UTC (POSIX writes them west).
public struct PosixTimeZoneRule: Equatable, Sendable {
    public let standardOffset: Int
    public let daylight: Daylight?

    public struct Daylight: Equatable, Sendable {
        public let offset: Int
        public let start: Change
        public let end: Change
    }

    /// When a change happens: a day of the year and a local time (seconds, −167 h … 167 h) on the
    /// clock in force before it.
    public struct Change: Equatable, Sendable {
        public enum Day: Equatable, Sendable {
            /// `Jn`: day 1…365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0…365, February 29 counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday d (0 Sunday) of week w (5: the last) of month m.
            case monthWeek(month: Int, week: Int, weekday: Int)
        }
        public let day: Day
        public let time: Int

        /// The date of this change in `year`.
        func date(in year: Int) -> LocalDate {
            let january1 = LocalDate(year: year, month: 1, day: 1)!.daysSince1970
            switch day {
            case .julian(let n):
                // Julian days skip February 29: day 60 is March 1 in every year.
                return LocalDate(daysSince1970: january1 + n - 1 + (LocalDate.isLeap(year) && n >= 60 ? 1 : 0))
            case .zeroBased(let n):
                return LocalDate(daysSince1970: january1 + n)
            case .monthWeek(let month, let week, let weekday):
                let first = LocalDate(year: year, month: month, day: 1)!
                var day = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
                let length = LocalDate.length(ofMonth: month, year: year)
                while day > length { day -= 7 }
                return LocalDate(year: year, month: month, day: day)!
            }
        }
    }

    /// The offset in force at `t` (seconds since 1970, UTC).
    public func offset(at t: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = WallClock(secondsSince1970: t + Int64(standardOffset)).date.year
        // The changes of the year before, the year and the year after: a change whose time runs past
        // midnight (or before it) can fall in a neighbouring year, and the southern hemisphere's
        // summer spans New Year. The last change at or before `t` decides.
        var best: (at: Int64, offset: Int)?
        for y in (year - 1)...(year + 1) {
            for (change, isStart) in [(daylight.end, false), (daylight.start, true)] {
                let before = isStart ? standardOffset : daylight.offset
                let at = Int64(change.date(in: y).daysSince1970) * 86400 + Int64(change.time - before)
                // On a tie (DST all year: one year's end is the next one's start) the start wins.
                guard at <= t, best.map({ at > $0.at || (at == $0.at && isStart) }) ?? true else { continue }
                best = (at, isStart ? daylight.offset : standardOffset)
            }
        }
        return best?.offset ?? standardOffset
    }

    /// The instants in `range` (seconds since 1970) at which the offset changes.
    public func transitions(in range: ClosedRange<Int64>) -> [Int64] {
        guard let daylight else { return [] }
        let first = WallClock(secondsSince1970: range.lowerBound).date.year - 1
        let last = WallClock(secondsSince1970: range.upperBound).date.year + 1
        guard first <= last else { return [] }
        var out: [Int64] = []
        for y in first...last {
            for (change, before) in [(daylight.start, standardOffset), (daylight.end, daylight.offset)] {
                let at = Int64(change.date(in: y).daysSince1970) * 86400 + Int64(change.time - before)
                if range.contains(at), offset(at: at - 1) != offset(at: at) { out.append(at) }
            }
        }
        return Array(Set(out)).sorted()
    }

    // MARK: Parsing

    /// Nil for a string that is not a POSIX TZ string (or names DST without saying when it starts).
    public init?(_ text: String) {
        var p = Parser(Array(text.utf8))
        guard p.bytes.count <= 256, p.name(), let std = p.offset(maxHours: 24) else { return nil }
        standardOffset = -std
        if p.atEnd {
            daylight = nil
            return
        }
        guard p.name() else { return nil }
        var dst = -(std - 3600)
        if !p.atEnd && p.peek != UInt8(ascii: ",") {
            guard let o = p.offset(maxHours: 24) else { return nil }
            dst = -o
        }
        // zic always writes the rule; a string without one relies on a default no file should need.
        guard p.take(","), let start = p.change(), p.take(","), let end = p.change(), p.atEnd else { return nil }
        daylight = Daylight(offset: dst, start: start, end: end)
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[i] }

        mutating func take(_ c: Character) -> Bool {
            guard let ascii = c.asciiValue, peek == ascii else { return false }
            i += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or `<…>` with letters, digits, + and −.
        mutating func name() -> Bool {
            let start = i
            if take("<") {
                while let c = peek, isAlnum(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { i += 1 }
                let length = i - start - 1
                return take(">") && length >= 3
            }
            while let c = peek, isAlpha(c) { i += 1 }
            return i - start >= 3
        }

        /// `[+-]hh[:mm[:ss]]` in seconds (POSIX sign: west positive).
        mutating func offset(maxHours: Int) -> Int? {
            var sign = 1
            if take("+") {} else if take("-") { sign = -1 }
            guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
            var seconds = hours * 3600
            if take(":") {
                guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
                seconds += minutes * 60
                if take(":") {
                    guard let s = number(maxDigits: 2), s < 60 else { return nil }
                    seconds += s
                }
            }
            return sign * seconds
        }

        mutating func change() -> Change? {
            let day: Change.Day
            if take("J") {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if take("M") {
                guard let m = number(maxDigits: 2), (1...12).contains(m), take("."),
                      let w = number(maxDigits: 1), (1...5).contains(w), take("."),
                      let d = number(maxDigits: 1), (0...6).contains(d) else { return nil }
                day = .monthWeek(month: m, week: w, weekday: d)
            } else {
                guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if take("/") {
                guard let t = offset(maxHours: 167) else { return nil }
                time = t
            }
            return Change(day: day, time: time)
        }

        mutating func number(maxDigits: Int) -> Int? {
            var value = 0, digits = 0
            while let c = peek, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9"), digits < maxDigits {
                value = value * 10 + Int(c - UInt8(ascii: "0"))
                digits += 1
                i += 1
            }
            return digits > 0 ? value : nil
        }

        private func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
        private func isAlnum(_ c: UInt8) -> Bool { isAlpha(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) }
    }
}
