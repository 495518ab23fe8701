import CNCursesw
import Glibc

/// Restores the terminal if the process dies of a signal (a Swift runtime trap, a crash, a `kill`
/// of any signal whose default action ends the process), so nothing leaves the user's shell in raw
/// mode; the process then dies of the same signal, so its exit status says which.
///
/// SIGINT, SIGTERM and SIGHUP are not here: `LiveRunner` takes them on the main queue, restores the
/// terminal there, and then dies of them (`die(of:)`). SIGPIPE is ignored: every write to the
/// terminal handles EPIPE, and a closed terminal ends the app through its read of stdin.
public enum CrashGuard {
    /// Faults: after the handler, the faulting instruction runs again with the default action.
    static let faultSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]
    /// Every other signal whose default action is to end the process.
    static let terminatingSignals: [Int32] = [
        SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSYS, SIGPOLL,
        SIGSTKFLT, SIGPWR,
    ] + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())

    /// What the handler knows about an address a SIGBUS came from: the path of the mapped file there
    /// (which must have been truncated), or nil. Called inside the handler: async-signal-safe only.
    public typealias AddressDescriber = @convention(c) (UnsafeRawPointer?) -> UnsafePointer<CChar>?

    /// Saves the terminal modes (call before curses takes the terminal) and installs the handlers.
    public static func install(describingAddress describer: AddressDescriber? = nil) {
        if !savedModesValid, tcgetattr(STDIN_FILENO, &savedModes) == 0 { savedModesValid = true }
        if let describer { addressDescriber = describer }
        for sig in faultSignals + terminatingSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = signalHandler
            action.sa_flags = SA_SIGINFO
            sigemptyset(&action.sa_mask)
            sigaction(sig, &action, nil)
        }
        signal(SIGPIPE, SIG_IGN)
    }

    /// Ends the process by `signal`'s default action, so that its parent sees it killed by that signal
    /// (as a shell's `$?` of 128 + n and `WIFSIGNALED` say), not exit: for a signal the app took to
    /// restore the terminal first.
    public static func die(of signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        // The signal may be blocked on this thread (dispatch reads it from a signalfd).
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        // Not reached unless the signal's default action does not end a process.
        _exit(128 + signal)
    }

    /// Back to the default actions (while suspended).
    public static func uninstall() {
        for sig in faultSignals + terminatingSignals { signal(sig, SIG_DFL) }
    }
}

// Plain globals with trivial initial values: no lazy initialisation runs inside the handler.
nonisolated(unsafe) private var savedModes = termios()
nonisolated(unsafe) private var savedModesValid = false
nonisolated(unsafe) private var addressDescriber: CrashGuard.AddressDescriber?

/// Only async-signal-safe calls: tcsetattr, write, signal, raise (and the describer, which must be).
private let signalHandler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { sig, info, _ in
    if savedModesValid { tcsetattr(STDIN_FILENO, TCSANOW, &savedModes) }
    nimbus_write_terminal_reset()
    if sig == SIGBUS, let info, let describe = addressDescriber,
       let path = describe(UnsafeRawPointer(info.pointee._sifields._sigfault.si_addr)) {
        writeToStandardError("nimbus: " as StaticString)
        _ = write(STDERR_FILENO, path, strlen(path))
        writeToStandardError(" changed while nimbus was using it (truncated or replaced); start nimbus again\n")
    }
    signal(sig, SIG_DFL)
    // Blocked while the handler runs: delivered, with the default action, as it returns.
    raise(sig)
}

/// A static string needs no allocation, unlike a `String` passed as a C string.
private func writeToStandardError(_ text: StaticString) {
    _ = write(STDERR_FILENO, text.utf8Start, text.utf8CodeUnitCount)
}
