import Foundation
import Glibc

/// Where a file the user keeps by hand (the config file) really is. Links the user made to the file
/// or to its folder, as stow, chezmoi and home-manager make them, are followed to their target, which
/// is read and replaced there; a link at either place owned by another user is not followed, and
/// what is at the end must be a plain file (or nothing yet), never a directory, fifo, socket or device.
public enum UserFileLocation: Equatable, Sendable {
    /// A plain file, at this path with no link in it.
    case file(URL)
    /// Nothing there yet: a new file goes at this path (its folders may be missing too).
    case missing(URL)
    /// Something other than a plain file at the end: "directory", "fifo", "socket", "device".
    case notAFile(URL, kind: String)
    /// A part of the path that should be a folder is not ("/home/a/x", "file").
    case notAFolder(path: String, kind: String)
    /// A link at the file or its folder that belongs to another user.
    case foreignLink(path: String)
    /// The path can't be followed (too many links, no permission): why.
    case unresolvable(String)

    /// Links are followed at most this many times along a path that is not there yet.
    static let maximumLinks = 40

    public static func resolve(_ url: URL, owner: uid_t = geteuid()) -> UserFileLocation {
        for path in [url.path, url.deletingLastPathComponent().path] {
            var st = stat()
            if lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK, st.st_uid != owner, st.st_uid != 0 {
                return .foreignLink(path: path)
            }
        }
        var links = 0
        let target: String
        switch real(url.path, links: &links) {
        case .path(let path): target = path
        case .stop(let location): return location
        }
        var st = stat()
        guard lstat(target, &st) == 0 else {
            return errno == ENOENT ? .missing(URL(fileURLWithPath: target)) : .unresolvable(Self.reason(errno))
        }
        let url = URL(fileURLWithPath: target)
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file(url)
        case S_IFLNK: return .unresolvable("it changed while it was looked at")
        default: return .notAFile(url, kind: kind(st.st_mode))
        }
    }

    /// "directory", "fifo", "socket", "device" for a mode's file type.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "file"
        case S_IFDIR: return "directory"
        case S_IFIFO: return "fifo"
        case S_IFSOCK: return "socket"
        case S_IFCHR, S_IFBLK: return "device"
        case S_IFLNK: return "symbolic link"
        default: return "special file"
        }
    }

    static func reason(_ error: Int32) -> String { String(cString: strerror(error)) }

    /// `path` with every link followed: `realpath` where the whole path is there, else its folder's
    /// real path and the name (a link there that leads nowhere yet followed to where it leads).
    private enum Followed {
        case path(String)
        case stop(UserFileLocation)
    }

    private static func real(_ path: String, links: inout Int) -> Followed {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return .path(String(cString: resolved))
        }
        let error = errno
        switch error {
        case ENOENT:
            let parent = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            guard !parent.isEmpty, parent != path else { return .stop(.unresolvable(reason(error))) }
            let folder: String
            switch real(parent, links: &links) {
            case .path(let resolved): folder = resolved
            case .stop(let location): return .stop(location)
            }
            let joined = folder == "/" ? "/" + name : folder + "/" + name
            var st = stat()
            guard lstat(joined, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return .path(joined) }
            links += 1
            guard links <= maximumLinks, let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: joined) else {
                return .stop(.unresolvable(reason(ELOOP)))
            }
            return real(destination.hasPrefix("/") ? destination : folder + "/" + destination, links: &links)
        case ENOTDIR:
            var prefix = ""
            for component in path.split(separator: "/").dropLast() {
                prefix += "/" + component
                var st = stat()
                if stat(prefix, &st) == 0, st.st_mode & S_IFMT != S_IFDIR {
                    return .stop(.notAFolder(path: prefix, kind: kind(st.st_mode)))
                }
            }
            return .stop(.unresolvable(reason(error)))
        default:
            return .stop(.unresolvable(reason(error)))
        }
    }
}
