import Foundation
import Testing
import PropertyBased
@testable import NimbusTerminal
import TestSupport

/// Line moves (`LineMoves`, `FrameEncoder.moveLines`): what they choose, the bytes they write, and,
/// over random pairs of frames played on a terminal emulator with widths of its own, that the
/// terminal shows every frame and never at more bytes than drawing it cell by cell.
@Suite struct LineMovesTests {
    // MARK: Frames

    /// A list screen as the app draws one: a tab bar, a header, `rows - 3` list rows from `first`,
    /// the selected one highlighted across the width, a status bar.
    static func listScreen(_ size: Size, first: Int, selected: Int) -> ScreenBuffer {
        var b = ScreenBuffer(size: size)
        b.put(" 1 Cities  2 Today  3 Liked", x: 0, y: 0, style: Style(bold: true))
        b.put("  City                     Country          Population", x: 0, y: 1, style: Style(underline: true))
        for y in 2..<(size.rows - 1) {
            let item = first + y - 2
            let style = item == selected ? Style(fg: .index(16), bg: .index(75), bold: true) : Style.plain
            if item == selected { b.fill(Rect(x: 0, y: y, width: size.cols, height: 1), style: style) }
            b.put((item == selected ? "› " : "  ") + Self.name(item), x: 0, y: y, style: style)
            b.put(item % 3 == 0 ? "대한민국" : "Country \(item % 7)", x: 29, y: y, style: style)
            b.put("\(1_000_000 + item * 7919)", x: size.cols - 12, y: y, style: style)
        }
        b.put(" / search  Enter open  ? help", x: 0, y: size.rows - 1, style: Style(reverse: true))
        return b
    }

    /// A made-up name for item `n`, different from its neighbours' as real names are.
    static func name(_ n: Int) -> String {
        var state = UInt64(n) &* 0x9E37_79B9_7F4A_7C15 | 1
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return String((0..<(6 + n % 9)).map { i -> Character in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let c = letters[Int(state % 26)]
            return i == 0 ? Character(c.uppercased()) : c
        })
    }

    /// Frames through `Renderer` on an emulated xterm: the bytes of the last one.
    static func bytes(of frames: [ScreenBuffer], movesLines: Bool = true,
                      sequences: FrameEncoder.Sequences = .xterm256Color) -> (bytes: [UInt8], terminal: EmulatedTerminal, renderer: Renderer) {
        let terminal = EmulatedTerminal(size: frames[0].size, sequences: sequences, movesLines: movesLines)
        let renderer = Renderer(backend: terminal)
        for frame in frames { renderer.render(frame) }
        return (terminal.lastFrameBytes, terminal, renderer)
    }

    // MARK: Examples

    @Test func downAtTheBottomOfAListScrollsItsRowsAndDrawsTwo() throws {
        let size = Size(cols: 100, rows: 30)
        let before = Self.listScreen(size, first: 0, selected: 26), after = Self.listScreen(size, first: 1, selected: 27)
        let (bytes, terminal, renderer) = Self.bytes(of: [before, after])
        #expect(renderer.lastLineMoves == [LineMove(top: 2, bottom: 27, by: -1)])
        #expect(terminal.emulator.differences(from: after) == [])
        let plain = Self.bytes(of: [before, after], movesLines: false).bytes
        // The rows that change: the old selection (now plain) and the new one (highlighted).
        #expect(bytes.count < 400 && bytes.count * 4 < plain.count, "\(bytes.count) bytes moving lines, \(plain.count) redrawing")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[3;1H\u{1B}[M\u{1B}[28;1H\u{1B}[L"), "dl at the region's top, il at its bottom: \(text.debugDescription)")
    }

    /// The fake terminal (the tapes', the bench's probe) moves lines too when asked to, and shows the frame.
    @Test func aFakeTerminalThatMovesLinesShowsTheFrame() {
        let size = Size(cols: 70, rows: 14)
        let fake = FakeTerminal(size: size, movesLines: true)
        let renderer = Renderer(backend: fake)
        for first in [0, 1, 2, 6, 5, 0] {
            let frame = Self.listScreen(size, first: first, selected: first + 3)
            renderer.render(frame)
            #expect(fake.grid == frame.withoutCursor, "first \(first)")
        }
        #expect(fake.lineMoves.count >= 4)
        #expect(FakeTerminal(size: size).drawingCosts == nil, "a plain fake terminal moves no lines")
    }

    @Test func upAtTheTopScrollsDown() {
        let size = Size(cols: 60, rows: 12)
        let before = Self.listScreen(size, first: 5, selected: 5), after = Self.listScreen(size, first: 4, selected: 4)
        let (_, terminal, renderer) = Self.bytes(of: [before, after])
        #expect(renderer.lastLineMoves == [LineMove(top: 3, bottom: 10, by: 1)])
        #expect(terminal.emulator.differences(from: after) == [])
    }

    @Test func aPageScrollKeepsTheRowsItCanAndDrawsTheRest() {
        let size = Size(cols: 80, rows: 24)
        let before = Self.listScreen(size, first: 0, selected: 20), after = Self.listScreen(size, first: 16, selected: 36)
        let (bytes, terminal, renderer) = Self.bytes(of: [before, after])
        #expect(renderer.lastLineMoves == [LineMove(top: 2, bottom: 21, by: -16)])
        #expect(terminal.emulator.differences(from: after) == [])
        #expect(bytes.count < Self.bytes(of: [before, after], movesLines: false).bytes.count)
    }

    @Test func withoutCapabilitiesNothingMovesAndTheFrameIsDrawnAsBefore() {
        var none = FrameEncoder.Sequences.xterm256Color
        none.lineMoves = FrameEncoder.LineMoveSequences()
        let size = Size(cols: 60, rows: 12)
        let before = Self.listScreen(size, first: 0, selected: 8), after = Self.listScreen(size, first: 1, selected: 9)
        let (bytes, terminal, renderer) = Self.bytes(of: [before, after], sequences: none)
        #expect(renderer.lastLineMoves == [])
        #expect(bytes == Self.bytes(of: [before, after], movesLines: false).bytes)
        #expect(terminal.emulator.differences(from: after) == [])
    }

    /// Each way the terminal may move lines makes the same screen: a scroll region with `ind`/`ri`,
    /// with `indn`/`rin`, or `dl`/`il` (the cheapest is used; the others are taken away one by one).
    @Test func everyWayToMoveLinesMakesTheSameScreen() {
        let size = Size(cols: 50, rows: 16)
        var regionOnly = FrameEncoder.Sequences.xterm256Color
        regionOnly.lineMoves.insertLines = nil
        regionOnly.lineMoves.deleteLines = nil
        var regionCounted = regionOnly
        regionCounted.lineMoves.scrollForward = nil
        regionCounted.lineMoves.scrollReverse = nil
        var linesOnly = FrameEncoder.Sequences.xterm256Color
        linesOnly.lineMoves.setScrollRegion = nil
        for sequences in [FrameEncoder.Sequences.xterm256Color, regionOnly, regionCounted, linesOnly] {
            for (first, next) in [(0, 1), (0, 3), (7, 6), (7, 2)] {
                let before = Self.listScreen(size, first: first, selected: first + 4)
                let after = Self.listScreen(size, first: next, selected: next + 4)
                let (_, terminal, renderer) = Self.bytes(of: [before, after], sequences: sequences)
                #expect(!renderer.lastLineMoves.isEmpty)
                #expect(terminal.emulator.differences(from: after) == [], "\(first) → \(next)")
                #expect(terminal.emulator.problems == [])
            }
        }
    }

    @Test func theMoveBytesAreTheCheapestWay() {
        let s = FrameEncoder.Sequences.xterm256Color
        // One line up in rows 3...28 of 30: dl + il (19 bytes) beats csr + ind + csr (25).
        #expect(s.bytes(making: LineMove(top: 2, bottom: 27, by: -1), rows: 30).map { String(decoding: $0, as: UTF8.self) }
                == "\u{1B}[3;1H\u{1B}[M\u{1B}[28;1H\u{1B}[L")
        // Down three lines where the region ends at the bottom: il alone.
        #expect(s.bytes(making: LineMove(top: 4, bottom: 29, by: 3), rows: 30).map { String(decoding: $0, as: UTF8.self) }
                == "\u{1B}[5;1H\u{1B}[3L")
        var region = s
        region.lineMoves.insertLines = nil
        #expect(region.bytes(making: LineMove(top: 2, bottom: 27, by: -1), rows: 30).map { String(decoding: $0, as: UTF8.self) }
                == "\u{1B}[3;28r\u{1B}[28;1H\n\u{1B}[1;30r")
        #expect(region.bytes(making: LineMove(top: 2, bottom: 27, by: 5), rows: 30).map { String(decoding: $0, as: UTF8.self) }
                == "\u{1B}[3;28r\u{1B}[3;1H\u{1B}[5T\u{1B}[1;30r", "rin beats five ri")
        var scrolling = s
        scrolling.lastCellScrolls = true
        #expect(scrolling.bytes(making: LineMove(top: 2, bottom: 29, by: -1), rows: 30) == nil,
                "where the bottom-right cell is never written, the bottom row does not move")
        #expect(s.bytes(making: LineMove(top: 2, bottom: 4, by: -3), rows: 30) == nil, "a move as tall as its region moves nothing")
    }

    /// The capabilities the recordings use for moving lines are xterm-256color's own, read by tput.
    @Test func theLineMoveSequencesAreTerminfosXterm256Color() throws {
        let tput = URL(fileURLWithPath: "/usr/bin/tput")
        guard FileManager.default.isExecutableFile(atPath: tput.path) else { return }
        func read(_ arguments: [String]) throws -> [UInt8] {
            let process = Process()
            process.executableURL = tput
            process.arguments = ["-T", "xterm-256color"] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Array(data)
        }
        let m = FrameEncoder.Sequences.xterm256Color.lineMoves
        #expect(m.setScrollRegion?(2, 27) == (try read(["csr", "2", "27"])))
        #expect(m.scrollForward == (try read(["ind"])))
        #expect(m.scrollReverse == (try read(["ri"])))
        #expect(m.scrollForwardLines?(4) == (try read(["indn", "4"])))
        #expect(m.scrollReverseLines?(4) == (try read(["rin", "4"])))
        #expect(m.insertLines?(1) == (try read(["il1"])))
        #expect(m.deleteLines?(1) == (try read(["dl1"])))
        #expect(m.insertLines?(3) == (try read(["il", "3"])))
        #expect(m.deleteLines?(3) == (try read(["dl", "3"])))
        #expect(FrameEncoder.Sequences.xterm256Color.moveRight?(12) == (try read(["cuf", "12"])))
        #expect(FrameEncoder.Sequences.xterm256Color.eraseCharacters?(12) == (try read(["ech", "12"])))
    }

    /// A gap of a few unchanged cells on a row is crossed by writing them again, a longer one (or
    /// one whose cells are not known) by a move right (`cuf`), shorter than addressing the cell.
    @Test func gapsAreCrossedTheCheapestWay() {
        let size = Size(cols: 60, rows: 3)
        var before = ScreenBuffer(size: size), after = ScreenBuffer(size: size)
        before.put("a    b", x: 0, y: 1)
        after.put("The Artist", x: 0, y: 1)
        after.put("2011", x: 40, y: 1)
        after.put("x", x: 0, y: 2)
        let (bytes, terminal, _) = Self.bytes(of: [before, after])
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[2;1HThe Artist\u{1B}[30C2011\u{1B}[3;1Hx")
        #expect(terminal.emulator.differences(from: after) == [])
        var encoder = FrameEncoder(sequences: .xterm256Color)
        encoder.draw([CellChange(x: 0, y: 0, cell: Cell(text: "a", width: 1)), CellChange(x: 2, y: 0, cell: Cell(text: "b", width: 1))],
                     size: size)
        #expect(String(decoding: encoder.finish(cursor: nil, size: size), as: UTF8.self).contains("a\u{1B}[1Cb"),
                "without the frame the gap's cells are not known: the cursor moves over them")
    }

    // MARK: Matching

    /// A text whose lines repeat (a warning's paragraph twice on screen) scrolls too: a line that
    /// occurs as often in both frames is matched in order.
    @Test func aTextWhoseLinesRepeatScrollsToo() {
        let size = Size(cols: 30, rows: 12)
        let paragraph = ["* WHAT...Heavy snow.", "", "* WHERE...Seattle.", "", "* WHEN...Friday."]
        let text = ["Warnings"] + paragraph + [""] + paragraph + [""] + paragraph
        func screen(_ first: Int) -> ScreenBuffer {
            var b = ScreenBuffer(size: size)
            b.put("title", x: 0, y: 0)
            for y in 1..<(size.rows - 1) where first + y - 1 < text.count { b.put(text[first + y - 1], x: 1, y: y) }
            b.put("status", x: 0, y: size.rows - 1)
            return b
        }
        for first in 0..<6 {
            let (_, terminal, renderer) = Self.bytes(of: [screen(first), screen(first + 1)])
            #expect(renderer.lastLineMoves.count == 1 && renderer.lastLineMoves.first?.by == -1, "from line \(first)")
            #expect(terminal.emulator.differences(from: screen(first + 1)) == [])
        }
    }

    @Test func blankRowsAreNotMatchedAloneButMoveWithTheirNeighbours() {
        let size = Size(cols: 20, rows: 10)
        var before = ScreenBuffer(size: size), after = ScreenBuffer(size: size)
        for (y, text) in ["top", "a", "", "b", "", "c", "d", "", "", "status"].enumerated() { before.put(text, x: 0, y: y) }
        for (y, text) in ["top", "", "b", "", "c", "d", "", "e", "", "status"].enumerated() { after.put(text, x: 0, y: y) }
        let (_, terminal, renderer) = Self.bytes(of: [before, after])
        #expect(renderer.lastLineMoves == [LineMove(top: 1, bottom: 7, by: -1)])
        #expect(terminal.emulator.differences(from: after) == [])
    }

    /// The quick check in front of the matcher (`someRowMoved`) never hides a move: over random row
    /// hashes drawn from a few values (so rows repeat, stay, move and go blank), whenever it says no
    /// row moved, the matcher pairs every row with itself.
    @Test func theQuickCheckNeverHidesAMove() async {
        let blank = LineMoves.blankRowHash(cols: 10)
        await propertyCheck(count: PropertyCount.scaled(default: 500),
                            input: Gen.int(in: 1...40), Gen.int(in: 0...Int.max)) { rows, seed in
            var random = SplitMix(seed: UInt64(truncatingIfNeeded: seed))
            let values: [UInt64] = [blank, 1, 2, 3, 4, 5, 6]
            let old = (0..<rows).map { _ in values[Int(random.next() % 7)] }
            // Half of the time the new frame is the old one with a few rows changed in place.
            let new = random.next() % 2 == 0
                ? old.map { random.next() % 4 == 0 ? values[Int(random.next() % 7)] : $0 }
                : (0..<rows).map { _ in values[Int(random.next() % 7)] }
            if !LineMoves.someRowMoved(old, new, blank: blank) {
                #expect(LineMoves.matchedPairs(old, new, blank: blank).allSatisfy { $0.new == $0.old },
                        "old \(old) new \(new)")
            }
        }
        // And it says so for a list scrolled by a row.
        #expect(LineMoves.someRowMoved([blank, 1, 2, 3], [blank, 2, 3, 4], blank: blank))
        #expect(!LineMoves.someRowMoved([blank, 1, 2, 3], [blank, 1, 5, 3], blank: blank))
    }

    @Test func theLongestRunInOrderIsKept() {
        let pairs = [(new: 0, old: 5), (new: 1, old: 1), (new: 2, old: 2), (new: 3, old: 9), (new: 4, old: 3), (new: 5, old: 4)]
        #expect(LineMoves.keptInOrder(pairs).map(\.old) == [1, 2, 3, 4])
        #expect(LineMoves.keptInOrder([]).isEmpty)
    }

    // MARK: Widths the terminal disagrees on

    /// After each glyph whose width terminals disagree on (one that came after the terminal's tables,
    /// a symbol with a variation selector), the encoder puts the cursor where the next cell is, so
    /// only that glyph can look different on a terminal that measures it otherwise.
    @Test func theCellAfterAGlyphOfUncertainWidthIsReachedByAMove() {
        let size = Size(cols: 20, rows: 2)
        var frame = ScreenBuffer(size: size)
        frame.put("a\u{1FAE8}b☂c☂\u{FE0F}d서e", x: 0, y: 0)
        let (bytes, terminal, _) = Self.bytes(of: [ScreenBuffer(size: size), frame])
        #expect(terminal.emulator.differences(from: frame) == [])
        let text = String(decoding: bytes, as: UTF8.self)
        // An emoji newer than the terminals' tables never reaches a cell: it is drawn as U+FFFD,
        // itself of East Asian ambiguous width, so a move follows it too.
        let b = DisplayWidth.of("a\u{FFFD}") + 1, c = b + 2, d = c + DisplayWidth.of("☂\u{FE0F}") + 1
        #expect(text.contains("a\u{FFFD}\u{1B}[1;\(b)Hb☂\u{1B}[1;\(c)Hc☂\u{FE0F}\u{1B}[1;\(d)Hd서e"), "\(text.debugDescription)")
        #expect(TerminalEmulator.layout(of: "\u{1FAE8}") == [], "tmux 3.3a drops an emoji newer than its tables")
        #expect(TerminalEmulator.layout(of: "☂\u{FE0F}") == [1])
    }

    // MARK: Random pairs of frames

    static let glyphs = ["a", "b", "Z", "1", " ", " ", "é", "°", "서", "울", "東", "ソ", "⠿", "☂", "♥", "→", "…", "─", "│", "›",
                         "👍", "g\u{308}", "☂\u{FE0F}", "\u{1FAE8}", "🇰🇷"]
    static let styles = [Style.plain, Style(bold: true), Style(fg: .red), Style(bg: .index(236)), Style(reverse: true, underline: true),
                         Style(fg: .index(16), bg: .index(75), bold: true), Style(dim: true), Style(fg: .index(250), bg: .blue)]

    /// A row of random pieces; sometimes highlighted across the width, sometimes reaching the last column.
    static func randomRow(_ b: inout ScreenBuffer, _ y: Int, _ rng: inout SplitMix) {
        let cols = b.size.cols
        b.fill(Rect(x: 0, y: y, width: cols, height: 1), style: rng.next(5) == 0 ? styles[rng.next(styles.count)] : .plain)
        for _ in 0..<(1 + rng.next(4)) {
            let text = (0..<(1 + rng.next(10))).map { _ in glyphs[rng.next(glyphs.count)] }.joined()
            let x = rng.next(4) == 0 ? cols - DisplayWidth.of(text) : rng.next(cols + 1) - 1
            b.put(text, x: x, y: y, style: styles[rng.next(styles.count)])
        }
    }

    static func copyRow(_ from: ScreenBuffer, _ fromY: Int, to b: inout ScreenBuffer, _ y: Int) {
        b.fill(Rect(x: 0, y: y, width: b.size.cols, height: 1))
        for x in 0..<b.size.cols where from[x, fromY].width > 0 { b.setCell(x, y, from[x, fromY]) }
    }

    static func randomFrame(_ size: Size, _ rng: inout SplitMix) -> ScreenBuffer {
        var b = ScreenBuffer(size: size)
        for y in 0..<size.rows where rng.next(6) != 0 { randomRow(&b, y, &rng) }
        b.cursor = rng.next(3) == 0 ? nil : Point(x: rng.next(size.cols), y: rng.next(size.rows))
        return b
    }

    /// The next frame: some regions of `old` scrolled (up or down, by random amounts), new rows where
    /// they opened, some rows changed, swapped or restyled, cells changed here and there.
    static func nextFrame(_ old: ScreenBuffer, _ rng: inout SplitMix) -> ScreenBuffer {
        let size = old.size
        var b = old
        for _ in 0..<rng.next(3) {
            let top = rng.next(size.rows), bottom = top + rng.next(size.rows - top)
            guard bottom > top else { continue }
            let k = 1 + rng.next(max(1, (bottom - top) / (rng.next(3) == 0 ? 1 : 3)))
            let down = rng.next(2) == 0
            let source = b
            for y in top...bottom {
                let from = down ? y - k : y + k
                if from >= top && from <= bottom { copyRow(source, from, to: &b, y) } else { randomRow(&b, y, &rng) }
            }
        }
        for _ in 0..<rng.next(3) { randomRow(&b, rng.next(size.rows), &rng) }
        if rng.next(4) == 0 {
            let source = b, a = rng.next(size.rows), c = rng.next(size.rows)
            copyRow(source, a, to: &b, c)
            copyRow(source, c, to: &b, a)
        }
        for _ in 0..<rng.next(4) {
            b.put(glyphs[rng.next(glyphs.count)], x: rng.next(size.cols), y: rng.next(size.rows), style: styles[rng.next(styles.count)])
        }
        if rng.next(2) == 0 { b.cursor = rng.next(3) == 0 ? nil : Point(x: rng.next(size.cols), y: rng.next(size.rows)) }
        return b
    }

    /// Counts over a run, printed at its end (the figures in the notes).
    final class Tally: @unchecked Sendable {
        var frames = 0, framesWithMoves = 0, moves = 0, bytesMoving = 0, bytesPlain = 0, costlier = 0
        /// With `LineMoves`' estimate alone (no exact price from the backend): frames that cost more
        /// than drawing cells, and by how much at most.
        var estimateCostlier = 0, estimateExcess = 0, bytesEstimated = 0
    }

    /// Random pairs of frames (random rows, moved regions, styles, wide glyphs, glyphs the terminal
    /// measures otherwise, the last column and the bottom-right cell), rendered through `Renderer`
    /// and `FrameEncoder` with each set of capabilities, played on `TerminalEmulator`: it shows every
    /// frame, with the cursor where the frame has it, and the bytes are never more than drawing the
    /// frame without line moves. With `LineMoves`' estimate alone (a backend that cannot price a
    /// frame exactly) the screen is as right, and a frame costs at most a few bytes more.
    @Test func theTerminalShowsEveryFrameAndMovingLinesNeverCostsMore() async {
        var regionOnly = FrameEncoder.Sequences.xterm256Color
        regionOnly.lineMoves.insertLines = nil
        regionOnly.lineMoves.deleteLines = nil
        regionOnly.lineMoves.scrollForwardLines = nil
        regionOnly.lineMoves.scrollReverseLines = nil
        var linesOnly = FrameEncoder.Sequences.xterm256Color
        linesOnly.lineMoves.setScrollRegion = nil
        var none = FrameEncoder.Sequences.xterm256Color
        none.lineMoves = FrameEncoder.LineMoveSequences()
        var noErase = FrameEncoder.Sequences.xterm256Color
        noErase.eraseCharacters = nil
        // A terminal whose erase leaves the default background (no `bce`; its emulator does the same).
        var noBackColorErase = FrameEncoder.Sequences.xterm256Color
        noBackColorErase.backColorErase = false
        let variants = [FrameEncoder.Sequences.xterm256Color, regionOnly, linesOnly, none, noErase, noBackColorErase]
        let tally = Tally()
        await propertyCheck(count: PropertyCount.scaled(default: 300),
                            input: Gen.int(in: 0...Int.max), Gen.int(in: 1...70), Gen.int(in: 2...26), Gen.int(in: 0...5)) {
            seed, cols, rows, variant in
            var rng = SplitMix(seed: UInt64(seed))
            let size = Size(cols: cols, rows: rows)
            let moving = EmulatedTerminal(size: size, sequences: variants[variant])
            let plain = EmulatedTerminal(size: size, sequences: variants[variant], movesLines: false)
            let estimated = EmulatedTerminal(size: size, sequences: variants[variant], exactCosts: false)
            let renderer = Renderer(backend: moving), plainRenderer = Renderer(backend: plain)
            let estimatedRenderer = Renderer(backend: estimated)
            // The same terminal without `ech`: erasing a run of blanks is never dearer than writing it.
            var withoutErase = variants[variant]
            withoutErase.eraseCharacters = nil
            let written = EmulatedTerminal(size: size, sequences: withoutErase, movesLines: false)
            let writtenRenderer = Renderer(backend: written)
            var frame = Self.randomFrame(size, &rng)
            for step in 0..<4 {
                if step > 0 { frame = Self.nextFrame(frame, &rng) }
                renderer.render(frame)
                plainRenderer.render(frame)
                estimatedRenderer.render(frame)
                writtenRenderer.render(frame)
                #expect(estimated.emulator.differences(from: frame) == [], "estimated, step \(step)")
                #expect(plain.emulator.differences(from: frame) == [], "without moves, step \(step)")
                #expect(plain.lastFrameBytes.count <= written.lastFrameBytes.count,
                        "step \(step): \(plain.lastFrameBytes.count) bytes erasing blanks, \(written.lastFrameBytes.count) writing them")
                let differences = moving.emulator.differences(from: frame)
                #expect(differences == [], "step \(step), moves \(renderer.lastLineMoves):\n\(moving.emulator.text)")
                #expect(moving.emulator.problems == [])
                #expect(moving.emulator.cursorVisible == (frame.cursor != nil))
                if let c = frame.cursor { #expect(moving.emulator.x == c.x && moving.emulator.y == c.y, "cursor, step \(step)") }
                guard step > 0 else { continue }
                #expect(moving.lastFrameBytes.count <= plain.lastFrameBytes.count,
                        "step \(step): \(moving.lastFrameBytes.count) bytes moving \(renderer.lastLineMoves), \(plain.lastFrameBytes.count) without")
                tally.frames += 1
                tally.moves += renderer.lastLineMoves.count
                if !renderer.lastLineMoves.isEmpty { tally.framesWithMoves += 1 }
                tally.bytesMoving += moving.lastFrameBytes.count
                tally.bytesPlain += plain.lastFrameBytes.count
                if moving.lastFrameBytes.count > plain.lastFrameBytes.count { tally.costlier += 1 }
                let excess = estimated.lastFrameBytes.count - plain.lastFrameBytes.count
                tally.bytesEstimated += estimated.lastFrameBytes.count
                if excess > 0 {
                    tally.estimateCostlier += 1
                    tally.estimateExcess = max(tally.estimateExcess, excess)
                }
                #expect(excess <= 24, "the estimate chose \(estimatedRenderer.lastLineMoves), \(excess) bytes more than drawing cells")
                // Frames with line moves start from the plain one's screen afterwards too.
                #expect(plain.emulator.differences(from: frame) == [])
            }
        }
        print("LineMovesTests: \(tally.frames) frame pairs, \(tally.framesWithMoves) with line moves (\(tally.moves) moves); "
              + "\(tally.bytesMoving) bytes moving lines against \(tally.bytesPlain) drawing cells only; \(tally.costlier) frames cost more; "
              + "on the estimate alone \(tally.bytesEstimated) bytes, \(tally.estimateCostlier) frames cost more, by at most \(tally.estimateExcess) bytes")
    }
}

private extension ScreenBuffer {
    var withoutCursor: ScreenBuffer {
        var b = self
        b.cursor = nil
        return b
    }
}

