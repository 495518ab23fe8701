import XCTest
import NimbusTerminal
import TestSupport
@testable import NimbusCurses

/// The terminal's size and set-up errors (issue 12, finding 10): each cause has its own message,
/// and COLUMNS/LINES lose to the size the terminal reports.
@MainActor
final class NCursesBackendTests: XCTestCase {
    nonisolated func testMouseReportingIsSGRButtonEventsAndOffAgainInReverse() {
        XCTAssertEqual(NCursesBackend.mouseOn, "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h")
        XCTAssertEqual(NCursesBackend.mouseOff, "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l")
        XCTAssertFalse(NCursesBackend(mouse: false).mouse)
        XCTAssertTrue(NCursesBackend().mouse)
    }

    nonisolated func testTheTerminalsOwnSizeWinsOverTheEnvironment() {
        onMain(self) { $0.mainActorTestTheTerminalsOwnSizeWinsOverTheEnvironment() }
    }

    private func mainActorTestTheTerminalsOwnSizeWinsOverTheEnvironment() {
        let real = Size(cols: 80, rows: 24)
        XCTAssertEqual(NCursesBackend.startingSize(columns: "99999", lines: "99999", terminal: real), real)
        XCTAssertEqual(NCursesBackend.startingSize(columns: "120", lines: "40", terminal: real), real)
    }

    nonisolated func testWithoutATerminalSizeUsableVariablesAreUsed() {
        onMain(self) { $0.mainActorTestWithoutATerminalSizeUsableVariablesAreUsed() }
    }

    private func mainActorTestWithoutATerminalSizeUsableVariablesAreUsed() {
        XCTAssertEqual(NCursesBackend.startingSize(columns: "120", lines: "40", terminal: nil), Size(cols: 120, rows: 40))
        for (c, l) in [("99999", "24"), ("80", "0"), ("-5", "24"), ("abc", "24"), (nil, "24"), ("80", nil)] as [(String?, String?)] {
            XCTAssertEqual(NCursesBackend.startingSize(columns: c, lines: l, terminal: nil), Size(cols: 80, rows: 24), "\(c ?? "nil")x\(l ?? "nil")")
        }
    }

    nonisolated func testUnusableSizeVariablesAreNamedNotBlamedOnTERM() {
        onMain(self) { $0.mainActorTestUnusableSizeVariablesAreNamedNotBlamedOnTERM() }
    }

    private func mainActorTestUnusableSizeVariablesAreNamedNotBlamedOnTERM() {
        XCTAssertEqual(NCursesBackend.sizeVariableProblem(columns: "99999", lines: nil),
                       .badSizeVariable(name: "COLUMNS", value: "99999"))
        XCTAssertEqual(NCursesBackend.sizeVariableProblem(columns: "80", lines: "lots"),
                       .badSizeVariable(name: "LINES", value: "lots"))
        XCTAssertNil(NCursesBackend.sizeVariableProblem(columns: "80", lines: "24"))
        XCTAssertNil(NCursesBackend.sizeVariableProblem(columns: nil, lines: ""))
        let message = NCursesError.badSizeVariable(name: "COLUMNS", value: "99999").description
        XCTAssertTrue(message.hasPrefix("COLUMNS=99999 is not a usable terminal size"), message)
        XCTAssertFalse(message.contains("TERM"), message)
    }

    nonisolated func testEachSetUpFailureHasItsOwnMessage() {
        onMain(self) { $0.mainActorTestEachSetUpFailureHasItsOwnMessage() }
    }

    private func mainActorTestEachSetUpFailureHasItsOwnMessage() {
        XCTAssertEqual(NCursesBackend.whyInitFailed(term: ""), .noTerm)
        XCTAssertEqual(NCursesBackend.whyInitFailed(term: "no-such-terminal-\(UUID().uuidString.prefix(8))").description.contains("is not a terminal the terminfo database knows"), true)
        let errors: [NCursesError] = [.notATerminal, .noTerm, .unknownTerminal(term: "x"), .noTerminfo(term: "x"),
                                      .badSizeVariable(name: "LINES", value: "0"), .initFailed(term: "x"),
                                      .cannotAddressCursor(term: "x")]
        XCTAssertEqual(Set(errors.map(\.description)).count, errors.count)
        // Hostile environment text cannot drive the terminal through an error message.
        let hostile = NCursesError.unknownTerminal(term: "\u{1B}]0;owned\u{7}").description
        XCTAssertFalse(hostile.unicodeScalars.contains { $0.value < 0x20 }, hostile)
    }
}
