import Foundation
import Glibc

/// Changes a file that others change too (another instance of the app, the user's editor) without
/// losing what they wrote: under an exclusive `flock` on a lock file beside it, the file is read as it
/// is now, changed by the caller, written to a new file beside it (with the old file's mode, else
/// 0600), synced, and renamed over it — unless it changed while the new one was being written (an
/// editor saving in place), when it is read and changed again. A reader never sees half a file.
public struct LockedFileUpdate: Sendable {
    public enum Failure: Error, Equatable {
        /// Another holder kept the lock longer than `lockTimeout`.
        case locked
        /// What is there is not a plain file (a link, fifo… put there since the path was resolved).
        case notAFile
        /// It is, or would become, larger than `maxBytes`.
        case tooLarge
        /// It changed every time it was read.
        case keptChanging
        /// A system call failed: what, and errno's words.
        case io(String)
    }

    /// A plain file, or where one goes: no link in the path.
    public let url: URL
    public let maxBytes: Int
    public var lockTimeout: TimeInterval = 2
    /// Runs after the new file is written and before the old one is checked and replaced; tests put
    /// an editor's write there.
    var beforeReplace: (@Sendable () -> Void)?
    /// Reads (and changes) at most this many times while the file keeps changing.
    static let attempts = 5

    public init(url: URL, maxBytes: Int) {
        self.url = url
        self.maxBytes = maxBytes
    }

    /// `.config.toml.lock` beside `config.toml`: kept, so every writer locks the same file.
    public var lockURL: URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock")
    }

    /// Replaces the file with `change(what it holds now)` (nil: there is no file yet), or removes it
    /// when `change` answers nil. What `change` throws is thrown on, unless the file changed
    /// meanwhile (it is then read and changed again).
    public func update(_ change: (Data?) throws -> Data?) throws {
        let folder = url.deletingLastPathComponent()
        guard SafeFile.makeDirectory(folder) else { throw Failure.io("the folder \(folder.path) can't be made") }
        let lock = open(lockURL.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            let error = errno  // first: making a URL's path may look the path up and set errno again
            throw Failure.io(lockURL.path, errno: error)
        }
        defer { close(lock) }
        let deadline = Date().addingTimeInterval(lockTimeout)
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else { throw Failure.io("lock " + lockURL.path, errno: error) }
            guard Date() < deadline else { throw Failure.locked }
            usleep(5_000)
        }
        for _ in 0..<Self.attempts {
            let current = try read()
            let new: Data
            do {
                guard let changed = try change(current?.data) else {
                    // Removed, under the lock: only a file that holds what `change` was shown.
                    guard current != nil else { return }
                    guard unlink(url.path) == 0 else {
                        let error = errno
                        if error == ENOENT { return }
                        throw Failure.io(url.path, errno: error)
                    }
                    syncFolder(folder)
                    return
                }
                new = changed
            } catch {
                // A file caught half-written may read as broken: read it again a moment later.
                usleep(20_000)
                if try read()?.data == current?.data { throw error }
                continue
            }
            guard new.count <= maxBytes else { throw Failure.tooLarge }
            let temporary = try write(new, mode: current.map { $0.mode & 0o7777 } ?? 0o600)
            beforeReplace?()
            guard try read()?.data == current?.data else {
                unlink(temporary)
                continue
            }
            if current == nil {
                // Never replaces a file that appeared since it was read.
                guard link(temporary, url.path) == 0 else {
                    let error = errno
                    unlink(temporary)
                    if error == EEXIST { continue }
                    throw Failure.io(url.path, errno: error)
                }
                unlink(temporary)
            } else if rename(temporary, url.path) != 0 {
                let error = errno
                unlink(temporary)
                throw Failure.io(url.path, errno: error)
            }
            syncFolder(folder)
            return
        }
        throw Failure.keptChanging
    }

    /// Makes a rename, link or unlink in `folder` durable.
    private func syncFolder(_ folder: URL) {
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    private struct Current {
        var data: Data
        var mode: mode_t
    }

    /// The file's bytes and mode; nil when there is none.
    private func read() throws -> Current? {
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            let error = errno
            if error == ENOENT { return nil }
            if error == ELOOP { throw Failure.notAFile }
            throw Failure.io(url.path, errno: error)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let error = errno
            throw Failure.io(url.path, errno: error)
        }
        guard st.st_mode & S_IFMT == S_IFREG else { throw Failure.notAFile }
        guard Int(st.st_size) <= maxBytes else { throw Failure.tooLarge }
        // One byte past the limit: a file that grew since fstat is refused too.
        var data = Data(count: maxBytes + 1)
        var filled = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            while filled < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                if n == 0 { break }
                filled += n
            }
        }
        guard failure == 0 else { throw Failure.io(url.path, errno: failure) }
        guard filled <= maxBytes else { throw Failure.tooLarge }
        data.count = filled
        return Current(data: data, mode: st.st_mode)
    }

    /// A new file beside the target holding `data`, synced to disk; its path.
    private func write(_ data: Data, mode: mode_t) throws -> String {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure.io(temporary, errno: errno) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        var failure: Int32 = 0
        if !written { failure = errno } else if fchmod(fd, mode) != 0 { failure = errno } else if fsync(fd) != 0 { failure = errno }
        close(fd)
        guard failure == 0 else {
            unlink(temporary)
            throw Failure.io(temporary, errno: failure)
        }
        return temporary
    }
}

extension LockedFileUpdate.Failure {
    /// "path: errno's words".
    static func io(_ path: String, errno error: Int32) -> Self { .io("\(path): \(String(cString: strerror(error)))") }
}
