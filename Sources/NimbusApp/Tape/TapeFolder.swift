import Foundation
import Glibc
import NimbusData
import NimbusTerminal

/// The folder a tape runs in, and the only files it may read or write: `Serve` bodies, `Config`
/// files, `Args --catalog`, `Source`d tapes, and its snapshots in `__snapshots__`. Each is a plain
/// file inside the folder once links and `..` are resolved; a snapshot is a plain file that is not a
/// link, in a `__snapshots__` that is a real folder, not a link to one.
struct TapeFolder: Sendable {
    let url: URL
    /// Where `Snapshot NAME` files are: `__snapshots__` in the folder, unless a runner was given another.
    let snapshots: URL

    /// Fixtures are at most this large.
    static let maxFixtureBytes = 16 << 20
    /// Snapshot files are screens: a few kilobytes each.
    static let maxSnapshotBytes = 4 << 20

    /// `file`, relative to the folder, with links and `..` resolved; it must lie inside the folder.
    /// `command` names the line in the message (`Serve`, `Config`, `Source`).
    func inside(_ file: String, command: String) throws -> URL {
        let target = url.appendingPathComponent(file)
        guard let folder = Self.realPath(url.path), let resolved = Self.realPath(target.path) else {
            throw Reason("\(command) \(file): no such file \(target.path)")
        }
        guard resolved.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
            throw Reason("\(command) \(file): the file must be inside the tape's folder \(folder)")
        }
        return URL(fileURLWithPath: resolved)
    }

    /// The bytes of `file` for `command`: a plain file inside the folder of at most `maxBytes`.
    func read(_ file: String, command: String, maxBytes: Int = maxFixtureBytes) throws -> Data {
        let resolved = try inside(file, command: command)
        guard let body = SafeFile.read(resolved, maxBytes: maxBytes) else {
            throw Reason("\(command) \(file): not a readable file of at most \(maxBytes >> 20) MB")
        }
        return body
    }

    /// The path with every link and `..` resolved (realpath(3)); nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// Snapshot files as `TextSnapshots` reads and writes them, held to the folder's rules.
    var snapshotStorage: TextSnapshots.Storage {
        let folder = url.path
        let directory = snapshots
        return TextSnapshots.Storage(
            read: { file in
                guard try Self.checkedDirectory(directory, folder: folder, creating: false) else { return nil }
                switch SafeFile.kind(atPath: file.path) {
                case .missing: return nil
                case .regular:
                    guard let data = SafeFile.read(file, maxBytes: Self.maxSnapshotBytes) else {
                        throw Refused(description: "snapshot \(file.lastPathComponent): not a readable file of at most 4 MB")
                    }
                    return String(decoding: data, as: UTF8.self)
                case let kind:
                    throw Refused(description: "snapshot \(file.lastPathComponent) is a \(kind.name): snapshots are plain files, never links")
                }
            },
            write: { text, file in
                _ = try Self.checkedDirectory(directory, folder: folder, creating: true)
                let kind = SafeFile.kind(atPath: file.path)
                guard kind == .missing || kind == .regular else {
                    throw Refused(description: "snapshot \(file.lastPathComponent) is a \(kind.name): not replaced; snapshots are plain files")
                }
                guard SafeFile.write(Data(text.utf8), to: file, mode: 0o644) else {
                    throw Refused(description: "could not write \(file.path)")
                }
            })
    }

    /// True when the snapshot folder is there (made first when `creating`), a real folder inside the
    /// tape's folder; throws when something else is at its place.
    private static func checkedDirectory(_ directory: URL, folder: String, creating: Bool) throws -> Bool {
        var kind = SafeFile.kind(atPath: directory.path)
        if kind == .missing {
            guard creating else { return false }
            SafeFile.makeDirectory(directory)
            kind = SafeFile.kind(atPath: directory.path)
        }
        guard kind == .directory else {
            throw Refused(description: "\(directory.lastPathComponent) is a \(kind.name): snapshots live in a real folder inside the tape's folder, never through a link")
        }
        guard let root = realPath(folder), let resolved = realPath(directory.path),
              resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw Refused(description: "\(directory.path) is not inside the tape's folder \(folder)")
        }
        return true
    }
}
