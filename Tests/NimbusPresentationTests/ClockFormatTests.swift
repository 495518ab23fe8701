import Foundation
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusPresentation
import NimbusData
import TestSupport

/// Every time on the detail, its axis, sunrise and sunset, and a quake's times come from `ClockFormat`:
/// the 24-hour clock is zero-padded in every language, the 12-hour clock follows the language.
@Suite struct ClockFormatTests {
    static let seoul = TimeZone(identifier: "Asia/Seoul")!
    /// 2026-06-21 07:05 and 19:05 KST.
    static let morning = Date(timeIntervalSince1970: 1_781_967_600 + 7 * 3600 + 300)
    static let evening = morning.addingTimeInterval(12 * 3600)

    @Test(arguments: [
        (Language.en, UserSettings.Clock.h24, "07:05", "19:05", "07", "Sun, Jun 21 07:05"),
        (.en, .h12, "7:05 AM", "7:05 PM", "7 AM", "Sun, Jun 21 7:05 AM"),
        (.ko, .h24, "07:05", "19:05", "07", "6월 21일 (일) 07:05"),
        (.ko, .h12, "오전 7:05", "오후 7:05", "오전 7시", "6월 21일 (일) 오전 7:05"),
        (.ja, .h24, "07:05", "19:05", "07", "6月21日(日) 07:05"),
        (.ja, .h12, "午前7:05", "午後7:05", "午前7時", "6月21日(日) 午前7:05"),
    ])
    func eachLanguageAndClock(_ language: Language, _ clock: UserSettings.Clock, _ morning: String, _ evening: String,
                              _ hour: String, _ dateTime: String) {
        let f = ClockFormat(language: language, clock: clock, zone: SystemZoneDatabase.forTests.zone(named: "Asia/Seoul")!)
        #expect(f.time(Self.morning) == morning)
        #expect(f.time(Self.evening) == evening)
        #expect(f.hour(Self.morning) == hour)
        #expect(f.dateTime(Self.morning, dateTemplate: "EEEdMMM") == dateTime)
    }

    /// Reference: every pattern, at any instant from 1850 to 2100 in zones with half and quarter hours,
    /// summer time and offsets with seconds (before standard time), is what a formatter made in the
    /// zone itself writes (`ClockFormat` keeps formatters in UTC and moves the instant by the offset).
    /// Both read the toolkit's copy of the zones here: this checks the formatting, not the zone data
    /// (`ZoneReferenceTests` checks that against Python's reading of the system's files).
    @Test func everyPatternIsWhatAFormatterInTheZoneWrites() async {
        let zones = ["UTC", "Asia/Seoul", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham", "Europe/Amsterdam",
                     "America/Los_Angeles", "Australia/Lord_Howe", "Africa/Monrovia", "Pacific/Kiritimati"]
            .compactMap(TimeZone.init(identifier:))
        func inZone(_ date: Date, _ zone: TimeZone, _ language: Language, fixed: String? = nil, template: String? = nil) -> String {
            let formatter = DateFormatter()
            formatter.timeZone = zone
            if let fixed {
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.dateFormat = fixed
            } else if let template {
                formatter.locale = language.locale
                formatter.setLocalizedDateFormatFromTemplate(template)
            }
            return formatter.string(from: date).replacingOccurrences(of: "\u{202F}", with: " ")
        }
        let from = -3_786_825_600.0, to = 4_102_444_800.0 // 1850 to 2100
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Gen.int(), Gen.int()) { seconds, zone in
            let date = Date(timeIntervalSince1970: from + Double(abs(seconds % Int(to - from))))
            let timeZone = zones[abs(zone % zones.count)]
            for language in [Language.en, .ko, .ja] {
                let h24 = ClockFormat(language: language, clock: .h24, zone: Zone(builtIn: timeZone))
                let h12 = ClockFormat(language: language, clock: .h12, zone: Zone(builtIn: timeZone))
                #expect(h24.time(date) == inZone(date, timeZone, language, fixed: "HH:mm"), "\(timeZone.identifier) \(date)")
                #expect(h24.hour(date) == inZone(date, timeZone, language, fixed: "HH"))
                #expect(h12.time(date) == inZone(date, timeZone, language, template: "h:mm a"), "\(timeZone.identifier) \(date)")
                #expect(h12.hour(date) == inZone(date, timeZone, language, template: "h a"))
                for template in ["EEEdMMM", "MMMd", "EEE", "yMMMd"] {
                    #expect(h24.date(date, template: template) == inZone(date, timeZone, language, template: template),
                            "\(language) \(template) \(timeZone.identifier) \(date)")
                }
            }
        }
    }

    /// Any instant in any of these zones: a 24-hour time is "HH:mm" in every language, its hour is the
    /// time's first two digits, and a 12-hour time never has a leading zero or a narrow no-break space.
    @Test func timesAreTheSameShapeEverywhere() async {
        let zones = ["UTC", "Asia/Seoul", "Asia/Tokyo", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham",
                     "America/Los_Angeles", "Pacific/Kiritimati"].compactMap(SystemZoneDatabase.forTests.zone(named:))
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: Gen.int(), Gen.int()) { seconds, zone in
            let date = Date(timeIntervalSince1970: Double(abs(seconds % 4_000_000_000)))
            let timeZone = zones[abs(zone % zones.count)]
            for language in [Language.en, .ko, .ja] {
                let h24 = ClockFormat(language: language, clock: .h24, zone: timeZone)
                let time = h24.time(date)
                #expect(time.count == 5 && time.allSatisfy { $0.isASCII }, "\(language) \(time)")
                #expect(time.wholeMatch(of: /[0-2][0-9]:[0-5][0-9]/) != nil, "\(language) \(time)")
                #expect(h24.hour(date) == String(time.prefix(2)))
                let h12 = ClockFormat(language: language, clock: .h12, zone: timeZone).time(date)
                #expect(!h12.contains("\u{202F}"))
                #expect(h12.firstMatch(of: /(^|[^0-9])0[0-9]:/) == nil, "\(language) \(h12)")
                // Both clocks agree on the minutes.
                #expect(h12.hasSuffix(String(time.suffix(2))) || h12.contains(String(time.suffix(3))), "\(time) \(h12)")
            }
        }
    }
}
