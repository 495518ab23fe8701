import Foundation
import Glibc

/// A file the user names for a command to write (`tape --cast`, `--junit`, `--svg`, `wishlist
/// export FILE`), written by one rule, as `cp`, `curl -o` and `tar -f` users expect:
///
/// - a regular file, or a path where nothing is yet, is written atomically beside it (a new file in
///   the same folder, synced, then renamed over it): a reader never sees half of it, and a link the
///   user made is followed to its target, which is replaced there keeping its mode;
/// - a character device or a fifo (`/dev/null`, `/dev/stdout`, a pipe from `mkfifo`), and `-` for
///   standard output, is written in place: never replaced by a file;
/// - anything else (a folder, a socket, a block device, a path through something that is not a
///   folder) is refused with one line saying what is there.
///
/// Every failure to write says why (`/dev/full`: "no space left on device").
public enum OutputFile {
    /// Why an output can't be written: one line, for the command to print with status 1.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Where the bytes for a path go.
    public enum Target: Equatable, Sendable {
        /// `-`.
        case standardOutput
        /// A character device or a fifo, opened and written as it is (the path as given).
        case inPlace(String)
        /// A regular file, or a new one, at this path (every link followed): replaced atomically.
        case replace(URL)
    }

    /// What `path` names as an output, or why it can't be one. Checked before a command does its
    /// work, so a path that will be refused is refused before the work is done.
    public static func target(_ path: String) throws -> Target {
        if path == "-" { return .standardOutput }
        guard !path.isEmpty else { throw Failure(message: "an empty path is not a file") }
        var st = stat()
        if stat(path, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFCHR, S_IFIFO: return .inPlace(path)
            case S_IFREG: break
            default: throw Failure(message: "\(shown(path)) is a \(kind(st.st_mode)), not a file")
            }
        } else if errno != ENOENT {
            throw Failure(message: "\(shown(path)): \(UserFileLocation.reason(errno).lowercased())")
        }
        switch UserFileLocation.resolve(URL(fileURLWithPath: path)) {
        case .file(let url):
            return .replace(url)
        case .missing(let url):
            let folder = url.deletingLastPathComponent()
            guard SafeFile.kind(atPath: folder.path) == .directory || isDirectory(folder.path) else {
                throw Failure(message: "the folder of \(shown(path)) does not exist")
            }
            return .replace(url)
        case .notAFile(_, let kind):
            // Changed since it was looked at: a fifo or device now is fine, the rest is not.
            if kind == "fifo" || kind == "device" { return try target(path) }
            throw Failure(message: "\(shown(path)) is a \(kind == "directory" ? "folder" : kind), not a file")
        case .notAFolder(let part, let kind):
            throw Failure(message: "\(shown(part)) is a \(kind), not a folder")
        case .foreignLink(let link):
            throw Failure(message: "\(shown(link)) is a link that belongs to another user")
        case .unresolvable(let reason):
            throw Failure(message: "\(shown(path)): \(reason.lowercased())")
        }
    }

    /// Writes `data` to `path` by the rule above; throws a `Failure` saying why it could not.
    public static func write(_ data: Data, to path: String) throws {
        try write(data, to: target(path), named: path)
    }

    /// Writes `data` to a `target` found before; `path` is the name the user gave, for messages.
    public static func write(_ data: Data, to target: Target, named path: String) throws {
        switch target {
        case .standardOutput:
            try writeAll(data, to: STDOUT_FILENO, named: "standard output")
        case .inPlace(let device):
            let fd = open(device, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw failure(path, errno) }
            var st = stat()
            guard fstat(fd, &st) == 0, [S_IFCHR, S_IFIFO].contains(st.st_mode & S_IFMT) else {
                close(fd)
                throw Failure(message: "\(shown(path)) changed while it was written (not a device or fifo any more)")
            }
            do {
                try writeAll(data, to: fd, named: path)
            } catch {
                close(fd)
                throw error
            }
            guard close(fd) == 0 || errno == EINTR else { throw failure(path, errno) }
        case .replace(let url):
            try replace(url, with: data, named: path)
        }
    }

    /// Writes `data` as a new file at `path` only when nothing is there (link(2) of a finished file,
    /// which never replaces): for a file the user did not ask to overwrite (`tape --record`).
    public static func create(_ data: Data, at path: String, mode: mode_t = 0o644) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = try finished(data, beside: url, mode: mode, named: path)
        defer { unlink(temporary) }
        guard link(temporary, url.path) == 0 else {
            let code = errno
            throw code == EEXIST ? Failure(message: "\(shown(path)) exists (--force overwrites it)") : failure(path, code)
        }
    }

    // MARK: - Atomic replacement

    private static func replace(_ url: URL, with data: Data, named path: String) throws {
        var st = stat()
        // An existing file keeps its mode; a new one gets the usual 0666 less the umask.
        let existing = lstat(url.path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG ? st.st_mode & 0o7777 : nil
        let temporary = try finished(data, beside: url, mode: existing ?? 0o666, keepMode: existing != nil, named: path)
        // What is there now must still be a file (or nothing): a folder or fifo put there meanwhile is
        // not replaced.
        if lstat(url.path, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
            unlink(temporary)
            throw Failure(message: "\(shown(path)) changed while it was written (not a file any more)")
        }
        guard rename(temporary, url.path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code)
        }
    }

    /// A new file beside `url` holding `data`, synced and closed: its path.
    private static func finished(_ data: Data, beside url: URL, mode: mode_t, keepMode: Bool = false, named path: String) throws -> String {
        let folder = url.deletingLastPathComponent().path
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<8 {
            temporary = folder + "/.\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure(path, errno) }
        do {
            // The umask is for new files; a replaced one keeps exactly the mode it had.
            if keepMode { _ = fchmod(fd, mode) }
            try writeAll(data, to: fd, named: path)
            guard fsync(fd) == 0 || errno == EINVAL else { throw failure(path, errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code)
        }
        return temporary
    }

    // MARK: - Writing

    private static func writeAll(_ data: Data, to fd: Int32, named path: String) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure(path, errno)
                }
                offset += n
            }
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> Failure {
        Failure(message: "could not write \(shown(path)): \(UserFileLocation.reason(code).lowercased())")
    }

    /// "folder", "socket", "device"… for a mode's file type.
    public static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "folder"
        case S_IFBLK: return "block device"
        default: return UserFileLocation.kind(mode)
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    /// A path on one line, control characters shown as `?`.
    static func shown(_ path: String) -> String {
        String(String.UnicodeScalarView(path.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
    }
}

extension OutputFile {
    /// Whether `target` is this process's standard output (`-`, `/dev/stdout`, or the same file by
    /// another name), where a command's own messages then must not go.
    public static func isStandardOutput(_ target: Target) -> Bool {
        let path: String
        switch target {
        case .standardOutput: return true
        case .inPlace(let device): path = device
        case .replace(let url): path = url.path
        }
        var a = stat(), b = stat()
        return stat(path, &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}
