import Foundation
import NimbusBuildInfo
import NimbusData
import NimbusPresentation
import NimbusResources

/// The version of Nimbus, its commit in the source history.
public let nimbusVersion = BuildInfo.version

/// What `nimbus --version` prints: the version, the commit the binary was built from, the zone
/// database local times are read from, and every data file found, with what it holds and where it
/// was found.
enum VersionReport {
    /// The report, and whether every file the app needs was found (else `--version` exits 1).
    static func text(folders: DataFolders, environment: [String: String]) -> (text: String, complete: Bool) {
        // Where local times come from: the system's zone database (or the built-in copy, said so).
        var lines = ["nimbus \(BuildInfo.version)", "commit \(BuildInfo.commit)", shown(SystemZoneDatabase(environment: environment).summary)]
        let entries = DataInventory.entries(in: folders)
        if entries.isEmpty {
            lines.append("data: none found. " + folders.notFound(CityCatalog.bundledName + ".bin"))
            return (lines.joined(separator: "\n"), false)
        }
        lines.append("data:")
        var byFolder: [(DataFolders.Folder, [DataInventory.Entry])] = []
        for entry in entries {
            if let i = byFolder.firstIndex(where: { $0.0 == entry.folder }) { byFolder[i].1.append(entry) }
            else { byFolder.append((entry.folder, [entry])) }
        }
        for (folder, files) in byFolder {
            lines.append("  from \(shown(folder.path)) (\(folder.origin.rawValue)):")
            let width = files.map(\.relative.count).max() ?? 0
            for file in files {
                let name = shown(file.relative)
                lines.append("    " + name.padding(toLength: max(width, name.count), withPad: " ", startingAt: 0)
                             + "  " + summary(of: URL(fileURLWithPath: folder.path + "/" + file.relative)))
            }
        }
        // The optional files a user generates into their own data folder (scripts/build-resources.py).
        let own = NimbusDirectories(environment: environment).data
        let optional = [CityCatalog.largeTierFileName].map { own.appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        if !optional.isEmpty {
            lines.append("  generated, in \(shown(own.path)):")
            for url in optional { lines.append("    \(shown(url.lastPathComponent))  \(summary(of: url))") }
        }
        let missing = DataInventory.missing(in: folders)
        for file in missing { lines.append("  missing: " + folders.notFound(file)) }
        return (lines.joined(separator: "\n"), missing.isEmpty)
    }

    /// A data file's contents in a few words; strings files by their number of strings.
    static func summary(of url: URL) -> String {
        guard url.pathExtension == "strings" else { return DataInventory.summary(of: url) }
        guard let data = try? DataFile.read(url, maxBytes: DataFile.maxBytes(url.lastPathComponent)) else { return "unreadable" }
        do {
            return "\(try StringsFile.parse(String(decoding: data, as: UTF8.self)).count) strings"
        } catch {
            return "damaged strings file (\(error))"
        }
    }

    /// A path or name on one line: control characters shown as `?`.
    private static func shown(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}
