import XCTest
import NimbusDomain

final class GeoPointTests: XCTestCase {
    func testParsesDecimalDegrees() throws {
        XCTAssertEqual(try GeoPoint.parse("37.57,126.98"), GeoPoint(latitude: 37.57, longitude: 126.98))
        XCTAssertEqual(try GeoPoint.parse(" -33.9 , +151.2 "), GeoPoint(latitude: -33.9, longitude: 151.2))
        XCTAssertEqual(try GeoPoint.parse("90,-180"), GeoPoint(latitude: 90, longitude: -180))
    }

    func testRejectsWhatIsNotTwoNumbersInRange() {
        for bad in ["", "37.5", "37.5,", ",127", "a,b", "37.5;127", "1,2,3", "nan,0", "inf,0", "0x10,0", "1e2,0", ".,0", "--1,0"] {
            XCTAssertThrowsError(try GeoPoint.parse(bad), bad) { error in
                XCTAssertEqual(error as? GeoPoint.ParseError, .notTwoNumbers(bad), bad)
            }
        }
        XCTAssertThrowsError(try GeoPoint.parse("90.5,0")) { XCTAssertEqual($0 as? GeoPoint.ParseError, .latitudeOutOfRange(90.5)) }
        XCTAssertThrowsError(try GeoPoint.parse("0,-181")) { XCTAssertEqual($0 as? GeoPoint.ParseError, .longitudeOutOfRange(-181)) }
    }

    func testGreatCircleDistance() throws {
        let seoul = GeoPoint(latitude: 37.5665, longitude: 126.9780)!
        let tokyo = GeoPoint(latitude: 35.6762, longitude: 139.6503)!
        XCTAssertEqual(seoul.distance(to: tokyo) / 1000, 1152, accuracy: 5)
        XCTAssertEqual(seoul.distance(to: seoul), 0)
        // Across the antimeridian: 2° of longitude on the equator.
        let east = GeoPoint(latitude: 0, longitude: 179)!, west = GeoPoint(latitude: 0, longitude: -179)!
        XCTAssertEqual(east.distance(to: west) / 1000, 222.4, accuracy: 0.5)
    }
}
