import Foundation
import Glibc

/// Runs a program in a pseudo-terminal, times its first frame and each keystroke until the screen settles.
enum PTYSession {
    struct Result { let firstFrame: Double; let keyLatencies: [Double]; let peakRSS: Int }

    /// How long the output must stay quiet for the screen to count as settled.
    static let quiet = 0.05

    /// `setup` keys are sent (each settled) before the timed `keys`; `quiet` is how long the output must
    /// stay quiet for the screen to count as settled (longer than a debounce, to time what it delays).
    /// `keyFramesOnly`: a key's time ends at the last write that draws anywhere but the status bar (the
    /// bottom row), so a status message ending or a retry countdown ticking within the quiet window after
    /// a key is not counted as that key's work.
    /// `stdin`: a file the program reads as its standard input (the terminal stays its controlling tty).
    static func run(argv: [String], ready: String, setup: [String] = [], pause: Double = 0, keys: [String],
                    quiet: Double = quiet, cols: Int = 80, rows: Int = 24, keyFramesOnly: Bool = false,
                    stdin: String? = nil) -> Result? {
        var master: Int32 = 0
        var size = winsize(ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: cols), ws_xpixel: 0, ws_ypixel: 0)
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm-256color"
        env["LANG"] = "C.UTF-8"
        env.removeValue(forKey: "NIMBUS_LANG")
        env.removeValue(forKey: "LC_ALL")
        let cArgs = argv.map { strdup($0) } + [nil]
        let cStdin: UnsafeMutablePointer<CChar>? = stdin.flatMap { strdup($0) }
        defer { free(cStdin) }
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }

        let start = NimbusBenchmark.now()
        let pid = forkpty(&master, nil, nil, &size)
        if pid == 0 {
            if let cStdin {
                let fd = open(cStdin, O_RDONLY)
                if fd < 0 { _exit(126) }
                dup2(fd, 0)
                close(fd)
            }
            execve(cArgs[0]!, cArgs, cEnv)
            _exit(127)
        }
        guard pid > 0 else { return nil }
        defer { close(master) }

        var output = [UInt8]()
        guard waitFor(ready, fd: master, output: &output, timeout: 5) else {
            kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0)
            return nil
        }
        let firstFrame = NimbusBenchmark.now() - start
        _ = settle(fd: master, quiet: quiet) // let the first frame finish
        for key in setup {
            _ = key.withCString { write(master, $0, strlen($0)) }
            _ = settle(fd: master, quiet: quiet)
        }
        // `pause`: time for the program's background work after start (reading what arrives meanwhile).
        let resume = NimbusBenchmark.now() + pause
        while NimbusBenchmark.now() < resume { _ = settle(fd: master, quiet: min(quiet, max(0.001, resume - NimbusBenchmark.now()))) }

        var latencies: [Double] = []
        for key in keys {
            let sent = NimbusBenchmark.now()
            _ = key.withCString { write(master, $0, strlen($0)) }
            if let last = settle(fd: master, quiet: quiet, statusRow: keyFramesOnly ? Int(size.ws_row) : nil) {
                latencies.append(max(0, last - sent))
            }
        }
        _ = "\u{03}".withCString { write(master, $0, 1) } // Ctrl-C
        _ = settle(fd: master)
        var status: Int32 = 0
        var usage = rusage()
        if wait4(pid, &status, WNOHANG, &usage) == 0 {
            kill(pid, SIGTERM)
            wait4(pid, &status, 0, &usage)
        }
        return Result(firstFrame: firstFrame, keyLatencies: latencies, peakRSS: usage.ru_maxrss)
    }

    /// Reads until `text` appears in the output (as UTF-8 bytes).
    private static func waitFor(_ text: String, fd: Int32, output: inout [UInt8], timeout: Double) -> Bool {
        let needle = Array(text.utf8)
        let deadline = NimbusBenchmark.now() + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while NimbusBenchmark.now() < deadline {
            guard poll(fd, timeout: deadline - NimbusBenchmark.now()) else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return false }
            output += buffer[0..<n]
            if contains(output, needle) { return true }
        }
        return false
    }

    /// Reads until the output has been quiet for `quiet` seconds; returns when the last byte arrived.
    private static func settle(fd: Int32, quiet: Double = quiet, statusRow: Int? = nil) -> Double? {
        var last: Double?
        var buffer = [UInt8](repeating: 0, count: 65536)
        let hardStop = NimbusBenchmark.now() + 3
        var previousCounted = true
        while NimbusBenchmark.now() < hardStop, poll(fd, timeout: quiet) {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            // A write whose cursor moves all go to the status row is the status bar's own; one with no
            // move continues the write before it.
            let rows = statusRow == nil ? [] : cursorRows(buffer[0..<n])
            let counted = statusRow.map { row in rows.isEmpty ? previousCounted : rows.contains { $0 != row } } ?? true
            previousCounted = counted
            if counted { last = NimbusBenchmark.now() }
        }
        return last
    }

    /// The rows (1-based) of the `ESC [ row ; col H` moves in a write that draw something after them.
    static func cursorRows(_ bytes: ArraySlice<UInt8>) -> [Int] {
        var rows: [Int] = []
        var i = bytes.startIndex
        while i + 1 < bytes.endIndex {
            guard bytes[i] == 0x1B, bytes[i + 1] == 0x5B else { i += 1; continue }
            var j = i + 2, row = 0, digits = 0
            while j < bytes.endIndex, (0x30...0x39).contains(bytes[j]) { row = row * 10 + Int(bytes[j] - 0x30); j += 1; digits += 1 }
            if digits > 0, j < bytes.endIndex, bytes[j] == 0x3B {
                var k = j + 1
                while k < bytes.endIndex, (0x30...0x39).contains(bytes[k]) { k += 1 }
                // A move that ends the write puts the cursor back (in the search field), drawing nothing.
                if k < bytes.endIndex, bytes[k] == 0x48, k + 1 < bytes.endIndex { rows.append(row) }
            }
            i = j
        }
        return rows
    }

    private static func poll(_ fd: Int32, timeout: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&p, 1, Int32(max(0, timeout * 1000))) > 0
    }

    private static func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= hay.count else { return false }
        let from = max(0, hay.count - 65536 - needle.count)
        var i = from
        while i + needle.count <= hay.count {
            if hay[i] == needle[0], Array(hay[i..<(i + needle.count)]) == needle { return true }
            i += 1
        }
        return false
    }
}
