import Foundation
import NimbusDomain
import Synchronization

/// Every clock time Nimbus shows comes from here, so one screen never writes "9:12" beside "05:11":
/// on the 24-hour clock times are zero-padded ("07:00", "07") in every language, as all three write
/// them in timetables; on the 12-hour clock they follow the language ("7:00 AM", "오전 7:00", "午前7:00").
///
/// Each formatter is made the first time it is needed and kept for the process, one per language
/// and pattern whatever the zone (making one costs more than using it a hundred times; a city's
/// detail opens with its date and times drawn): a time in a zone is UTC's wall clock moved by the
/// zone's offset at that instant (`Zone.offset(at:)`, from the system's zone database), which is what a formatter in the zone shows, as no pattern here
/// names the zone.
public final class ClockFormat {
    public let language: Language
    public let clock: UserSettings.Clock
    public let zone: Zone
    /// The formatters in UTC, by language and pattern; used under the lock.
    private static let formatters = Mutex<[String: DateFormatter]>([:])

    public init(language: Language, clock: UserSettings.Clock, zone: Zone) {
        self.language = language
        self.clock = clock
        self.zone = zone
    }

    /// "07:05" / "7:05 AM", "오전 7:05", "午前7:05".
    public func time(_ date: Date) -> String {
        string(date, clock == .h24 ? .fixed("HH:mm") : .template("h:mm a"))
    }

    /// The hour alone, for a time axis: "07" / "7 AM", "오전 7시", "午前7時".
    public func hour(_ date: Date) -> String {
        string(date, clock == .h24 ? .fixed("HH") : .template("h a"))
    }

    /// A date in the language's own order (an ICU template such as "EEEdMMM"), then the time:
    /// "Sun, Jun 21 09:12", "6월 21일 (일) 09:12", "6月21日(日) 09:12".
    public func dateTime(_ date: Date, dateTemplate: String) -> String {
        self.date(date, template: dateTemplate) + " " + time(date)
    }

    /// A date alone, from an ICU template, in the language.
    public func date(_ date: Date, template: String) -> String {
        string(date, .template(template))
    }

    /// A calendar date (a forecast's day) from an ICU template, in the language: "Sun", "일", "日".
    public func date(_ day: LocalDate, template: String) -> String {
        Self.utc(language: language, clock: clock).date(Date(timeIntervalSince1970: TimeInterval(day.daysSince1970) * 86400 + 43200),
                                                        template: template)
    }

    private static func utc(language: Language, clock: UserSettings.Clock) -> ClockFormat {
        ClockFormat(language: language, clock: clock, zone: .utc)
    }

    private enum Pattern {
        /// The same digits in every language (the 24-hour clock).
        case fixed(String)
        /// The language's own pattern for an ICU template.
        case template(String)
    }

    private func string(_ date: Date, _ pattern: Pattern) -> String {
        let key: String
        switch pattern {
        case .fixed(let format): key = "=" + format
        case .template(let template): key = language.rawValue + "~" + template
        }
        // The zone's wall clock at `date`, as UTC's.
        let wallClock = date.addingTimeInterval(TimeInterval(zone.offset(at: date)))
        let language = self.language
        let text = Self.formatters.withLock { formatters -> String in
            let formatter: DateFormatter
            if let kept = formatters[key] {
                formatter = kept
            } else {
                formatter = DateFormatter()
                formatter.timeZone = TimeZone(secondsFromGMT: 0)
                switch pattern {
                case .fixed(let format):
                    formatter.locale = Locale(identifier: "en_US_POSIX")
                    formatter.dateFormat = format
                case .template(let template):
                    formatter.locale = language.locale
                    formatter.setLocalizedDateFormatFromTemplate(template)
                }
                formatters[key] = formatter
            }
            return formatter.string(from: wallClock)
        }
        return text.replacingOccurrences(of: "\u{202F}", with: " ")
    }
}

extension WeatherFormatter {
    /// Times in `zone` as the settings' clock and the UI language write them.
    public func clock(in zone: Zone) -> ClockFormat {
        ClockFormat(language: l10n.language, clock: display.clock, zone: zone)
    }

    /// The city's zone, from the zone database.
    public func zone(for city: City) -> Zone { zones.zone(for: city) }
}
