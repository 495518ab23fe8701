import Foundation
import Testing
import PropertyBased
import NimbusTerminal
import TestSupport

/// Over random screens (text of every width, random styles, a cursor or none), a snapshot file
/// reads back as the screen it was written from, and a change to any one cell's style is found and
/// named by its row.
@Suite struct ScreenSnapshotPropertyTests {
    static let glyphs: [String] = ["a", "Z", " ", "·", "°", "서", "울", "東", "京", "⠿", "▆", "☂", "é", "…", "\"", "-", ".", "?"]
    static let colors: [Color] = [.default, .black, .red, .white, .index(24), .index(75), .index(236), .index(250), .index(0), .index(255)]

    static func screen(_ seeds: [Int], cols: Int, rows: Int) -> (ScreenBuffer, Point?) {
        var state = seeds.reduce(UInt64(0x9E37_79B9_7F4A_7C15)) { ($0 ^ UInt64(bitPattern: Int64($1))) &* 0xBF58_476D_1CE4_E5B9 }
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        var buffer = ScreenBuffer(size: Size(cols: cols, rows: rows))
        for _ in 0..<next(40) {
            let style = Style(fg: colors[next(colors.count)], bg: colors[next(colors.count)], bold: next(2) == 0,
                              dim: next(4) == 0, reverse: next(4) == 0, underline: next(5) == 0)
            let text = (0..<next(12)).map { _ in glyphs[next(glyphs.count)] }.joined()
            buffer.put(text, x: next(cols + 4) - 2, y: next(rows), style: style)
        }
        let cursor = next(3) == 0 ? nil : Point(x: next(cols), y: next(rows))
        return (buffer, cursor)
    }

    @Test func aFileReadsBackAsItsScreen() async {
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: Gen.int().array(of: 1...4), Gen.int(in: 1...90), Gen.int(in: 1...30)) { seeds, cols, rows in
            let (buffer, cursor) = Self.screen(seeds, cols: cols, rows: rows)
            let snapshot = ScreenSnapshot(buffer, cursor: cursor)
            let read = ScreenSnapshot(fileText: snapshot.fileText)
            #expect(read == snapshot)
            #expect(read?.differences(from: snapshot) == "")
            // The text part is what text-only snapshots always held.
            #expect(snapshot.text == buffer.text() + "\n")
        }
    }

    @Test func aChangedCellStyleIsFoundOnItsRow() async {
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: Gen.int().array(of: 1...4), Gen.int(in: 2...90), Gen.int(in: 1...30)) { seeds, cols, rows in
            let (buffer, cursor) = Self.screen(seeds, cols: cols, rows: rows)
            let expected = ScreenSnapshot(fileText: ScreenSnapshot(buffer, cursor: cursor).fileText)!
            var changed = ScreenSnapshot(buffer, cursor: cursor)
            let y = abs(seeds[0]) % rows, x = abs(seeds.last!) % cols
            while changed.styles![y].count <= x { changed.styles![y].append(.plain) }
            let old = changed.styles![y][x]!
            changed.styles![y][x] = Style(fg: old.fg, bg: old.bg, bold: !old.bold, dim: old.dim, reverse: old.reverse, underline: old.underline)
            let diff = expected.differences(from: changed)
            #expect(diff.contains("style, row \(y + 1) columns "))
            #expect(!diff.hasPrefix("  line ") && !diff.contains("\n  line "), "the text did not change")
        }
    }
}
