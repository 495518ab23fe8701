import Foundation
import Testing
import PropertyBased
@testable import NimbusTerminal
import TestSupport

/// Sanitising, normalising, measuring and cutting are total over arbitrary text, and the chunked NFC
/// agrees with Foundation's on text long enough to be cut into pieces.
@Suite struct TextPropertyTests {
    /// Scalars that make trouble: controls and escapes, combining marks, conjoining jamo, kana with
    /// voicing marks, singletons, emoji parts, wide glyphs, bidi controls, and plain letters.
    static let alphabet: [[UInt32]] = [
        Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F), [0x1B, 0x5B, 0x5D, 0x07, 0x9C, 0x50],
        Array(0x300...0x36F), Array(0x1100...0x1112) + Array(0x1161...0x1175) + Array(0x11A8...0x11C2),
        Array(0x3041...0x3096) + [0x3099, 0x309A], [0x212B, 0x2126, 0x0344, 0x0F73, 0x1E9B],
        [0x1F600, 0x1F3FB, 0x200D, 0xFE0F, 0xFE0E, 0x1F1F0, 0x1F1F7, 0x20E3], Array(0xAC00...0xAC20) + Array(0x4E00...0x4E20),
        [0x202A, 0x202E, 0x2066, 0x2069, 0x200B, 0x200C], Array(0x61...0x7A) + Array(0xC0...0xFF),
    ]

    /// Bases and the marks, jamo and voicing marks that compose with them, so that any cut in the
    /// wrong place changes the result.
    static let composing: [[UInt32]] = [
        Array(0x61...0x7A) + Array(0x41...0x5A), [0x300, 0x301, 0x302, 0x303, 0x308, 0x30A, 0x323, 0x327, 0x328],
        Array(0x1100...0x1112), Array(0x1161...0x1175), Array(0x11A8...0x11C2), Array(0x304B...0x3062), [0x3099, 0x309A],
    ]

    static func text(_ seeds: [Int], length: Int, from alphabet: [[UInt32]] = alphabet) -> String {
        var state = seeds.reduce(UInt64(0x2545_F491_4F6C_DD1D)) { ($0 ^ UInt64(bitPattern: Int64($1))) &* 0x9E37_79B9_7F4A_7C15 }
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        var scalars = String.UnicodeScalarView()
        let count = Int(next() % UInt64(max(1, length)))
        for _ in 0..<count {
            let group = alphabet[Int(next() % UInt64(alphabet.count))]
            if let s = Unicode.Scalar(group[Int(next() % UInt64(group.count))]) { scalars.append(s) }
        }
        return String(scalars)
    }

    @Test func sanitizeMeasureAndTruncateAreTotal() async {
        await propertyCheck(count: PropertyCount.scaled(default: 300), input: Gen.int().array(of: 1...4), Gen.int(in: 0...120)) { seeds, cols in
            let raw = Self.text(seeds, length: 400)
            let clean = DisplayWidth.sanitize(raw)
            #expect(!clean.unicodeScalars.contains { DisplayWidth.isControl($0.value) || (0x202A...0x202E).contains($0.value) })
            // At most `maxCombiningMarks` marks in a row, counted before NFC, which may split one mark
            // in two (U+0344, U+0F73). (Nor is the result always its own NFC scalar for scalar:
            // Foundation's NFC of those two after other marks is not idempotent.)
            var run = 0, longest = 0
            for scalar in clean.unicodeScalars {
                run = DisplayWidth.isCombiningMark(scalar) ? run + 1 : 0
                longest = max(longest, run)
            }
            #expect(longest <= 2 * DisplayWidth.maxCombiningMarks)
            let cut = DisplayWidth.truncate(clean, to: cols)
            #expect(DisplayWidth.of(cut) <= cols)
            #expect(DisplayWidth.of(DisplayWidth.pad(clean, to: cols)) == cols)
            #expect(DisplayWidth.of(raw) >= 0)
        }
    }

    @Test func chunkedNFCAgreesWithFoundation() async {
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Gen.int().array(of: 1...4)) { seeds in
            // Long enough to be cut into several pieces.
            let text = Self.text(seeds, length: 6000, from: Self.composing)
            // Scalar by scalar: `==` on String holds for any canonically equivalent pair.
            #expect(Array(ChunkedNFC.normalize(text).unicodeScalars) == Array(text.precomposedStringWithCanonicalMapping.unicodeScalars))
        }
    }

    /// Half-width katakana typed or pasted, voicing marks included, become the full-width kana a
    /// terminal draws in the columns the field counts: ﾊﾟﾘ is パリ, whether ﾊﾟ comes in one key or two.
    @Test func halfwidthKanaIsTypedAsFullwidth() async {
        let kana: [[UInt32]] = [Array(0xFF61...0xFF9F), [0xFF9E, 0xFF9F], Array(0x3041...0x3096), Array(0x61...0x7A)]
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: Gen.int().array(of: 1...4), Gen.bool) { seeds, byScalar in
            let typed = Self.text(seeds, length: 40, from: kana)
            var field = TextFieldState()
            if byScalar {
                for scalar in typed.unicodeScalars { _ = field.handle(.char(Character(scalar))) }
            } else {
                for character in typed { _ = field.handle(.char(character)) }
            }
            #expect(!field.text.unicodeScalars.contains { (0xFF61...0xFF9F).contains($0.value) })
            // Canonically equivalent (String's ==): Foundation's NFKC leaves some ゔ decomposed.
            #expect(field.text == typed.precomposedStringWithCompatibilityMapping)
            #expect(field.caretColumn == DisplayWidth.of(field.text))
        }
    }
}
