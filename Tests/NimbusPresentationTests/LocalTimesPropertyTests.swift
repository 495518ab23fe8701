import Foundation
import NimbusDomain
import NimbusTerminal
import TestSupport
import XCTest
@testable import NimbusPresentation

/// The Cities list's local times: for any zone a catalogue could hold and any moment, the time is the
/// zone's wall clock as a formatter in that zone writes it (the per-minute, per-offset cache changes
/// nothing), no wider than the column, and a zone that is not an IANA name gives none.
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
        let seed = UInt64.random(in: 1...UInt64.max)
        var rng = Rng(state: seed)
        for language in Language.allCases {
            let times = LocalTimes(locale: language.locale)
            for clock in UserSettings.Clock.allCases {
                let width = times.columnWidth(clock: clock, width: DisplayWidth.of)
                let reference = DateFormatter()
                reference.locale = language.locale
                reference.setLocalizedDateFormatFromTemplate(clock == .h24 ? "HH:mm" : "h:mm a")
                for _ in 0..<PropertyCount.scaled(default: 150) {
                    let zone = Bool.random(using: &rng) || Self.hostile.isEmpty ? known.randomElement(using: &rng)!
                        : Self.hostile.randomElement(using: &rng)!
                    // Any minute from 1970 to 2100, DST changes included.
                    let date = Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800, using: &rng)))
                    let context = "seed \(seed): \(language) \(clock) \(zone.debugDescription) \(date)"
                    guard let text = times.time(at: date, zone: zone, clock: clock) else {
                        XCTAssertFalse(known.contains(zone) && zone.contains("/"), context)
                        continue
                    }
                    XCTAssertNotNil(TimeZone(identifier: zone), context)
                    reference.timeZone = TimeZone(identifier: zone)
                    let minute = Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
                    XCTAssertEqual(text, reference.string(from: minute).replacingOccurrences(of: "\u{202F}", with: " "), context)
                    XCTAssertLessThanOrEqual(DisplayWidth.of(text), width, context)
                }
            }
        }
    }
}
