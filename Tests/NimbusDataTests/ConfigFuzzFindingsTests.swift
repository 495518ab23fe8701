import XCTest
import NimbusDomain
@testable import NimbusData
import TestSupport

/// config.toml inputs the fuzzer (scripts/fuzz.sh config) found, kept as they were found.
final class ConfigFuzzFindingsTests: XCTestCase {
    /// A control character where a table's name starts stopped the program: TOMLKit's parser
    /// asserts on it (`parse_key`). Now it is a problem on its line, and nothing is written.
    func testAControlCharacterInATableHeaderIsAProblemNotACrash() {
        let found = "[\u{5}meay}# top\nun"
        let loaded = ConfigFile.parse(found)
        XCTAssertEqual(loaded.problems.map(\.line), [1])
        XCTAssertEqual(loaded.problems.first?.reason, .notTOML(.other))
        XCTAssertFalse(loaded.writable)
    }

    /// Every control character TOML never allows, in a key, a table name, a value and a comment, on
    /// line 2: a problem on that line; a tab and CRLF line breaks stay allowed.
    func testEveryDisallowedControlCharacterIsAProblemOnItsLine() {
        let disallowed = Array(0x01...0x08) + [0x0B, 0x0C] + Array(0x0E...0x1F) + [0x7F]
        for v in disallowed {
            let c = String(Unicode.Scalar(UInt8(v)))
            for text in ["units = \"metric\"\n[\(c)x]\n", "units = \"metric\"\nk\(c) = 1\n",
                         "units = \"metric\"\nk = \"\(c)\"\n", "units = \"metric\"\n# \(c)\n"] {
                let loaded = ConfigFile.parse(text)
                XCTAssertEqual(loaded.problems.first?.line, 2, "U+\(String(v, radix: 16)) in \(text.debugDescription)")
                XCTAssertEqual(loaded.problems.first?.reason, .notTOML(.other))
            }
        }
        XCTAssertEqual(ConfigFile.parse("units = \"metric\"\t# a tab\r\ntheme = \"dark\"\r\n").problems, [])
    }

    /// A `[` with no table name after it on its line stopped the program the same way (found:
    /// `"[\nO\u{FFFD}meOpt \" }…"`). A user's half-written header; now a problem on its line.
    func testATableHeaderWithNoNameIsAProblemNotACrash() {
        for text in ["[\nO\u{FFFD}meOpt \" }\u{FFFD}2\n", "units = \"metric\"\n[\n", "units = 1\n  [[  \r\nx = 1\n", "[\t", "[\u{507}m}", "[ é]\n"] {
            let loaded = ConfigFile.parse(text)
            XCTAssertEqual(loaded.problems.first?.reason, .notTOML(.other), text.debugDescription)
            XCTAssertFalse(loaded.writable)
        }
        for ok in ["units = \"metric\"\n[table]\nx = 2\n", "[ \"é\" ]\nx = 1\n", "[[a-b]]\n", "['q']\n", "[_x]\n", "[9]\n"] {
            XCTAssertEqual(ConfigFile.parse(ok).problems, [], ok.debugDescription)
        }
    }

    /// An array whose next value starts with a "}" or a line separator stopped the program: toml++
    /// asserts that no value starts with what ends one (`parse_value`). Found: `arr = [1,` then a
    /// line ` }`, a typo a user makes. Every such place, in arrays nested in arrays and inline
    /// tables, after comments and line breaks, is now a problem on its line; what is TOML still reads.
    func testAnArrayWithNoValueAfterItsBracketOrCommaIsAProblemNotACrash() {
        let found = "123# top\nunits = \"metric\" # kept\n\"quoted key\" = 'x'\narr = [1,\n }\nml = \"\"\"\nline\n\"\"\"\n[section]\nx = 1\n"
        XCTAssertEqual(ConfigFile.parse(found).problems.first?.reason, .notTOML(.other))
        let cases: [(String, Int)] = [
            ("a = [1, }", 1), ("a = [}", 1), ("a = [ }", 1), ("x = 1\na = [1,\n}", 3), ("a = [\n# c\n}", 3),
            ("a = {b = [}}", 1), ("a = [[}]]", 1), ("a = [{}, }", 1), ("a = [\u{2028}1]", 1), ("a = [\u{2029}1]", 1),
            ("a = [\u{85}1]", 1), ("a = {b = [1,\u{2028}]}", 1), ("units = \"metric\"\narr = [1,\n }\n", 3),
        ]
        for (text, line) in cases {
            let loaded = ConfigFile.parse(text)
            XCTAssertEqual(loaded.problems.map(\.line), [line], text.debugDescription)
            XCTAssertEqual(loaded.problems.first?.reason, .notTOML(.other), text.debugDescription)
            XCTAssertFalse(loaded.writable)
        }
        // TOML with the same characters in strings, comments and tables reads as before.
        let fine = "units = \"metric\" # [1, }\ntheme = \"} [\\\" ,}\"\nname = '[}'\nml = \"\"\"\n[1, }\n\"\"\"\n"
            + "[t]\narr = [ [1, 2], [], { a = \"}\" }, # c }\n  3, ]\nsep = \"\u{2028}\"\n"
            // An array's "[" at the start of a line is not a table header.
            + "nested = [\n  [ # opens\n  '''\n[t]\n''', 1 ],\n]\n"
        XCTAssertNil(ConfigFile.firstParserTrap(in: fine), fine)
        XCTAssertEqual(ConfigFile.parse(fine).problems.filter { if case .notTOML = $0.reason { return true }; return false }, [])
    }

    /// Random documents of the tokens arrays and inline tables are made of, with strings, comments
    /// and line separators between: reading one never stops the program (this test would not finish).
    func testRandomArraysAndTablesNeverStopTheParser() {
        let tokens = ["[", "]", "{", "}", ",", " = ", "a", "1", "\"s}\"", "'[,'", " ", "\n", "#c }\n", "\u{2028}", "\u{85}",
                      "\u{2029}", "\t", "\"\"\"\n}\"\"\"", "x.y", "[t]\n"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<PropertyCount.scaled(default: 3000) {
            let count = Int.random(in: 1...24, using: &rng)
            let text = "k = " + (0..<count).map { _ in tokens.randomElement(using: &rng)! }.joined()
            _ = ConfigFile.parse(text)
        }
    }
}
