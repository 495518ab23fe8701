import CLazyCurl
import Foundation

/// libcurl, which URLSession calls on Linux, loaded on first use rather than at start-up
/// (release builds; see `CLazyCurl.h`).
public enum Libcurl {
    /// Loads libcurl the first time; nil when it is ready, else why it can't be used.
    public static func load() -> String? {
        nimbus_curl_load() == 1 ? nil : String(cString: nimbus_curl_load_error())
    }

    /// Why the app went without the network, once the live client found libcurl unusable; nil
    /// while it is fine or hasn't been tried. Said on the way out, after the terminal is restored.
    public static var unavailableReason: String? {
        lock.lock()
        defer { lock.unlock() }
        return reason
    }

    static func recordUnavailable(_ why: String) {
        lock.lock()
        reason = why
        lock.unlock()
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var reason: String?
}
