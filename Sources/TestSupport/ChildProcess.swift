import Foundation
import Synchronization
import Glibc

/// A program run to its end by a test, with what it printed, how it ended and its peak resident
/// memory as read from its `/proc/PID/status` (`VmHWM`) every two milliseconds while it ran: a
/// lower bound, exact for any peak that lasts longer than that. (wait4's `ru_maxrss` would be the
/// test process's own: the kernel carries the spawning process's high-water mark across exec.)
/// A program that must report its peak exactly prints its own VmHWM before it exits
/// (`warnings-peak`).
public struct ChildProcess: Sendable {
    public let status: Int32
    /// Killed because it ran past the timeout.
    public let timedOut: Bool
    public let stdout: String
    public let stderr: String
    /// The process's peak resident set, in bytes.
    public let peakRSS: Int

    /// Runs `executable` with `arguments` in `environment` (nothing else of the test's but the
    /// sanitizers' options, see `sanitizerOptions`), standard input from /dev/null; kills it after
    /// `timeout` seconds.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                           timeout: TimeInterval = 60) throws -> ChildProcess {
        let environment = environment.merging(sanitizerOptions(ProcessInfo.processInfo.environment)) { own, _ in own }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&err) == 0 else { throw POSIXError(.EMFILE) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in out + err { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(out[1])
        close(err[1])
        guard spawned == 0 else {
            close(out[0])
            close(err[0])
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT)
        }
        let stdout = Drain(out[0]), stderr = Drain(err[0])
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        let deadline = Date().addingTimeInterval(timeout)
        var peak = 0
        while true {
            peak = max(peak, Self.vmHWM(pid))
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if done < 0 && errno != EINTR { break }
            if !timedOut && Date() > deadline {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(2_000)
        }
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ChildProcess(status: code, timedOut: timedOut, stdout: stdout.text(), stderr: stderr.text(), peakRSS: peak)
    }

    /// The options of the sanitizers among `environment` (`ASAN_OPTIONS` and the like). A child
    /// built in a sanitized test build is sanitized too, and without the run's options it would run
    /// with the sanitizer's defaults: LeakSanitizer's check at exit then fails it (status 1, and what
    /// it printed lost, since the check leaves without flushing), and AddressSanitizer's quarantine
    /// of freed memory counts in its peak.
    static func sanitizerOptions(_ environment: [String: String]) -> [String: String] {
        environment.filter { ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key) }
    }

    /// `VmHWM` of process `pid` in bytes; 0 once it has exited.
    static func vmHWM(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kB = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kB * 1024
    }

    /// Reads a pipe to its end on a thread of its own.
    private final class Drain: Sendable {
        private let data = Mutex(Data())
        private let done = DispatchSemaphore(value: 0)

        init(_ fd: Int32) {
            let thread = Thread { [self] in
                let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
                let read = handle.readDataToEndOfFile()
                data.withLock { $0 = read }
                done.signal()
            }
            thread.start()
        }

        func text() -> String {
            done.wait()
            return data.withLock { String(decoding: $0, as: UTF8.self) }
        }
    }
}
