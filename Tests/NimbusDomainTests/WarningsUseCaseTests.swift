import XCTest
import OpenCombineShim
@testable import NimbusDomain
import TestSupport

/// Which warnings are in force at a given time, in which order, and what an uncovered city gets.
final class WarningsUseCaseTests: XCTestCase {
    static let now = Date(timeIntervalSince1970: 1_768_500_000) // 2026-01-15 18:00 UTC
    static let seattle = City(id: 5809844, name: "Seattle", countryCode: "US", latitude: 47.60621, longitude: -122.33207,
                              population: 737_015, timeZone: "America/Los_Angeles", alternateNames: [])
    static let seoul = City(id: 1835848, name: "Seoul", countryCode: "KR", latitude: 37.566, longitude: 126.9784,
                            population: 10_349_312, timeZone: "Asia/Seoul", alternateNames: [])

    static func warning(_ id: String, _ severity: WeatherWarning.Severity, expires: TimeInterval?, event: String = "Storm")
        -> WeatherWarning {
        WeatherWarning(id: id, source: .nws, event: event, severity: severity, headline: nil, description: nil,
                       instruction: nil, sender: nil, effective: now.addingTimeInterval(-3600), onset: nil,
                       expires: expires.map { now.addingTimeInterval($0) }, language: "en-US")
    }

    func testOnlyWarningsThatHaveNotExpiredAreInForce() {
        let report = WarningsReport(warnings: [
            Self.warning("a", .severe, expires: 3600),
            Self.warning("b", .extreme, expires: -1),
            Self.warning("c", .minor, expires: 0),   // expiring now: no longer in force
            Self.warning("d", .moderate, expires: 1),
        ], source: .nws, checkedAt: Self.now, isCached: false)
        XCTAssertEqual(report.active(at: Self.now).map(\.id), ["a", "d"])
        // An hour later the first has gone too, without anyone asking the service again.
        XCTAssertEqual(report.active(at: Self.now.addingTimeInterval(3600)).map(\.id), [])
        XCTAssertEqual(report.active(at: Self.now.addingTimeInterval(3599)).map(\.id), ["a"])
    }

    func testAWarningWithoutAnExpiryIsBelievedOnlyWhileTheReportIsFresh() {
        let report = WarningsReport(warnings: [Self.warning("jma", .minor, expires: nil)], source: .jma,
                                    checkedAt: Self.now, isCached: true)
        XCTAssertEqual(report.active(at: Self.now).map(\.id), ["jma"])
        XCTAssertEqual(report.active(at: Self.now.addingTimeInterval(WarningsReport.trustWithoutExpiry - 1)).map(\.id), ["jma"])
        XCTAssertEqual(report.active(at: Self.now.addingTimeInterval(WarningsReport.trustWithoutExpiry)).map(\.id), [])
        // A report "checked" in the future (a clock moved back) is not believed either.
        XCTAssertEqual(report.active(at: Self.now.addingTimeInterval(-3600)).map(\.id), [])
    }

    func testMostSevereFirstThenSoonestToExpire() {
        let report = WarningsReport(warnings: [
            Self.warning("minor", .minor, expires: 100),
            Self.warning("late", .severe, expires: 7200),
            Self.warning("unknown", .unknown, expires: 50),
            Self.warning("early", .severe, expires: 3600),
            Self.warning("open", .severe, expires: nil),
            Self.warning("extreme", .extreme, expires: 9000),
        ], source: .nws, checkedAt: Self.now, isCached: false)
        XCTAssertEqual(report.active(at: Self.now).map(\.id), ["extreme", "early", "late", "open", "minor", "unknown"])
    }

    func testCAPSeveritiesAndAnythingElseIsUnknown() {
        XCTAssertEqual(WeatherWarning.Severity(cap: "Extreme"), .extreme)
        XCTAssertEqual(WeatherWarning.Severity(cap: " severe "), .severe)
        XCTAssertEqual(WeatherWarning.Severity(cap: "MODERATE"), .moderate)
        XCTAssertEqual(WeatherWarning.Severity(cap: "Minor"), .minor)
        for other in [nil, "", "Unknown", "Catastrophic", "red", "1e308", "\u{202E}Severe"] {
            XCTAssertEqual(WeatherWarning.Severity(cap: other), .unknown, "\(String(describing: other))")
        }
    }

    func testTheUseCaseFiltersAtItsClockAndKeepsTheReportForLaterTicks() throws {
        let report = WarningsReport(warnings: [Self.warning("a", .severe, expires: 600), Self.warning("gone", .severe, expires: -600)],
                                    source: .nws, checkedAt: Self.now.addingTimeInterval(-60), isCached: true)
        let useCase = GetWarningsUseCase(repository: ScriptedWarningsRepository(covers: .covered(.nws), reports: [report]),
                                         now: { Self.now })
        var answers: [CityWarnings] = []
        _ = useCase.execute(for: Self.seattle).sink(receiveCompletion: { _ in }, receiveValue: { answers.append($0) })
        let answer = try XCTUnwrap(answers.first)
        XCTAssertEqual(answer.coverage, .covered(.nws))
        XCTAssertEqual(answer.active.map(\.id), ["a"])
        XCTAssertEqual(answer.active(at: Self.now.addingTimeInterval(600)), [])
    }

    func testAnUncoveredCityIsToldSoAndNoServiceIsAsked() {
        let stub = ScriptedWarningsRepository(covers: .notCovered, reports: [])
        var answers: [CityWarnings] = []
        var finished = false
        _ = GetWarningsUseCase(repository: stub, now: { Self.now }).execute(for: Self.seoul)
            .sink(receiveCompletion: { _ in finished = true }, receiveValue: { answers.append($0) })
        XCTAssertEqual(answers, [CityWarnings(coverage: .notCovered, active: [], report: nil)])
        XCTAssertTrue(finished)
        XCTAssertEqual(stub.requests, 0)
    }
}
