import Foundation
import Synchronization
import NimbusDomain

/// The time of day in any time zone, in the clock setting's form and the language's words
/// ("2:05 PM", "오후 2:05", "14:05"): one formatter per zone and clock, one string per zone and
/// minute, so a list costs a dictionary lookup a row after its first frame of the minute.
public final class LocalTimes: Sendable {
    /// Zones kept at most (the IANA database has about 600; a hostile catalogue could have more).
    static let zoneLimit = 1024

    private struct Cache {
        var formatters: [FormatterKey: DateFormatter] = [:]
        var minute: Int64 = .min
        var strings: [FormatterKey: String] = [:]
        var widths: [UserSettings.Clock: Int] = [:]
    }

    private struct FormatterKey: Hashable {
        let zone: String
        let clock: UserSettings.Clock
    }

    private let locale: Locale
    private let cache = Mutex(Cache())

    public init(locale: Locale) { self.locale = locale }

    /// The time at `date` in the IANA zone `zone`, nil for a zone the system does not know.
    public func time(at date: Date, zone: String, clock: UserSettings.Clock) -> String? {
        let minute = Int64((date.timeIntervalSince1970 / 60).rounded(.down))
        let key = FormatterKey(zone: zone, clock: clock)
        return cache.withLock { cache -> String? in
            if cache.minute != minute {
                cache.minute = minute
                cache.strings.removeAll(keepingCapacity: true)
            }
            if let hit = cache.strings[key] { return hit }
            let formatter: DateFormatter
            if let kept = cache.formatters[key] {
                formatter = kept
            } else {
                guard let made = Self.formatter(zone: zone, clock: clock, locale: locale) else { return nil }
                if cache.formatters.count >= Self.zoneLimit { cache.formatters.removeAll() }
                cache.formatters[key] = made
                formatter = made
            }
            let text = Self.tidy(formatter.string(from: date))
            if cache.strings.count >= Self.zoneLimit { cache.strings.removeAll() }
            cache.strings[key] = text
            return text
        }
    }

    /// The widest a time of day is in this language and clock, in terminal columns (a column of
    /// times is this wide, so it does not change width with the hour).
    public func columnWidth(clock: UserSettings.Clock, width: (String) -> Int) -> Int {
        if let known = cache.withLock({ $0.widths[clock] }) { return known }
        var widest = 0
        if let utc = Self.formatter(zone: "UTC", clock: clock, locale: locale) {
            // Two-digit hours, morning and afternoon: the widest forms.
            for seconds in [10 * 3600 + 59 * 60, 22 * 3600 + 59 * 60, 12 * 3600 + 59 * 60, 23 * 3600 + 59 * 60] {
                widest = max(widest, width(Self.tidy(utc.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))))))
            }
        }
        cache.withLock { $0.widths[clock] = widest }
        return widest
    }

    private static func formatter(zone: String, clock: UserSettings.Clock, locale: Locale) -> DateFormatter? {
        // Foundation takes abbreviations and offsets too ("EST", "GMT+9"): only IANA names are wanted.
        guard zone.utf8.count <= 64, zone.contains("/") || zone == "UTC", let timeZone = TimeZone(identifier: zone) else {
            return nil
        }
        let f = DateFormatter()
        f.locale = locale
        f.timeZone = timeZone
        f.setLocalizedDateFormatFromTemplate(clock == .h24 ? "HH:mm" : "h:mm a")
        return f
    }

    /// ICU's narrow no-break space before "PM" as a plain space, as the rest of the app writes it.
    private static func tidy(_ s: String) -> String { s.replacingOccurrences(of: "\u{202F}", with: " ") }
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
