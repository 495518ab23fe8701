import XCTest
@testable import NimbusTerminal
import TestSupport

/// ANSI sequences as xterm's terminfo entry gives them, for the encoder under test.
private var ansi: FrameEncoder.Sequences { FrameEncoder.Sequences(
    moveTo: { x, y in Array("\u{1B}[\(y + 1);\(x + 1)H".utf8) },
    style: { style in
        var s = "\u{1B}[0"
        if style.bold { s += ";1" }
        if style.dim { s += ";2" }
        if style.underline { s += ";4" }
        if style.reverse { s += ";7" }
        if case .index(let n) = style.fg { s += ";38;5;\(n)" }
        if case .red = style.fg { s += ";31" }
        if case .index(let n) = style.bg { s += ";48;5;\(n)" }
        return Array((s + "m").utf8)
    },
    reset: Array("\u{1B}[0m".utf8), clear: Array("\u{1B}[H\u{1B}[2J".utf8),
    showCursor: Array("\u{1B}[?25h".utf8), hideCursor: Array("\u{1B}[?25l".utf8), lastCellScrolls: false) }

/// Just enough of a terminal to play the encoder's output back: cursor moves, SGR, clear,
/// cursor visibility and text that advances by each glyph's width.
private final class MiniTerminal: TerminalBackend {
    let size: Size
    let supportsColor = true
    var grid: ScreenBuffer
    var cursorVisible = true
    var cursor = Point(x: 0, y: 0)
    var bytesWritten = 0
    private var encoder = FrameEncoder(sequences: ansi)
    private var pendingCursor: Point?

    init(size: Size) {
        self.size = size
        grid = ScreenBuffer(size: size)
    }

    func draw(_ changes: [CellChange]) { encoder.draw(changes, size: size) }
    func setCursor(_ p: Point?) { pendingCursor = p }
    func clearAll() { encoder.clear() }
    func flush() { play(encoder.finish(cursor: pendingCursor, size: size)) }

    func play(_ bytes: [UInt8]) {
        bytesWritten += bytes.count
        var style = Style.plain
        let text = String(decoding: bytes, as: UTF8.self)
        var scalars = Array(text.unicodeScalars)[...]
        while let first = scalars.first {
            if first == "\u{1B}" {
                scalars.removeFirst()
                guard scalars.first == "[" else { XCTFail("ESC without ["); return }
                scalars.removeFirst()
                var params = ""
                while let c = scalars.first, !(c.properties.isAlphabetic) { params.unicodeScalars.append(c); scalars.removeFirst() }
                let final = scalars.removeFirst()
                switch final {
                case "H":
                    let n = params.split(separator: ";").map { Int($0)! }
                    cursor = n.isEmpty ? Point(x: 0, y: 0) : Point(x: n[1] - 1, y: n[0] - 1)
                case "J": grid = ScreenBuffer(size: size)
                case "h", "l": cursorVisible = final == "h"
                case "m":
                    style = .plain
                    var n = params.split(separator: ";").map { Int($0)! }[...]
                    while let p = n.popFirst() {
                        switch p {
                        case 1: style.bold = true
                        case 2: style.dim = true
                        case 4: style.underline = true
                        case 7: style.reverse = true
                        case 31: style.fg = .red
                        case 38: n.removeFirst(); style.fg = .index(UInt8(n.removeFirst()))
                        case 48: n.removeFirst(); style.bg = .index(UInt8(n.removeFirst()))
                        default: break
                        }
                    }
                default: XCTFail("unexpected sequence \(final)")
                }
                continue
            }
            // One grapheme: the scalar and any that extend it.
            var grapheme = String(scalars.removeFirst())
            while let next = scalars.first, String(grapheme + String(next)).count == 1 {
                grapheme.unicodeScalars.append(next)
                scalars.removeFirst()
            }
            let width = DisplayWidth.of(Character(grapheme))
            grid.setCell(cursor.x, cursor.y, Cell(text: grapheme, width: UInt8(width), style: style))
            cursor.x += width
        }
    }
}

final class FrameEncoderTests: XCTestCase {
    private func encode(_ changes: [CellChange], size: Size = Size(cols: 10, rows: 3), cursor: Point? = nil,
                        sequences: FrameEncoder.Sequences = ansi) -> String {
        var encoder = FrameEncoder(sequences: sequences)
        encoder.draw(changes, size: size)
        return String(decoding: encoder.finish(cursor: cursor, size: size), as: UTF8.self)
    }

    private func change(_ x: Int, _ y: Int, _ text: String, _ width: UInt8 = 1, _ style: Style = .plain) -> CellChange {
        CellChange(x: x, y: y, cell: Cell(text: text, width: width, style: style))
    }

    func testARunOfCellsIsOneMoveOneStyleAndItsText() {
        let bold = Style(bold: true)
        let out = encode([change(2, 1, "a", 1, bold), change(3, 1, "b", 1, bold), change(4, 1, "서", 2, bold),
                          change(6, 1, "c", 1, bold)])
        XCTAssertEqual(out, "\u{1B}[2;3H\u{1B}[0;1mab서c\u{1B}[0m\u{1B}[?25l",
                       "one move, the wide glyph advances two columns, the style is reset and the cursor hidden at the end")
    }

    func testAGapOrANewRowMovesTheCursorAndAStyleChangeSwitchesStyle() {
        let out = encode([change(0, 0, "a"), change(5, 0, "b"), change(0, 1, "c", 1, Style(fg: .red))])
        XCTAssertEqual(out, "\u{1B}[1;1H\u{1B}[0ma\u{1B}[1;6Hb\u{1B}[2;1H\u{1B}[0;31mc\u{1B}[0m\u{1B}[?25l")
    }

    func testAfterAGlyphOfSeveralScalarsOrAtTheRightEdgeThePositionIsSetAgain() {
        let out = encode([change(0, 0, "g\u{308}"), change(1, 0, "x"), change(9, 0, "y"), change(0, 1, "z")])
        XCTAssertEqual(out, "\u{1B}[1;1H\u{1B}[0mg\u{308}\u{1B}[1;2Hx\u{1B}[1;10Hy\u{1B}[2;1Hz\u{1B}[?25l")
    }

    func testTheBottomRightCellIsLeftAloneWhereWritingItWouldScroll() {
        var scrolls = ansi
        scrolls.lastCellScrolls = true
        XCTAssertEqual(encode([change(8, 2, "a"), change(9, 2, "b")], sequences: scrolls), "\u{1B}[3;9H\u{1B}[0ma\u{1B}[?25l")
        XCTAssertEqual(encode([change(8, 2, "a"), change(9, 2, "b")]), "\u{1B}[3;9H\u{1B}[0mab\u{1B}[?25l")
    }

    func testTheCursorIsShownAtItsPlaceAndOnlySwitchedWhenItChanges() {
        var encoder = FrameEncoder(sequences: ansi)
        let size = Size(cols: 10, rows: 3)
        encoder.draw([change(0, 0, "a")], size: size)
        XCTAssertEqual(String(decoding: encoder.finish(cursor: Point(x: 1, y: 0), size: size), as: UTF8.self),
                       "\u{1B}[1;1H\u{1B}[0ma\u{1B}[?25h", "already at the caret: no move")
        XCTAssertEqual(String(decoding: encoder.finish(cursor: Point(x: 4, y: 2), size: size), as: UTF8.self), "\u{1B}[3;5H")
        XCTAssertEqual(String(decoding: encoder.finish(cursor: nil, size: size), as: UTF8.self), "\u{1B}[?25l")
        XCTAssertEqual(String(decoding: encoder.finish(cursor: nil, size: size), as: UTF8.self), "")
        encoder.clear()
        encoder.draw([change(0, 0, "b")], size: size)
        XCTAssertEqual(String(decoding: encoder.finish(cursor: nil, size: size), as: UTF8.self),
                       "\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[1;1H\u{1B}[0mb", "after a clear nothing about the position is assumed")
    }

    /// Random frames through Renderer and the encoder, played back on a terminal: the screen is the frame.
    func testTerminalPlayingTheBytesShowsEveryFrame() {
        var rng = SplitMix(seed: 7)
        let pieces = ["a", "bc", "서울", "ソウル", "東", "x서", " ", "é", "g\u{308}", "👍", "⠿⠿", "12345"]
        let styles = [Style.plain, Style(fg: .red), Style(bold: true), Style(bg: .index(236)), Style(reverse: true, underline: true)]
        for size in [Size(cols: 7, rows: 3), Size(cols: 12, rows: 4), Size(cols: 1, rows: 1), Size(cols: 80, rows: 24)] {
            let term = MiniTerminal(size: size)
            let renderer = Renderer(backend: term)
            var f = ScreenBuffer(size: size)
            for step in 0..<150 {
                for _ in 0..<rng.next(6) {
                    f.put(pieces[rng.next(pieces.count)], x: rng.next(size.cols + 2) - 1, y: rng.next(size.rows),
                          style: styles[rng.next(styles.count)])
                }
                f.cursor = rng.next(3) == 0 ? nil : Point(x: rng.next(size.cols), y: rng.next(size.rows))
                renderer.render(f)
                XCTAssertEqual(term.grid, ScreenBuffer(copying: f), "size \(size) step \(step)")
                XCTAssertEqual(term.cursorVisible, f.cursor != nil)
                if let c = f.cursor { XCTAssertEqual(term.cursor, c) }
            }
        }
    }
}

private extension ScreenBuffer {
    /// `other`'s cells without its cursor (the terminal keeps the cursor apart).
    init(copying other: ScreenBuffer) {
        self = other
        cursor = nil
    }
}
