import XCTest
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// An event's own keys as values.
final class QuakeDetailKeyMapTests: XCTestCase {
    func testFLikesTheNearestCityOnlyWhereThereIsOne() {
        let keys = QuakeDetailScreen.keyMap(L10n.bundled(.en))
        func state(_ city: String?) -> QuakeDetailState {
            QuakeDetailState(title: "M5.1", nearestTown: nil, region: "", facts: [], warnings: [], nearestCity: city, nearestLiked: false,
                             likeError: nil)
        }
        XCTAssertEqual(keys.event(for: "f", in: state("Pohang")), .likeToggled)
        XCTAssertNil(keys.command(for: .char("f"), in: state(nil)))
        XCTAssertEqual(keys.all.count, 1)
    }
}
