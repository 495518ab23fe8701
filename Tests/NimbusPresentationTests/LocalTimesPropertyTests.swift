import Foundation
import NimbusDomain
import NimbusTerminal
import NimbusData
import TestSupport
import XCTest
@testable import NimbusPresentation

/// The Cities list's local times: for any zone a catalogue could hold and any moment, the time is the
/// zone's wall clock as every other time in the app is written (`ClockFormat` in that zone: the
/// per-minute, per-offset cache changes nothing, and 24-hour times are "HH:mm" in every language,
/// as the detail writes them), no wider than the column, and a zone the database does not have (or a
/// name that is not a zone's: a path, control characters) gives none.
final class LocalTimesPropertyTests: XCTestCase {
    private struct Rng: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
    }

    static let hostile = ["", "EST", "GMT+9", "UTC+14", "Not/A_Zone", "../../../../etc/localtime", "/etc/localtime",
                          "Asia/Seoul/../Tokyo", "Asia/\u{1B}[31mSeoul", " Asia/Seoul", "Asia/Seoul\u{0}",
                          String(repeating: "Zone/", count: 40), "Etc/GMT+12", "Etc/GMT-14"]

    func testTimesAreTheZonesWallClockAndFitTheColumn() {
        let known = TimeZone.knownTimeZoneIdentifiers
        let database = SystemZoneDatabase.forTests
        let seed = UInt64.random(in: 1...UInt64.max)
        var rng = Rng(state: seed)
        for language in Language.allCases {
            let times = LocalTimes(language: language, zones: database)
            for clock in UserSettings.Clock.allCases {
                let width = times.columnWidth(clock: clock, width: DisplayWidth.of)
                for _ in 0..<PropertyCount.scaled(default: 150) {
                    let zone = Bool.random(using: &rng) || Self.hostile.isEmpty ? known.randomElement(using: &rng)!
                        : Self.hostile.randomElement(using: &rng)!
                    // Any minute from 1970 to 2100, DST changes included.
                    let date = Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800, using: &rng)))
                    let context = "seed \(seed): \(language) \(clock) \(zone.debugDescription) \(date)"
                    if Self.hostile.contains(zone), zone.contains("..") || zone.hasPrefix("/") || zone.contains(" ")
                        || zone.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                        XCTAssertNil(times.time(at: date, zone: zone, clock: clock), context)
                        continue
                    }
                    guard let text = times.time(at: date, zone: zone, clock: clock) else {
                        XCTAssertNil(database.zone(named: zone), context)
                        continue
                    }
                    let found = database.zone(named: zone)
                    XCTAssertNotNil(found, context)
                    guard let found else { continue }
                    let minute = Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
                    XCTAssertEqual(text, ClockFormat(language: language, clock: clock, zone: found).time(minute), context)
                    if clock == .h24 { XCTAssertNotNil(text.wholeMatch(of: /[0-2][0-9]:[0-5][0-9]/), context) }
                    XCTAssertLessThanOrEqual(DisplayWidth.of(text), width, context)
                }
            }
        }
    }

    /// Found by the property above: Monrovia was 44 minutes 30 seconds behind UTC until 1972, so within
    /// one UTC minute its wall clock crosses a minute; the cache kept whichever second came first.
    func testAnOffsetWithSecondsGivesTheMinutesStartWhicheverSecondComesFirst() throws {
        let zone = try XCTUnwrap(SystemZoneDatabase.forTests.zone(named: "Africa/Monrovia"))
        let start = Date(timeIntervalSince1970: 31_579_200) // 1971-01-01 12:00:00 UTC
        for order in [[45.0, 10.0], [10.0, 45.0]] {
            let times = LocalTimes(language: .en, zones: SystemZoneDatabase.forTests)
            let texts = order.map { times.time(at: start.addingTimeInterval($0), zone: "Africa/Monrovia", clock: .h24) }
            XCTAssertEqual(texts, Array(repeating: ClockFormat(language: .en, clock: .h24, zone: zone).time(start), count: 2), "\(order)")
        }
    }
}
