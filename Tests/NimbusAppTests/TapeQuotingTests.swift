import Foundation
import Testing
import PropertyBased
import TestSupport
@testable import NimbusApp

/// The recorder's `Type "…"` line reads back as the text it was made from, whatever the text: the
/// player finds quotes, escapes and comments among scalars, so a combining mark after the opening
/// quote, a prepended concatenation mark (U+0600) before the closing one, or a mark after `\x0` does
/// not hide them inside a Character.
@Suite struct TapeQuotingTests {
    static func typeLine(_ typed: String) -> String { "Type " + TapeRecording.quoted(typed) }

    static func readBack(_ source: String) throws -> [Tape.Command] {
        try Tape(name: "t", source: source).lines.map(\.command)
    }

    /// Inputs as the fuzzer found them (Fuzz/corpus/tape): text starting with U+036D and then
    /// U+FFFD (invalid UTF-8), and `\x06\x00\x00` followed by U+0736, which joined the second `0` of
    /// `\x00` into one Character.
    @Test func theFuzzersInputsReadBack() throws {
        let markFirst = "\u{36D}" + String(repeating: "\u{FFFD}", count: 125) + "\u{FFFD}"
        let markAfterHex = "\u{6}\u{0}\u{0}\u{736}+"
        for typed in [markFirst, markAfterHex] {
            #expect(try Self.readBack(Self.typeLine(typed)) == [.type(typed)])
        }
        #expect(TapeRecording.quoted(markAfterHex) == "\"\\x06\\x00\\x00\u{736}+\"")
    }

    @Test func marksNextToQuotesAndEscapes() throws {
        let cases = [
            "\u{301}abc",            // a combining mark after the opening quote
            "abc\u{600}",            // a prepended mark before the closing quote
            "\u{600}",               // both at once
            "\u{301}",
            "\u{6DD}\"",             // a prepended mark before an escaped quote
            "\\\u{301}",             // a mark after an escaped backslash
            "\u{1B}\u{301}",         // a mark after \e
            "\n\u{308}x",            // a mark after \n
            "a # b\u{301}",          // a # inside the quotes is not a comment
            "\"\u{301}#",
            "\u{110BD}x\u{110CD}",
        ]
        for typed in cases {
            #expect(try Self.readBack(Self.typeLine(typed)) == [.type(typed)], "\(typed.debugDescription)")
            #expect(try Self.readBack(Self.typeLine(typed) + "  # a comment\r\n") == [.type(typed)], "\(typed.debugDescription) with a comment and CRLF")
            #expect(try Self.readBack("Expect " + TapeRecording.quoted(typed)) == [.expect(.text(typed))], "\(typed.debugDescription) in Expect")
        }
    }

    @Test func badEscapesAreRefusedWithAReason() {
        for source in ["Type \"\\x0\u{301}\"", "Type \"\\x+f\"", "Type \"\\x\"", "Type \"abc", "Type \u{301}\"abc\""] {
            #expect(throws: Tape.ParseError.self, "\(source.debugDescription)") { try Self.readBack(source) }
        }
    }

    /// Scalars that sit next to quotes and escapes in a `Type` line: combining marks, prepended
    /// concatenation marks, controls, quotes, backslashes, `#`, hex digits, x, spaces, CR, wide
    /// letters, emoji parts and invalid-UTF-8 replacements.
    static let alphabet: [[UInt32]] = [
        Array(0x300...0x36F) + [0x736, 0x0F71, 0x0F80, 0x3099, 0x20E3, 0xFE0F, 0x200D],
        [0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD],
        Array(0x00...0x1F) + [0x7F, 0x85, 0x9B],
        [0x22, 0x22, 0x5C, 0x5C, 0x23, 0x20, 0x09, 0x0D, 0x0A, 0x2F, 0x78, 0x65, 0x6E, 0x74],
        Array(0x30...0x39) + Array(0x61...0x66),
        Array(0xAC00...0xAC10) + Array(0x3041...0x3050) + [0x1F600, 0x1F1F0, 0x1F1F7, 0xFFFD, 0x3000, 0x2028],
    ]

    static func text(_ seeds: [Int], length: Int) -> String {
        var state = seeds.reduce(UInt64(0x9E37_79B9_7F4A_7C15)) { ($0 ^ UInt64(bitPattern: Int64($1))) &* 0x2545_F491_4F6C_DD1D }
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        var scalars = String.UnicodeScalarView()
        let count = 1 + Int(next() % UInt64(length))
        for _ in 0..<count {
            let group = alphabet[Int(next() % UInt64(alphabet.count))]
            if let s = Unicode.Scalar(group[Int(next() % UInt64(group.count))]) { scalars.append(s) }
        }
        return String(scalars)
    }

    @Test func theRecordersTypeLineReadsBackAsTheSameText() async {
        await propertyCheck(count: PropertyCount.scaled(default: 400), input: Gen.int().array(of: 1...4), Gen.bool) { seeds, commented in
            let typed = Self.text(seeds, length: 40)
            let line = Self.typeLine(typed) + (commented ? " # \"note\u{301}" : "")
            let commands = try? Self.readBack("Size 80x24\n" + line + "\nPress Enter\n")
            #expect(commands?.dropFirst().first == .type(typed), "\(line.debugDescription)")
        }
    }
}
