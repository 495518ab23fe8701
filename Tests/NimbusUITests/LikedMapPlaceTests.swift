import XCTest
import NimbusTerminal
@testable import NimbusUI

/// Where the Liked tab's map goes: beside the list when the body is wide, below the list's rows in
/// the rows left otherwise, nowhere when neither has room (the rows stay the list's, nothing is said).
final class LikedMapPlaceTests: XCTestCase {
    func testTheMapTakesTheRoomBesideOrBelowTheListAndNoneWithoutIt() {
        // (width, height, top, list rows) → area with its scale line, beside
        let cases: [(String, Int, Int, Int, Int, Rect?, Bool)] = [
            ("110x30: beside, the body's height below the header", 110, 28, 1, 2, Rect(x: 82, y: 1, width: 28, height: 27), true),
            ("200 wide: at most 48 columns", 200, 28, 2, 2, Rect(x: 152, y: 2, width: 48, height: 26), true),
            ("wide but too short", 120, 7, 1, 2, nil, false),
            ("80x24: below the two rows after a blank one", 80, 22, 1, 2, Rect(x: 2, y: 4, width: 76, height: 18), false),
            ("80x24, many rows: the rows left are too few", 80, 22, 1, 14, nil, false),
            ("40x10: no room", 40, 8, 1, 2, nil, false),
            ("30 wide: too narrow", 30, 30, 1, 1, nil, false),
        ]
        for (name, width, height, top, rows, area, beside) in cases {
            let place = LikedCitiesScreen.mapPlace(width: width, height: height, top: top, listRows: rows)
            XCTAssertEqual(place?.area, area, name)
            if let place {
                XCTAssertEqual(place.beside, beside, name)
                XCTAssertGreaterThanOrEqual(place.area.height - 1, LikedCitiesScreen.mapMinRows, "\(name): the map's rows and its scale")
                XCTAssertLessThanOrEqual(place.area.x + place.area.width, width, name)
                XCTAssertLessThanOrEqual(place.area.y + place.area.height, height, name)
            }
        }
    }
}
