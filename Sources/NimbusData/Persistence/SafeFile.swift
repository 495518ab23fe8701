import Foundation
import Glibc

/// Reads and writes the app's own files (the user database, the weather and TMDB caches) without
/// following symbolic links: whatever sits at a path the app writes is hostile until `lstat` says it
/// is a plain file, so a link, a fifo or a directory there is never followed, read, chmod'ed or
/// overwritten through.
public enum SafeFile {
    /// What is at a path, without following a symbolic link there.
    public enum Kind: Equatable, Sendable {
        case missing
        case regular
        case directory
        /// A symbolic link, fifo, socket or device: nothing the app ever creates.
        case other(String)

        /// What it is, for messages ("a directory", "a symbolic link").
        public var name: String {
            switch self {
            case .missing: return "nothing"
            case .regular: return "file"
            case .directory: return "directory"
            case .other(let name): return name
            }
        }
    }

    public static func kind(atPath path: String) -> Kind {
        var st = stat()
        guard lstat(path, &st) == 0 else { return errno == ENOENT ? .missing : .other("unreadable") }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .other("symbolic link")
        case S_IFIFO: return .other("fifo")
        case S_IFSOCK: return .other("socket")
        case S_IFCHR, S_IFBLK: return .other("device")
        default: return .other("unknown file type")
        }
    }

    /// The bytes of the plain file at `url`; nil when it is missing, not a plain file (a link is not
    /// followed, a fifo is not waited on), larger than `maxBytes`, or unreadable.
    public static func read(_ url: URL, maxBytes: Int) -> Data? {
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size >= 0, Int(st.st_size) <= maxBytes else {
            return nil
        }
        // Read at most one byte past the limit: a file that grew since fstat is refused too.
        var data = Data(count: Int(st.st_size) + 1)
        var filled = 0
        let ok = data.withUnsafeMutableBytes { buffer -> Bool in
            while filled < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 { if errno == EINTR { continue }; return false }
                if n == 0 { break }
                filled += n
            }
            return true
        }
        guard ok, filled <= maxBytes else { return nil }
        data.count = filled
        return data
    }

    /// Replaces the file at `url` with `data` atomically: a new file (never an existing one, never
    /// through a link) in the same directory with `mode`, then rename(2), which replaces whatever name
    /// was there without following it. The directory is created (0700) when missing and must be a real
    /// directory. Returns whether the data was written.
    @discardableResult
    public static func write(_ data: Data, to url: URL, mode: mode_t = 0o600) -> Bool {
        let directory = url.deletingLastPathComponent()
        guard makeDirectory(directory) else { return false }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        close(fd)
        guard written, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Creates an empty file at `url` with `mode` only if nothing is there (O_EXCL: never replaces
    /// a file another process just created, never follows a link). Returns errno on failure.
    public static func createNew(_ url: URL, mode: mode_t = 0o600) -> Int32? {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { return errno }
        close(fd)
        return nil
    }

    /// Creates `url` (and its parents) with mode 0700 when missing; true when it then is a real
    /// directory, not a link to one.
    @discardableResult
    public static func makeDirectory(_ url: URL) -> Bool {
        if kind(atPath: url.path) == .missing {
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        return kind(atPath: url.path) == .directory
    }

    /// A name beside `url` that nothing has yet: `nimbus.sqlite.corrupt-20260621T090000Z`, then `…-2`.
    public static func asideURL(for url: URL, label: String, now: Date = Date()) -> URL {
        let stamp = ISO8601DateFormatter().string(from: now).replacingOccurrences(of: ":", with: "")
        var candidate = URL(fileURLWithPath: url.path + ".\(label)-\(stamp)")
        var n = 1
        while kind(atPath: candidate.path) != .missing {
            n += 1
            candidate = URL(fileURLWithPath: url.path + ".\(label)-\(stamp)-\(n)")
        }
        return candidate
    }
}
