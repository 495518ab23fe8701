import Foundation
import Glibc
import NimbusData
import NimbusDomain

/// `nimbus-bench --wishlist`: `nimbus wishlist import` run as a user runs it, on the files at its
/// limits: 20,000 rows of a film the catalogue lacks, 3,000 real films, one 5 MB field, and a link to
/// a 2 GB sparse file. Wall time and the process's peak memory, each in a fresh home.
enum WishlistBenchmark {
    static func run(nimbus: String, into table: inout Table) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-wishlist-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard FileManager.default.isExecutableFile(atPath: nimbus) else {
            table.row("nimbus", "not built at \(nimbus)")
            return
        }
        var files: [(String, URL)] = []
        func write(_ name: String, _ text: String) -> URL {
            let url = directory.appendingPathComponent(name)
            try? Data(text.utf8).write(to: url)
            return url
        }
        files.append(("20,000 rows of an unknown film",
                      write("unknown.csv", "Title,Year\n" + String(repeating: "No Such Film At All,2001\n", count: 20_000))))
        if let catalogue = try? MovieCatalogue.bundled(), let ids = try? catalogue.filteredIDs("", .none),
           let movies = try? catalogue.films(Array(ids.prefix(3_000))) {
            let rows = movies.map { "\"\($0.title.replacingOccurrences(of: "\"", with: "\"\""))\",\($0.year.map(String.init) ?? "")" }
            files.append(("\(movies.count) real films", write("real.csv", "Title,Year\n" + rows.joined(separator: "\n") + "\n")))
        }
        files.append(("one 5 MB field", write("field.csv", "Title,Year\n\"" + String(repeating: "a", count: 5 * 1024 * 1024 - 20) + "\",1995\n")))
        let sparse = directory.appendingPathComponent("sparse.csv")
        _ = FileManager.default.createFile(atPath: sparse.path, contents: Data("Title\n".utf8))
        if let handle = try? FileHandle(forWritingTo: sparse) {
            try? handle.truncate(atOffset: 2 << 30)
            try? handle.close()
        }
        let link = directory.appendingPathComponent("link.csv")
        try? FileManager.default.createSymbolicLink(at: link, withDestinationURL: sparse)
        files.append(("a link to a 2 GB sparse file", link))

        table.section("nimbus wishlist import (a fresh home each; wall time, peak memory of the process)")
        table.header("file", "time", "peak RSS", "status, last line")
        for (name, file) in files {
            let home = directory.appendingPathComponent("home-\(UUID().uuidString)")
            let (seconds, rss, status, last) = time(nimbus, ["wishlist", "import", file.path], home: home)
            table.row(name, String(format: "%.2f s", seconds), "\(rss / 1024) MB", "\(status), \(last)")
        }
    }

    /// Runs `executable` with `arguments` in `home`: seconds, peak RSS in KB, exit status, last output line.
    static func time(_ executable: String, _ arguments: [String], home: URL) -> (Double, Int, Int32, String) {
        let output = directoryFile(home, "output.txt")
        let environment = ["HOME=\(home.path)", "XDG_DATA_HOME=\(home.appendingPathComponent("data").path)",
                           "XDG_CACHE_HOME=\(home.appendingPathComponent("cache").path)", "NIMBUS_LANG=en"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = NimbusBenchmark.now()
        guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { return (.nan, 0, -1, "could not start") }
        // wait4: this child's own peak memory, not the largest of every child so far.
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = NimbusBenchmark.now() - start
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let last = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return (seconds, usage.ru_maxrss, (status >> 8) & 0xFF, String(last.prefix(60)))
    }

    private static func directoryFile(_ home: URL, _ name: String) -> URL {
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home.appendingPathComponent(name)
    }
}
