import XCTest
import NimbusTerminal
@testable import NimbusApp

/// The tape lines for the mouse and the clipboard.
final class TapeMouseTests: XCTestCase {
    func testMouseLinesBecomeTheReportsATerminalSends() throws {
        XCTAssertEqual(try Tape.parse("Click 5 4"),
                       .mouse([MouseEvent(.press, x: 5, y: 4), MouseEvent(.release, x: 5, y: 4)]))
        XCTAssertEqual(try Tape.parse("DoubleClick 0 0"), .mouse([MouseEvent(.press, x: 0, y: 0), MouseEvent(.release, x: 0, y: 0),
                                                                  MouseEvent(.press, x: 0, y: 0), MouseEvent(.release, x: 0, y: 0)]))
        XCTAssertEqual(try Tape.parse("Scroll up 3 7"), .mouse([MouseEvent(.wheelUp, button: .none, x: 3, y: 7)]))
        XCTAssertEqual(try Tape.parse("scroll DOWN 3 7"), .mouse([MouseEvent(.wheelDown, button: .none, x: 3, y: 7)]))
        XCTAssertEqual(try Tape.parse("Drag 10 5 7 5"), .mouse([
            MouseEvent(.press, x: 10, y: 5), MouseEvent(.drag, x: 9, y: 5), MouseEvent(.drag, x: 8, y: 5),
            MouseEvent(.drag, x: 7, y: 5), MouseEvent(.release, x: 7, y: 5)]))
        XCTAssertEqual(try Tape.parse("ExpectClipboard \"Seoul 37.57°N\""), .expectClipboard("Seoul 37.57°N"))
    }

    func testBadMouseLinesSayWhatIsExpected() {
        for bad in ["Click 5", "Click 5 4 3", "Click -1 4", "Click 1000 4", "Click a b", "Scroll sideways 1 1",
                    "Scroll up 1", "Drag 1 2 3", "DoubleClick", "ExpectClipboard Seoul"] {
            XCTAssertThrowsError(try Tape(name: "t.tape", source: bad), bad) { error in
                XCTAssertTrue("\(error)".contains("expected"), "\(error)")
            }
        }
    }
}
