import Foundation
import NimbusDomain

/// Every clock time Nimbus shows comes from here, so one screen never writes "9:12" beside "05:11":
/// on the 24-hour clock times are zero-padded ("07:00", "07") in every language, as all three write
/// them in timetables; on the 12-hour clock they follow the language ("7:00 AM", "오전 7:00", "午前7:00").
///
/// Each formatter is made the first time it is needed and kept (making one costs more than using
/// it a hundred times): make one `ClockFormat` for a screen's state, not one per value.
public final class ClockFormat {
    public let language: Language
    public let clock: UserSettings.Clock
    public let timeZone: TimeZone
    private var formatters: [String: DateFormatter] = [:]

    public init(language: Language, clock: UserSettings.Clock, timeZone: TimeZone) {
        self.language = language
        self.clock = clock
        self.timeZone = timeZone
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
        case .template(let template): key = "~" + template
        }
        let formatter: DateFormatter
        if let kept = formatters[key] {
            formatter = kept
        } else {
            formatter = DateFormatter()
            formatter.timeZone = timeZone
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
        return formatter.string(from: date).replacingOccurrences(of: "\u{202F}", with: " ")
    }
}

extension WeatherFormatter {
    /// Times in `timeZone` as the settings' clock and the UI language write them.
    public func clock(in timeZone: TimeZone) -> ClockFormat {
        ClockFormat(language: l10n.language, clock: display.value.clock, timeZone: timeZone)
    }
}
