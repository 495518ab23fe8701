import Foundation
import Glibc
import NimbusDomain
import Synchronization

/// The system's zone database: TZif files under `$TZDIR`, else `/usr/share/zoneinfo`, as every
/// Linux program reads them, so that `apt upgrade tzdata` corrects a zone that changed. A system
/// without the database (a bare container) gets the toolkit's built-in copy, and `origin` says so.
/// Each zone is read once; the files are hostile input (size capped, every count checked).
public final class SystemZoneDatabase: ZoneLookup {
    /// Where the zones come from.
    public enum Origin: Equatable, Sendable {
        /// A directory of TZif files.
        case directory(path: String)
        /// The toolkit's own copy: the system has no database (`reason` says what was looked for).
        case builtIn(reason: String)
    }

    public static let defaultDirectory = "/usr/share/zoneinfo"
    /// Zones kept at most (the database has about 600 names; a hostile catalogue could ask for more).
    static let cacheLimit = 2048

    public let origin: Origin
    /// A `TZDIR` that was set but could not be used, for the log and `--version`.
    public let ignoredTZDIR: String?
    private let cache = Mutex<[String: Zone?]>([:])
    /// Zones whose file was damaged or missing, read from the built-in copy instead (for the log).
    private let fallbacks = Mutex<[String: String]>([:])

    /// The database named by `environment` (`TZDIR`), else the default directory.
    public convenience init(environment: [String: String]) {
        self.init(tzdir: environment["TZDIR"])
    }

    public init(tzdir: String?, defaultDirectory: String = SystemZoneDatabase.defaultDirectory) {
        var ignored: String?
        var chosen: String?
        if let tzdir, !tzdir.isEmpty {
            if Self.isDirectory(tzdir) { chosen = tzdir } else { ignored = tzdir }
        }
        if chosen == nil, Self.isDirectory(defaultDirectory) { chosen = defaultDirectory }
        ignoredTZDIR = ignored
        if let chosen {
            origin = .directory(path: chosen)
        } else {
            origin = .builtIn(reason: "no zone database in \(ignored.map { "TZDIR (\($0)) or " } ?? "")\(defaultDirectory)")
        }
    }

    public func zone(named identifier: String) -> Zone? {
        guard Self.isZoneName(identifier) else { return nil }
        if let known = cache.withLock({ $0[identifier] }) { return known }
        let zone = load(identifier)
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll() }
            cache[identifier] = zone
        }
        return zone
    }

    /// Zones read from the built-in copy although the system has a database (their file was
    /// missing or damaged), with why.
    public var builtInFallbacks: [String: String] { fallbacks.withLock { $0 } }

    private func load(_ identifier: String) -> Zone? {
        guard case .directory(let path) = origin else { return Self.builtIn(identifier) }
        do {
            let bytes = try Self.read(path + "/" + identifier)
            return Zone(identifier: identifier, rules: try TZif.parse(bytes))
        } catch {
            // A zone newer than the system's database, or a damaged file: the toolkit's copy, if it has one.
            guard let builtIn = Self.builtIn(identifier) else { return nil }
            fallbacks.withLock { $0[identifier] = "\(error)" }
            return builtIn
        }
    }

    /// The toolkit's zone of that name (an Area/Location name: `isZoneName` has already refused the
    /// abbreviations and offsets Foundation also takes, such as "EST" or "GMT+9").
    private static func builtIn(_ identifier: String) -> Zone? {
        TimeZone(identifier: identifier).map(Zone.init(builtIn:))
    }

    /// Area/Location names only (and "UTC"): letters, digits, `_ - + .` in `/`-separated parts, none
    /// of them `.` or `..`. The database's old top-level names ("EST", "Japan") and the offsets
    /// Foundation also takes ("GMT+9") are no city's zone; a path must not leave the database.
    static func isZoneName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 64, bytes.first != UInt8(ascii: "/"), bytes.last != UInt8(ascii: "/"),
              name == "UTC" || bytes.contains(UInt8(ascii: "/")) else {
            return false
        }
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part != ".", part != "..", part.first != "-" else { return false }
            for c in part.utf8 {
                let ok = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A)
                    || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                guard ok else { return false }
            }
        }
        return true
    }

    enum ReadError: Error, CustomStringConvertible {
        case missing, notAFile, tooLarge, unreadable
        var description: String {
            switch self {
            case .missing: "no such file"
            case .notAFile: "not a regular file"
            case .tooLarge: "larger than a zone file can be"
            case .unreadable: "unreadable"
            }
        }
    }

    /// The file's bytes: a regular file (links followed) of at most `TZif.maxBytes`, never a FIFO
    /// or a device that would block or never end.
    static func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw errno == ENOENT ? ReadError.missing : ReadError.unreadable }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ReadError.unreadable }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ReadError.notAFile }
        guard info.st_size <= TZif.maxBytes else { throw ReadError.tooLarge }
        // Room for the size the file has now and one byte more, so a file that grew since (up to the
        // cap) is read whole and one past the cap is noticed; never zeroed first (a zone file is
        // 1–3 KB: zeroing the cap's 256 KB was most of a first look-up's cost).
        var room = Int(info.st_size) + 1
        var bytes: [UInt8] = []
        while true {
            let capacity = min(room, TZif.maxBytes + 1)
            var failed = false
            let chunk = [UInt8](unsafeUninitializedCapacity: capacity - bytes.count) { buffer, initialized in
                initialized = 0
                while initialized < buffer.count {
                    let n = Glibc.read(fd, buffer.baseAddress! + initialized, buffer.count - initialized)
                    if n < 0, errno == EINTR { continue }
                    if n < 0 { failed = true }
                    if n <= 0 { break }
                    initialized += n
                }
            }
            guard !failed else { throw ReadError.unreadable }
            bytes += chunk
            guard bytes.count == capacity, capacity <= TZif.maxBytes else { break }
            room = capacity * 2 // it grew since fstat: read on, up to the cap
        }
        guard bytes.count <= TZif.maxBytes else { throw ReadError.tooLarge }
        return bytes
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// "2025b", from the first line of `tzdata.zi` ("# version 2025b"), when the directory has one.
    static func version(in directory: String) -> String? {
        guard let bytes = try? read(directory + "/tzdata.zi") else { return nil }
        let firstLine = bytes.prefix(64).split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let text = String(decoding: firstLine, as: UTF8.self)
        guard text.hasPrefix("# version ") else { return nil }
        let version = text.dropFirst("# version ".count)
        guard !version.isEmpty, version.count <= 16, version.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return nil
        }
        return String(version)
    }

    /// One line for `--version` and the log: "time zones: /usr/share/zoneinfo (tzdata 2025b)".
    public var summary: String {
        var text: String
        switch origin {
        case .directory(let path):
            text = "time zones: \(path)" + (Self.version(in: path).map { " (tzdata \($0))" } ?? "")
        case .builtIn(let reason):
            text = "time zones: the built-in copy (\(reason))"
        }
        if let ignoredTZDIR { text += "; TZDIR \(ignoredTZDIR) is not a directory" }
        return text
    }
}
