import Foundation
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusPresentation
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
        let f = ClockFormat(language: language, clock: clock, timeZone: Self.seoul)
        #expect(f.time(Self.morning) == morning)
        #expect(f.time(Self.evening) == evening)
        #expect(f.hour(Self.morning) == hour)
        #expect(f.dateTime(Self.morning, dateTemplate: "EEEdMMM") == dateTime)
    }

    /// Any instant in any of these zones: a 24-hour time is "HH:mm" in every language, its hour is the
    /// time's first two digits, and a 12-hour time never has a leading zero or a narrow no-break space.
    @Test func timesAreTheSameShapeEverywhere() async {
        let zones = ["UTC", "Asia/Seoul", "Asia/Tokyo", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham",
                     "America/Los_Angeles", "Pacific/Kiritimati"].compactMap(TimeZone.init(identifier:))
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: Gen.int(), Gen.int()) { seconds, zone in
            let date = Date(timeIntervalSince1970: Double(abs(seconds % 4_000_000_000)))
            let timeZone = zones[abs(zone % zones.count)]
            for language in [Language.en, .ko, .ja] {
                let h24 = ClockFormat(language: language, clock: .h24, timeZone: timeZone)
                let time = h24.time(date)
                #expect(time.count == 5 && time.allSatisfy { $0.isASCII }, "\(language) \(time)")
                #expect(time.wholeMatch(of: /[0-2][0-9]:[0-5][0-9]/) != nil, "\(language) \(time)")
                #expect(h24.hour(date) == String(time.prefix(2)))
                let h12 = ClockFormat(language: language, clock: .h12, timeZone: timeZone).time(date)
                #expect(!h12.contains("\u{202F}"))
                #expect(h12.firstMatch(of: /(^|[^0-9])0[0-9]:/) == nil, "\(language) \(h12)")
                // Both clocks agree on the minutes.
                #expect(h12.hasSuffix(String(time.suffix(2))) || h12.contains(String(time.suffix(3))), "\(time) \(h12)")
            }
        }
    }
}
