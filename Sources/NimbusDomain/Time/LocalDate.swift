import Foundation

/// A calendar date with no time and no zone (the proleptic Gregorian calendar): the day a forecast,
/// a normal or a sunrise belongs to at a place. Written "2026-03-29" (ISO 8601), as JSON gives dates.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil for a day the calendar does not have (February 30, month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.length(ofMonth: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative: before it).
    public init(daysSince1970 days: Int) {
        // Howard Hinnant's civil_from_days: exact for every day of the proleptic Gregorian calendar.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date.
    public var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDate { LocalDate(daysSince1970: daysSince1970 + days) }

    /// 0 Sunday … 6 Saturday.
    public var weekday: Int { ((daysSince1970 % 7) + 7 + 4) % 7 }

    /// "2026-03-29".
    public var description: String {
        let y = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
        return y + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    private func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A wall-clock reading: the local date and the seconds since its midnight (0..<86400).
public struct WallClock: Equatable, Sendable {
    public let date: LocalDate
    public let secondOfDay: Int

    public var hour: Int { secondOfDay / 3600 }
    public var minute: Int { secondOfDay / 60 % 60 }
    public var second: Int { secondOfDay % 60 }

    /// The reading `seconds` after 1970-01-01 00:00 on the same wall clock.
    public init(secondsSince1970 seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        date = LocalDate(daysSince1970: Int(days))
        secondOfDay = Int(seconds - days * 86400)
    }
}
