import Foundation
import XCTest

/// The scripts run under `set -o pipefail`. There a reader that stops before its input ends
/// (`head`, `grep -q`, `grep -m`, `awk '… exit'`) can kill the writer with SIGPIPE: the pipe then
/// fails although the reader found what it wanted. In an assignment that ends the script without a
/// word (package-deb.sh did so once, `ldconfig -p | awk '… exit'`); in a condition it answers
/// "not found" (install.sh would have removed a file it had just installed as stale). Readers that
/// read to the end (`sed -n 1p`, `grep … >/dev/null`) can't. `bash -c "…"` strings run without
/// pipefail and are left alone.
final class ScriptPipesTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A pipe (not `||`) into a reader that may stop early.
    private static let earlyReader = try! NSRegularExpression(
        pattern: #"(?<!\|)\|(?!\|)\s*(head\b|grep\s+-[A-Za-z]*[qm]|awk\b.*\bexit\b)"#)

    /// The lines of `script` (1-based) with such a pipe outside `bash -c "…"` strings.
    static func earlyReaders(in script: String) -> [Int] {
        guard script.contains("pipefail") else { return [] }
        func oddQuotes<S: StringProtocol>(_ s: S) -> Bool { s.filter { $0 == "\"" }.count % 2 == 1 }
        var found: [Int] = []
        var inString = false        // inside a `bash -c` string begun on an earlier line
        var awaitingString = false  // the last line ended `bash -c \`: its string starts here
        for (number, line) in script.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("#") { continue }
            if awaitingString {
                awaitingString = false
                inString = oddQuotes(line)
                continue
            }
            if inString {
                inString = !oddQuotes(line)
                continue
            }
            var checked = Substring(line)
            if let shell = line.range(of: "bash -c") {
                checked = line[..<shell.lowerBound]
                let rest = line[shell.upperBound...]
                if rest.trimmingCharacters(in: .whitespaces) == "\\" { awaitingString = true } else { inString = oddQuotes(rest) }
            }
            let text = String(checked)
            if earlyReader.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { found.append(number + 1) }
        }
        return found
    }

    func testTheCheckFindsEarlyReadersAndLeavesTheOthers() {
        let script = """
            set -euo pipefail
            a=$(ldconfig -p | awk '$1 == so && /x86-64|x86_64/ { print; exit }')
            b=$(ls | head -1)
            printf '%s\\n' "$x" | grep -qxF -- "$y" || stale+=(1)
            c=$(ls | sed -n 1p)
            printf '%s\\n' "$x" | grep -xF -- "$y" >/dev/null || true
            [ -f x ] || true
            check "one" bash -c "ls | head -1"
            check "two" bash -c \\
              "ls | grep -q x &&
               ls | head -1"
            d=$(ls | grep -m1 x)
            """
        XCTAssertEqual(Self.earlyReaders(in: script), [2, 3, 4, 12])
        XCTAssertEqual(Self.earlyReaders(in: "a=$(ls | head -1)"), [], "without pipefail a pipe fails by its last command only")
    }

    func testNoScriptPipesIntoAReaderThatStopsEarly() throws {
        let folders = ["scripts", ".ci"]
        var checked = 0
        for folder in folders {
            let url = Self.root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            where name.hasSuffix(".sh") || name == "run" {
                let text = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
                checked += 1
                let lines = Self.earlyReaders(in: text)
                XCTAssertEqual(lines, [], "\(folder)/\(name): lines \(lines) pipe into a reader that may stop early")
            }
        }
        XCTAssertGreaterThan(checked, 5)
    }
}
