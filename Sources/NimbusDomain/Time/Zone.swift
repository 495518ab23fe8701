import Foundation

/// A place's time zone: what its clocks read at any instant. Every local time Nimbus shows (a city's
/// clock, hour labels, days, sunrise, the Moon's dates, an event at its epicentre, dates in JSON)
/// comes from `offset(at:)`, which reads the system's zone database (`ZoneLookup`), so an update of
/// the system's tzdata changes them all.
public struct Zone: Equatable, Sendable {
    /// The IANA name ("Europe/Berlin"), or "UTC±hh:mm" for a fixed offset.
    public let identifier: String
    private let source: Source

    enum Source: Equatable, Sendable {
        /// Read from a TZif file.
        case rules(ZoneRules)
        /// The copy of the zone database built into the toolkit (ICU), for a system without one.
        case builtIn(TimeZone)
    }

    public init(identifier: String, rules: ZoneRules) {
        self.identifier = identifier
        source = .rules(rules)
    }

    /// A zone from the toolkit's own database (used only where the system has none).
    public init(builtIn timeZone: TimeZone) {
        identifier = timeZone.identifier
        source = .builtIn(timeZone)
    }

    /// `seconds` east of UTC at every instant.
    public static func fixed(seconds: Int) -> Zone {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let name = "UTC" + sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
        return Zone(identifier: seconds == 0 ? "UTC" : name, rules: .fixed(seconds))
    }

    public static let utc = Zone.fixed(seconds: 0)

    /// Whether the zone came from the toolkit's copy rather than the system's database.
    public var isBuiltIn: Bool {
        if case .builtIn = source { return true }
        return false
    }

    /// The instants in `range` (seconds since 1970) at which the offset changes; nil for a zone of
    /// the built-in copy, whose transitions are not listed.
    public func transitions(in range: ClosedRange<Int64>) -> [Int64]? {
        guard case .rules(let rules) = source else { return nil }
        return rules.transitions(in: range)
    }

    /// Seconds east of UTC at `date`: the one answer every local time comes from.
    public func offset(at date: Date) -> Int {
        offset(at: Self.seconds(date))
    }

    /// Seconds east of UTC at `t` seconds since 1970.
    public func offset(at t: Int64) -> Int {
        switch source {
        case .rules(let rules): return rules.offset(at: t)
        case .builtIn(let zone): return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
        }
    }

    /// The wall clock at `date`.
    public func wallClock(at date: Date) -> WallClock {
        let t = Self.seconds(date)
        return WallClock(secondsSince1970: t + Int64(offset(at: t)))
    }

    /// The local date at `date`.
    public func localDate(at date: Date) -> LocalDate { wallClock(at: date).date }

    /// The first instant of `day` on this zone's clocks: its midnight, or the end of a gap that
    /// skips midnight (Havana, Santiago and Beirut have moved clocks at 00:00).
    public func startOfDay(_ day: LocalDate) -> Date {
        Date(timeIntervalSince1970: TimeInterval(firstInstant(onOrAfter: Int64(day.daysSince1970) * 86400)))
    }

    /// The instant the wall clock first reads `seconds` after 1970-01-01 00:00 (or later, for a
    /// reading a gap skips: the first instant after the gap).
    public func instant(wallSeconds w: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(firstInstant(onOrAfter: w)))
    }

    private func firstInstant(onOrAfter w: Int64) -> Int64 {
        func wall(_ t: Int64) -> Int64 { t + Int64(offset(at: t)) }
        // Usually one step: the offset a little before is the offset at the answer.
        let guess = w - Int64(offset(at: w - Int64(offset(at: w))))
        if wall(guess) == w, wall(guess - 1) < w { return guess }
        // Otherwise (a gap or a repeated hour near `w`): the first instant whose wall clock has reached `w`,
        // searched within a day either side (no zone is further than that from UTC).
        var low = w - 2 * 86400, high = w + 2 * 86400
        while low < high {
            let mid = low + (high - low) / 2
            if wall(mid) >= w { high = mid } else { low = mid + 1 }
        }
        return low
    }

    static func seconds(_ date: Date) -> Int64 {
        let t = date.timeIntervalSince1970.rounded(.down)
        guard t.isFinite else { return 0 }
        return Int64(max(-1e15, min(1e15, t)))
    }

    public static func == (a: Zone, b: Zone) -> Bool { a.identifier == b.identifier && a.source == b.source }
}

/// The zone database: zones by IANA name.
public protocol ZoneLookup: Sendable {
    /// The zone named `identifier`; nil for a name the database does not have.
    func zone(named identifier: String) -> Zone?
}

extension ZoneLookup {
    /// The city's zone; UTC when the database has no zone of that name.
    public func zone(for city: City) -> Zone { zone(named: city.timeZone) ?? .utc }
}

extension Zone {
    /// `date` as RFC 3339 writes an instant, with this zone's offset at it:
    /// "2026-03-29T03:00:00+02:00" (whole seconds; an offset with seconds, which only local mean
    /// times before 1972 have, is written in UTC with "Z").
    public func rfc3339(_ date: Date) -> String {
        let t = Self.seconds(date)
        var offset = offset(at: t)
        if offset % 60 != 0 { offset = 0 }
        let wall = WallClock(secondsSince1970: t + Int64(offset))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let time = "T" + two(wall.hour) + ":" + two(wall.minute) + ":" + two(wall.second)
        let minutes = abs(offset) / 60
        let suffix = offset == 0 && identifier == "UTC" ? "Z" : (offset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
        return wall.date.description + time + suffix
    }
}
