import XCTest
import NimbusData
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// The one-line warnings of the Today tab and `--format %a`: a warning whose weather starts later is
/// not listed as if in force.
final class WarningsLineTests: XCTestCase {
    /// 2026-06-21 09:12 KST (a Sunday).
    static let now = Date(timeIntervalSince1970: 1_782_000_720)

    static func warning(_ event: String, _ severity: WeatherWarning.Severity, startsIn hours: Double) -> WeatherWarning {
        WeatherWarning(id: event, source: .meteoAlarm, event: event, severity: severity, headline: nil, description: nil,
                       instruction: nil, sender: nil, effective: now.addingTimeInterval(-3600),
                       onset: now.addingTimeInterval(hours * 3600), expires: now.addingTimeInterval(hours * 3600 + 86_400),
                       language: "en")
    }

    private func line(_ warnings: [WeatherWarning], _ language: Language = .en) -> String {
        WeatherFormatter(l10n: L10n.bundled(language), units: .metric, zones: SystemZoneDatabase.forTests)
            .warningsLine(warnings, city: .seoul, now: Self.now)
    }

    func testOnlyComingWarningsSayFromWhenInTheCitysClock() {
        // Two days on, 09:12 in Seoul: Tuesday.
        XCTAssertEqual(line([Self.warning("Heat Warning", .moderate, startsIn: 48)]), "Heat Warning from Tue 09:12")
        XCTAssertEqual(line([Self.warning("Heat Warning", .moderate, startsIn: 48)], .ko), "Heat Warning 화 09:12부터")
        XCTAssertEqual(line([Self.warning("Heat Warning", .severe, startsIn: 48), Self.warning("Wind", .minor, startsIn: 50)]),
                       "Heat Warning from Tue 09:12 +1 more")
    }

    func testTheMostSevereIsNamedWithFromWhenOnlyIfItIsToCome() {
        // The severe one is still to come: it is named (the row's mark has its colour) with its start.
        let coming = Self.warning("Heat Warning", .severe, startsIn: 48), now = Self.warning("Fog", .minor, startsIn: -1)
        XCTAssertEqual(line([coming, now]), "Heat Warning from Tue 09:12 +1 more")
        XCTAssertEqual(line([now]), "Fog")
        XCTAssertEqual(line([]), "")
    }
}
