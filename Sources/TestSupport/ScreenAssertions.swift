import NimbusTerminal

/// Asserts two multi-line strings are equal, reporting the differing lines.
public func assertEqualStrings(_ actual: String, _ expected: String, _ message: String = "",
                               file: StaticString = #filePath, line: UInt = #line) {
    guard actual != expected else { return }
    let a = actual.components(separatedBy: "\n")
    let e = expected.components(separatedBy: "\n")
    var report: [String] = []
    for i in 0..<max(a.count, e.count) {
        let al = i < a.count ? a[i] : "<missing>"
        let el = i < e.count ? e[i] : "<missing>"
        if al != el {
            report.append("line \(i + 1) - \(el)")
            report.append("line \(i + 1) + \(al)")
        }
    }
    let prefix = message.isEmpty ? "" : message + "\n"
    recordFailure("\(prefix)Strings differ (- expected, + actual):\n" + report.joined(separator: "\n"), file: file, line: line)
}

/// Asserts what `terminal` shows; trailing spaces and trailing blank lines are ignored.
public func assertScreen(_ terminal: FakeTerminal, _ expected: String, _ message: String = "",
                         file: StaticString = #filePath, line: UInt = #line) {
    assertEqualStrings(trimmedScreen(terminal.screenText()), trimmedScreen(expected), message, file: file, line: line)
}

/// Asserts the text of a frame; trailing spaces and trailing blank lines are ignored.
public func assertScreen(_ buffer: ScreenBuffer, _ expected: String, _ message: String = "",
                         file: StaticString = #filePath, line: UInt = #line) {
    assertEqualStrings(trimmedScreen(buffer.text()), trimmedScreen(expected), message, file: file, line: line)
}

/// Drops trailing spaces on each line and trailing empty lines.
public func trimmedScreen(_ text: String) -> String {
    var lines = text.components(separatedBy: "\n").map { line -> String in
        var l = Substring(line)
        while l.last == " " { l.removeLast() }
        return String(l)
    }
    while lines.last == "" { lines.removeLast() }
    return lines.joined(separator: "\n")
}
