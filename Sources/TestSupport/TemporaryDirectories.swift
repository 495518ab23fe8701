import Foundation
import Synchronization

/// Directories a test makes and does not keep: each is removed when this goes, which for a Swift Testing
/// suite that holds one is when the test ends (the suite is made afresh for every test).
public final class TemporaryDirectories: Sendable {
    private let made = Mutex<[URL]>([])

    public init() {}

    deinit {
        for url in made.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }

    /// A new empty directory under the system's temporary one, named `prefix-<UUID>`.
    public func make(_ prefix: String) throws -> URL {
        let url = name(prefix)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A name for a directory not yet made (the code under test makes it), removed with the others.
    public func name(_ prefix: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        made.withLock { $0.append(url) }
        return url
    }

    /// Removes `url` with the others: a directory the code under test chose.
    public func remove(_ url: URL) {
        made.withLock { $0.append(url) }
    }

    /// `environment` with HOME and the XDG directories in a fresh temporary directory, so no test reads
    /// or writes the user's own data.
    public func isolated(_ environment: [String: String]) -> [String: String] {
        let home = name("nimbus-app")
        var env = environment
        env["HOME"] = home.path
        env["XDG_DATA_HOME"] = env["XDG_DATA_HOME"] ?? home.appendingPathComponent("data").path
        env["XDG_CACHE_HOME"] = env["XDG_CACHE_HOME"] ?? home.appendingPathComponent("cache").path
        return env
    }
}
