import Foundation
import XCTest

extension XCTestCase {
    /// `environment` with HOME and the XDG directories in a fresh temporary directory, removed after the test,
    /// so no test reads or writes the user's own data.
    func isolated(_ environment: [String: String]) -> [String: String] {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-app-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        var env = environment
        env["HOME"] = home.path
        env["XDG_DATA_HOME"] = env["XDG_DATA_HOME"] ?? home.appendingPathComponent("data").path
        env["XDG_CACHE_HOME"] = env["XDG_CACHE_HOME"] ?? home.appendingPathComponent("cache").path
        return env
    }
}
