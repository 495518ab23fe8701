import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files shipped with the app (see `SOURCES.md` for where they come from).
public enum NimbusResources {
    /// The URL of a shipped file, or nil when no data folder holds it.
    public static func url(forResource name: String, withExtension ext: String) -> URL? {
        DataFolders.live.url(of: "\(name).\(ext)")
    }

    /// The one line to print when a shipped file is in none of the data folders.
    public static func notFound(_ name: String, withExtension ext: String) -> String {
        DataFolders.live.notFound("\(name).\(ext)")
    }
}

/// The folders the app's data is looked for in, in order; each file is taken from the first that
/// holds it. Never a path compiled in at build time: a binary copied or installed anywhere finds its
/// data the same way.
///
/// 1. Beside the executable, in the folders SwiftPM copies each target's resources to (a build folder).
/// 2. `<prefix>/share/nimbus`, `<prefix>` being the folder above the one holding the executable's
///    real path (`/usr/bin/nimbus` reads `/usr/share/nimbus`, `~/.local/bin/nimbus` `~/.local/share/nimbus`).
/// 3. `$NIMBUS_DATA_DIR`.
/// 4. `nimbus` in each folder of `$XDG_DATA_DIRS` (by default `/usr/local/share:/usr/share`).
///
/// A file has the same path inside each of them (`cities15000.bin`, `ko.lproj/Localizable.strings`):
/// an installation is the build folder's resource folders copied into one (`scripts/install.sh`).
public struct DataFolders: Sendable, Equatable {
    /// A folder searched, and why.
    public struct Folder: Sendable, Equatable {
        public enum Origin: String, Sendable, Equatable {
            case besideExecutable = "beside the executable"
            case installPrefix = "the installation prefix"
            case environment = "NIMBUS_DATA_DIR"
            case xdgDataDirs = "XDG_DATA_DIRS"
        }

        public let path: String
        public let origin: Origin

        public init(_ path: String, _ origin: Origin) {
            self.path = path
            self.origin = origin
        }
    }

    /// The folders SwiftPM makes beside the executable for the targets with resources (Package.swift).
    public static let bundleFolders = ["Nimbus_NimbusResources.resources", "Nimbus_NimbusLocalization.resources"]
    /// XDG_DATA_DIRS when it is unset or names no usable folder (the Base Directory specification's default).
    public static let defaultXDGDataDirs = ["/usr/local/share", "/usr/share"]
    /// At most this many XDG_DATA_DIRS entries are searched (every file look-up tries each).
    static let maximumXDGEntries = 32

    /// Where to look, in order, without repeats.
    public let folders: [Folder]
    /// Environment values that were set but not used, with the reason (shown when a file is not found).
    public let ignored: [String]

    /// The folders for an executable at `executable` (its real path; nil when unknown) in `environment`.
    public init(executable: String?, environment: [String: String]) {
        var folders: [Folder] = []
        var ignored: [String] = []
        func add(_ path: String, _ origin: Folder.Origin) {
            let path = Self.normalised(path)
            if !folders.contains(where: { $0.path == path }) { folders.append(Folder(path, origin)) }
        }
        if let executable, executable.hasPrefix("/") {
            let binFolder = Self.parent(executable)
            for bundle in Self.bundleFolders { add(binFolder + "/" + bundle, .besideExecutable) }
            let prefix = Self.parent(binFolder)
            add((prefix == "/" ? "" : prefix) + "/share/nimbus", .installPrefix)
        }
        if let given = environment["NIMBUS_DATA_DIR"], !given.isEmpty {
            if let path = Self.usable(given) { add(path, .environment) }
            else { ignored.append("NIMBUS_DATA_DIR (not an absolute path)") }
        }
        let xdg = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":", omittingEmptySubsequences: true)
            .prefix(Self.maximumXDGEntries).compactMap { Self.usable(String($0)) }
        for base in xdg.isEmpty ? Self.defaultXDGDataDirs : xdg { add(base + "/nimbus", .xdgDataDirs) }
        self.folders = folders
        self.ignored = ignored
    }

    /// The folders of this process: its executable's real path and its environment.
    public static let live = DataFolders(
        executable: executablePath(),
        environment: ["NIMBUS_DATA_DIR", "XDG_DATA_DIRS"].reduce(into: [:]) { env, name in
            if let value = getenv(name) { env[name] = String(cString: value) }
        })

    /// `relative` (a shipped file's path inside a data folder) in the first folder that holds it.
    public func url(of relative: String) -> URL? {
        folder(holding: relative).map { URL(fileURLWithPath: $0.path + "/" + relative) }
    }

    /// The first folder holding `relative` as a data file: a regular file (a link to one is
    /// followed), readable, no larger than its cap (`DataFile.maxBytes`). A fifo there would be
    /// waited on, a folder or device read without end: they, and a file past its cap, are passed
    /// over for the next folder's.
    public func folder(holding relative: String) -> Folder? {
        precondition(!relative.hasPrefix("/") && !relative.split(separator: "/").contains(".."), "a path inside a data folder")
        let cap = DataFile.maxBytes(relative)
        return folders.first { folder in
            let path = folder.path + "/" + relative
            var st = stat()
            return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && Int(st.st_size) <= cap && access(path, R_OK) == 0
        }
    }

    /// One line saying that `relative` was not found and every place it was looked for.
    public func notFound(_ relative: String) -> String {
        var line = "\(relative) not found in any data folder; looked in "
            + folders.map { "\(Self.printable($0.path)) (\($0.origin.rawValue))" }.joined(separator: ", ")
        if !ignored.isEmpty { line += "; ignored " + ignored.joined(separator: ", ") }
        return line + ". Set NIMBUS_DATA_DIR to the folder holding it, or reinstall (scripts/install.sh)."
    }

    /// The real path of the running executable, from `/proc/self/exe`; nil when it can't be read.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        var path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // An executable replaced while it runs (an upgrade) still names its folder.
        if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
        return path
    }

    // MARK: - Paths

    /// An absolute path of at most PATH_MAX bytes without control characters; nil for anything else
    /// (the specification says a relative XDG path is invalid and must be ignored).
    static func usable(_ path: String) -> String? {
        guard path.hasPrefix("/"), path.utf8.count <= Int(PATH_MAX),
              !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return path
    }

    /// `path` with each run of slashes made one and no trailing slash (`/` stays `/`).
    static func normalised(_ path: String) -> String {
        var out = ""
        for ch in path where !(ch == "/" && out.hasSuffix("/")) { out.append(ch) }
        if out.count > 1, out.hasSuffix("/") { out.removeLast() }
        return out
    }

    /// The folder holding `path` (`/` for anything directly under the root).
    static func parent(_ path: String) -> String {
        let trimmed = normalised(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// A path as one printable line: control characters shown as `?`.
    static func printable(_ path: String) -> String {
        String(String.UnicodeScalarView(path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}

/// The shipped data files: which the app needs, how large each may be, and reading one. Every
/// read opens the file once and checks that descriptor (fstat): a regular file within its cap, or
/// nothing is read. What is found in a data folder is as hostile as anything from a server.
public enum DataFile {
    /// What the app reads from its data folders: `nimbus --version` fails when one is missing.
    public static let required = [
        "borders.bin", "cities15000.bin", "landmask.bin", "meteoalarm-regions.tsv", "movies.sqlite",
        "en.lproj/Localizable.strings", "ja.lproj/Localizable.strings", "ko.lproj/Localizable.strings",
    ]

    /// The largest a data file may be, by its name: tens of times what is shipped, so a generated
    /// file grows into it, and a thousand times less than a hostile one.
    public static func maxBytes(_ relative: String) -> Int {
        switch relative {
        case _ where relative.hasSuffix(".strings"): return 1 << 20        // 26–30 kB shipped
        case "meteoalarm-regions.tsv": return 8 << 20                      // 80 kB
        case "borders.bin": return 16 << 20                                 // 21 kB
        case "landmask.bin": return 256 << 20                               // 4.4 MB, mapped
        case "movies.sqlite": return 512 << 20                              // 10 MB, SQLite's pages
        case _ where relative.hasSuffix(".bin"): return 512 << 20           // cities: 13 MB, mapped
        default: return 64 << 20
        }
    }

    /// Why a data file was not read.
    public struct Unreadable: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The whole of the regular file at `url`, of at most `maxBytes`: opened without waiting on a
    /// fifo (O_NONBLOCK), then checked on the descriptor, then read (one byte past the cap is
    /// asked for, so a file that grew since is refused too).
    public static func read(_ url: URL, maxBytes: Int) throws -> Data {
        let fd = try open(url, maxBytes: maxBytes)
        defer { close(fd.descriptor) }
        return try read(fd.descriptor, size: fd.size, maxBytes: maxBytes, url: url)
    }

    /// The rest of the file open at `descriptor`, `size` bytes as fstat said, at most `maxBytes`.
    public static func read(_ descriptor: Int32, size: Int, maxBytes: Int, url: URL) throws -> Data {
        var data = Data(count: size + 1)
        var filled = 0
        let failed = data.withUnsafeMutableBytes { buffer -> Int32? in
            while filled < buffer.count {
                let n = Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 { if errno == EINTR { continue }; return errno }
                if n == 0 { break }
                filled += n
            }
            return nil
        }
        if let failed { throw Unreadable(description: "\(url.path): \(String(cString: strerror(failed)))") }
        guard filled <= maxBytes else { throw Unreadable(description: "\(url.path) grew past \(maxBytes) bytes while it was read") }
        data.count = filled
        return data
    }

    /// `url` opened for reading and checked: a regular file of at most `maxBytes`. The caller closes it.
    public static func open(_ url: URL, maxBytes: Int) throws -> (descriptor: Int32, size: Int) {
        let fd = Glibc.open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Unreadable(description: "\(url.path): \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Unreadable(description: "\(url.path) is not a regular file")
        }
        guard st.st_size >= 0, Int(st.st_size) <= maxBytes else {
            close(fd)
            throw Unreadable(description: "\(url.path) is \(st.st_size) bytes, more than the \(maxBytes) a data file may be")
        }
        // Reads from here on may wait as any file read does.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, Int(st.st_size))
    }
}
