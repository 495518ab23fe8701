import Foundation
import NimbusResources

/// The data files this Nimbus found, each opened the way the app opens it and summed up in a few
/// words: what `nimbus --version` lists. Generic over the files: every file of every data folder
/// is listed (the first folder holding a path wins, as for the app), described by its contents.
public enum DataInventory {
    public struct Entry: Equatable, Sendable {
        /// The path inside the data folder (`cities15000.bin`, `ko.lproj/Localizable.strings`).
        public let relative: String
        /// Where it was found.
        public let folder: DataFolders.Folder
        public let size: Int
    }

    /// Every file the app would read from `folders`, in path order: each from the folder
    /// `DataFolders.folder(holding:)` chooses, as the app does (a fifo, folder or oversized file in
    /// an earlier folder is passed over there, and here).
    public static func entries(in folders: DataFolders) -> [Entry] {
        var names = Set<String>()
        for folder in folders.folders { names.formUnion(files(under: folder.path)) }
        return names.sorted().compactMap { relative -> Entry? in
            guard let folder = folders.folder(holding: relative) else { return nil }
            var st = stat()
            guard stat(folder.path + "/" + relative, &st) == 0 else { return nil }
            return Entry(relative: relative, folder: folder, size: Int(st.st_size))
        }
    }

    /// The files the app needs that no folder holds as a usable data file.
    public static func missing(in folders: DataFolders) -> [String] {
        DataFile.required.filter { folders.folder(holding: $0) == nil }
    }

    /// What a data file holds, read by the app's own readers: its format and counts, or why it
    /// can't be read. Files that are not one of the binary formats say only their size.
    public static func summary(of url: URL) -> String {
        var magic = [UInt8](repeating: 0, count: 6)
        guard let (fd, _) = try? DataFile.open(url, maxBytes: DataFile.maxBytes(url.lastPathComponent)) else {
            return "unreadable (not a regular file within its size cap)"
        }
        _ = magic.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 6, 0) }
        close(fd)
        let version = Int(magic[4]) | Int(magic[5]) << 8
        do {
            switch String(decoding: magic[0..<4], as: UTF8.self) {
            case "NMBC":
                let catalog = try CityCatalog(contentsOf: url)
                return "city catalogue NMBC v\(version), \(grouped(catalog.cityCount)) cities"
            case "NMBL":
                let mask = try LandMask(contentsOf: url)
                let levels = mask.resolutions.map(String.init).joined(separator: ", ")
                return "land mask NMBL v\(version), \(mask.resolutions.count) levels (\(levels) px/°)"
            case "NMBB":
                return "country borders NMBB v\(version), \(grouped(try CountryBorders(contentsOf: url).segments.count)) segments"
            case "SQLi":
                let movies = try MovieCatalogue(contentsOf: url)
                return "film catalogue (SQLite), \(grouped(movies.movieCount)) films"
            default:
                return "\(grouped(fileSize(url))) bytes"
            }
        } catch let error as CityCatalogError {
            return error.message
        } catch let error as MapDataError {
            return error.message
        } catch {
            return "could not be opened (\(error))"
        }
    }

    /// The regular files under `root`, as paths relative to it; hidden files and folders skipped.
    static func files(under root: String, depth: Int = 0) -> [String] {
        guard depth < 4, let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        var out: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            var st = stat()
            guard stat(root + "/" + name, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFREG: out.append(name)
            case S_IFDIR: out += files(under: root + "/" + name, depth: depth + 1).map { name + "/" + $0 }
            default: continue
            }
        }
        return out
    }

    private static func fileSize(_ url: URL) -> Int {
        var st = stat()
        return stat(url.path, &st) == 0 ? Int(st.st_size) : 0
    }

    private static func grouped(_ n: Int) -> String {
        var digits = Array(String(n))
        var out = ""
        while digits.count > 3 { out = "," + String(digits.suffix(3)) + out; digits.removeLast(3) }
        return String(digits) + out
    }
}
