import Foundation
import Glibc
import NimbusData
import NimbusDomain
import LoopbackServer

/// `nimbus-bench --scroll`: what scrolling costs on the wire, in a pseudo-terminal of 100×30 with
/// TERM=xterm-256color. For each list, the bytes Down writes when it scrolls the list a line (the
/// selection on the last row shown), beside less and vim scrolling a file of lines as wide, and fzf
/// moving its list; then 20 scroll keys held down (30 a second) through a link of 56 kbit/s (a reader
/// that takes at most 7,000 bytes a second), until the screen settles, beside less, vim and fzf.
/// `--before PATH`: another nimbus build in the same run, beside this one.
enum ScrollBenchmark {
    static let cols = 100, rows = 30
    /// Scroll keys measured per list.
    static let scrolls = 20
    /// 56 kbit/s, in bytes a second.
    static let slowLink = 7_000.0

    static let down = "\u{1B}[B", up = "\u{1B}[A"

    /// How a list is reached and scrolled.
    struct ListCase {
        var name: String
        /// Keys sent before the measured ones, each followed by waiting for a text (or for quiet).
        var steps: [Step]
        var key = ScrollBenchmark.down
        var cols = ScrollBenchmark.cols, rows = ScrollBenchmark.rows
        /// A text that ends before 20 lines: only the keys that scrolled it count.
        var textEnds = false
        /// The forecast served (a city's screen); else it fails at once, and lists show no temperatures.
        var weather = false
    }

    enum Step {
        case keys(String, times: Int = 1)
        /// Text typed at once, as a paste or quick typing would send it. (What it finds is not waited
        /// for by its text: rows are drawn as their changed cells, so a name need not arrive whole.)
        case type(String)
        case waitFor(String)
    }

    static func run(nimbus: String, before: String?, into table: inout Table) {
        guard FileManager.default.isExecutableFile(atPath: nimbus) else {
            table.section("Scrolling")
            table.row("nimbus", "not built at \(nimbus)")
            return
        }
        let fixtures = Fixtures()
        defer { fixtures.remove() }
        let builds = [("nimbus", nimbus)] + (before.map { [("before", $0)] } ?? [])
        let lines = fixtures.wideLines

        table.section("Bytes per scrolled line at \(cols)×\(rows) unless named (Down with the selection on the last row shown; median of \(scrolls) keys, min–max, mean; the ratio takes the larger of median and mean, so that a list that moves its view by more than a row is charged its big frames)")
        table.header("list", builds.map(\.0).joined(separator: " · "), "less (same width)", "ratio to less")
        // less on lines as wide as the lists' rows (two columns short of the terminal), at each width measured.
        var lessAt: [Int: (bytes: [Int], median: Double?)] = [:]
        func less(_ width: Int, _ height: Int) -> (bytes: [Int], median: Double?) {
            if let known = lessAt[width] { return known }
            let file = fixtures.file(width: width - 2)
            let measured = peer(["/usr/bin/less", file.path], ready: String(lines[0].prefix(20)), steps: [], key: "j", cols: width, rows: height)
            lessAt[width] = measured
            return measured
        }
        var worst = 0.0
        for list in fixtures.lists {
            var cells: [String] = []
            var first: Double?
            for (_, binary) in builds {
                var bytes = fixtures.nimbusBytes(binary, list)
                if list.textEnds { bytes.removeAll { $0 == 0 } }
                cells.append(summary(bytes))
                if first == nil, !bytes.isEmpty {
                    first = max(NimbusBenchmark.pct(bytes.map(Double.init), 50), Double(bytes.reduce(0, +)) / Double(bytes.count))
                }
            }
            let peer = less(list.cols, list.rows)
            let ratio = first.flatMap { f in peer.median.map { f / $0 } }
            if let ratio, !list.name.hasPrefix("(") { worst = max(worst, ratio) }
            table.row(list.name + (list.cols == cols ? "" : " at \(list.cols)×\(list.rows)"), cells.joined(separator: " · "),
                      peer.median.map { String(format: "%.0f", $0) } ?? "-", ratio.map { String(format: "%.1f×", $0) } ?? "-")
        }
        for (width, measured) in lessAt.sorted(by: { $0.key > $1.key }) {
            table.row("less, a \(width - 2)-column line (`j`)", summary(measured.bytes))
        }
        let vim = vimPath().map {
            peer([$0, "-u", "NONE", "-N", "-i", "NONE", "-n", fixtures.linesFile.path], ready: "cities.txt",
                 steps: [.keys("j", times: rows - 2)], key: "j")
        }
        table.row("vim -u NONE, a \(cols - 2)-column line (`j` at the bottom)", vim.map { summary($0.bytes) } ?? "vim not installed")
        if let fzf = fzfPath() {
            let moved = peer(["/bin/sh", "-c", "exec \(fzf) < '\(fixtures.namesFile.path)'"], ready: "\(fixtures.nameCount)/\(fixtures.nameCount)",
                             steps: [.keys(up, times: rows - 3)], key: up)
            table.row("fzf, its list moved a line (Up at the top shown)", summary(moved.bytes))
        }
        table.row("target", "Cities ≤ 400 bytes; every list ≤ 3× less", "", String(format: "worst %.1f×", worst))
        table.row("(a row in brackets is a reference, not a scrolled line)")

        table.section("\(scrolls) scroll keys held (30 a second) through a 56 kbit/s link: first key → screen settled (median of 3)")
        table.header("program", "time", "bytes")
        for (label, binary) in builds {
            let (seconds, bytes) = fixtures.nimbusHeld(binary)
            table.row("\(label): Cities list, Down", String(format: "%.2f s", seconds), "\(bytes)")
        }
        // Liked: the map of every liked city beside the list (only its marks follow the selection).
        for (label, binary) in builds {
            let (seconds, bytes) = fixtures.nimbusHeld(binary, steps: fixtures.likedAtBottom, weather: true)
            table.row("\(label): Liked list (50 cities, its map), Down", String(format: "%.2f s", seconds), "\(bytes)")
        }
        let lessHeld = held(["/usr/bin/less", fixtures.linesFile.path], ready: String(lines[0].prefix(20)), steps: [], key: "j")
        table.row("less, `j`", String(format: "%.2f s", lessHeld.seconds), "\(lessHeld.bytes)")
        if let vim = vimPath() {
            let r = held([vim, "-u", "NONE", "-N", "-i", "NONE", "-n", fixtures.linesFile.path], ready: "cities.txt",
                         steps: [.keys("j", times: rows - 2)], key: "j")
            table.row("vim -u NONE, `j` at the bottom", String(format: "%.2f s", r.seconds), "\(r.bytes)")
        }
        if let fzf = fzfPath() {
            let r = held(["/bin/sh", "-c", "exec \(fzf) < '\(fixtures.namesFile.path)'"], ready: "\(fixtures.nameCount)/\(fixtures.nameCount)",
                         steps: [.keys(up, times: rows - 3)], key: up)
            table.row("fzf, Up past the top shown", String(format: "%.2f s", r.seconds), "\(r.bytes)")
        }
    }

    static func summary(_ bytes: [Int]) -> String {
        guard !bytes.isEmpty else { return "n/a" }
        let sorted = bytes.sorted()
        let mean = Double(bytes.reduce(0, +)) / Double(bytes.count)
        return "\(Int(NimbusBenchmark.pct(bytes.map(Double.init), 50))) (\(sorted.first!)–\(sorted.last!), mean \(Int(mean.rounded())))"
    }

    static func vimPath() -> String? {
        ["/usr/bin/vim", "/usr/bin/vim.basic", "/usr/bin/vim.tiny", "/usr/bin/vi"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func fzfPath() -> String? {
        ["/usr/bin/fzf", "/usr/local/bin/fzf"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A peer program's bytes per scroll key.
    static func peer(_ argv: [String], ready: String, steps: [Step], key: String,
                     cols: Int = ScrollBenchmark.cols, rows: Int = ScrollBenchmark.rows) -> (bytes: [Int], median: Double?) {
        guard let pty = PTY(argv: argv, environment: peerEnvironment(), cols: cols, rows: rows) else { return ([], nil) }
        defer { pty.stop() }
        guard pty.waitFor(ready) else { return ([], nil) }
        _ = pty.settle(quiet: 0.3)
        pty.run(steps)
        let bytes = (0..<scrolls).map { _ in pty.key(key) }
        return (bytes, NimbusBenchmark.pct(bytes.map(Double.init), 50))
    }

    /// A peer program's held keys through the slow link (median of three runs).
    static func held(_ argv: [String], ready: String, steps: [Step], key: String) -> (seconds: Double, bytes: Int) {
        var runs: [(Double, Int)] = []
        for _ in 0..<3 {
            guard let pty = PTY(argv: argv, environment: peerEnvironment(), cols: cols, rows: rows) else { continue }
            defer { pty.stop() }
            guard pty.waitFor(ready) else { continue }
            _ = pty.settle(quiet: 0.3)
            pty.run(steps)
            runs.append(pty.held(key, count: scrolls, interval: 1.0 / 30, rate: slowLink))
        }
        return median(runs)
    }

    static func median(_ runs: [(Double, Int)]) -> (seconds: Double, bytes: Int) {
        guard !runs.isEmpty else { return (.nan, 0) }
        let sorted = runs.sorted { $0.0 < $1.0 }
        return sorted[sorted.count / 2]
    }

    static func peerEnvironment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm-256color"
        env["LANG"] = "C.UTF-8"
        env.removeValue(forKey: "LC_ALL")
        env.removeValue(forKey: "LESS")
        env.removeValue(forKey: "FZF_DEFAULT_OPTS")
        env.removeValue(forKey: "VIMINIT")
        return env
    }

    // MARK: The lists and their data

    /// A home, data and a server for the lists: liked cities, a quake feed of 60 events, 60 films
    /// on the wishlist, a forecast and official warnings for Seattle; the files the peers read.
    final class Fixtures {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-scroll-bench-\(UUID().uuidString)")
        let server: FixtureServer?
        let linesFile: URL
        let namesFile: URL
        let wideLines: [String]
        let nameCount: Int

        init() {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            server = try? FixtureServer()
            // The peers' file: lines as the Cities list draws them (name, country, population, time).
            var lines: [String] = [], names: [String] = []
            if let catalog = try? CityCatalog.bundled() {
                for i in 0..<min(catalog.cityCount, 2_000) {
                    let city = catalog.city(CityRef(Int32(i)))
                    let name = String(city.name.unicodeScalars.filter { $0.isASCII }).prefix(40)
                    let digits = Array(String(city.population))
                    let population = digits.enumerated().map { i, d in i > 0 && (digits.count - i) % 3 == 0 ? ",\(d)" : "\(d)" }.joined()
                    let line = "  " + name.padding(toLength: 42, withPad: " ", startingAt: 0)
                        + city.countryCode.padding(toLength: 28, withPad: " ", startingAt: 0)
                        + String(repeating: " ", count: max(0, 16 - population.count)) + population
                        + String(format: "       %02d:%02d", i % 24, (i * 7) % 60)
                    lines.append(line.padding(toLength: ScrollBenchmark.cols - 2, withPad: " ", startingAt: 0))
                }
                for i in 0..<catalog.cityCount { names.append(catalog.city(CityRef(Int32(i))).name) }
            }
            wideLines = lines
            nameCount = names.count
            linesFile = directory.appendingPathComponent("cities.txt")
            namesFile = directory.appendingPathComponent("names.txt")
            try? (lines.joined(separator: "\n") + "\n").write(to: linesFile, atomically: true, encoding: .utf8)
            try? (names.joined(separator: "\n") + "\n").write(to: namesFile, atomically: true, encoding: .utf8)
            serve()
        }

        /// The peers' lines cut to `width` columns, in a file of their own.
        func file(width: Int) -> URL {
            let url = directory.appendingPathComponent("cities-\(width).txt")
            if !FileManager.default.fileExists(atPath: url.path) {
                try? (wideLines.map { String($0.prefix(width)) }.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
            }
            return url
        }

        func remove() {
            server?.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        static let tapeFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Tapes/fixtures")

        private func serve() {
            guard let server else { return }
            if let feed = Self.recentQuakes(60) {
                server.route("/earthquakes/feed/v1.0/summary/2.5_day.geojson", .init(body: feed))
            }
            if let forecast = try? Data(contentsOf: Self.tapeFixtures.appendingPathComponent("open-meteo-seoul.json")) {
                server.route("/v1/forecast", .init(body: forecast))
            }
            if let air = try? Data(contentsOf: Self.tapeFixtures.appendingPathComponent("open-meteo-air-seoul.json")) {
                server.route("/v1/air-quality", .init(body: air))
            }
            if let warnings = Self.warningsInForce(Self.tapeFixtures.appendingPathComponent("warnings/nws-active.json")) {
                server.route("/alerts/active", .init(body: warnings))
            }
        }

        /// A past-day feed of `count` events made from the tapes' fixture, ten minutes apart up to now.
        static func recentQuakes(_ count: Int) -> Data? {
            guard let data = try? Data(contentsOf: tapeFixtures.appendingPathComponent("usgs-2.5_day.geojson")),
                  var document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let template = (document["features"] as? [[String: Any]])?.first else { return nil }
            let now = Date().timeIntervalSince1970 * 1000
            let places = ["Pohang, South Korea", "Hualien City, Taiwan", "Lima, Peru", "Anchorage, Alaska", "Padang, Indonesia"]
            document["features"] = (0..<count).map { i -> [String: Any] in
                var feature = template
                feature["id"] = "scroll\(i)"
                var properties = feature["properties"] as? [String: Any] ?? [:]
                properties["time"] = Int(now) - (i + 1) * 600_000
                properties["updated"] = Int(now) - (i + 1) * 600_000 + 60_000
                properties["mag"] = 2.5 + Double(i * 37 % 40) / 10
                properties["place"] = "\(5 + i * 7 % 90) km N of \(places[i % places.count])"
                feature["properties"] = properties
                feature["geometry"] = ["type": "Point", "coordinates": [-170 + Double(i) * 5.7, -55 + Double(i) * 1.9, 10.0]]
                return feature
            }
            if var metadata = document["metadata"] as? [String: Any] {
                metadata["count"] = count
                metadata["generated"] = Int(now)
                document["metadata"] = metadata
            }
            return try? JSONSerialization.data(withJSONObject: document)
        }

        /// The tapes' NWS warnings for Seattle with their times moved so that now is when the tape
        /// plays them (the warnings are in force), and the storm warning's text made long enough to scroll.
        static func warningsInForce(_ url: URL) -> Data? {
            guard var text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
            let tapeNow = ISO8601DateFormatter().date(from: "2026-01-16T03:30:00Z")!
            let shift = Date().timeIntervalSince(tapeNow)
            let reader = ISO8601DateFormatter()
            let writer = ISO8601DateFormatter()
            writer.timeZone = TimeZone(secondsFromGMT: -8 * 3600)
            let pattern = try! NSRegularExpression(pattern: "20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[-+][0-9]{2}:[0-9]{2}")
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
                let range = Range(match.range, in: text)!
                guard let date = reader.date(from: String(text[range])) else { continue }
                text.replaceSubrange(range, with: writer.string(from: date.addingTimeInterval(shift)))
            }
            guard var document = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  var features = document["features"] as? [[String: Any]], var first = features.first,
                  var properties = first["properties"] as? [String: Any], let description = properties["description"] as? String
            else { return Data(text.utf8) }
            properties["description"] = Array(repeating: description, count: 4).joined(separator: "\n\n")
            first["properties"] = properties
            features[0] = first
            document["features"] = features
            return try? JSONSerialization.data(withJSONObject: document)
        }

        func environment(home: URL, weather: Bool) -> [String: String] {
            var env = ScrollBenchmark.peerEnvironment()
            env.removeValue(forKey: "NIMBUS_LANG")
            env["HOME"] = home.path
            env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
            env["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
            env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
            env["NIMBUS_LANG"] = "en"
            env["NIMBUS_UNITS"] = "metric"
            let base = server?.baseURL.absoluteString ?? "http://127.0.0.1:9"
            // Without `weather` the lists' temperatures fail at once (port 9 refuses): none arrives
            // while keys are measured.
            env["NIMBUS_WEATHER_URL"] = weather ? base : "http://127.0.0.1:9"
            env["NIMBUS_AIR_URL"] = weather ? base : "http://127.0.0.1:9"
            env["NIMBUS_ARCHIVE_URL"] = "http://127.0.0.1:9"
            env["NIMBUS_QUAKES_URL"] = base
            env["NIMBUS_NWS_URL"] = base
            return env
        }

        /// A fresh home with 60 films on the wishlist.
        func home(_ binary: String) -> URL {
            let home = directory.appendingPathComponent("home-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            if let catalogue = try? MovieCatalogue.bundled(), let ids = try? catalogue.filteredIDs("", .none),
               let films = try? catalogue.films(Array(ids.prefix(60))) {
                let csv = "Title,Year\n" + films.map { "\"\($0.title.replacingOccurrences(of: "\"", with: "\"\""))\",\($0.year.map(String.init) ?? "")" }
                    .joined(separator: "\n") + "\n"
                let file = home.appendingPathComponent("wishlist.csv")
                try? csv.write(to: file, atomically: true, encoding: .utf8)
                _ = WishlistBenchmark.time(binary, ["wishlist", "import", file.path], home: home)
            }
            return home
        }

        /// Down from the first row to the last one shown.
        static let toBottom = rows - 5

        /// 50 cities liked (the 20 keys measured all scroll), the Liked tab shown, the selection on the last row shown.
        var likedAtBottom: [Step] {
            Array(repeating: [Step.keys("f"), .keys(down)], count: 50).flatMap { $0 } + [.keys("3"), .keys(down, times: Self.toBottom)]
        }

        var lists: [ListCase] {
            [
                ListCase(name: "Cities", steps: [.keys(down, times: Self.toBottom)]),
                // (With today's ranges answered before the keys: a failed request's retries would
                // redraw the rows while they are measured.)
                ListCase(name: "Liked (50 cities; the map of them all beside it)", steps: likedAtBottom, weather: true),
                ListCase(name: "(Liked: Down from the top, the selection moving, no scroll)",
                         steps: Array(repeating: [Step.keys("f"), .keys(down)], count: 50).flatMap { $0 } + [.keys("3")], weather: true),
                ListCase(name: "Quakes (60 events)", steps: [.keys("4"), .waitFor("60 events"), .keys(down, times: Self.toBottom)]),
                ListCase(name: "Movies", steps: [.keys("5"), .waitFor("films"), .keys(down, times: Self.toBottom)]),
                ListCase(name: "Wishlist (60 films)", steps: [.keys("6"), .waitFor("60"), .keys(down, times: Self.toBottom)]),
                // At 100×30 every help fits; at 80×24 the Cities tab's scrolls.
                ListCase(name: "Help (the Cities tab's)", steps: [.keys("?"), .waitFor("Keys")], cols: 80, rows: 24, textEnds: true),
                ListCase(name: "Warnings (Seattle's two, their text)", steps: [.keys("/"), .type("seattle"),
                                                                                 .keys("\r"), .keys("\r"), .waitFor("Winter Storm"),
                                                                                 .keys("a"), .waitFor("Warnings in force")], textEnds: true, weather: true),
                ListCase(name: "Warnings (the box as wide as the screen)",
                         steps: [.keys("/"), .type("seattle"), .keys("\r"), .keys("\r"), .waitFor("Winter Storm"),
                                 .keys("a"), .waitFor("Warnings in force")], cols: 80, rows: 24, textEnds: true,
                         weather: true),
                ListCase(name: "Film detail (Forrest Gump's cast)", steps: [.keys("5"), .waitFor("films"), .keys("/"), .type("forrest gump"), .keys("\r"), .keys("\r"),
                                                                             .waitFor("Cast")], textEnds: true),
            ]
        }

        /// Bytes of each scroll key of `list` in a fresh home.
        func nimbusBytes(_ binary: String, _ list: ListCase) -> [Int] {
            let home = home(binary)
            defer { try? FileManager.default.removeItem(at: home) }
            guard let pty = PTY(argv: [binary], environment: environment(home: home, weather: list.weather), cols: list.cols, rows: list.rows)
            else { return [] }
            defer { pty.stop() }
            guard pty.waitFor("GeoNames") else { return [] }
            _ = pty.settle(quiet: 0.3)
            guard pty.run(list.steps) else { return [] }
            _ = pty.settle(quiet: 0.3)
            return (0..<scrolls).map { _ in pty.key(list.key) }
        }

        /// Held Down keys at the bottom of the Cities list, through the slow link (median of three).
        /// Down held at the bottom of a list reached by `steps` (default: the Cities list).
        func nimbusHeld(_ binary: String, steps: [Step]? = nil, weather: Bool = false) -> (seconds: Double, bytes: Int) {
            var runs: [(Double, Int)] = []
            for _ in 0..<3 {
                let home = directory.appendingPathComponent("held-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: home) }
                guard let pty = PTY(argv: [binary], environment: environment(home: home, weather: weather), cols: cols, rows: rows) else { continue }
                defer { pty.stop() }
                guard pty.waitFor("GeoNames") else { continue }
                _ = pty.settle(quiet: 0.3)
                pty.run(steps ?? [.keys(down, times: Self.toBottom)])
                runs.append(pty.held(down, count: scrolls, interval: 1.0 / 30, rate: slowLink))
            }
            return ScrollBenchmark.median(runs)
        }
    }

    // MARK: A program in a pseudo-terminal

    final class PTY {
        let master: Int32
        let pid: pid_t
        private var seen: [UInt8] = []

        init?(argv: [String], environment: [String: String], cols: Int, rows: Int) {
            var master: Int32 = 0
            var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(cols), ws_xpixel: 0, ws_ypixel: 0)
            let cArgs = argv.map { strdup($0) } + [nil]
            let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
            let pid = forkpty(&master, nil, nil, &size)
            if pid == 0 {
                execve(cArgs[0]!, cArgs, cEnv)
                _exit(127)
            }
            guard pid > 0 else { return nil }
            self.master = master
            self.pid = pid
        }

        func stop() {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            close(master)
        }

        func send(_ text: String) {
            _ = text.withCString { write(master, $0, strlen($0)) }
        }

        private func readable(_ timeout: Double) -> Bool {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            return Glibc.poll(&p, 1, Int32(max(0, timeout * 1000))) > 0
        }

        /// Reads what is there (at most `limit` bytes); nil at the end.
        private func readSome(limit: Int = 65_536) -> Int? {
            var buffer = [UInt8](repeating: 0, count: max(1, limit))
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { return nil }
            seen += buffer[0..<n]
            if seen.count > 1 << 20 { seen.removeFirst(seen.count - 65_536) }
            return n
        }

        /// Reads until `text` appears in the output since the last wait.
        func waitFor(_ text: String, timeout: Double = 10) -> Bool {
            let needle = Array(text.utf8)
            let deadline = NimbusBenchmark.now() + timeout
            while NimbusBenchmark.now() < deadline {
                if let i = find(needle) {
                    seen.removeFirst(i + needle.count)
                    return true
                }
                guard readable(deadline - NimbusBenchmark.now()) else { continue }
                if readSome() == nil { return false }
            }
            return false
        }

        private func find(_ needle: [UInt8]) -> Int? {
            guard !needle.isEmpty, seen.count >= needle.count else { return nil }
            for i in 0...(seen.count - needle.count) where seen[i] == needle[0] && Array(seen[i..<(i + needle.count)]) == needle {
                return i
            }
            return nil
        }

        /// Reads until nothing arrives for `quiet` seconds; the bytes read.
        @discardableResult
        func settle(quiet: Double = 0.1) -> Int {
            var total = 0
            let stop = NimbusBenchmark.now() + 5
            while NimbusBenchmark.now() < stop, readable(quiet), let n = readSome() { total += n }
            return total
        }

        /// Sends the steps; false when a text waited for never came (the list was not reached).
        @discardableResult
        func run(_ steps: [Step]) -> Bool {
            for step in steps {
                switch step {
                case .keys(let key, let times):
                    for _ in 0..<times { send(key); settle(quiet: 0.05) }
                case .type(let text):
                    send(text)
                    settle(quiet: 0.4)
                case .waitFor(let text):
                    guard waitFor(text) else { return false }
                    settle(quiet: 0.1)
                }
            }
            seen.removeAll()
            return true
        }

        /// One key: the bytes written until the screen is quiet again.
        func key(_ key: String) -> Int {
            send(key)
            return settle(quiet: 0.15)
        }

        /// `count` presses of `key`, one each `interval`, read at `rate` bytes a second: seconds from
        /// the first key to the last byte before `quiet` seconds without any, and the bytes. (A write
        /// after such a pause is not the keys': the status bar's retry countdown ticking.)
        func held(_ key: String, count: Int, interval: Double, rate: Double, quiet: Double = 0.2) -> (Double, Int) {
            let start = NimbusBenchmark.now()
            var sent = 0, total = 0
            var last = start
            var allowance = 0.0, clock = start
            while true {
                let now = NimbusBenchmark.now()
                allowance = min(allowance + (now - clock) * rate, 4096)
                clock = now
                if sent < count, now >= start + Double(sent) * interval {
                    send(key)
                    sent += 1
                }
                let nextKey = sent < count ? start + Double(sent) * interval - now : Double.infinity
                if allowance < 1 {
                    usleep(UInt32(max(200, min(nextKey, (1 - allowance) / rate) * 1_000_000)))
                    continue
                }
                let wait = sent < count ? max(0, nextKey) : quiet
                guard readable(min(wait, quiet)) else {
                    if sent >= count { break }
                    continue
                }
                guard let n = readSome(limit: Int(allowance)) else { break }
                allowance -= Double(n)
                total += n
                last = NimbusBenchmark.now()
            }
            return (last - start, total)
        }
    }
}
