import Foundation
import Synchronization
import NimbusDomain

/// The time of day in any time zone, written as `ClockFormat` writes every time ("2:05 PM",
/// "오후 2:05", "14:05", and "03:24" in every language on the 24-hour clock). Zones are looked up
/// once in the zone database; times are formatted by one `ClockFormat` (in UTC) a clock setting, once a minute for each
/// offset from UTC (zones share a few dozen), so a list costs a few dictionary lookups a row, and a
/// zone seen for the first time no formatter.
public final class LocalTimes: Sendable {
    /// Zones kept at most (the IANA database has about 600; a hostile catalogue could have more).
    static let zoneLimit = 1024

    private struct Cache {
        var zones: [String: Zone?] = [:]
        var formatters: [UserSettings.Clock: ClockFormat] = [:]
        var minute: Int64 = .min
        var strings: [TimeKey: String] = [:]
        /// Each zone's offset from UTC this minute.
        var offsets: [String: Int] = [:]
        var widths: [UserSettings.Clock: Int] = [:]
    }

    private struct TimeKey: Hashable {
        let offset: Int
        let clock: UserSettings.Clock
    }

    private let language: Language
    private let database: any ZoneLookup
    private let cache = Mutex(Cache())

    public init(language: Language, zones: any ZoneLookup) {
        self.language = language
        database = zones
    }

    /// The time at `date` in the IANA zone `zone`, nil for a zone the system does not know.
    public func time(at date: Date, zone: String, clock: UserSettings.Clock) -> String? {
        let minute = Int64((date.timeIntervalSince1970 / 60).rounded(.down))
        let language = self.language
        let database = self.database
        return cache.withLock { cache -> String? in
            if cache.minute != minute {
                cache.minute = minute
                cache.strings.removeAll(keepingCapacity: true)
                cache.offsets.removeAll(keepingCapacity: true)
            }
            if let offset = cache.offsets[zone], let hit = cache.strings[TimeKey(offset: offset, clock: clock)] { return hit }
            let found: Zone?
            if let known = cache.zones[zone] {
                found = known
            } else {
                found = database.zone(named: zone)
                if cache.zones.count >= Self.zoneLimit { cache.zones.removeAll() }
                cache.zones[zone] = found
            }
            guard let found else { return nil }
            // The whole UTC minute shows one text, the start's: an offset with seconds (Monrovia's
            // -0:44:30 until 1972) would otherwise give two texts within one minute, whichever came first.
            let start = Date(timeIntervalSince1970: TimeInterval(minute) * 60)
            let offset = found.offset(at: start)
            if cache.offsets.count >= Self.zoneLimit { cache.offsets.removeAll() }
            cache.offsets[zone] = offset
            let key = TimeKey(offset: offset, clock: clock)
            if let hit = cache.strings[key] { return hit }
            let formatter = cache.formatters[clock] ?? Self.formatter(clock: clock, language: language)
            cache.formatters[clock] = formatter
            // The zone's wall clock is UTC's moved by the offset (a minute of one offset is all the same text).
            let text = formatter.time(start.addingTimeInterval(TimeInterval(offset)))
            cache.strings[key] = text
            return text
        }
    }

    /// The widest a time of day is in this language and clock, in terminal columns (a column of
    /// times is this wide, so it does not change width with the hour).
    public func columnWidth(clock: UserSettings.Clock, width: (String) -> Int) -> Int {
        if let known = cache.withLock({ $0.widths[clock] }) { return known }
        let utc = Self.formatter(clock: clock, language: language)
        var widest = 0
        // Two-digit hours, morning and afternoon: the widest forms.
        for seconds in [10 * 3600 + 59 * 60, 22 * 3600 + 59 * 60, 12 * 3600 + 59 * 60, 23 * 3600 + 59 * 60] {
            widest = max(widest, width(utc.time(Date(timeIntervalSince1970: TimeInterval(seconds)))))
        }
        cache.withLock { $0.widths[clock] = widest }
        return widest
    }

    private static func formatter(clock: UserSettings.Clock, language: Language) -> ClockFormat {
        ClockFormat(language: language, clock: clock, zone: .utc)
    }
}

/// The minute a list's local times are shown for, and the clock setting: a new value each minute.
public struct CityClock: Equatable, Sendable {
    /// The start of the minute.
    public let minute: Date
    public let clock: UserSettings.Clock
    private let times: LocalTimes

    public init(now: Date, clock: UserSettings.Clock, times: LocalTimes) {
        minute = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        self.clock = clock
        self.times = times
    }

    /// The time of day now in `zone` ("14:05"), nil for an unknown zone.
    public func time(in zone: String) -> String? { times.time(at: minute, zone: zone, clock: clock) }

    /// Columns a time takes at most.
    public func columnWidth(_ width: (String) -> Int) -> Int { times.columnWidth(clock: clock, width: width) }

    public static func == (l: CityClock, r: CityClock) -> Bool { l.minute == r.minute && l.clock == r.clock && l.times === r.times }
}
