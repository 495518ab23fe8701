import XCTest
import NimbusTerminal
@testable import NimbusUI
import TestSupport

/// The Quakes header for any width: "M2.5+ · past day · within 500 km of my places · nearest first"
/// on the left, "2 events · 1 unreadable event left out" on the right. It once ran the two together
/// and cut the right side mid-word (`… nearest first  2 events · 1 unreadable events le…`).
final class QuakeListHeaderTests: XCTestCase {
    private let filter = ["M2.5+", "past day", "within 500 km of my places", "nearest first"]
    private let summary = ["2 events", "1 unreadable event left out"]

    func testWhatIsLeastUsefulGoesFirst() {
        let wide = QuakeListScreen.header(filter: filter, summary: summary, width: 120)
        XCTAssertEqual(wide.filter, "M2.5+ · past day · within 500 km of my places · nearest first")
        XCTAssertEqual(wide.summary, "2 events · 1 unreadable event left out")
        let eighty = QuakeListScreen.header(filter: filter, summary: summary, width: 80)
        XCTAssertEqual(eighty.filter, "M2.5+ · past day · within 500 km of my places · nearest first")
        XCTAssertEqual(eighty.summary, "2 events")
        let forty = QuakeListScreen.header(filter: filter, summary: summary, width: 40)
        XCTAssertEqual(forty.filter, "M2.5+ · past day")
        XCTAssertEqual(forty.summary, "")
        XCTAssertEqual(QuakeListScreen.header(filter: filter, summary: summary, width: 3).filter, "M2…")
    }

    /// For random parts (wide scripts, controls) and widths: the header fits, two columns part the
    /// sides, every part shown is whole but a lone first one, and the parts kept are the first ones.
    func testTheHeaderFitsAndKeepsWholeLeadingParts() {
        var rng = SystemRandomNumberGenerator()
        let words = ["M4.5+", "규모 4.5 이상", "지난 7일", "内 500 km 以内", "nearest first", "12 events", "3 unreadable events left out",
                     "\u{1B}[31m", "e\u{301}", "東京", "", " "]
        for _ in 0..<PropertyCount.scaled(default: 2_000) {
            let left = (0..<Int.random(in: 0...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }
            let right = (0..<Int.random(in: 0...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }
            let width = Int.random(in: 0...90, using: &rng)
            let header = QuakeListScreen.header(filter: left, summary: right, width: width)
            let context = "\(left) \(right) \(width)"
            let used = DisplayWidth.of(header.filter) + (header.summary.isEmpty ? 0 : 2 + DisplayWidth.of(header.summary))
            XCTAssertLessThanOrEqual(used, width, context)
            let cleanLeft = left.map(DisplayWidth.sanitize).filter { !$0.isEmpty }
            let cleanRight = right.map(DisplayWidth.sanitize).filter { !$0.isEmpty }
            if !header.summary.isEmpty {
                let kept = header.summary.components(separatedBy: " · ")
                XCTAssertEqual(kept, Array(cleanRight.prefix(kept.count)), context)
            }
            if header.filter.contains(" · ") || cleanLeft.count <= 1 && DisplayWidth.of(cleanLeft.first ?? "") <= width {
                let kept = header.filter.isEmpty ? [] : header.filter.components(separatedBy: " · ")
                XCTAssertEqual(kept, Array(cleanLeft.prefix(kept.count)), context)
            }
        }
    }
}
