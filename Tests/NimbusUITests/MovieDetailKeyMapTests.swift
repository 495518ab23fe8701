import XCTest
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// A film's keys as values.
final class MovieDetailKeyMapTests: XCTestCase {
    private let l10n = L10n.bundled(.en)

    private func state(_ phase: MovieDetailState.Phase) -> MovieDetailState {
        MovieDetailState(title: "Heat", phase: phase, fields: [], inWishlist: false)
    }

    func testEachKeySendsItsEventAndRetryIsHintedOnlyAfterAFailure() {
        let keys = MovieDetailScreen.keyMap(l10n)
        XCTAssertEqual(keys.event(for: "w", in: state(.loaded)), .wishlistToggled)
        XCTAssertEqual(keys.event(for: "r", in: state(.loaded)), .retried)
        for key in [Key.up, .down, .char("j"), .char("k"), .pageUp, .pageDown, .home, .end, .char("g"), .char("G")] {
            XCTAssertEqual(keys.command(for: key, in: state(.loaded)), .scroll, "\(key)")
        }
        let r = keys.binding(for: .char("r"), in: state(.loaded))!
        XCTAssertNil(keys.hint(r, in: state(.loaded)))
        XCTAssertEqual(keys.hint(r, in: state(.error("offline"))), l10n[.hintRetry])
    }
}
