import Foundation
import Testing
import NimbusTerminal
import TestSupport
@testable import NimbusCurses

/// The terminal's size and set-up errors (issue 12, finding 10): each cause has its own message,
/// and COLUMNS/LINES lose to the size the terminal reports.
@Suite @MainActor struct NCursesBackendTests {
    @Test func testMouseReportingIsSGRButtonEventsAndOffAgainInReverse() {
        #expect(NCursesBackend.mouseOn == "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h")
        #expect(NCursesBackend.mouseOff == "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l")
        #expect(!NCursesBackend(mouse: false).mouse)
        #expect(NCursesBackend().mouse)
    }

    @Test func testTheTerminalsOwnSizeWinsOverTheEnvironment() {
        let real = Size(cols: 80, rows: 24)
        #expect(NCursesBackend.startingSize(columns: "99999", lines: "99999", terminal: real) == real)
        #expect(NCursesBackend.startingSize(columns: "120", lines: "40", terminal: real) == real)
    }

    @Test func testWithoutATerminalSizeUsableVariablesAreUsed() {
        #expect(NCursesBackend.startingSize(columns: "120", lines: "40", terminal: nil) == Size(cols: 120, rows: 40))
        for (c, l) in [("99999", "24"), ("80", "0"), ("-5", "24"), ("abc", "24"), (nil, "24"), ("80", nil)] as [(String?, String?)] {
            #expect(NCursesBackend.startingSize(columns: c, lines: l, terminal: nil) == Size(cols: 80, rows: 24), "\(c ?? "nil")x\(l ?? "nil")")
        }
    }

    @Test func testUnusableSizeVariablesAreNamedNotBlamedOnTERM() {
        #expect(NCursesBackend.sizeVariableProblem(columns: "99999", lines: nil) == .badSizeVariable(name: "COLUMNS", value: "99999"))
        #expect(NCursesBackend.sizeVariableProblem(columns: "80", lines: "lots") == .badSizeVariable(name: "LINES", value: "lots"))
        #expect(NCursesBackend.sizeVariableProblem(columns: "80", lines: "24") == nil)
        #expect(NCursesBackend.sizeVariableProblem(columns: nil, lines: "") == nil)
        let message = NCursesError.badSizeVariable(name: "COLUMNS", value: "99999").description
        #expect(message.hasPrefix("COLUMNS=99999 is not a usable terminal size"), "\(message)")
        #expect(!message.contains("TERM"), "\(message)")
    }

    @Test func testEachSetUpFailureHasItsOwnMessage() {
        #expect(NCursesBackend.whyInitFailed(term: "") == .noTerm)
        #expect(NCursesBackend.whyInitFailed(term: "no-such-terminal-\(UUID().uuidString.prefix(8))").description.contains("is not a terminal the terminfo database knows") == true)
        let errors: [NCursesError] = [.notATerminal, .noTerm, .unknownTerminal(term: "x"), .noTerminfo(term: "x"),
                                      .badSizeVariable(name: "LINES", value: "0"), .initFailed(term: "x"),
                                      .cannotAddressCursor(term: "x")]
        #expect(Set(errors.map(\.description)).count == errors.count)
        // Hostile environment text cannot drive the terminal through an error message.
        let hostile = NCursesError.unknownTerminal(term: "\u{1B}]0;owned\u{7}").description
        #expect(!(hostile.unicodeScalars.contains { $0.value < 0x20 }), "\(hostile)")
    }
}
