import Foundation
import Testing
import PropertyBased
import TestSupport
import NimbusTerminal

/// Frames played on a terminal whose widths are not the app's: one set to draw East Asian
/// "ambiguous" glyphs (♥ → … ─ │ ① Ω, Unicode's East Asian Width "A", read by Python's
/// `unicodedata` into `Tests/Reference/east-asian-ambiguous.tsv`) two columns wide, as CJK users
/// set VTE, iTerm2 or Windows Terminal. The encoder cannot know that setting: after every glyph
/// whose width terminals disagree on it must reach the next cell with a cursor move, so that only
/// the disputed glyph looks different (`differences(from:)` leaves its cells out) and every other
/// cell is where the frame has it.
///
/// Ambiguous glyphs below U+0300 (° é ×) are left out: the encoder takes them as narrow, as
/// `wcwidth` and curses do, and a terminal that widens them misdraws every curses program alike.
@Suite struct AmbiguousWidthTerminalTests {
    static let wideAmbiguous: [ClosedRange<UInt32>] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Reference/east-asian-ambiguous.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> ClosedRange<UInt32>? in
            let fields = line.split(separator: "\t")
            guard fields.count == 2, let first = UInt32(fields[0], radix: 16), let last = UInt32(fields[1], radix: 16),
                  last >= 0x300 else { return nil }
            return max(first, 0x300)...last
        }
    }()

    @Test func theTableIsUnicodes() {
        let ranges = Self.wideAmbiguous
        #expect(ranges.count > 100)
        for glyph in ["♥", "→", "…", "─", "│", "①", "Ω", "※"] {
            #expect(ranges.contains { $0.contains(glyph.unicodeScalars.first!.value) }, "\(glyph) is ambiguous")
        }
        for glyph in ["a", "서", "東", "⠿", "☂", "›"] {
            #expect(!ranges.contains { $0.contains(glyph.unicodeScalars.first!.value) }, "\(glyph) is not")
        }
    }

    @Test func aCursorMoveFollowsEachAmbiguousGlyphAndTheRestIsInPlace() throws {
        try #require(!Self.wideAmbiguous.isEmpty, "Tests/Reference/east-asian-ambiguous.tsv")
        let size = Size(cols: 24, rows: 2)
        var frame = ScreenBuffer(size: size)
        frame.put("a♥b→c…d─e│f①g서h", x: 0, y: 0)
        frame.put("Ω※ok", x: 3, y: 1)
        let terminal = EmulatedTerminal(size: size, wideAmbiguous: Self.wideAmbiguous)
        Renderer(backend: terminal).render(frame)
        #expect(terminal.emulator.differences(from: frame) == [], "\(terminal.emulator.text)")
        let text = String(decoding: terminal.lastFrameBytes, as: UTF8.self)
        #expect(text.contains("a♥\u{1B}[1;3Hb→\u{1B}[1;5Hc…\u{1B}[1;7Hd─\u{1B}[1;9He│\u{1B}[1;11Hf①\u{1B}[1;13Hg서h"), "\(text.debugDescription)")
        #expect(text.contains("Ω\u{1B}[2;5H※\u{1B}[2;6Hok"), "\(text.debugDescription)")
    }

    static let glyphs = ["a", "b", "Z", "1", " ", " ", "서", "東", "⠿", "☂", "♥", "→", "…", "─", "│", "›", "①", "Ω", "※",
                         "👍", "☂\u{FE0F}", "g\u{308}"]

    /// Random frames of random sizes, each drawn whole (the first frame, or one after a resize):
    /// every cell but the disputed glyphs' shows what the frame has.
    ///
    /// Not yet for a frame drawn over another: a glyph this terminal drew wide spills into the cell
    /// after it, and when a later frame replaces the glyph but not that cell (a blank in both), the
    /// spilled half stays (`Renderer` redraws only the cells that changed).
    @Test func everyCellButTheDisputedOnesIsWhereTheFrameHasIt() async throws {
        try #require(!Self.wideAmbiguous.isEmpty, "Tests/Reference/east-asian-ambiguous.tsv")
        await propertyCheck(count: PropertyCount.scaled(default: 100),
                            input: Gen.int(in: 0...Int.max), Gen.int(in: 4...60), Gen.int(in: 1...12)) { seed, cols, rows in
            var rng = SplitMix(seed: UInt64(seed))
            let size = Size(cols: cols, rows: rows)
            var frame = ScreenBuffer(size: size)
            for step in 0..<3 {
                let terminal = EmulatedTerminal(size: size, wideAmbiguous: Self.wideAmbiguous)
                let renderer = Renderer(backend: terminal)
                for _ in 0..<(1 + rng.next(rows * 2)) {
                    let text = (0..<(1 + rng.next(12))).map { _ in Self.glyphs[rng.next(Self.glyphs.count)] }.joined()
                    // Not into the last column: see `theLastColumn…` below.
                    let x = rng.next(max(1, cols - 1)), y = rng.next(rows)
                    var clipped = ""
                    var width = 0
                    for ch in text {
                        let w = DisplayWidth.of(String(ch))
                        guard x + width + w <= cols - 1 else { break }
                        clipped.append(ch)
                        width += w
                    }
                    frame.put(clipped, x: x, y: y, style: rng.next(3) == 0 ? Style(bold: true) : .plain)
                }
                renderer.render(frame)
                let differences = terminal.emulator.differences(from: frame)
                #expect(differences == [], "step \(step), \(cols)×\(rows):\n\(terminal.emulator.text)")
                #expect(terminal.emulator.problems == [])
            }
        }
    }
}
