import Testing
import PropertyBased
import TestSupport
import NimbusTerminal

/// A control character is never a typed character: C0 ones are keys (Enter, Tab, Ctrl-letters) or
/// nothing, and C1 ones (U+0080–U+009F), which arrive as two UTF-8 bytes from a terminal that lets
/// them through (`printf '\xc2\x85'`, a paste into a non-bracketing terminal), are dropped. Which
/// scalars are controls is Unicode's own general category here (`Cc`), not the app's tables.
@Suite struct KeyParserControlTests {
    static func parse(_ bytes: [UInt8]) -> [Key] {
        var parser = KeyParser()
        return parser.feed(bytes) + parser.flushPending()
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }

    @Test func everyC1ControlTypedAsUTF8IsDroppedAndTheLettersAroundItStay() {
        for value in UInt32(0x80)...0x9F {
            let scalar = Unicode.Scalar(value)!
            let bytes = Array("a\(scalar)b\(scalar)".utf8)
            #expect(Self.parse(bytes) == [.char("a"), .char("b")], "U+\(String(value, radix: 16, uppercase: true))")
        }
        // NEL and CSI, the two a terminal might act on, after Hangul and split across feeds.
        var parser = KeyParser()
        let keys = parser.feed([0xEC, 0x84, 0x9C, 0xC2]) + parser.feed([0x85, 0xC2]) + parser.feed([0x9B, 0x41]) + parser.flushPending()
        #expect(keys == [.char("서"), .char("A")])
    }

    /// Random bytes weighted to controls (C0 and C1 as UTF-8), letters, Hangul and escapes: no
    /// `.char` key holds a control, and every letter typed arrives.
    @Test func noTypedCharacterIsAControl() async {
        let pieces: [[UInt8]] = [
            [0x61], [0x5A], [0x20], [0x31], Array("서".utf8), Array("é".utf8), Array("☂".utf8),
            [0xC2, 0x80], [0xC2, 0x85], [0xC2, 0x9B], [0xC2, 0x9F], [0xC2, 0xA0], [0x00], [0x07], [0x09], [0x0D], [0x7F],
            [0x9B], [0x85], [0x1B, 0x5B, 0x41],
        ]
        await propertyCheck(count: PropertyCount.scaled(default: 300), input: Gen.int(in: 0...999).array(of: 1...40)) { numbers in
            let chosen = numbers.map { pieces[$0 % pieces.count] }
            let keys = Self.parse(chosen.flatMap { $0 })
            let typed = keys.compactMap { key -> Character? in if case .char(let c) = key { return c } else { return nil } }
            let controls = typed.filter { $0.unicodeScalars.contains(where: Self.isControl) }
            #expect(controls.isEmpty, "\(chosen) gave \(keys)")
            // The printable pieces, in order (the escape sequence is an arrow, not text).
            let printable = chosen.map { String(decoding: $0, as: UTF8.self) }.filter { piece in
                piece.first != "\u{1B}" && !piece.unicodeScalars.contains { Self.isControl($0) || $0 == "\u{FFFD}" }
            }
            #expect(String(typed) == printable.joined(), "\(chosen) gave \(keys)")
        }
    }
}
