import XCTest
import TestSupport
@testable import NimbusTerminal

/// SGR 1006 mouse reports become `.mouse` keys; a malformed or huge report is swallowed, never typed.
final class MouseParserTests: XCTestCase {
    private func parse(_ s: String) -> [Key] {
        var p = KeyParser()
        return p.feed(Array(s.utf8)) + p.flushPending()
    }

    func testPressReleaseDragAndWheel() {
        XCTAssertEqual(parse("\u{1B}[<0;10;5M"), [.mouse(MouseEvent(.press, button: .left, x: 9, y: 4))])
        XCTAssertEqual(parse("\u{1B}[<0;10;5m"), [.mouse(MouseEvent(.release, button: .left, x: 9, y: 4))])
        XCTAssertEqual(parse("\u{1B}[<2;1;1M"), [.mouse(MouseEvent(.press, button: .right, x: 0, y: 0))])
        XCTAssertEqual(parse("\u{1B}[<32;11;6M"), [.mouse(MouseEvent(.drag, button: .left, x: 10, y: 5))])
        XCTAssertEqual(parse("\u{1B}[<64;3;4M"), [.mouse(MouseEvent(.wheelUp, button: .none, x: 2, y: 3))])
        XCTAssertEqual(parse("\u{1B}[<65;3;4M"), [.mouse(MouseEvent(.wheelDown, button: .none, x: 2, y: 3))])
        XCTAssertEqual(parse("\u{1B}[<20;300;200M"),
                       [.mouse(MouseEvent(.press, button: .left, x: 299, y: 199, shift: true, ctrl: true))],
                       "columns beyond 223 and modifiers")
        XCTAssertEqual(parse("a\u{1B}[<0;1;1Mb"), [.char("a"), .mouse(MouseEvent(.press, x: 0, y: 0)), .char("b")])
    }

    func testLegacyX10ReportIsDecodedNotTyped() {
        // ESC [ M, then button+32, column+32, row+32.
        XCTAssertEqual(parse("\u{1B}[M\u{20}\u{25}\u{23}q"), [.mouse(MouseEvent(.press, x: 4, y: 2)), .char("q")])
        XCTAssertEqual(parse("\u{1B}[M\u{23}\u{25}\u{23}"), [.mouse(MouseEvent(.release, button: .none, x: 4, y: 2))])
    }

    func testMalformedReportsAreSwallowed() {
        for bad in ["\u{1B}[<0;10M", "\u{1B}[<0;10;5;7M", "\u{1B}[<;;M", "\u{1B}[<0;0;5M", "\u{1B}[<0;5;0M",
                    "\u{1B}[<0;99999999999999999999;5M", "\u{1B}[<999;1;1M", "\u{1B}[<0;10001;1M",
                    "\u{1B}[<0;1;1x", "\u{1B}[<-1;1;1M", "\u{1B}[<0;1:2;1M", "\u{1B}[<65;1;1m"] {
            XCTAssertEqual(parse(bad + "z"), [.char("z")], bad.debugDescription)
        }
        let huge = "\u{1B}[<0;" + String(repeating: "9", count: 5000) + ";1Mz"
        XCTAssertEqual(parse(huge), [.char("z")])
    }

    func testEventBytesRoundTrip() {
        let events = [MouseEvent(.press, x: 0, y: 0), MouseEvent(.release, x: 5, y: 7), MouseEvent(.drag, x: 400, y: 90),
                      MouseEvent(.wheelUp, button: .none, x: 3, y: 3), MouseEvent(.wheelDown, button: .none, x: 3, y: 3, alt: true),
                      MouseEvent(.press, button: .right, x: 1, y: 1, shift: true)]
        for e in events {
            XCTAssertEqual(parse(String(decoding: e.sgrBytes, as: UTF8.self)), [.mouse(e)], "\(e)")
            XCTAssertEqual(Key.mouse(e).bytes, e.sgrBytes)
        }
    }

    /// Random bytes made mostly of the pieces of mouse reports: the parser never crashes, never
    /// yields a control character as text, and every mouse event it yields is in range.
    func testFuzzedReportsNeverCrashOrLeakAsControlText() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        let pieces: [[UInt8]] = [[0x1B], [0x5B], [0x3C], [0x3B], [0x4D], [0x6D], Array("0123456789".utf8),
                                 Array("6432".utf8), [0x20, 0x7F, 0xFF, 0x80], Array("99999".utf8)]
        for _ in 0..<PropertyCount.scaled(default: 2000) {
            var bytes: [UInt8] = []
            for _ in 0..<Int(next() % 60) {
                let piece = pieces[Int(next() % UInt64(pieces.count))]
                bytes.append(piece[Int(next() % UInt64(piece.count))])
            }
            var p = KeyParser()
            var keys: [Key] = []
            for chunk in stride(from: 0, to: bytes.count, by: 7) { keys += p.feed(Array(bytes[chunk..<min(chunk + 7, bytes.count)])) }
            keys += p.flushPending()
            for key in keys {
                switch key {
                case .char(let c):
                    XCTAssertFalse(c.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(bytes)")
                case .mouse(let m):
                    XCTAssertTrue((0..<MouseEvent.maxCoordinate).contains(m.x) && (0..<MouseEvent.maxCoordinate).contains(m.y), "\(bytes)")
                default: break
                }
            }
        }
    }

    func testEveryCompleteReportInARandomStreamIsFound() {
        var state: UInt64 = 42
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        var bytes: [UInt8] = []
        var expected: [Key] = []
        for _ in 0..<500 {
            let e = MouseEvent([.press, .release, .drag][Int(next() % 3)], x: Int(next() % 500), y: Int(next() % 200))
            bytes += e.sgrBytes
            expected.append(.mouse(e))
        }
        var p = KeyParser()
        var keys: [Key] = []
        for chunk in stride(from: 0, to: bytes.count, by: 5) { keys += p.feed(Array(bytes[chunk..<min(chunk + 5, bytes.count)])) }
        XCTAssertEqual(keys, expected)
    }
}
