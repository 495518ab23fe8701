import Foundation
import Glibc
import NimbusData
import NimbusDomain
import NimbusPresentation
import CombineSchedulers
import OpenCombineShim

/// Prints the numbers issue targets are checked against; see README "Performance".
enum NimbusBenchmark {
    /// Queries typed one key at a time, in the scripts people search in; or, with
    /// `NIMBUS_BENCH_CITY_TYPING` set, the queries it lists (comma-separated).
    static let typing = typing(from: "NIMBUS_BENCH_CITY_TYPING", default: [
        "seoul", "서울", "ソウル", "sao paulo", "são", "new york", "york", "mexico city", "東京", "北京",
        "reykjavik", "los angeles", "부산", "tokyo", "s", "ber", "москва", "istanbul", "cairo", "hanoi",
    ])

    /// Typos, each typed a key at a time: the keys that match nothing get suggestions.
    static let typos = ["pariss", "mumbia", "seuol", "lodnon", "new yrok", "셔울", "zermatt", "munchenn"]
    /// A region or a country after the name.
    static let narrowed = ["springfield, il", "portland me", "paris france", "london ontario", "파리, 프랑스"]

    /// The queries `variable` lists, comma-separated, each at most 64 characters; `fallback` when it
    /// is unset or lists none (a bench that typed nothing would print no number, not say why).
    static func typing(from variable: String, default fallback: [String],
                       environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let listed = environment[variable].map {
            $0.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces).prefix(64)) }.filter { !$0.isEmpty }
        } ?? []
        return listed.isEmpty ? fallback : listed
    }

    /// A query as a row of the table names it: control characters escaped (it may come from the
    /// environment), at most 24 characters.
    static func label(_ query: String) -> String {
        let shown = query.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined()
        return shown.count > 24 ? String(shown.prefix(23)) + "…" : shown
    }

    @MainActor static func main() {
        if CommandLine.arguments.contains("--frames") { RenderProbe.frames(); return }
        if let i = CommandLine.arguments.firstIndex(of: "--soak") {
            let rest = CommandLine.arguments.dropFirst(i + 1)
            let actions = rest.first.flatMap(Int.init) ?? 1_000_000
            let seed = rest.dropFirst().first.flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970)
            Soak.run(actions: actions, seed: seed)
            return
        }
        if let i = CommandLine.arguments.firstIndex(of: "--map-soak") {
            let rest = CommandLine.arguments.dropFirst(i + 1)
            MapSoak.run(pans: rest.first.flatMap(Int.init) ?? 100_000,
                        seed: rest.dropFirst().first.flatMap(UInt64.init) ?? 42)
            return
        }
        if CommandLine.arguments.contains("--probe") { Probe.run(); RenderProbe.run(); return }
        if CommandLine.arguments.contains("--map") {
            var table = Table()
            do { MapBenchmark.run(catalog: try CityCatalog.bundled(), into: &table) } catch { table.row("bundled catalogue", "error: \(error)") }
            print(table.render())
            return
        }
        if CommandLine.arguments.contains("--quakes") {
            var table = Table()
            do { QuakeBenchmark.run(catalog: try CityCatalog.bundled(), into: &table) } catch { table.row("bundled catalogue", "error: \(error)") }
            print(table.render())
            return
        }
        let args = CommandLine.arguments
        func value(_ flag: String) -> String? {
            args.firstIndex(of: flag).flatMap { args.indices.contains($0 + 1) ? args[$0 + 1] : nil }
        }
        let nimbus = value("--nimbus") ?? siblingExecutable("nimbus")
        let large = value("--large") ?? CityCatalog.largeTierURL(environment: ProcessInfo.processInfo.environment).path
        let runs = Int(value("--runs") ?? "") ?? 15
        if args.contains("--cold") {
            ColdStart.run(nimbus: nimbus, runs: runs)
            return
        }

        var table = Table()
        // `--search`: only the in-process city search per keystroke (the catalogue's search, then the
        // view model's), a few seconds, to compare builds without the rest.
        if args.contains("--search") {
            do {
                let catalog = try CityCatalog.bundled()
                table.section("In-process search, per keystroke (\(catalog.cityCount) cities; search + 20 formatted rows)")
                searchLatency(catalog, into: &table, dearest: 8)
            } catch {
                table.row("bundled catalogue", "error: \(error)")
            }
            print(table.render())
            return
        }
        if CommandLine.arguments.contains("--today") && !CommandLine.arguments.contains("--pty") {
            TodayBenchmark.run(runs: min(runs, 10), into: &table)
            print(table.render())
            return
        }
        if CommandLine.arguments.contains("--detail") {
            DetailBenchmark.run(runs: min(runs, 20), into: &table)
            print(table.render())
            return
        }
        if CommandLine.arguments.contains("--wishlist") {
            WishlistBenchmark.run(nimbus: nimbus, into: &table)
            print(table.render())
            return
        }
        // `--scroll [--before PATH]`: what scrolling costs on the wire (bytes per scrolled line, beside
        // less, vim and fzf; held keys through a 56 kbit/s link), with another build beside this one.
        if CommandLine.arguments.contains("--scroll") {
            ScrollBenchmark.run(nimbus: nimbus, before: value("--before"), into: &table)
            print(table.render())
            return
        }
        if CommandLine.arguments.contains("--movies") {
            MovieBenchmark.run(into: &table)
            MovieBenchmark.pty(nimbus: nimbus, runs: runs, into: &table)
            print(table.render())
            return
        }
        // `--pty`: only the start-up and pseudo-terminal sections, the ones compared with fzf.
        let ptyOnly = args.contains("--pty")
        if !ptyOnly {
            inProcess(large: large, into: &table)
        }

        table.section("Process start to first complete frame (\(runs) runs, median)")
        if FileManager.default.isExecutableFile(atPath: nimbus) {
            firstFrameFake(nimbus: nimbus, runs: runs, into: &table)
            firstFrameTmux(nimbus: nimbus, runs: runs, into: &table)
        } else {
            table.row("nimbus", "not built at \(nimbus)")
        }

        let names = writeCityNames()
        let query = "seoul"
        table.section("Real programs in a pseudo-terminal 80×24 (\(runs) runs each, median)")
        let nimbusPTY = ptyRun(label: "nimbus", argv: [nimbus], typeAfterStart: "/" + query,
                               ready: "GeoNames", runs: runs)
        let fzfPath = ["/usr/bin/fzf", "/usr/local/bin/fzf"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let fzfPTY = fzfPath.map {
            ptyRun(label: "fzf", argv: ["/bin/sh", "-c", "exec \($0) < '\(names)'"], typeAfterStart: query,
                   ready: "34006/34006", runs: runs)
        }
        table.header("", "nimbus", "fzf")
        table.row("time to first frame", ms(nimbusPTY.firstFrame), fzfPTY.map { ms($0.firstFrame) } ?? "fzf not installed")
        table.row("keystroke → settled screen, p50", ms(nimbusPTY.keyP50), fzfPTY.map { ms($0.keyP50) } ?? "-")
        table.row("keystroke → settled screen, p99", ms(nimbusPTY.keyP99), fzfPTY.map { ms($0.keyP99) } ?? "-")
        table.row("keystroke → settled screen, max", ms(nimbusPTY.keyMax), fzfPTY.map { ms($0.keyMax) } ?? "-")
        table.row("peak RSS", mb(nimbusPTY.peakRSS), fzfPTY.map { mb($0.peakRSS) } ?? "-")
        if let f = fzfPTY {
            table.row("nimbus first frame / fzf", ratio(nimbusPTY.firstFrame, f.firstFrame), "target ≤ 1.00")
            table.row("nimbus keystroke / fzf (p50)", ratio(nimbusPTY.keyP50, f.keyP50), "target ≤ 0.25")
        }
        // `--wide`: the same keystrokes on a 180×40 terminal, where the Cities list shows every column
        // (local times, coordinates, time zones) on twice the rows.
        if args.contains("--wide") {
            let wide = ptyRun(label: "nimbus", argv: [nimbus], typeAfterStart: "/" + query, ready: "GeoNames", runs: runs,
                              cols: 180, rows: 40)
            table.section("nimbus in a pseudo-terminal 180×40 (\(runs) runs, median)")
            table.row("time to first frame", ms(wide.firstFrame))
            table.row("keystroke → settled screen, p50", ms(wide.keyP50))
            table.row("keystroke → settled screen, max", ms(wide.keyMax))
        }
        if !ptyOnly { MovieBenchmark.pty(nimbus: nimbus, runs: runs, into: &table) }
        if !ptyOnly { ScrollBenchmark.run(nimbus: nimbus, before: value("--before"), into: &table) }
        if !ptyOnly, let catalog = try? CityCatalog.bundled() { MapBenchmark.run(catalog: catalog, into: &table) }
        if !ptyOnly || args.contains("--today") { TodayBenchmark.run(runs: min(runs, 10), into: &table) }
        table.section("This benchmark process")
        table.row("peak RSS (catalogues loaded)", mb(peakRSS(RUSAGE_SELF)))
        print(table.render())
    }


    /// The in-process sections: city search, reverse geocoding, films.
    static func inProcess(large: String, into table: inout Table) {
        do {
            let catalog = try CityCatalog.bundled()
            table.section("In-process search, per keystroke (\(catalog.cityCount) cities; search + 20 formatted rows)")
            searchLatency(catalog, into: &table)
            reverseGeocoding(catalog, into: &table)
            QuakeBenchmark.run(catalog: catalog, into: &table)
        } catch {
            table.row("bundled catalogue", "error: \(error)")
        }
        if FileManager.default.fileExists(atPath: large), let catalog = try? CityCatalog(contentsOf: URL(fileURLWithPath: large)) {
            table.section("In-process search, per keystroke (\(catalog.cityCount) cities, cities1000 tier)")
            searchLatency(catalog, into: &table)
            reverseGeocoding(catalog, into: &table)
        } else {
            table.section("In-process search, cities1000 tier")
            table.row("not generated", "python3 scripts/build-resources.py --tier 1000")
        }
        MovieBenchmark.run(into: &table)
    }

    // MARK: In-process search

    /// `dearest`: also the queries whose search alone costs most (median over the rounds), that many.
    static func searchLatency(_ catalog: CityCatalog, into table: inout Table, dearest: Int = 0) {
        let t0 = now()
        catalog.prepareRanking(for: .geoNames)
        let rankingBuild = now() - t0
        // As the app's warm-up does at start-up, off the main queue.
        catalog.foldNamesOfLargestCities()
        let viewModel = CityListViewModel(
            search: SearchCitiesUseCase(repository: catalog), totalCount: catalog.cityCount,
            l10n: L10n.bundled(.en), scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
        let events = PassthroughSubject<CityListViewModel.Event, Never>()
        var latest: CityListState?
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        let keep = output.state.sink { latest = $0 }
        var searchOnly: [Double] = []
        var perKey: [Double] = []
        var byQuery: [String: [Double]] = [:]
        for round in 0..<12 {
            for word in typing {
                var typed = ""
                for ch in word {
                    typed.append(ch)
                    let t0 = now()
                    _ = catalog.search(typed)
                    let t1 = now()
                    events.send(.queryChanged(typed))
                    for row in latest?.rows.prefix(20) ?? [] { _ = row.name.count }
                    let t2 = now()
                    if round > 1 {
                        searchOnly.append(t1 - t0)
                        perKey.append(t2 - t1)
                        byQuery[typed, default: []].append(t1 - t0)
                    }
                }
                events.send(.queryChanged(""))
            }
        }
        keep.cancel()
        // What people also type: typos (a keystroke that matches nothing suggests cities within two
        // edits) and a region or country after the name.
        let use = SearchCitiesUseCase(repository: catalog)
        catalog.prepareSuggestions()
        catalog.prepareQualifiers()
        var noMatch: [Double] = [], qualified: [Double] = []
        for _ in 0..<6 {
            for word in typos + narrowed {
                var typed = ""
                for ch in word {
                    typed.append(ch)
                    let t0 = now()
                    let found = use.execute(query: typed)
                    let t1 = now()
                    if found.count == 0 && !found.suggestions.isEmpty { noMatch.append(t1 - t0) }
                    if found.qualifier != nil { qualified.append(t1 - t0) }
                }
            }
        }
        table.header("", "p50", "p99", "max")
        table.row("search only", ms(pct(searchOnly, 50)), ms(pct(searchOnly, 99)), ms(searchOnly.max() ?? 0))
        table.row("view model: search + 20 rows", ms(pct(perKey, 50)), ms(pct(perKey, 99)), ms(perKey.max() ?? 0))
        table.row("no match, with suggestions (\(noMatch.count) keys; target ≤ 5 ms)", ms(pct(noMatch, 50)), ms(pct(noMatch, 99)), ms(noMatch.max() ?? 0))
        table.row("a region or country named (\(qualified.count) keys)", ms(pct(qualified, 50)), ms(pct(qualified, 99)), ms(qualified.max() ?? 0))
        table.row("ranking: own names folded and sorted (once)", ms(rankingBuild))
        let medians = byQuery.map { (query: $0.key, median: pct($0.value, 50)) }.sorted { $0.median > $1.median }
        for (query, median) in medians.prefix(dearest) {
            table.row("search only, \"\(label(query))\" (median)", ms(median))
        }
    }

    // MARK: Reverse geocoding

    /// Builds the k-d tree once, then times nearest-city lookups at random points (target ≤ 1 ms at 170k).
    static func reverseGeocoding(_ catalog: CityCatalog, into table: inout Table) {
        let t0 = now()
        let locator = CatalogCityLocator(catalog: catalog)
        _ = locator.spatialIndex
        let build = now() - t0
        var rng = SystemRandomNumberGenerator()
        var lookups: [Double] = []
        for _ in 0..<20_000 {
            let p = GeoPoint(latitude: .random(in: -60...70, using: &rng), longitude: .random(in: -180...180, using: &rng))!
            let t = now()
            _ = locator.nearestCity(to: p)
            lookups.append(now() - t)
        }
        table.row("reverse geocoding: nearest city", ms(pct(lookups, 50)), ms(pct(lookups, 99)), ms(lookups.max() ?? 0))
        table.row("reverse geocoding: index build (once)", ms(build))
    }

    // MARK: First frame on the fake terminal

    static func firstFrameFake(nimbus: String, runs: Int, into table: inout Table) {
        let tape = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-first-frame.tape")
        try? "Size 80x24\nExpect \"GeoNames\"\n".write(to: tape, atomically: true, encoding: .utf8)
        var times: [Double] = []
        let tapePath: String = tape.path
        let argv: [UnsafeMutablePointer<CChar>?] = [nimbus, "tape", tapePath].map { (s: String) in strdup(s) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for _ in 0..<runs {
            var pid: pid_t = 0
            let t0 = now()
            guard posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ) == 0 else { break }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            times.append(now() - t0)
        }
        table.row("FakeTerminal: `nimbus tape` start → frame checked → exit", ms(pct(times, 50)))
    }

    // MARK: First frame inside tmux

    /// Starts nimbus in a detached tmux session and polls `capture-pane` until the status bar shows;
    /// the poll itself takes a few milliseconds, which bounds the resolution.
    static func firstFrameTmux(nimbus: String, runs: Int, into table: inout Table) {
        guard let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            table.row("ncurses inside tmux", "tmux not installed")
            return
        }
        let socket = "nimbus-bench-\(getpid())"
        // popen/system rather than Process: the tmux server forks off the client, and Foundation's
        // Process was seen waiting forever on the client there.
        func tmuxRun(_ args: [String], output: Bool = false) -> String {
            let command = ([tmux, "-L", socket] + args).map { "'\($0)'" }.joined(separator: " ")
            guard output else {
                _ = system(command + " >/dev/null 2>&1")
                return ""
            }
            guard let pipe = popen(command + " 2>/dev/null", "r") else { return "" }
            var text = ""
            var buffer = [CChar](repeating: 0, count: 4096)
            while fgets(&buffer, Int32(buffer.count), pipe) != nil {
                text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            pclose(pipe)
            return text
        }
        var times: [Double] = []
        for _ in 0..<runs {
            let t0 = now()
            _ = tmuxRun(["new-session", "-d", "-s", "b", "-x", "80", "-y", "24", "env TERM=tmux-256color \(nimbus)"])
            while now() - t0 < 5 {
                if tmuxRun(["capture-pane", "-p", "-t", "b"], output: true).contains("GeoNames") {
                    times.append(now() - t0)
                    break
                }
            }
            _ = tmuxRun(["kill-server"])
        }
        table.row("ncurses inside tmux: session start → frame on the pane (±3 ms poll)", ms(pct(times, 50)))
    }

    // MARK: Pseudo-terminal runs

    struct PTYResult { var firstFrame = 0.0, keyP50 = 0.0, keyP99 = 0.0, keyMax = 0.0, peakRSS = 0 }

    static func ptyRun(label: String, argv: [String], typeAfterStart: String, ready: String, runs: Int,
                       cols: Int = 80, rows: Int = 24) -> PTYResult {
        var firsts: [Double] = [], keys: [Double] = [], rss = 0
        for _ in 0..<runs {
            guard let r = PTYSession.run(argv: argv, ready: ready, keys: Array(typeAfterStart).map { String($0) },
                                         cols: cols, rows: rows) else { continue }
            firsts.append(r.firstFrame)
            keys += r.keyLatencies
            if ProcessInfo.processInfo.environment["NIMBUS_BENCH_VERBOSE"] != nil {
                print(label, String(format: "first %.1f ms; keys", r.firstFrame * 1e3),
                      r.keyLatencies.map { String(format: "%.2f", $0 * 1e3) }.joined(separator: " "))
            }
            rss = max(rss, r.peakRSS)
        }
        return PTYResult(firstFrame: pct(firsts, 50), keyP50: pct(keys, 50), keyP99: pct(keys, 99), keyMax: keys.max() ?? 0, peakRSS: rss)
    }

    static func writeCityNames() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-city-names.txt").path
        guard let catalog = try? CityCatalog.bundled() else { return path }
        var text = ""
        for i in 0..<catalog.cityCount { text += catalog.city(CityRef(Int32(i))).name + "\n" }
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: Helpers

    static func siblingExecutable(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func pct(_ xs: [Double], _ p: Double) -> Double {
        guard !xs.isEmpty else { return .nan }
        let sorted = xs.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p / 100).rounded()))]
    }

    static func ms(_ s: Double) -> String { s.isNaN ? "n/a" : String(format: "%.3f ms", s * 1000) }
    static func mb(_ kb: Int) -> String { String(format: "%.1f MB", Double(kb) / 1024) }
    static func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f", a / b) }

    static func peakRSS(_ who: __rusage_who) -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(who.rawValue), &usage)
        return usage.ru_maxrss
    }
}

/// Column-aligned text table.
struct Table {
    private var lines: [[String]] = []
    mutating func section(_ title: String) { lines.append(["", ""]); lines.append(["## " + title]) }
    mutating func header(_ cells: String...) { lines.append(cells) }
    mutating func row(_ cells: String...) { lines.append(cells) }
    func render() -> String {
        let widths = lines.filter { $0.count > 1 }.reduce(into: [Int]()) { w, row in
            for (i, c) in row.enumerated() {
                if i >= w.count { w.append(0) }
                w[i] = max(w[i], c.count)
            }
        }
        return lines.map { row in
            row.count == 1 ? row[0] : row.enumerated().map { i, c in
                i == row.count - 1 ? c : c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
