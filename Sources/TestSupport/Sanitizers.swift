import Glibc

/// Which sanitizer the tests were built with (`swift test --sanitize=…`, see scripts/sanitize.sh),
/// found by looking for its runtime among the process's symbols.
public enum Sanitizers {
    /// Built with AddressSanitizer. Its checks slow the code two to three times, and what it keeps
    /// counts in the resident memory: the shadow of every byte touched (an eighth more), red zones
    /// around each allocation, and 256 MB of freed memory held back to catch a use after it is freed.
    /// A bound of time or memory measured by a test is therefore not the app's under it: such a test
    /// still runs, for what AddressSanitizer checks, but its bound is asserted only when this is false.
    public static let address = dlsym(nil, "__asan_init") != nil
}
