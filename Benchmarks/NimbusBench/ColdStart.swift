import Foundation
import Glibc
import NimbusData
import NimbusResources

/// `--cold`: process start to first complete frame from a cold page cache, nimbus against fzf in the
/// same run, then warm. Cold means every file either program reads comes from the disk: as root the
/// whole page cache is dropped before each start (`/proc/sys/vm/drop_caches`); otherwise that can't
/// be done, and only the programs' own files are evicted (`posix_fadvise(DONTNEED)`), which says so.
enum ColdStart {
    static func run(nimbus: String, runs: Int) {
        let names = NimbusBenchmark.writeCityNames()
        let count = (try? String(contentsOfFile: names, encoding: .utf8))?.split(separator: "\n").count ?? 0
        guard let fzf = ["/usr/bin/fzf", "/usr/local/bin/fzf"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("fzf is not installed: nothing to compare with (scripts/setup.sh installs it)")
            return
        }
        let canDrop = geteuid() == 0 && access("/proc/sys/vm/drop_caches", W_OK) == 0
        let dataFiles = DataInventory.entries(in: .live).map { $0.folder.path + "/" + $0.relative }
        let how = canDrop
            ? "page cache dropped before each start (root: sync; echo 3 > /proc/sys/vm/drop_caches)"
            : "the page cache can't be dropped (needs root and a writable /proc/sys/vm/drop_caches): only the programs' own files evicted (posix_fadvise DONTNEED), the libraries they share stay cached"

        struct Program { let label: String; let argv: [String]; let stdin: String?; let ready: String; let files: [String] }
        let programs = [
            Program(label: "nimbus", argv: [nimbus], stdin: nil, ready: "GeoNames", files: [nimbus] + dataFiles),
            Program(label: "fzf", argv: [fzf], stdin: names, ready: "\(count)/\(count)", files: [fzf, names]),
        ]
        func start(_ p: Program) -> Double? {
            PTYSession.run(argv: p.argv, ready: p.ready, keys: [], stdin: p.stdin)?.firstFrame
        }
        var cold: [String: [Double]] = [:], warm: [String: [Double]] = [:]
        for round in 0..<runs {
            // Alternate which goes first, so neither always starts after the other's disk reads.
            for p in round % 2 == 0 ? programs : programs.reversed() {
                if canDrop { dropPageCache() } else { p.files.forEach(evict) }
                if let t = start(p) { cold[p.label, default: []].append(t) }
            }
        }
        for p in programs {
            _ = start(p) // the first warm start after the cold ones reads what they did not
            for _ in 0..<runs { if let t = start(p) { warm[p.label, default: []].append(t) } }
        }
        var table = Table()
        table.section("Process start to first complete frame, 80×24 pseudo-terminal (\(runs) runs each, median; min–max)")
        table.row(how)
        table.header("", "nimbus", "fzf", "nimbus / fzf")
        func cell(_ xs: [Double]?) -> String {
            guard let xs, !xs.isEmpty else { return "n/a" }
            return NimbusBenchmark.ms(NimbusBenchmark.pct(xs, 50)) + String(format: " (%.1f–%.1f)", xs.min()! * 1000, xs.max()! * 1000)
        }
        func ratio(_ a: [Double]?, _ b: [Double]?) -> String {
            guard let a, let b, !a.isEmpty, !b.isEmpty else { return "-" }
            return NimbusBenchmark.ratio(NimbusBenchmark.pct(a, 50), NimbusBenchmark.pct(b, 50))
        }
        table.row(canDrop ? "cold page cache" : "own files evicted", cell(cold["nimbus"]), cell(cold["fzf"]),
                  ratio(cold["nimbus"], cold["fzf"]) + "  target ≤ 1.00")
        table.row("warm", cell(warm["nimbus"]), cell(warm["fzf"]), ratio(warm["nimbus"], warm["fzf"]))
        print(table.render())
    }

    /// Writes dirty pages out, then drops the clean ones: the next start reads everything from disk.
    static func dropPageCache() {
        sync()
        let fd = open("/proc/sys/vm/drop_caches", O_WRONLY)
        guard fd >= 0 else { return }
        _ = write(fd, "3", 1)
        close(fd)
    }

    /// Drops a file's pages from the page cache (those no process has mapped).
    static func evict(_ path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return }
        _ = fdatasync(fd)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        close(fd)
    }
}
