import Foundation
import NimbusDomain

/// Every clock time Nimbus shows comes from here, so one screen never writes "9:12" beside "05:11":
/// on the 24-hour clock times are zero-padded ("07:00", "07") in every language, as all three write
/// them in timetables; on the 12-hour clock they follow the language ("7:00 AM", "오전 7:00", "午前7:00").
public struct ClockFormat: Sendable {
    public let language: Language
    public let clock: UserSettings.Clock
    public let timeZone: TimeZone

    public init(language: Language, clock: UserSettings.Clock, timeZone: TimeZone) {
        self.language = language
        self.clock = clock
        self.timeZone = timeZone
    }

    /// "07:05" / "7:05 AM", "오전 7:05", "午前7:05".
    public func time(_ date: Date) -> String {
        formatter(clock == .h24 ? nil : "h:mm a", fixed: "HH:mm").string(from: date).replacingOccurrences(of: "\u{202F}", with: " ")
    }

    /// The hour alone, for a time axis: "07" / "7 AM", "오전 7시", "午前7時".
    public func hour(_ date: Date) -> String {
        formatter(clock == .h24 ? nil : "h a", fixed: "HH").string(from: date).replacingOccurrences(of: "\u{202F}", with: " ")
    }

    /// A date in the language's own order (an ICU template such as "EEEdMMM"), then the time:
    /// "Sun, Jun 21 09:12", "6월 21일 (일) 09:12", "6月21日(日) 09:12".
    public func dateTime(_ date: Date, dateTemplate: String) -> String {
        self.date(date, template: dateTemplate) + " " + time(date)
    }

    /// A date alone, from an ICU template, in the language.
    public func date(_ date: Date, template: String) -> String {
        let f = DateFormatter()
        f.locale = language.locale
        f.timeZone = timeZone
        f.setLocalizedDateFormatFromTemplate(template)
        return f.string(from: date).replacingOccurrences(of: "\u{202F}", with: " ")
    }

    /// The 24-hour clock's fixed pattern (the same digits in every language), or the language's
    /// own 12-hour pattern from `template`.
    private func formatter(_ template: String?, fixed: String) -> DateFormatter {
        let f = DateFormatter()
        f.timeZone = timeZone
        if let template {
            f.locale = language.locale
            f.setLocalizedDateFormatFromTemplate(template)
        } else {
            f.locale = Locale(identifier: "en_US_POSIX")
            f.dateFormat = fixed
        }
        return f
    }
}

extension WeatherFormatter {
    /// Times in `timeZone` as the settings' clock and the UI language write them.
    public func clock(in timeZone: TimeZone) -> ClockFormat {
        ClockFormat(language: l10n.language, clock: display.value.clock, timeZone: timeZone)
    }
}
