import XCTest
import NimbusDomain
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// The map panel's keys as values.
final class CityMapKeyMapTests: XCTestCase {
    private let keys = CityMapPanel.keyMap(L10n.bundled(.en), mouse: true)

    private func state(quakes: Bool?) -> CityMapState {
        CityMapState(cityName: "Seoul", snapshot: nil, isLoading: false, message: nil, status: "zoom 4/12 · braille", scaleBar: nil,
                     zoom: MapZoom(4), style: .braille, quakesShown: quakes)
    }

    func testEachZoomAndPanKeySendsItsOwnEvent() {
        let s = state(quakes: nil)
        for (key, delta) in [("+", 1), ("=", 1), ("-", -1), ("_", -1)] as [(Character, Int)] {
            XCTAssertEqual(keys.event(for: key, in: s), .zoomed(delta), "\(key)")
        }
        let pans: [(Key, MapPan)] = [(.left, .left), (.char("h"), .left), (.right, .right), (.char("l"), .right),
                                     (.up, .up), (.char("k"), .up), (.down, .down), (.char("j"), .down)]
        for (key, pan) in pans { XCTAssertEqual(keys.event(for: key, in: s), .panned(pan), "\(key)") }
        XCTAssertEqual(keys.event(for: "0", in: s), .resetRequested)
        XCTAssertEqual(keys.event(for: "c", in: s), .styleToggled)
        // One line of the help each for zoom and pan, whatever key sends what.
        XCTAssertEqual(keys.listed(in: s).map(\.keyLabel), ["+ -", "← ↓ ↑ →  h j k l", "0", "c", .key(.helpMouseMap)])
    }

    func testEIsBoundOnlyOnMapsThatCanShowEarthquakes() {
        XCTAssertEqual(keys.event(for: "e", in: state(quakes: false)), .quakesToggled)
        XCTAssertEqual(keys.event(for: "e", in: state(quakes: true)), .quakesToggled)
        XCTAssertNil(keys.command(for: .char("e"), in: state(quakes: nil)))
    }

    func testWithoutTheMouseTheWheelIsNotInTheHelp() {
        let plain = CityMapPanel.keyMap(L10n.bundled(.en), mouse: false)
        XCTAssertEqual(plain.listed(in: state(quakes: nil)).count, 4)
        XCTAssertTrue(plain.listed(in: state(quakes: nil)).allSatisfy { !$0.keys.isEmpty })
    }
}
