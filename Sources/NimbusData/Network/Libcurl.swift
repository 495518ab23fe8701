import CLazyCurl
import Foundation

/// libcurl, which URLSession calls on Linux, loaded on first use rather than at start-up
/// (release builds; see `CLazyCurl.h`).
public enum Libcurl {
    /// Loads libcurl the first time; nil when it is ready, else why it can't be used.
    public static func load() -> String? {
        nimbus_curl_load() == 1 ? nil : String(cString: nimbus_curl_load_error())
    }
}
