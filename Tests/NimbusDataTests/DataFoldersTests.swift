import Foundation
import Glibc
import Testing
import PropertyBased
import TestSupport
@testable import NimbusData
@testable import NimbusResources

/// Where the shipped data is looked for: beside the executable, the installation prefix,
/// `NIMBUS_DATA_DIR`, then `XDG_DATA_DIRS`; never a path compiled in.
@Suite struct DataFoldersTests {
    private func paths(_ folders: DataFolders) -> [String] { folders.folders.map(\.path) }

    @Test func theOrder() {
        let folders = DataFolders(executable: "/opt/nimbus/bin/nimbus",
                                  environment: ["NIMBUS_DATA_DIR": "/data//nimbus/", "XDG_DATA_DIRS": "/a:/b/"])
        #expect(paths(folders) == [
            "/opt/nimbus/bin/Nimbus_NimbusResources.resources", "/opt/nimbus/bin/Nimbus_NimbusLocalization.resources",
            "/opt/nimbus/share/nimbus", "/data/nimbus", "/a/nimbus", "/b/nimbus",
        ])
        #expect(folders.folders.map(\.origin) == [.besideExecutable, .besideExecutable, .installPrefix, .environment,
                                                  .xdgDataDirs, .xdgDataDirs])
        #expect(folders.ignored.isEmpty)
    }

    @Test func xdgDataDirsDefaultsWhenUnsetEmptyOrAllRelative() {
        for value: String? in [nil, "", ":", "relative:also/relative"] {
            let folders = DataFolders(executable: "/opt/nimbus/bin/nimbus", environment: value.map { ["XDG_DATA_DIRS": $0] } ?? [:])
            #expect(paths(folders).suffix(2) == ["/usr/local/share/nimbus", "/usr/share/nimbus"], "\(String(describing: value))")
        }
    }

    @Test func anInstalledBinaryReadsItsPrefixOnce() {
        // /usr/bin/nimbus: the prefix is /usr, which XDG_DATA_DIRS names again; it is searched once.
        let folders = DataFolders(executable: "/usr/bin/nimbus", environment: [:])
        #expect(paths(folders) == [
            "/usr/bin/Nimbus_NimbusResources.resources", "/usr/bin/Nimbus_NimbusLocalization.resources",
            "/usr/share/nimbus", "/usr/local/share/nimbus",
        ])
        #expect(paths(DataFolders(executable: "/nimbus", environment: [:]))[2] == "/share/nimbus")
    }

    @Test func relativeOrControlCharacterPathsAreIgnored() {
        let folders = DataFolders(executable: nil, environment: [
            "NIMBUS_DATA_DIR": "data", "XDG_DATA_DIRS": "/ok:rel:/bad\npath:/also\u{1B}[2J",
        ])
        #expect(paths(folders) == ["/ok/nimbus"])
        #expect(folders.ignored == ["NIMBUS_DATA_DIR (not an absolute path)"])
        #expect(folders.notFound("cities15000.bin").contains("ignored NIMBUS_DATA_DIR (not an absolute path)"))
    }

    @Test func eachFileFromTheFirstFolderHoldingIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-data-folders-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("prefix/bin")
        let installed = root.appendingPathComponent("prefix/share/nimbus")
        let given = root.appendingPathComponent("given")
        let system = root.appendingPathComponent("system/nimbus")
        for dir in [bin, installed.appendingPathComponent("ko.lproj"), given, system] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        try Data("installed".utf8).write(to: installed.appendingPathComponent("a.bin"))
        try Data("given".utf8).write(to: given.appendingPathComponent("a.bin"))
        try Data("given".utf8).write(to: given.appendingPathComponent("b.bin"))
        try Data("system".utf8).write(to: system.appendingPathComponent("c.bin"))
        try Data("strings".utf8).write(to: installed.appendingPathComponent("ko.lproj/Localizable.strings"))
        let folders = DataFolders(executable: bin.path + "/nimbus", environment: [
            "NIMBUS_DATA_DIR": given.path, "XDG_DATA_DIRS": root.appendingPathComponent("system").path,
        ])
        func read(_ relative: String) -> String? {
            folders.url(of: relative).flatMap { try? String(contentsOf: $0, encoding: .utf8) }
        }
        #expect(read("a.bin") == "installed")
        #expect(read("b.bin") == "given")
        #expect(read("c.bin") == "system")
        #expect(read("ko.lproj/Localizable.strings") == "strings")
        #expect(folders.url(of: "d.bin") == nil)
        #expect(folders.folder(holding: "a.bin")?.origin == .installPrefix)

        // What --version lists: every file, each from the folder the app reads it from.
        let entries = DataInventory.entries(in: folders)
        #expect(entries.map(\.relative) == ["a.bin", "b.bin", "c.bin", "ko.lproj/Localizable.strings"])
        #expect(entries.map(\.folder.origin) == [.installPrefix, .environment, .xdgDataDirs, .installPrefix])
        #expect(entries.map(\.size) == [9, 5, 6, 7])
    }

    /// Only a regular file no larger than its cap is a data file: a fifo (which would be waited on),
    /// a folder or a file past the cap is passed over for the next folder's, and --version lists
    /// the file the app reads.
    @Test func onlyARegularFileWithinItsCapQualifies() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-data-kinds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("first"), second = root.appendingPathComponent("second/nimbus")
        for dir in [first, second].flatMap({ [$0, $0.appendingPathComponent("en.lproj")] }) {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        #expect(mkfifo(first.appendingPathComponent("movies.sqlite").path, 0o644) == 0)
        try FileManager.default.createDirectory(at: first.appendingPathComponent("cities15000.bin"), withIntermediateDirectories: true)
        let huge = open(first.appendingPathComponent("en.lproj/Localizable.strings").path, O_WRONLY | O_CREAT, 0o644)
        #expect(ftruncate(huge, 3 << 30) == 0)
        close(huge)
        for name in ["movies.sqlite", "cities15000.bin", "en.lproj/Localizable.strings"] {
            try Data("good".utf8).write(to: second.appendingPathComponent(name))
        }
        let folders = DataFolders(executable: nil, environment: ["NIMBUS_DATA_DIR": first.path,
                                                                 "XDG_DATA_DIRS": root.appendingPathComponent("second").path])
        for name in ["movies.sqlite", "cities15000.bin", "en.lproj/Localizable.strings"] {
            #expect(folders.folder(holding: name)?.origin == .xdgDataDirs, "\(name)")
        }
        let entries = DataInventory.entries(in: folders)
        #expect(entries.map(\.relative) == ["cities15000.bin", "en.lproj/Localizable.strings", "movies.sqlite"])
        #expect(entries.allSatisfy { $0.folder.origin == .xdgDataDirs })
    }

    @Test func notFoundIsOneLineNamingEveryPlace() {
        let folders = DataFolders(executable: "/opt/n/bin/nimbus", environment: ["XDG_DATA_DIRS": "/x"])
        let line = folders.notFound("cities15000.bin")
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix("cities15000.bin not found"))
        for folder in folders.folders { #expect(line.contains(folder.path + " (" + folder.origin.rawValue + ")")) }
    }

    /// The tests' own data is found beside their executable, where SwiftPM copied it: found at run
    /// time, not at a path compiled into the binary.
    @Test func theBuildFolderIsBesideTheExecutable() throws {
        let folder = try #require(DataFolders.live.folder(holding: "cities15000.bin"))
        #expect(folder.origin == .besideExecutable)
        let executable = try #require(DataFolders.executablePath())
        #expect(folder.path == (executable as NSString).deletingLastPathComponent + "/Nimbus_NimbusResources.resources")
        #expect(DataFolders.live.folder(holding: "ja.lproj/Localizable.strings")?.origin == .besideExecutable)
    }

    /// Each shipped file summed up from its own contents: the counts checked against the file's
    /// header (the catalogue, the borders) or a direct query (the films), read here independently.
    @Test func summariesOfTheShippedFiles() throws {
        func u32(_ bytes: [UInt8], _ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        func grouped(_ n: Int) -> String {
            let f = NumberFormatter()
            f.numberStyle = .decimal
            f.locale = Locale(identifier: "en_US")
            return f.string(from: NSNumber(value: n))!
        }
        let catalogue = try #require(NimbusResources.url(forResource: "cities15000", withExtension: "bin"))
        let head = [UInt8](try Data(contentsOf: catalogue).prefix(12))
        #expect(DataInventory.summary(of: catalogue) == "city catalogue NMBC v\(Int(head[4])), \(grouped(u32(head, 8))) cities")
        let borders = try #require(NimbusResources.url(forResource: "borders", withExtension: "bin"))
        let bordersHead = [UInt8](try Data(contentsOf: borders).prefix(12))
        #expect(DataInventory.summary(of: borders) == "country borders NMBB v1, \(grouped(u32(bordersHead, 8))) segments")
        let mask = try #require(NimbusResources.url(forResource: "landmask", withExtension: "bin"))
        let maskHead = [UInt8](try Data(contentsOf: mask).prefix(6))
        #expect(DataInventory.summary(of: mask).hasPrefix("land mask NMBL v\(Int(maskHead[4]) | Int(maskHead[5]) << 8), "))
        let films = try #require(NimbusResources.url(forResource: "movies", withExtension: "sqlite"))
        #expect(DataInventory.summary(of: films) == "film catalogue (SQLite), \(grouped(try MovieCatalogue(contentsOf: films).movieCount)) films")

        // A truncated catalogue says it is damaged; a file of no known format gives its size.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-summary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cut = dir.appendingPathComponent("cut.bin")
        try Data(try Data(contentsOf: catalogue).prefix(5000)).write(to: cut)
        #expect(DataInventory.summary(of: cut).hasPrefix("city catalogue is damaged"))
        let other = dir.appendingPathComponent("notes.txt")
        try Data(repeating: 65, count: 1234).write(to: other)
        #expect(DataInventory.summary(of: other) == "1,234 bytes")
    }

    /// Whatever the environment holds, the folders are absolute, printable, distinct, bounded in
    /// number and in the documented order.
    @Test func hostileEnvironments() async {
        let pool = Array("/:a.\n\u{1B}\u{7F} é~") // slashes, colons, dots, control characters, space
        let text = Gen.int(in: 0...9999).array(of: 0...40).map { String($0.map { pool[$0 % pool.count] }) }
        await propertyCheck(count: PropertyCount.scaled(default: 300), input: text, text, Gen.int(in: 0...60)) { data, xdg, repeats in
            let many = Array(repeating: xdg, count: repeats).joined(separator: ":")
            let folders = DataFolders(executable: "/usr/bin/nimbus", environment: ["NIMBUS_DATA_DIR": data, "XDG_DATA_DIRS": many])
            let all = folders.folders
            #expect(all.allSatisfy { $0.path.hasPrefix("/") && !$0.path.contains("//") && ($0.path == "/" || !$0.path.hasSuffix("/")) })
            #expect(all.allSatisfy { !$0.path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
            #expect(Set(all.map(\.path)).count == all.count)
            #expect(all.count <= DataFolders.bundleFolders.count + 2 + DataFolders.maximumXDGEntries)
            let rank: [DataFolders.Folder.Origin: Int] = [.besideExecutable: 0, .installPrefix: 1, .environment: 2, .xdgDataDirs: 3]
            let ranks = all.map { rank[$0.origin]! }
            #expect(ranks == ranks.sorted())
            #expect(!folders.notFound("x.bin").contains("\n"))
        }
    }
}
