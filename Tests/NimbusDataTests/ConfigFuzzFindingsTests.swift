import XCTest
import NimbusDomain
@testable import NimbusData

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
}
