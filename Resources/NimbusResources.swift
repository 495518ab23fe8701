import Foundation

/// Files bundled with the app (see `SOURCES.md` for where they come from).
public enum NimbusResources {
    /// The URL of a bundled resource, or nil when it is not in the bundle.
    public static func url(forResource name: String, withExtension ext: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: ext)
    }
}
