import CNCursesw
#if canImport(Glibc)
import Glibc
#endif

/// Restores the terminal if the process dies of a fatal signal (a Swift runtime trap, a crash),
/// so a crash never leaves the user's shell in raw mode.
public enum CrashGuard {
    private static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Saves the terminal modes (call before curses takes the terminal) and installs the handlers.
    public static func install() {
        if !savedModesValid, tcgetattr(STDIN_FILENO, &savedModes) == 0 { savedModesValid = true }
        for sig in fatalSignals { signal(sig, crashHandler) }
    }

    /// Back to the default actions (while suspended).
    public static func uninstall() {
        for sig in fatalSignals { signal(sig, SIG_DFL) }
    }
}

// Plain globals with trivial initial values: no lazy initialisation runs inside the handler.
nonisolated(unsafe) private var savedModes = termios()
nonisolated(unsafe) private var savedModesValid = false

/// Only async-signal-safe calls: tcsetattr, write, signal, raise.
private let crashHandler: @convention(c) (Int32) -> Void = { sig in
    if savedModesValid { tcsetattr(STDIN_FILENO, TCSANOW, &savedModes) }
    nimbus_write_terminal_reset()
    signal(sig, SIG_DFL)
    raise(sig)
}
