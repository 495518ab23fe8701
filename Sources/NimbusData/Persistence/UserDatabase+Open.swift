import Foundation
import Glibc

extension UserDatabase {
    /// The user database in `$XDG_DATA_HOME/nimbus`; when that can't be opened at all (an unwritable
    /// directory), an in-memory one so the app still runs, whose status says where and why
    /// (`UserDataNotice` puts it in words).
    public static func openOrKeepInMemory(environment: [String: String], migrations: [Migration]) -> UserDatabase {
        let directory = defaultDirectory(environment: environment)
        do {
            return try UserDatabase(directory: directory, migrations: migrations)
        } catch {
            // Keep working, in memory, and say so: an in-memory SQLite database with a fixed schema cannot fail to open.
            return try! UserDatabase(inMemory: migrations,
                                     unavailable: (abbreviatingHome(directory.path, environment),
                                                   reason(error, directory: directory)))
        }
    }

    /// A short reason why `directory` can't hold the database, in the system's own words where it has
    /// them ("Not a directory", "Permission denied"); Foundation's errors on Linux carry no errno.
    static func reason(_ error: Error, directory: URL) -> String {
        let fm = FileManager.default
        var path = directory.path
        while !path.isEmpty, path != "/", !fm.fileExists(atPath: path) { path = (path as NSString).deletingLastPathComponent }
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { return String(cString: strerror(ENOTDIR)) }
            if !fm.isWritableFile(atPath: path) { return String(cString: strerror(EACCES)) }
        }
        return (error as NSError).localizedDescription
    }

    /// `path` with the home directory written as `~`.
    static func abbreviatingHome(_ path: String, _ environment: [String: String]) -> String {
        guard let home = environment["HOME"], !home.isEmpty, home != "/", path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }
}
