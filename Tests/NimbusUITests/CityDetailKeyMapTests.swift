import XCTest
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// A city's detail's own keys as values.
final class CityDetailKeyMapTests: XCTestCase {
    private let keys = CityDetailScreen.keyMap(L10n.bundled(.en))

    private func state(warning: String?) -> CityDetailState {
        CityDetailState(header: CityHeader(name: "Seoul", localName: nil, country: "South Korea", localTime: "09:12",
                                           coordinates: "37.57°N 126.98°E", population: "10M"),
                        sun: SunLine(text: "", moon: "", moonSymbol: ""), weather: .loading, air: nil, notice: nil, liked: false,
                        warnings: WarningsLine(event: warning, severity: .moderate, times: "", more: nil, note: nil))
    }

    func testEachKeySendsItsEvent() {
        let quiet = state(warning: nil)
        XCTAssertEqual(keys.event(for: .escape, in: quiet), .leaveRequested)
        XCTAssertEqual(keys.event(for: .backspace, in: quiet), .leaveRequested)
        XCTAssertEqual(keys.event(for: "r", in: quiet), .refreshRequested)
        XCTAssertEqual(keys.event(for: "f", in: quiet), .likeToggled)
        XCTAssertEqual(keys.all.count, 4)
    }

    func testAOpensTheWarningsOnlyWhileOneIsInForce() {
        XCTAssertEqual(keys.event(for: "a", in: state(warning: "Heavy Rain Warning")), .warningsOpened)
        XCTAssertNil(keys.command(for: .char("a"), in: state(warning: nil)))
        // Before the first state nothing is in force either.
        XCTAssertNil(keys.command(for: .char("a"), in: nil))
        XCTAssertEqual(keys.listed(in: state(warning: nil)).map(\.keyLabel), ["Esc Backspace", "r", "f"])
    }
}
