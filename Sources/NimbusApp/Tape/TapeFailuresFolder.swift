import Foundation
import Glibc
import NimbusData

/// Where `nimbus tape` saves a failing tape's screen and recording when `--failures` is not given:
/// a folder only the user can enter. `$XDG_RUNTIME_DIR/nimbus-tape-failures` when the runtime
/// folder is the user's own and private (the base-directory specification's promise), else a new
/// folder made by mkdtemp(3) in `$TMPDIR`: never a fixed name in a shared folder, which another
/// user could have made first, or made a link to a folder of the user's.
enum TapeFailuresFolder {
    /// The folder, made (0700); nil when neither could be made (the run then says it saved nothing).
    static func make(environment: [String: String]) -> URL? {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), isPrivateFolder(runtime) {
            let folder = URL(fileURLWithPath: runtime).appendingPathComponent("nimbus-tape-failures")
            if SafeFile.makeDirectory(folder), isPrivateFolder(folder.path) { return folder }
        }
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-tape-failures-XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return URL(fileURLWithPath: String(cString: made))
    }

    /// A folder the run made and left empty (every tape passed) goes again.
    static func removeIfEmpty(_ folder: URL) {
        guard folder.lastPathComponent.hasPrefix("nimbus-tape-failures-") else { return }
        rmdir(folder.path)
    }

    /// A real folder (not a link), owned by this user, that no one else may enter or list.
    static func isPrivateFolder(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR && st.st_uid == geteuid() && st.st_mode & 0o077 == 0
    }
}
